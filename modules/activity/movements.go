package activity

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/bulk"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/users"
)

// Movement types as stored by the ledger (spec part 1 §3); driver_swap and
// dead_battery_dropoff are spec types the ledger does not write today but reads accept.
const (
	TypePickup                  = inventory.TypePickup
	TypeDropoff                 = inventory.TypeDropoff
	TypeDriverSwapIn            = inventory.TypeDriverSwapIn
	TypeDriverSwapOut           = inventory.TypeDriverSwapOut
	TypeDriverSwap              = "driver_swap"
	TypeAdjustment              = inventory.TypeAdjustment
	TypeChargeStart             = inventory.TypeChargeStart
	TypeChargeComplete          = inventory.TypeChargeComplete
	TypeInternalTransfer        = inventory.TypeInternalTransfer
	TypeRebalance               = inventory.TypeRebalance
	TypeRetrievesRepairsDropoff = inventory.TypeRetrievesRepairs
	TypeDeadBatteryDropoff      = "dead_battery_dropoff"
)

// Feed sizes: the dashboards show the latest few; nothing on a request path reads it all.
const (
	RecentLimit      = 50
	AdminRecentLimit = 100
	WeekActivityCap  = 200 // activities listed per driver in the admin weekly breakdown
)

// liaisonTypes are the movement types the corporate liaison sees (spec part 1 §6).
var liaisonTypes = []string{TypePickup, TypeDropoff, TypeChargeStart, TypeChargeComplete,
	TypeInternalTransfer, TypeRebalance, TypeRetrievesRepairsDropoff}

// driverOwnTypes are the types a driver sees of their own; they see every charge_complete too.
var driverOwnTypes = []string{TypePickup, TypeDropoff, TypeRebalance, TypeRetrievesRepairsDropoff}

// UserRef is the user shown beside a movement or holding.
type UserRef struct {
	Id        string `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Email     string `json:"email,omitzero"`
	Role      string `json:"role,omitzero"`
}

// Movement is one entry of an activity feed (spec part 1 §3).
type Movement struct {
	Id        string `json:"id"`
	Type      string `json:"type"`
	Quantity  int    `json:"quantity"`
	Notes     string `json:"notes"`
	CreatedAt string `json:"createdAt"` // when it happened (occurredAt: a driver's tap)
	// RecordedAt is when the server recorded it: later than createdAt for an action sent late
	// from the driver app's outbox (the admin feeds show "done 09:15 · sent 10:42").
	RecordedAt string   `json:"recordedAt,omitzero"`
	UserId     string   `json:"userId"`
	User       *UserRef `json:"user"`
	// Meta is the movement's structured detail, so clients never parse the notes' markers.
	Meta MovementMeta `json:"meta"`
}

// MovementMeta is what the ledger records beside a movement's notes: the notes as the user
// typed them (the stored notes keep the spec's markers for people), the assignment type of a
// pickup or manual assignment, the good and dead counts, and for a swap its giver and
// receiver.
type MovementMeta struct {
	UserNotes      string   `json:"userNotes"`
	AssignmentType string   `json:"assignmentType,omitzero"`
	Good           int      `json:"good"`
	Dead           int      `json:"dead"`
	From           *UserRef `json:"from,omitzero"`
	To             *UserRef `json:"to,omitzero"`
}

// storedMeta is the part of the ledger's meta JSON the feeds show.
type storedMeta struct {
	UserNotes      *string  `json:"userNotes"`
	AssignmentType string   `json:"assignmentType"`
	FromUserId     string   `json:"fromUserId"`
	ToUserId       string   `json:"toUserId"`
	FormerUser     *UserRef `json:"formerUser"`  // the user was deleted (inventory.KeepFormerUser)
	FormerActor    *UserRef `json:"formerActor"` // the actor was deleted
}

// formerOf returns who a deleted user or actor of a movement was (nil when neither was
// deleted): the user, or for a movement that belongs to nobody in particular the actor, as
// the feeds fall back to the actor.
func formerOf(raw string) (user, actor *UserRef) {
	if raw == "" || !strings.Contains(raw, `"former`) {
		return nil, nil
	}
	var sm storedMeta
	if json.Unmarshal([]byte(raw), &sm) != nil {
		return nil, nil
	}
	// the meta also keeps their id and email, for their pay (inventory.FormerUser): the feeds
	// name a deleted user, and show neither
	for _, u := range []*UserRef{sm.FormerUser, sm.FormerActor} {
		if u != nil {
			u.Id, u.Email = "", ""
		}
	}
	return sm.FormerUser, sm.FormerActor
}

