package packs

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
)

// The pack reads join the ledger's accounts and the users in SQL (one query per answer, not one
// per pack). They only read those tables; packs cannot import inventory or users, which name
// packs on their own writes.

// MissingDays is how many days without a scan make a pack missing (DESIGN.md §14).
var MissingDays = settings.Register(settings.Key[int]{
	Name: schema.SettingPackMissingDays, Default: 7, Parse: settings.ParseInt, KeepWhenBlank: true, MasterOnly: true,
	Check: func(name, text string) (string, error) {
		var n int
		if _, err := fmt.Sscan(text, &n); err != nil || fmt.Sprint(n) != text || n < 1 || n > 365 {
			return "", apierr.Invalid(name, MsgMissingDays)
		}
		return text, nil
	},
})

// Messages of the reads.
const (
	MsgMissingDays  = "Days before a pack is missing must be a whole number from 1 to 365"
	MsgBadFilter    = "Unknown filter value"
	MsgPackNotFound = "Pack not found"
	// DefaultPerPage and MaxPerPage bound a list page.
	DefaultPerPage = 100
	MaxPerPage     = 500
	// MaxHistory bounds the history a pack page shows (newest first).
	MaxHistory = 500
)

// Location filters of the list besides an exact account key.
const (
	LocationReady    = "ready"
	LocationWaiting  = "waiting"
	LocationCharging = "charging"
	LocationField    = "field"
	LocationUnknown  = "unknown"
)

// FindBySerial returns the pack with serial (exact). Unknown: a 404 naming the serial.
func FindBySerial(app core.App, serial string) (*Pack, error) {
	col, err := app.FindCachedCollectionByNameOrId(schema.Packs)
	if err != nil {
		return nil, err
	}
	rec, err := app.FindFirstRecordByData(col, schema.PackSerial, journal.Serial(serial))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apierr.NotFound(fmt.Sprintf(msgUnknownSerial, serial))
	}
	if err != nil {
		return nil, err
	}
	return AsPack(rec), nil
}

// Viewer is who reads: a driver sees only the packs they hold and their own part of a pack's
// history; the liaison sees no reasons (as no notes, DESIGN.md §4).
type Viewer struct {
	UserId  string
	Driver  bool
	Liaison bool
}

// Filter narrows the packs list.
type Filter struct {
	State    string // one of schema.PackStates, or ""
	Location string // ready | waiting | charging | field | unknown | an account key, or ""
	Lot      string
	Missing  bool   // in service or maintenance and not seen for MissingDays local days (missing.go)
	Worn     bool   // worn (DESIGN.md §16: the packs' worn column, read by its partial index)
	Search   string // part of a serial
	Page     int    // from 1
	PerPage  int
}

// Place is where a pack is (or was): a ledger account as people read it.
type Place struct {
	Key            string `json:"key"`
	Kind           string `json:"kind"`
	Label          string `json:"label"`
	UserId         string `json:"userId,omitempty"`
	AssignmentType string `json:"assignmentType,omitempty"`
}

// Person names a user.
type Person struct {
	Id   string `json:"id"`
	Name string `json:"name"`
}

// MovementRef names a movement: its type and, where its meta says what it was within that
// type, its kind (a pickup recorded by an admin's manual assignment is kind "manual_assignment").
type MovementRef struct {
	Id         string `json:"id"`
	Type       string `json:"type"`
	Kind       string `json:"kind,omitempty"`
	OccurredAt string `json:"occurredAt"`
}

// moveKind is the SQL for the kind of movement alias (its meta's "kind"; ” when it has none).
func moveKind(alias string) string {
	meta := alias + ".[[" + schema.MovementMeta + "]]"
	return "CASE WHEN json_valid(" + meta + ") THEN COALESCE(json_extract(" + meta + ", '$." + inventory.MetaKind + "'),'') ELSE '' END"
}

// LastSeen is when, by whom and in which movement a pack was last named.
type LastSeen struct {
	At       string       `json:"at"`
	By       *Person      `json:"by"`
	Movement *MovementRef `json:"movement"`
}

// Attributes are a pack's registry fields as the reads and the import preview show them (and
// as the reads select them): its serial, the Specs it was minted or imported with, and its
// life so far.
type Attributes struct {
	Serial string `db:"serial" json:"serial"`
	Specs
	InServiceSince string `db:"inServiceSince" json:"inServiceSince"`
	State          string `db:"state" json:"state"`
}

