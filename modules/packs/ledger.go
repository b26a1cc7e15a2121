package packs

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/inventory"
)

// The ledger names its packs (DESIGN.md §14). Every battery-moving write hands its named packs
// to inventory.Post as PackGroups; Post calls this ledger in the movement's own transaction
// (inventory.UsePackLedger, bound by RegisterLedger). The rules, in one place:
//
//   - Tracking mode off: named packs are ignored and the counts apply. Optional: a group may
//     name up to as many packs as it carries batteries. Required: exactly as many (pack_count).
//     A write whose occurredAt (the tap) is older than the last change of the mode is judged as
//     optional at most: an action queued offline before the mode became required is never
//     refused for it.
//   - A serial no pack has is refused (pack_unknown, naming it); the same pack twice in one
//     movement is refused (pack_count, naming it); a quarantined pack handed out (pickup,
//     assignment) is refused (pack_quarantined), a retired or recycled one too (pack_retired).
//   - A scan is a physical fact: a pack the records put elsewhere moves anyway and the
//     difference is recorded (a discrepancy event: where it was scanned, where the records had
//     it, who, which movement). A pack never placed (no location) is seen for the first time,
//     not a discrepancy. A pack named where a discrepancy already put it (two drivers sent it
//     at once: the second finds it where the first left it) is the same difference, recorded
//     once. A lost pack that is named is found: its state returns.
//   - Required mode keeps, for every account, the packs located there equal to its balance: when
//     a named pack came from elsewhere, the movement's count deltas and pack deltas differ by
//     account, and the records move as many other packs (stand-ins, the least recently seen
//     first) from the accounts that kept too many packs to those left with too few — the least
//     change that makes the records agree with the counts again, itself in the history.
//
// Packs and pack_events are written with plain statements, like the ledger's own rows: no
// PocketBase record hook runs for these writes.

// RegisterLedger makes app's ledger write the packs its movements name.
func RegisterLedger(app core.App) {
	inventory.UsePackLedger(app, ledger{mode: newModeCache(app)})
}

// Refusals of named packs (formats for fmt.Sprintf; each names the pack or the field).
const (
	MsgPackUnknown     = "Unknown pack: %s"
	MsgPackBlank       = "A pack's serial is blank"
	MsgPackTwice       = "Pack %s is named twice"
	MsgPackCountExact  = "Name exactly %s for %s (%d named)" // PackCountMessage fills it
	MsgPackCountAtMost = "Name at most %s for %s (%d named)"
	MsgPackQuarantined = "Pack %s is quarantined and cannot be handed out"
	MsgPackRetired     = "Pack %s is %s and cannot be handed out"
	MsgPackMovedOn     = "Pack %s has moved on since this movement: correct or delete the later movement first"
)

// Reasons recorded in a pack's history by the ledger.
const (
	ReasonDiscrepancy = "Scanned where the records did not have it"
	ReasonStandIn     = "Records matched to the counts: another pack named in this movement was found elsewhere"
	ReasonFound       = "Found: named in a movement while lost"
	ReasonFirstSeen   = "First seen"
)

type ledger struct {
	mode *modeCache // the stored tracking mode, kept in memory (modecache.go)
}

// row is a pack as the ledger reads it, with its location's kind and holder.
type row struct {
	id, serial, state, stateBefore, location, locKind, locUser, lastSeen string
}

// effectiveMode is the tracking mode that applies to a movement that occurred at at: the
// stored mode, except that required applies only to actions taken after it was set.
func (l ledger) effectiveMode(txApp core.App, at time.Time) (string, error) {
	e, ok, gen := l.mode.get()
	if !ok {
		err := sqlitedb.Query(txApp.DB(), "SELECT value, updated FROM "+schema.Settings+" WHERE key = {:k} LIMIT 1",
			dbx.Params{"k": schema.SettingPackTracking}, func(scan func(...any) error) error {
				e.found = true
				return scan(&e.value, &e.updated)
			})
		if err != nil {
			return "", fmt.Errorf("read pack tracking: %w", err)
		}
		l.mode.put(gen, e)
	}
	if !e.found {
		return schema.PackTrackingOff, nil
	}
	mode := Tracking.Get(map[string]string{schema.SettingPackTracking: e.value})
	if mode == schema.PackTrackingRequired {
		if since, err := types.ParseDateTime(e.updated); err == nil && at.Before(since.Time()) {
			return schema.PackTrackingOptional, nil
		}
	}
	return mode, nil
}