// AdminMovement is a Movement with the details only admins see.
type AdminMovement struct {
	Movement
	Actor         *UserRef `json:"actor"`
	GoodBatteries int      `json:"goodBatteries"`
	DeadBatteries int      `json:"deadBatteries"`
	Discrepancy   bool     `json:"discrepancy"`
}

// movementRow is one movement of a feed (latest's columns), with its user and actor once
// named (nameUsers).
type movementRow struct {
	Id         string `db:"id"`
	Type       string `db:"type"`
	Quantity   int    `db:"quantity"`
	Notes      string `db:"notes"`
	OccurredAt string `db:"occurredAt"`
	RecordedAt string `db:"recordedAt"`
	User       string `db:"user"` // who the feed shows (latest's who)
	Actor      string `db:"actor"`
	Good       int    `db:"goodBatteries"`
	Dead       int    `db:"deadBatteries"`
	Discrep    bool   `db:"discrepancy"`
	Meta       string `db:"meta"` // the ledger's JSON meta (modules/inventory Meta* keys)
	Rid        int64  `db:"rid"`
	UId        string
	UFirst     string
	ULast      string
	UEmail     string
	URole      string
	AId        string
	AFirst     string
	ALast      string
	ARole      string
}

// The movement indexes. Hot queries name theirs with INDEXED BY: the plan must not depend on
// whatever statistics SQLite happens to hold, because a full scan of a long history is the
// one thing the read side must never do.
const (
	byOccurredAt     = schema.IdxMovementsOccurredAt
	byUserOccurredAt = schema.IdxMovementsUserOccurredAt
	byTypeOccurredAt = schema.IdxMovementsTypeOccurredAt
)

// feedWho is who a feed shows for a movement: its user, else its actor (movements that belong
// to nobody in particular: an admin completing a charge, an adjustment), unless the user was
// deleted (KeepFormerUser): then nobody live, and view names the former user from the meta.
const feedWho = `COALESCE(NULLIF(user, ''), CASE WHEN instr(meta, '"formerUser"') = 0 THEN actor END, '')`

// latest selects the newest limit movements matching where, walking index backwards.
func latest(index, where string, limit int) string {
	return "SELECT id, type, quantity, notes, occurredAt, recordedAt, " + feedWho + " AS user, actor, goodBatteries," +
		" deadBatteries, discrepancy, COALESCE(meta, '') AS meta, rowid AS rid FROM " + schema.Movements + " INDEXED BY " + index +
		" " + where + " ORDER BY occurredAt DESC, rowid DESC" + limitClause(limit)
}

// limitClause is " LIMIT n", written into the SQL text rather than bound: SQLite reads a bound
// LIMIT's value while planning, so each new binding would expire the prepared statement and
// parse it again (lib/sqlitedb keeps statements per SQL text). limit is the server's own
// constant, never the caller's input.
func limitClause(limit int) string { return " LIMIT " + strconv.Itoa(max(limit, 0)) }

// feed runs each branch (a latest query), merges their rows newest first, keeps limit and
// names the rows' users, and their actors when withActor. The branches and the names are
// separate statements, merged here: SQLite's merge of a UNION ALL, its join and the sort
// after it cost more than the rows' own reads on a long history (BENCHMARKS.md).
func feed(app core.App, params dbx.Params, limit int, withActor bool, branches ...string) ([]movementRow, error) {
	var rows []movementRow
	for _, b := range branches {
		var part []movementRow
		if err := app.DB().NewQuery(b).Bind(params).All(&part); err != nil {
			return nil, err
		}
		rows = append(rows, part...)
	}
	if len(branches) > 1 {
		// the branches select disjoint movements, each newest first
		sort.SliceStable(rows, func(i, j int) bool {
			if rows[i].OccurredAt != rows[j].OccurredAt {
				return rows[i].OccurredAt > rows[j].OccurredAt
			}
			return rows[i].Rid > rows[j].Rid
		})
		rows = rows[:min(len(rows), limit)]
	}
	return rows, nameUsers(app, rows, withActor)
}