// Item is a pack as the reads answer it.
type Item struct {
	Id string `json:"id"`
	Attributes
	StateBefore string    `json:"stateBefore,omitempty"`
	ChargeCount int       `json:"chargeCount"`
	Location    *Place    `json:"location"`
	LastSeen    *LastSeen `json:"lastSeen"`
	Missing     bool      `json:"missing"`
	// Recall names the recall that quarantined the pack when its latest state change came
	// from one (a driver sees it in their holdings); absent otherwise.
	Recall *RecallRef `json:"recall,omitempty"`
	// LastHolder is the last person the pack was with (a missing pack in a list, any pack on
	// its page); absent when nobody held it.
	LastHolder *Person `json:"lastHolder,omitempty"`
	// Worn and WornReason are the pack's derived wear (DESIGN.md §16, modules/health writes
	// them); Soh its state of health in %, absent when unknown (0).
	Worn       bool    `json:"worn"`
	WornReason string  `json:"wornReason"`
	Soh        float64 `json:"soh,omitzero"`
}

// List is a page of packs with the counts per state of every pack the filters match (the
// state filter aside, so the state chips keep their numbers).
type List struct {
	Packs       []Item         `json:"packs"`
	Total       int            `json:"total"`
	Page        int            `json:"page"`
	PerPage     int            `json:"perPage"`
	Counts      map[string]int `json:"counts"`
	MissingDays int            `json:"missingDays"`
}

// placeSQL selects an account aliased a (and its user hu) as place columns prefixed p.
func placeCols(a, hu, p string) string {
	return fmt.Sprintf("COALESCE(%[1]s.[[key]],'') AS %[3]sKey, COALESCE(%[1]s.[[kind]],'') AS %[3]sKind, "+
		"COALESCE(%[1]s.[[assignmentType]],'') AS %[3]sType, COALESCE(%[1]s.[[user]],'') AS %[3]sUser, "+
		"COALESCE(TRIM(%[2]s.[[firstName]] || ' ' || %[2]s.[[lastName]]),'') AS %[3]sName", a, hu, p)
}

func placeJoin(a, hu, on string) string {
	return fmt.Sprintf(" LEFT JOIN {{%s}} %s ON %s.[[id]] = %s AND %s != '' LEFT JOIN {{%s}} %s ON %s.[[id]] = %s.[[user]] AND %s.[[user]] != ''",
		schema.Accounts, a, a, on, on, schema.Users, hu, hu, a, a)
}

type placeRow struct {
	Key, Kind, Type, User, Name string
}

func (r placeRow) place() *Place {
	if r.Key == "" {
		return nil
	}
	return &Place{Key: r.Key, Kind: r.Kind, Label: schema.PlaceLabel(r.Kind, r.Type, r.Name), UserId: r.User, AssignmentType: r.Type}
}

type itemRow struct {
	Id string `db:"id"`
	Attributes
	StateBefore    string  `db:"stateBefore"`
	ChargeCount    int     `db:"chargeCount"`
	LastSeenAt     string  `db:"lastSeenAt"`
	Created        string  `db:"created"`
	LocKey         string  `db:"locKey"`
	LocKind        string  `db:"locKind"`
	LocType        string  `db:"locType"`
	LocUser        string  `db:"locUser"`
	LocName        string  `db:"locName"`
	SeenBy         string  `db:"seenBy"`
	SeenByName     string  `db:"seenByName"`
	SeenMovement   string  `db:"seenMovement"`
	SeenType       string  `db:"seenType"`
	SeenKind       string  `db:"seenKind"`
	SeenOccurredAt string  `db:"seenOccurredAt"`
	RecallId       string  `db:"recallId"`
	Worn           bool    `db:"worn"`
	WornReason     string  `db:"wornReason"`
	Soh            float64 `db:"soh"`
}

const itemFrom = " FROM {{packs}} p"