func packErr(status int, field, code, msg string) error {
	kind := apierr.ErrInvalid
	if status == http.StatusConflict {
		kind = apierr.ErrConflict
	}
	return &apierr.Error{Kind: kind, Message: msg, Field: field, Code: code}
}

// Move applies the groups of movement mv (see the package comment).
func (l ledger) Move(txApp core.App, mv *inventory.Movement, groups []inventory.PackGroup, deltas map[string]int, accounts map[string]inventory.AccountRef) ([]inventory.PackMove, error) {
	at := mv.OccurredAt()
	mode, err := l.effectiveMode(txApp, at)
	if err != nil || mode == schema.PackTrackingOff {
		return nil, err
	}
	// the serials, checked for count and repeats before any lookup
	named := map[string]bool{}
	var all []string
	for _, g := range groups {
		if g.Implicit && len(g.Serials) == 0 {
			continue
		}
		n := len(g.Serials)
		if mode == schema.PackTrackingRequired && n != g.Count {
			return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackCount, PackCountMessage(MsgPackCountExact, g.Count, n))
		}
		if n > g.Count {
			return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackCount, PackCountMessage(MsgPackCountAtMost, g.Count, n))
		}
		for _, code := range g.Serials {
			serial := scanned(code)
			if serial == "" {
				return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackUnknown, MsgPackBlank)
			}
			if len(serial) > schema.MaxPackSerialLength {
				return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackUnknown, fmt.Sprintf(MsgPackUnknown, serial[:schema.MaxPackSerialLength]+"…"))
			}
			if named[serial] {
				return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackCount, fmt.Sprintf(MsgPackTwice, serial))
			}
			named[serial] = true
			all = append(all, serial)
		}
	}
	found, err := bySerial(txApp, all)
	if err != nil {
		return nil, err
	}
	w := writer{txApp: txApp, mv: mv, at: at, actor: mv.ActorId()}
	if w.actor == "" {
		w.actor = mv.UserId()
	}
	packD := map[string]int{}
	var moves []inventory.PackMove
	for _, g := range groups {
		var rows []row
		if g.Implicit && len(g.Serials) == 0 {
			if len(g.From) == 0 || g.Count <= 0 {
				continue
			}
			if err := w.flushUpdates(); err != nil {
				return nil, err
			}
			if rows, err = locatedAt(txApp, g.From[0].Id, g.Count, nil); err != nil {
				return nil, err
			}
		} else {
			for _, code := range g.Serials {
				serial := scanned(code)
				r, ok := found[serial]
				if !ok {
					return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackUnknown, fmt.Sprintf(MsgPackUnknown, serial))
				}
				rows = append(rows, r)
			}
		}
		for _, r := range rows {
			if g.HandOut {
				switch r.state {
				case schema.PackStateQuarantined:
					return nil, packErr(http.StatusConflict, g.Field, apierr.CodePackQuarantined, fmt.Sprintf(MsgPackQuarantined, r.serial))
				case schema.PackStateRetired, schema.PackStateRecycled:
					return nil, packErr(http.StatusConflict, g.Field, apierr.CodePackRetired, fmt.Sprintf(MsgPackRetired, r.serial, r.state))
				}
			}
			from := r.location
			if r.locKind == schema.AccountKindOutside {
				from = ""
			}
			m := inventory.PackMove{Serial: r.serial, Field: g.Field, From: from, To: g.To.Id, Charged: g.Charged}
			if g.Implicit && len(g.Serials) == 0 {
				m.Field = ""
			}
			if m.Discrepancy = from != "" && !expected(r, g); m.Discrepancy && from == m.To {
				// already where this movement puts it: if a discrepancy put it there, this is the
				// same difference seen from the other side (two drivers sent the same pack),
				// recorded once
				seen, err := lastWasDiscrepancy(txApp, r.id)
				if err != nil {
					return nil, err
				}
				m.Discrepancy = !seen
			}
			if r.state == schema.PackStateLost {
				m.Found = r.stateBefore
				if m.Found == "" || m.Found == schema.PackStateLost {
					m.Found = schema.PackStateInService
				}
			}
			if err := w.move(r, m, g); err != nil {
				return nil, err
			}
			packD[from]--
			packD[m.To]++
			moves = append(moves, m)
		}
	}
	if mode == schema.PackTrackingRequired {
		extra, err := w.reconcile(deltas, packD, named)
		if err != nil {
			return nil, err
		}
		moves = append(moves, extra...)
	}
	return moves, w.flush()
}