// nameUsers fills the rows' user (and with withActor actor) names with one query for every
// user they name; a deleted user stays unnamed, as a left join would leave them.
func nameUsers(app core.App, rows []movementRow, withActor bool) error {
	ids := map[string]bool{}
	for _, r := range rows {
		if r.User != "" {
			ids[r.User] = true
		}
		if withActor && r.Actor != "" {
			ids[r.Actor] = true
		}
	}
	if len(ids) == 0 {
		return nil
	}
	people, err := users.Names(app, slices.Collect(maps.Keys(ids)))
	if err != nil {
		return err
	}
	for i := range rows {
		r := &rows[i]
		if u, ok := people[r.User]; ok {
			r.UId, r.UFirst, r.ULast, r.UEmail, r.URole = u.Id, u.FirstName, u.LastName, u.Email, u.Role
		}
		if u, ok := people[r.Actor]; ok && withActor {
			r.AId, r.AFirst, r.ALast, r.ARole = u.Id, u.FirstName, u.LastName, u.Role
		}
	}
	return nil
}

// Caller is who asks, as far as filtering is concerned.
type Caller struct {
	Id   string
	Role string
}

// CallerOf reads the caller from an auth record.
func CallerOf(rec *core.Record) Caller {
	return Caller{Id: rec.Id, Role: rec.GetString(schema.UserRole)}
}

// sqlTime renders t as PocketBase stores DateFields, so string comparison orders by time.
func sqlTime(t time.Time) string { return t.UTC().Format(types.DefaultDateLayout) }