func itemSelect() string {
	return "SELECT p.[[id]], p.[[serial]], p.[[model]], p.[[chemistry]], p.[[nominalWh]], p.[[manufacturer]], p.[[lot]], " +
		"p.[[manufactured]], p.[[inServiceSince]], p.[[state]], p.[[stateBefore]], p.[[chargeCount]], p.[[lastSeenAt]], p.[[created]], " +
		placeCols("a", "hu", "loc") + ", " +
		"p.[[lastSeenBy]] AS seenBy, COALESCE(TRIM(su.[[firstName]] || ' ' || su.[[lastName]]),'') AS seenByName, " +
		"p.[[lastSeenMovement]] AS seenMovement, COALESCE(m.[[type]],'') AS seenType, " + moveKind("m") + " AS seenKind, COALESCE(m.[[occurredAt]],'') AS seenOccurredAt, " +
		recallIdSQL + ", " + wornCols +
		itemFrom + placeJoin("a", "hu", "p.[[location]]") +
		" LEFT JOIN {{users}} su ON su.[[id]] = p.[[lastSeenBy]] AND p.[[lastSeenBy]] != ''" +
		// by its primary key whatever the statistics say: PRAGMA optimize's sampled statistics can
		// rate the movements table at one row, and SQLite then scans it for every pack listed
		// (issue 46's bench: 303 worn packs × the ledger's movements, 60 ms instead of 3)
		" LEFT JOIN {{movements}} m INDEXED BY sqlite_autoindex_movements_1 ON m.[[id]] = p.[[lastSeenMovement]] AND p.[[lastSeenMovement]] != ''"
}

// wornCols are a pack's derived wear as the reads answer it.
const wornCols = "COALESCE(p.[[worn]], 0) AS worn, COALESCE(p.[[wornReason]], '') AS wornReason, COALESCE(p.[[soh]], 0) AS soh"

// recallIdSQL is the SQL of the recall behind a quarantined pack's latest state change ("" when
// none): read for quarantined packs only.
const recallIdSQL = "CASE WHEN p.[[state]] = 'quarantined' THEN COALESCE((SELECT re.[[recall]] FROM {{pack_events}} re WHERE re.[[pack]] = p.[[id]]" +
	" AND re.[[kind]] IN ('state', 'found') ORDER BY re.rowid DESC LIMIT 1), '') ELSE '' END AS recallId"

// withRecalls fills the Recall of the items whose rows name one (one query for all of them);
// the liaison sees no reason.
func withRecalls(app core.App, v Viewer, items []Item, rows []itemRow) error {
	want := map[string]bool{}
	for _, r := range rows {
		if r.RecallId != "" {
			want[r.RecallId] = true
		}
	}
	refs, err := recallRefs(app, want)
	if err != nil {
		return err
	}
	for i, r := range rows {
		if ref, ok := refs[r.RecallId]; ok {
			c := *ref
			if v.Liaison {
				c.Reason = ""
			}
			items[i].Recall = &c
		}
	}
	return nil
}

func (r itemRow) item(cutoff string) Item {
	it := Item{Id: r.Id, Attributes: r.Attributes, StateBefore: r.StateBefore, ChargeCount: r.ChargeCount,
		Location: placeRow{r.LocKey, r.LocKind, r.LocType, r.LocUser, r.LocName}.place(),
		Worn:     r.Worn, WornReason: r.WornReason, Soh: r.Soh}
	if !it.Worn {
		it.WornReason = ""
	}
	if r.LastSeenAt != "" {
		ls := &LastSeen{At: r.LastSeenAt}
		if r.SeenBy != "" {
			ls.By = &Person{Id: r.SeenBy, Name: nameOr(r.SeenByName)}
		}
		if r.SeenMovement != "" {
			ls.Movement = &MovementRef{Id: r.SeenMovement, Type: r.SeenType, Kind: r.SeenKind, OccurredAt: r.SeenOccurredAt}
		}
		it.LastSeen = ls
	}
	seen := r.LastSeenAt
	if seen == "" {
		seen = r.Created
	}
	it.Missing = isMissing(r.State, seen, cutoff)
	return it
}

func nameOr(name string) string {
	if name == "" {
		return "A former user"
	}
	return name
}