// lastWasDiscrepancy reports whether pack's latest move in its history is a discrepancy.
func lastWasDiscrepancy(txApp core.App, pack string) (bool, error) {
	var kind string
	err := sqlitedb.Query(txApp.DB(), "SELECT kind FROM "+schema.PackEvents+" WHERE pack = {:p} AND kind IN ({:moved}, {:disc}, {:charged}) ORDER BY rowid DESC LIMIT 1",
		dbx.Params{"p": pack, "moved": schema.PackEventMoved, "disc": schema.PackEventDiscrepancy, "charged": schema.PackEventCharged},
		func(scan func(...any) error) error { return scan(&kind) })
	return kind == schema.PackEventDiscrepancy, err
}

// scanned is the serial in a scanned code: the label URL's last part or the bare serial,
// trimmed and in capitals as the registry stores serials (NormalizeSerial).
func scanned(code string) string { return NormalizeSerial(inventory.SerialOf(code)) }

// expected reports whether the records had pack r where group g takes its batteries from.
func expected(r row, g inventory.PackGroup) bool {
	for _, a := range g.From {
		if a.Id == r.location {
			return true
		}
	}
	return g.FromUser != "" && r.locKind == schema.AccountKindHolder && r.locUser == g.FromUser
}

// Return puts a corrected or deleted movement's packs back where they were: each pack still
// where the movement put it goes back (a pack that has moved on since stays: its later
// movement is the truth), its charge and its find are undone, and in required mode the records
// are matched to the counts again.
func (l ledger) Return(txApp core.App, mv *inventory.Movement, moves []inventory.PackMove, undo map[string]int, actorId, reason string) ([]inventory.PackMove, error) {
	serials := make([]string, len(moves))
	for i, m := range moves {
		serials[i] = m.Serial
	}
	found, err := bySerial(txApp, serials)
	if err != nil {
		return nil, err
	}
	mode, err := l.effectiveMode(txApp, clock.Now())
	if err != nil {
		return nil, err
	}
	w := writer{txApp: txApp, mv: mv, at: clock.Now().UTC(), actor: actorId, reason: reason, returning: true}
	packD := map[string]int{}
	named := map[string]bool{}
	var returned []inventory.PackMove
	for i := len(moves) - 1; i >= 0; i-- {
		m := moves[i]
		r, ok := found[m.Serial]
		if !ok || named[m.Serial] {
			continue
		}
		if r.location != m.To {
			if mode == schema.PackTrackingRequired && !m.StandIn {
				// like its batteries, a pack that has moved on cannot be put back: the later
				// movement would lose it
				return nil, apierr.Conflict(fmt.Sprintf(MsgPackMovedOn, m.Serial))
			}
			continue // it moved on: its later movement is the truth (a stand-in: reconciled below)
		}
		named[m.Serial] = true
		back := inventory.PackMove{Serial: m.Serial, From: m.To, To: m.From, Charged: m.Charged, Found: m.Found}
		if err := w.move(r, back, inventory.PackGroup{}); err != nil {
			return nil, err
		}
		packD[back.From]--
		packD[back.To]++
		if !m.StandIn && m.Field != "" {
			returned = append(returned, m)
		}
	}
	if mode == schema.PackTrackingRequired {
		// where a pack is put back is the records' old guess, not a scan: any pack may stand in
		if _, err := w.reconcile(undo, packD, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	return returned, w.flush()
}

// bySerial reads the packs with the given serials, with their location's kind and holder.
func bySerial(txApp core.App, serials []string) (map[string]row, error) {
	out := map[string]row{}
	if len(serials) == 0 {
		return out, nil
	}
	params := dbx.Params{}
	err := sqlitedb.Query(txApp.DB(), selectRows+" WHERE p.serial IN ("+sqlitedb.In(params, "s", serials)+")", params, scanRow(out))
	return out, err
}

// locatedAt reads up to n packs the records put at account, the least recently seen first,
// leaving out the serials in skip.
func locatedAt(txApp core.App, account string, n int, skip map[string]bool) ([]row, error) {
	out := map[string]row{}
	// a few more than asked, so the skipped ones cannot leave the answer short
	err := sqlitedb.Query(txApp.DB(), selectRows+" WHERE p.location = {:a} ORDER BY p.lastSeenAt, p.id LIMIT {:n}",
		dbx.Params{"a": account, "n": n + len(skip)}, scanRow(out))
	if err != nil {
		return nil, err
	}
	rows := make([]row, 0, len(out))
	for _, r := range out {
		if !skip[r.serial] {
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].lastSeen != rows[j].lastSeen {
			return rows[i].lastSeen < rows[j].lastSeen
		}
		return rows[i].id < rows[j].id
	})
	return rows[:min(n, len(rows))], nil
}

const selectRows = "SELECT p.id, p.serial, p.state, p.stateBefore, p.location, COALESCE(a.kind, ''), COALESCE(a.user, ''), p.lastSeenAt " +
	"FROM " + schema.Packs + " p LEFT JOIN " + schema.Accounts + " a ON a.id = p.location"

func scanRow(out map[string]row) func(scan func(...any) error) error {
	return func(scan func(...any) error) error {
		var r row
		if err := scan(&r.id, &r.serial, &r.state, &r.stateBefore, &r.location, &r.locKind, &r.locUser, &r.lastSeen); err != nil {
			return err
		}
		out[r.serial] = r
		return nil
	}
}

// writer writes one movement's pack changes: an UPDATE per pack and the events in one INSERT.
type writer struct {
	txApp     core.App
	mv        *inventory.Movement
	at        time.Time
	actor     string
	reason    string // for every event (a return); "" picks each event's own
	returning bool   // putting packs back: the charge and the find are undone
	events    []event
	updates   map[string]*update // pending pack UPDATEs by what they set
	order     []string           // their keys in the order first seen
	atStr     string             // atText, once formatted
	nowStr    string             // nowText, once read
}

// update is one pending UPDATE of packs: what it sets, with which values, on which packs.
type update struct {
	set    string
	params dbx.Params
	ids    []string
}

// flushUpdates runs the pending pack UPDATEs, one statement per kind of change.
func (w *writer) flushUpdates() error {
	for _, key := range w.order {
		u := w.updates[key]
		q := "UPDATE " + schema.Packs + " SET " + u.set + " WHERE id IN (" + sqlitedb.In(u.params, "id", u.ids) + ")"
		if err := sqlitedb.Exec(w.txApp.DB(), q, u.params); err != nil {
			return fmt.Errorf("move packs: %w", err)
		}
	}
	w.updates, w.order = nil, nil
	return nil
}

type event struct {
	pack, kind, from, to, expected, reason, fromState, toState string
}

// atText is the movement's time as PocketBase stores dates (formatted once per writer).
func (w *writer) atText() string {
	if w.atStr == "" {
		at, _ := types.ParseDateTime(w.at)
		w.atStr = at.String()
	}
	return w.atStr
}

// nowText is the time of the write as PocketBase stores dates (read once per writer: every
// row the movement changes has the same updated and created).
func (w *writer) nowText() string {
	if w.nowStr == "" {
		w.nowStr = types.NowDateTime().String()
	}
	return w.nowStr
}

// move records pack r's move m (of group g; zero for a return or a stand-in).
func (w *writer) move(r row, m inventory.PackMove, g inventory.PackGroup) error {
	params := dbx.Params{"to": m.To, "now": w.nowText(), "at": w.atText(), "by": w.actor, "mv": w.mv.Id, "charge": 0}
	set := []string{"location = {:to}", "updated = {:now}"}
	seen := !m.StandIn && !w.returning
	if seen {
		set = append(set, "lastSeenAt = {:at}", "lastSeenBy = {:by}", "lastSeenMovement = {:mv}")
	}
	if w.returning {
		// the movement is no longer the pack's last sighting
		set = append(set, "lastSeenMovement = CASE WHEN lastSeenMovement = {:mv} THEN '' ELSE lastSeenMovement END")
	}
	if m.Charged {
		params["charge"] = 1
		if w.returning {
			params["charge"] = -1
		}
		set = append(set, "chargeCount = MAX(0, COALESCE(chargeCount, 0) + {:charge})")
	}
	if m.Found != "" {
		if w.returning {
			params["state"], params["before"] = schema.PackStateLost, m.Found
			w.events = append(w.events, event{pack: r.id, kind: schema.PackEventState, fromState: r.state, toState: schema.PackStateLost})
		} else {
			params["state"], params["before"] = m.Found, ""
			w.events = append(w.events, event{pack: r.id, kind: schema.PackEventFound, reason: ReasonFound, fromState: schema.PackStateLost, toState: m.Found})
		}
		set = append(set, "state = {:state}", "stateBefore = {:before}")
	}
	// packs that change alike (same place, same flags) share one UPDATE (flushUpdates)
	stmt := strings.Join(set, ", ")
	state, _ := params["state"].(string)
	before, _ := params["before"].(string)
	key := stmt + "|" + m.To + "|" + strconv.Itoa(params["charge"].(int)) + "|" + state + "|" + before
	u, ok := w.updates[key]
	if !ok {
		if w.updates == nil {
			w.updates = map[string]*update{}
		}
		u = &update{set: stmt, params: params}
		w.updates[key] = u
		w.order = append(w.order, key)
	}
	u.ids = append(u.ids, r.id)
	e := event{pack: r.id, kind: schema.PackEventMoved, from: m.From, to: m.To}
	switch {
	case m.StandIn:
		e.reason = ReasonStandIn
	case m.Discrepancy:
		// where it was scanned (the movement's source), and where the records had it
		e.kind, e.reason, e.expected = schema.PackEventDiscrepancy, ReasonDiscrepancy, m.From
		e.from = ""
		if len(g.From) > 0 {
			e.from = g.From[0].Id
		}
	case m.Charged && !w.returning:
		e.kind = schema.PackEventCharged
	case m.From == "" && !w.returning:
		e.reason = ReasonFirstSeen
	}
	w.events = append(w.events, e)
	return nil
}

// reconcile moves stand-ins so that, for every account the movement touched, the packs it
// gained or lost equal the batteries it gained or lost (required mode; see the package comment).
// countD are the movement's entries, packD what its named packs did; named packs are not
// stand-ins.
func (w *writer) reconcile(countD, packD map[string]int, named map[string]bool) ([]inventory.PackMove, error) {
	if err := w.flushUpdates(); err != nil { // the reads below see the named moves
		return nil, err
	}
	diff := map[string]int{}
	for acc, d := range packD {
		diff[acc] += d
	}
	for acc, d := range countD {
		diff[acc] -= d
	}
	// the unknown place and outside only take packs the records can no longer place
	kinds, err := accountKinds(w.txApp, diff)
	if err != nil {
		return nil, err
	}
	sink := 0
	var surplus, deficit []string
	for _, acc := range sortedKeys(diff) {
		d := diff[acc]
		if acc == "" || kinds[acc] == schema.AccountKindOutside {
			if acc == "" {
				sink += packD[""]
			}
			continue
		}
		if d > 0 {
			surplus = append(surplus, acc)
		} else if d < 0 {
			deficit = append(deficit, acc)
		}
	}
	if sink < 0 { // named packs came out of the unknown: as many recorded packs go there
		deficit = append(deficit, "")
		diff[""] = sink
	}
	var out []inventory.PackMove
	for _, src := range surplus {
		for diff[src] > 0 && len(deficit) > 0 {
			dst := deficit[0]
			n := min(diff[src], -diff[dst])
			if err := w.flushUpdates(); err != nil {
				return nil, err
			}
			rows, err := locatedAt(w.txApp, src, n, named)
			if err != nil {
				return nil, err
			}
			if len(rows) == 0 {
				break // the records had none left there to give
			}
			for _, r := range rows {
				m := inventory.PackMove{Serial: r.serial, From: src, To: dst, StandIn: true}
				if err := w.move(r, m, inventory.PackGroup{}); err != nil {
					return nil, err
				}
				named[r.serial] = true
				out = append(out, m)
			}
			diff[src] -= len(rows)
			diff[dst] += len(rows)
			if diff[dst] == 0 {
				deficit = deficit[1:]
			}
		}
	}
	return out, nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// accountKinds reads the kinds of the accounts with a non-zero entry in diff.
func accountKinds(txApp core.App, diff map[string]int) (map[string]string, error) {
	out := map[string]string{}
	params := dbx.Params{}
	var holders []string
	for acc, d := range diff {
		if acc == "" || d == 0 {
			continue
		}
		k := "a" + strconv.Itoa(len(holders))
		params[k] = acc
		holders = append(holders, "{:"+k+"}")
	}
	if len(holders) == 0 {
		return out, nil
	}
	err := sqlitedb.Query(txApp.DB(), "SELECT id, kind FROM "+schema.Accounts+" WHERE id IN ("+strings.Join(holders, ", ")+")", params,
		func(scan func(...any) error) error {
			var id, kind string
			if err := scan(&id, &kind); err != nil {
				return err
			}
			out[id] = kind
			return nil
		})
	return out, err
}

// flush runs the pending UPDATEs and stores the events in one multi-row INSERT.
func (w *writer) flush() error {
	if err := w.flushUpdates(); err != nil {
		return err
	}
	if len(w.events) == 0 {
		return nil
	}
	params := dbx.Params{"mv": w.mv.Id, "session": w.mv.SessionId(), "actor": w.actor, "at": w.atText(), "created": w.nowText()}
	var sb strings.Builder
	sb.WriteString("INSERT INTO " + schema.PackEvents + " (id, pack, kind, movement, session, fromAccount, toAccount, expectedAccount, actor, reason, fromState, toState, at, created) VALUES ")
	for i, e := range w.events {
		if i > 0 {
			sb.WriteString(", ")
		}
		k := strconv.Itoa(i)
		fmt.Fprintf(&sb, "({:id%[1]s}, {:p%[1]s}, {:k%[1]s}, {:mv}, {:session}, {:f%[1]s}, {:t%[1]s}, {:e%[1]s}, {:actor}, {:r%[1]s}, {:fs%[1]s}, {:ts%[1]s}, {:at}, {:created})", k)
		reason := e.reason
		if w.reason != "" {
			reason = w.reason
		}
		params["id"+k], params["p"+k], params["k"+k] = ids.New(), e.pack, e.kind
		params["f"+k], params["t"+k], params["e"+k], params["r"+k] = e.from, e.to, e.expected, reason
		params["fs"+k], params["ts"+k] = e.fromState, e.toState
	}
	if err := sqlitedb.Exec(w.txApp.DB(), sb.String(), params); err != nil {
		return fmt.Errorf("save pack events: %w", err)
	}
	w.events = nil
	return nil
}

// Check compares the packs with the balances for system.Recalculate. A location naming an
// account that no longer exists (a clean slate or a history wipe removed it) is cleared: the
// pack's place is unknown. In required mode, every account whose packs differ from its
// balance is described ("ready: 12 batteries, 11 packs"); a clean ledger has none. The other
// modes allow unnamed batteries, so they report only the cleared locations.
func (l ledger) Check(txApp core.App) ([]string, error) {
	out := []string{}
	n, err := sqlitedb.ExecAffected(txApp.DB(), "UPDATE "+schema.Packs+" SET location = '', updated = {:now} "+
		"WHERE location != '' AND location NOT IN (SELECT id FROM "+schema.Accounts+")", dbx.Params{"now": types.NowDateTime().String()})
	if err != nil {
		return nil, err
	}
	if n > 0 {
		out = append(out, fmt.Sprintf("packs: %d locations named a place that no longer exists → unknown", n))
	}
	mode, err := l.effectiveMode(txApp, clock.Now())
	if err != nil || mode != schema.PackTrackingRequired {
		return out, err
	}
	var exists int
	if err := txApp.DB().NewQuery("SELECT EXISTS (SELECT 1 FROM " + schema.Packs + ")").Row(&exists); err != nil || exists == 0 {
		return out, err // no pack registered yet: nothing to compare
	}
	err = sqlitedb.Query(txApp.DB(), "SELECT a.key, a.balance, COUNT(p.id) FROM "+schema.Accounts+" a LEFT JOIN "+schema.Packs+" p ON p.location = a.id "+
		"WHERE a.kind != {:outside} GROUP BY a.id HAVING COUNT(p.id) != a.balance ORDER BY a.key",
		dbx.Params{"outside": schema.AccountKindOutside}, func(scan func(...any) error) error {
			var key string
			var balance, packs int
			if err := scan(&key, &balance, &packs); err != nil {
				return err
			}
			out = append(out, fmt.Sprintf("packs at %s: %d batteries, %d packs", key, balance, packs))
			return nil
		})
	return out, err
}

// PackCountMessage is a pack_count refusal for count batteries with n packs named, in words
// ("Name exactly 1 pack for 1 battery (2 named)", "… 3 packs for 3 batteries …").
func PackCountMessage(format string, count, n int) string {
	packs, batteries := fmt.Sprintf("%d packs", count), fmt.Sprintf("%d batteries", count)
	if count == 1 {
		packs, batteries = "1 pack", "1 battery"
	}
	return fmt.Sprintf(format, packs, batteries, n)
}