// apiTime converts a stored DateField value to RFC 3339 (UTC, milliseconds) for browsers.
func apiTime(stored string) string {
	if stored == "" {
		return ""
	}
	// PocketBase stores UTC as "2006-01-02 15:04:05.000Z": the same text with a T (the feeds
	// convert hundreds of these per answer, so the common shape skips parsing)
	if len(stored) == len(types.DefaultDateLayout) && stored[10] == ' ' && stored[len(stored)-1] == 'Z' {
		return stored[:10] + "T" + stored[11:]
	}
	dt, err := types.ParseDateTime(stored)
	if err != nil {
		return stored
	}
	return dt.Time().UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// RecentMovements returns the latest limit movements the caller may see (spec part 1 §6):
// admins all, the liaison seven types without notes, a driver every charge_complete plus
// their own pickups, dropoffs, rebalances and recovers. Each branch walks one index
// backwards and stops after limit rows.
func RecentMovements(app core.App, c Caller, limit int) ([]Movement, error) {
	params := dbx.Params{}
	var branches []string
	switch {
	case roles.IsAdmin(c.Role):
		branches = []string{latest(byOccurredAt, "", limit)}
	case c.Role == roles.Liaison:
		// walk the occurredAt index: almost every row matches
		branches = []string{latest(byOccurredAt, "WHERE type IN "+bulk.In("t", liaisonTypes, params), limit)}
	default:
		params["me"] = c.Id
		params["cc"] = TypeChargeComplete
		branches = []string{latest(byTypeOccurredAt, "WHERE type = {:cc}", limit),
			latest(byUserOccurredAt, "WHERE user = {:me} AND type IN "+bulk.In("t", driverOwnTypes, params), limit)}
	}
	rows, err := feed(app, params, limit, false, branches...)
	if err != nil {
		return nil, err
	}
	return views(app, rows, c), nil
}

// OwnMovements returns the caller's own latest movements of any type.
func OwnMovements(app core.App, c Caller, limit int) ([]Movement, error) {
	rows, err := feed(app, dbx.Params{"me": c.Id}, limit, false, latest(byUserOccurredAt, "WHERE user = {:me}", limit))
	if err != nil {
		return nil, err
	}
	return views(app, rows, c), nil
}

// AdminRecentActivity returns the latest limit movements with notes, actor and counts.
func AdminRecentActivity(app core.App, limit int) ([]AdminMovement, error) {
	rows, err := feed(app, nil, limit, true, latest(byOccurredAt, "", limit))
	if err != nil {
		return nil, err
	}
	admin := Caller{Role: roles.Admin}
	base := views(app, rows, admin)
	out := make([]AdminMovement, len(rows))
	for i, r := range rows {
		out[i] = AdminMovement{Movement: base[i], GoodBatteries: r.Good, DeadBatteries: r.Dead, Discrepancy: r.Discrep}
		if r.AId != "" {
			out[i].Actor = &UserRef{Id: r.AId, FirstName: r.AFirst, LastName: r.ALast, Role: r.ARole}
		} else if _, actor := formerOf(r.Meta); actor != nil {
			out[i].Actor = actor
		}
	}
	return out, nil
}

func views(app core.App, rows []movementRow, c Caller) []Movement {
	out := make([]Movement, len(rows))
	for i, r := range rows {
		out[i] = view(r, c)
	}
	resolveParties(app, out, rows, c)
	return out
}

// resolveParties fills the swap givers and receivers of movements' meta with one query for
// all the users named (emails only to admins and the user themselves, as view does).
func resolveParties(app core.App, out []Movement, rows []movementRow, c Caller) {
	metas := make([]*MovementMeta, len(out))
	raw := make([]string, len(out))
	for i := range out {
		metas[i], raw[i] = &out[i].Meta, rows[i].Meta
	}
	resolveMetaParties(app, metas, raw, c)
}

// resolveMetaParties sets From and To of metas[i] from the user ids in raw[i] (the stored
// meta JSON), with one query for every user named.
func resolveMetaParties(app core.App, metas []*MovementMeta, raw []string, c Caller) {
	ids := map[string]bool{}
	stored := make([]storedMeta, len(raw))
	for i, r := range raw {
		if r == "" {
			continue
		}
		_ = json.Unmarshal([]byte(r), &stored[i])
		for _, id := range []string{stored[i].FromUserId, stored[i].ToUserId} {
			if id != "" {
				ids[id] = true
			}
		}
	}
	if len(ids) == 0 {
		return
	}
	people, err := users.Names(app, slices.Collect(maps.Keys(ids)))
	if err != nil {
		return // the names are a nicety: the feed still answers
	}
	byId := map[string]*UserRef{}
	for _, u := range people {
		ref := &UserRef{Id: u.Id, FirstName: u.FirstName, LastName: u.LastName, Email: u.Email, Role: u.Role}
		if !roles.IsAdmin(c.Role) && u.Id != c.Id {
			ref.Email = ""
		}
		byId[u.Id] = ref
	}
	for i := range metas {
		metas[i].From, metas[i].To = byId[stored[i].FromUserId], byId[stored[i].ToUserId]
	}
}

// metaOf builds a movement's MovementMeta from its stored meta JSON, notes and counts (the
// liaison gets no notes).
func metaOf(raw, notes string, good, dead int, c Caller) MovementMeta {
	m := MovementMeta{Good: good, Dead: dead, UserNotes: notes}
	var sm storedMeta
	if raw != "" && json.Unmarshal([]byte(raw), &sm) == nil {
		m.AssignmentType = sm.AssignmentType
		if sm.UserNotes != nil {
			m.UserNotes = *sm.UserNotes
		}
	}
	if c.Role == roles.Liaison {
		m.UserNotes = ""
	}
	return m
}

// view shapes a row for the caller: the liaison gets no notes, and emails are shown only to
// admins and to the user they belong to.
func view(r movementRow, c Caller) Movement {
	m := Movement{Id: r.Id, Type: r.Type, Quantity: r.Quantity, Notes: r.Notes,
		CreatedAt: apiTime(r.OccurredAt), RecordedAt: apiTime(r.RecordedAt), UserId: r.User, Meta: metaOf(r.Meta, r.Notes, r.Good, r.Dead, c)}
	if c.Role == roles.Liaison {
		m.Notes = ""
	}
	if r.UId != "" {
		m.User = &UserRef{Id: r.UId, FirstName: r.UFirst, LastName: r.ULast, Email: r.UEmail, Role: r.URole}
		if !roles.IsAdmin(c.Role) && r.UId != c.Id {
			m.User.Email = ""
		}
	} else if user, actor := formerOf(r.Meta); user != nil {
		m.User = user
	} else if actor != nil && r.User == "" {
		m.User = actor // a movement of nobody in particular, by a deleted actor
	}
	return m
}