// ListPacks answers the packs list for v with f.
func ListPacks(app core.App, v Viewer, f Filter) (List, error) {
	cutoff, days, err := missingCutoffAt(app, clock.Now())
	if err != nil {
		return List{}, err
	}
	var where []string
	params := dbx.Params{"cutoff": cutoff}
	if v.Driver {
		where = append(where, "a.[[kind]] = 'holder' AND a.[[user]] = {:viewer}")
		params["viewer"] = v.UserId
	}
	switch f.Location {
	case "":
	case LocationReady, LocationWaiting:
		where = append(where, "a.[[kind]] = {:loc}")
		params["loc"] = f.Location
	case LocationCharging:
		where = append(where, "a.[[kind]] IN ('session', 'untracked')")
	case LocationField:
		where = append(where, "a.[[kind]] IN ('holder', 'unassigned')")
	case LocationUnknown:
		where = append(where, "(a.[[id]] IS NULL OR a.[[kind]] = 'outside')")
	default:
		where = append(where, "a.[[key]] = {:loc}")
		params["loc"] = f.Location
	}
	if f.Lot != "" {
		where = append(where, "p.[[lot]] = {:lot}")
		params["lot"] = f.Lot
	}
	if f.Missing {
		where = append(where, missingSQL)
	}
	if f.Worn {
		// the partial index idx_packs_worn (worn = 1) answers it
		where = append(where, "p.[[worn]] = 1")
	}
	if s := strings.TrimSpace(f.Search); s != "" {
		where = append(where, "p.[[serial]] LIKE {:q} ESCAPE '\\'")
		params["q"] = "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s) + "%"
	}
	counts := map[string]int{}
	for _, s := range schema.PackStates {
		counts[s] = 0
	}
	var countRows []struct {
		State string `db:"state"`
		N     int    `db:"n"`
	}
	countSQL := "SELECT p.[[state]] AS state, count(*) AS n" + itemFrom + placeJoin("a", "hu", "p.[[location]]") + whereSQL(where) + " GROUP BY p.[[state]]"
	if err := app.DB().NewQuery(countSQL).Bind(params).All(&countRows); err != nil {
		return List{}, err
	}
	if f.State != "" {
		if !IsState(f.State) {
			return List{}, apierr.Invalid("state", MsgUnknownState)
		}
		where = append(where, "p.[[state]] = {:state}")
		params["state"] = f.State
	}
	out := List{Counts: counts, MissingDays: days, Page: max(f.Page, 1), PerPage: f.PerPage}
	if out.PerPage <= 0 {
		out.PerPage = DefaultPerPage
	}
	out.PerPage = min(out.PerPage, MaxPerPage)
	for _, r := range countRows {
		counts[r.State] = r.N
		if f.State == "" || f.State == r.State {
			out.Total += r.N
		}
	}
	var rows []itemRow
	params["limit"], params["offset"] = out.PerPage, (out.Page-1)*out.PerPage
	if err := app.DB().NewQuery(itemSelect() + whereSQL(where) + " ORDER BY p.[[serial]] LIMIT {:limit} OFFSET {:offset}").
		Bind(params).All(&rows); err != nil {
		return List{}, err
	}
	out.Packs = make([]Item, len(rows))
	var missing []string
	for i, r := range rows {
		out.Packs[i] = r.item(cutoff)
		if out.Packs[i].Missing {
			missing = append(missing, r.Id)
		}
	}
	if err := withLastHolders(app, out.Packs, missing); err != nil {
		return List{}, err
	}
	return out, withRecalls(app, v, out.Packs, rows)
}

// withLastHolders fills the LastHolder of the items whose ids are in ids.
func withLastHolders(app core.App, items []Item, ids []string) error {
	holders, err := lastHolders(app, ids)
	if err != nil {
		return err
	}
	for i := range items {
		items[i].LastHolder = holders[items[i].Id]
	}
	return nil
}

func whereSQL(where []string) string {
	if len(where) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(where, " AND ")
}

// Event is one line of a pack's history as the pack page shows it.
type HistoryEvent struct {
	Id        string       `json:"id"`
	Kind      string       `json:"kind"`
	At        string       `json:"at"`
	Actor     *Person      `json:"actor"`
	Reason    string       `json:"reason,omitempty"`
	FromState string       `json:"fromState,omitempty"`
	ToState   string       `json:"toState,omitempty"`
	From      *Place       `json:"from"`
	To        *Place       `json:"to"`
	Expected  *Place       `json:"expected"`
	Movement  *MovementRef `json:"movement"`
	Session   string       `json:"session,omitempty"`
	// Photos are a damage report's photos (ids of /api/photos/{id}/image); Recall the recall
	// a state change belongs to.
	Photos []string `json:"photos,omitempty"`
	Recall string   `json:"recall,omitempty"`
}

// Detail is a pack with its history, newest first.
type Detail struct {
	Item
	History []HistoryEvent `json:"history"`
}

type eventRow struct {
	Id        string `db:"id"`
	Kind      string `db:"kind"`
	At        string `db:"at"`
	Actor     string `db:"actor"`
	ActorName string `db:"actorName"`
	Reason    string `db:"reason"`
	FromState string `db:"fromState"`
	ToState   string `db:"toState"`
	Movement  string `db:"movement"`
	MoveType  string `db:"moveType"`
	MoveKind  string `db:"moveKind"`
	MoveAt    string `db:"moveAt"`
	Session   string `db:"session"`
	Photos    string `db:"photos"`
	Recall    string `db:"recall"`
	FromKey   string `db:"fromKey"`
	FromKind  string `db:"fromKind"`
	FromType  string `db:"fromType"`
	FromUser  string `db:"fromUser"`
	FromName  string `db:"fromName"`
	ToKey     string `db:"toKey"`
	ToKind    string `db:"toKind"`
	ToType    string `db:"toType"`
	ToUser    string `db:"toUser"`
	ToName    string `db:"toName"`
	ExpKey    string `db:"expKey"`
	ExpKind   string `db:"expKind"`
	ExpType   string `db:"expType"`
	ExpUser   string `db:"expUser"`
	ExpName   string `db:"expName"`
}

// PackDetail answers the pack page: the pack with serial and its history for v. A driver who
// does not hold the pack gets the same 404 as for an unknown serial.
func PackDetail(app core.App, v Viewer, serial string) (Detail, error) {
	cutoff, _, err := missingCutoffAt(app, clock.Now())
	if err != nil {
		return Detail{}, err
	}
	var r itemRow
	err = app.DB().NewQuery(itemSelect() + " WHERE p.[[serial]] = {:serial}").Bind(dbx.Params{"serial": journal.Serial(serial)}).One(&r)
	if errors.Is(err, sql.ErrNoRows) {
		return Detail{}, apierr.NotFound(MsgPackNotFound)
	}
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Item: r.item(cutoff), History: []HistoryEvent{}}
	if v.Driver && (r.LocKind != schema.AccountKindHolder || r.LocUser != v.UserId) {
		return Detail{}, apierr.NotFound(MsgPackNotFound)
	}
	one := []Item{d.Item}
	if err := withRecalls(app, v, one, []itemRow{r}); err != nil {
		return Detail{}, err
	}
	if err := withLastHolders(app, one, []string{r.Id}); err != nil {
		return Detail{}, err
	}
	d.Item = one[0]
	where := " WHERE e.[[pack]] = {:pack}"
	params := dbx.Params{"pack": r.Id, "limit": MaxHistory}
	if v.Driver { // their own part: what they did, and what came to or from their holdings
		where += " AND (e.[[actor]] = {:viewer} OR fa.[[user]] = {:viewer} OR ta.[[user]] = {:viewer})"
		params["viewer"] = v.UserId
	}
	h, err := queryHistory(app, v, where, params)
	if err != nil {
		return Detail{}, err
	}
	d.History = append(d.History, h...)
	return d, nil
}

// queryHistory answers the history lines of pack events aliased e matching where (with
// params; {:limit} bounds them), newest first, as v sees them.
func queryHistory(app core.App, v Viewer, where string, params dbx.Params) ([]HistoryEvent, error) {
	q := "SELECT e.[[id]], e.[[kind]], e.[[at]], e.[[actor]], COALESCE(TRIM(au.[[firstName]] || ' ' || au.[[lastName]]),'') AS actorName, " +
		"e.[[reason]], e.[[fromState]], e.[[toState]], e.[[movement]], COALESCE(m.[[type]],'') AS moveType, " + moveKind("m") + " AS moveKind, COALESCE(m.[[occurredAt]],'') AS moveAt, e.[[session]], COALESCE(e.[[photos]], '') AS photos, COALESCE(e.[[recall]], '') AS recall, " +
		placeCols("fa", "fu", "from") + ", " + placeCols("ta", "tu", "to") + ", " + placeCols("xa", "xu", "exp") +
		" FROM {{pack_events}} e" +
		" LEFT JOIN {{users}} au ON au.[[id]] = e.[[actor]] AND e.[[actor]] != ''" +
		// by its primary key whatever the statistics say (itemSelect)
		" LEFT JOIN {{movements}} m INDEXED BY sqlite_autoindex_movements_1 ON m.[[id]] = e.[[movement]] AND e.[[movement]] != ''" +
		placeJoin("fa", "fu", "e.[[fromAccount]]") + placeJoin("ta", "tu", "e.[[toAccount]]") + placeJoin("xa", "xu", "e.[[expectedAccount]]") +
		where + " ORDER BY e.[[at]] DESC, e.[[created]] DESC LIMIT {:limit}"
	var rows []eventRow
	if err := app.DB().NewQuery(q).Bind(params).All(&rows); err != nil {
		return nil, err
	}
	out := make([]HistoryEvent, 0, len(rows))
	for _, e := range rows {
		h := HistoryEvent{Id: e.Id, Kind: e.Kind, At: e.At, FromState: e.FromState, ToState: e.ToState, Session: e.Session,
			From:     placeRow{e.FromKey, e.FromKind, e.FromType, e.FromUser, e.FromName}.place(),
			To:       placeRow{e.ToKey, e.ToKind, e.ToType, e.ToUser, e.ToName}.place(),
			Expected: placeRow{e.ExpKey, e.ExpKind, e.ExpType, e.ExpUser, e.ExpName}.place()}
		if !v.Liaison {
			h.Reason = e.Reason
		}
		if e.Photos != "" && e.Photos != "[]" {
			_ = json.Unmarshal([]byte(e.Photos), &h.Photos)
		}
		h.Recall = e.Recall
		if e.Actor != "" {
			h.Actor = &Person{Id: e.Actor, Name: nameOr(e.ActorName)}
		}
		if e.Movement != "" {
			h.Movement = &MovementRef{Id: e.Movement, Type: e.MoveType, Kind: e.MoveKind, OccurredAt: e.MoveAt}
		}
		out = append(out, h)
	}
	return out, nil
}

// CountWorn is how many worn packs are in service (the attention strip's wornPacks): the
// ones that would meet the worn rule at hand-out (an out-of-use pack is counted apart).
func CountWorn(app core.App) (int64, error) {
	var n int64
	err := app.DB().NewQuery("SELECT COUNT(*) FROM {{packs}} WHERE [[worn]] = 1 AND [[state]] IN ('in_service', 'maintenance')").Row(&n)
	return n, err
}

// Serials returns the packs with the given serials, in that order; an unknown serial is a 400
// pack_unknown naming it.
func Serials(app core.App, serials []string) ([]*Pack, error) {
	col, err := app.FindCachedCollectionByNameOrId(schema.Packs)
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(serials))
	for i, s := range serials {
		vals[i] = s
	}
	recs, err := app.FindAllRecords(col, dbx.In(schema.PackSerial, vals...))
	if err != nil {
		return nil, err
	}
	by := make(map[string]*core.Record, len(recs))
	for _, r := range recs {
		by[r.GetString(schema.PackSerial)] = r
	}
	out := make([]*Pack, len(serials))
	for i, s := range serials {
		r, ok := by[s]
		if !ok {
			return nil, &apierr.Error{Kind: apierr.ErrInvalid, Field: "serials", Code: apierr.CodePackUnknown, Message: fmt.Sprintf(msgUnknownSerial, s)}
		}
		out[i] = AsPack(r)
	}
	return out, nil
}

// SerialRange returns the packs whose serials lie from first to last (inclusive, in serial
// order; a minted batch's serials are consecutive), at most limit+1 of them.
func SerialRange(app core.App, first, last string, limit int) ([]*Pack, error) {
	col, err := app.FindCachedCollectionByNameOrId(schema.Packs)
	if err != nil {
		return nil, err
	}
	recs, err := app.FindRecordsByFilter(col, "serial >= {:first} && serial <= {:last}", "serial", limit+1, 0,
		dbx.Params{"first": first, "last": last})
	if err != nil {
		return nil, err
	}
	out := make([]*Pack, len(recs))
	for i, r := range recs {
		out[i] = AsPack(r)
	}
	return out, nil
}
