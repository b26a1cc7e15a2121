package journal

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
)

// Transitions is the one state table (DESIGN.md §14, issues 37 and 42): from each state, the
// states it may go to. Every state change goes by it — an admin's (SetState), a damage report
// (Damage), a recall (Recall) and a lost pack found by a scan (Plan.Apply).
//   - A quarantined pack (a damage report, a recall, an admin's doubt) waits for an admin's
//     decision: maintenance, back in service or retired. It is never recycled straight away:
//     retired first, so a pack's end of life is one path. A recalled pack that never comes
//     back may be declared lost; found again, it returns quarantined (stateBefore).
//   - Recycled is final; retired only goes on to recycled.
//   - A lost pack that is found returns to the state it had (stateBefore) — by a scan (the
//     ledger) or by an admin choosing a state here.
var Transitions = map[string][]string{
	schema.PackStateInService:   {schema.PackStateMaintenance, schema.PackStateQuarantined, schema.PackStateRetired, schema.PackStateLost},
	schema.PackStateMaintenance: {schema.PackStateInService, schema.PackStateQuarantined, schema.PackStateRetired, schema.PackStateLost},
	schema.PackStateQuarantined: {schema.PackStateInService, schema.PackStateMaintenance, schema.PackStateRetired, schema.PackStateLost},
	schema.PackStateRetired:     {schema.PackStateRecycled},
	schema.PackStateRecycled:    {},
	schema.PackStateLost:        {schema.PackStateInService, schema.PackStateMaintenance, schema.PackStateQuarantined, schema.PackStateRetired},
	// a pack sent to another city changes only by its transfer: received back, or the send's
	// movement deleted (transfer.go)
	schema.PackStateInTransit: {},
}

// Messages of a state change.
const (
	MsgUnknownState  = "State must be one of in_service, maintenance, quarantined, retired, recycled, lost"
	msgStateRefused  = "A pack that is %s cannot be made %s"
	msgSameState     = "The pack is already %s"
	MsgPackNotFound  = "Pack not found"
	msgUnknownSerial = "No pack has the serial %s"
)

// StateLabel is how a state reads in a message ("in service", not "in_service").
func StateLabel(state string) string { return strings.ReplaceAll(state, "_", " ") }

// Change is a pack's state change as the journal wrote it: where the pack is (its location and
// that account's kind), so the caller can move its battery with it (to quarantine when it went
// out of use in ready or waiting, back to waiting when it is released from quarantine).
type Change struct {
	PackId, Serial, From, To string
	FromBefore               string // the state a lost pack had (From lost)
	Location, LocationKind   string
}

// outOfUseAfter reports whether the pack is out of use after the change (a pack declared
// lost keeps the state it had as its stateBefore).
func (c Change) outOfUseAfter() bool {
	before := ""
	if c.To == schema.PackStateLost {
		before = c.From
	}
	return OutOfUse(c.To, before)
}

// WentOutOfUse reports whether the change took the pack out of use.
func (c Change) WentOutOfUse() bool { return !OutOfUse(c.From, c.FromBefore) && c.outOfUseAfter() }

// Released reports whether the change put an out-of-use pack back in use (a recalled pack
// declared lost and then brought back in service too).
func (c Change) Released() bool { return OutOfUse(c.From, c.FromBefore) && !c.outOfUseAfter() }

// stateRows reads the packs with the given ids (all when ids is nil and where is set) with
// their location's kind.
func stateRows(txApp core.App, where string, params dbx.Params) ([]row, error) {
	out := map[string]row{}
	var order []string
	err := sqlitedb.Query(txApp.DB(), selectRows+" WHERE "+where+" ORDER BY p.serial", params, func(scan func(...any) error) error {
		var r row
		if err := scan(&r.id, &r.serial, &r.state, &r.stateBefore, &r.location, &r.locKind, &r.locUser, &r.lastSeen, &r.worn, &r.wornReason); err != nil {
			return err
		}
		out[r.id] = r
		order = append(order, r.id)
		return nil
	})
	rows := make([]row, len(order))
	for i, id := range order {
		rows[i] = out[id]
	}
	return rows, err
}

// setState records r going to state (an allowed transition, checked by the caller) in w: the
// pack's state and stateBefore, and its "state" event (or "found" when an admin brings a lost
// pack back; a recall of a lost pack does not find it: its event is a "state").
func (w *writer) setState(r row, state, reason, recall string) Change {
	kind := schema.PackEventState
	before := ""
	switch {
	case state == schema.PackStateLost:
		before = r.state
	case r.state == schema.PackStateLost && recall == "":
		kind = schema.PackEventFound
	}
	key := "state|" + state + "|" + before
	w.queue(key, "state = {:state}, stateBefore = {:before}, updated = {:now}",
		dbx.Params{"state": state, "before": before, "now": w.nowText()}, r.id)
	w.events = append(w.events, event{pack: r.id, kind: kind, fromState: r.state, toState: state, to: r.location, reason: reason, recall: recall})
	return Change{PackId: r.id, Serial: r.serial, From: r.state, FromBefore: r.stateBefore, To: state, Location: r.location, LocationKind: r.locKind}
}

// SetState changes the state of the pack with serial to state, for reason (checked by the
// caller), by actor at at, by the transition table: a change it does not allow is a 409
// pack_state, an unknown serial a 404. Call it inside a transaction.
func SetState(txApp core.App, serial, state, reason, actor string, at time.Time) (Change, error) {
	state = strings.TrimSpace(state)
	if !slices.Contains(schema.PackStates, state) {
		return Change{}, apierr.Invalid("state", MsgUnknownState)
	}
	rows, err := stateRows(txApp, "p.serial = {:s}", dbx.Params{"s": Serial(serial)})
	if err != nil {
		return Change{}, err
	}
	if len(rows) == 0 {
		return Change{}, apierr.NotFound(fmt.Sprintf(msgUnknownSerial, serial))
	}
	r := rows[0]
	if r.state == state {
		return Change{}, &apierr.Error{Kind: apierr.ErrConflict, Code: apierr.CodePackState, Message: fmt.Sprintf(msgSameState, StateLabel(state))}
	}
	if !slices.Contains(Transitions[r.state], state) {
		return Change{}, &apierr.Error{Kind: apierr.ErrConflict, Code: apierr.CodePackState,
			Message: fmt.Sprintf(msgStateRefused, StateLabel(r.state), StateLabel(state))}
	}
	w := writer{txApp: txApp, at: at.UTC(), actor: actor}
	c := w.setState(r, state, reason, "")
	return c, w.flush()
}

// Damage records a damage report on the pack with id packId (note, photos: checked by the
// caller) and, unless it is already out of use or the transition table does not allow it (a
// pack in transit to another city changes only by its transfer), its quarantine (reason
// quarantineReason). It returns the change, or a zero Change when the state stayed.
func Damage(txApp core.App, packId, note string, photos []string, quarantineReason, actor string, at time.Time) (Change, error) {
	rows, err := stateRows(txApp, "p.id = {:id}", dbx.Params{"id": packId})
	if err != nil {
		return Change{}, err
	}
	if len(rows) == 0 {
		return Change{}, apierr.NotFound(MsgPackNotFound)
	}
	r := rows[0]
	if photos == nil {
		photos = []string{}
	}
	list, _ := json.Marshal(photos)
	w := writer{txApp: txApp, at: at.UTC(), actor: actor}
	w.events = append(w.events, event{pack: r.id, kind: schema.PackEventDamage, reason: note, photos: string(list), to: r.location})
	var c Change
	if !OutOfUse(r.state, "") && slices.Contains(Transitions[r.state], schema.PackStateQuarantined) {
		c = w.setState(r, schema.PackStateQuarantined, quarantineReason, "")
	}
	return c, w.flush()
}

// DamagedAway quarantines the packs among serials just back from their way (a send undone, or
// received back) that a damage report reached while they were in transit: Damage left their
// state to their transfer, and back in service they would be handed out damaged. A pack qualifies when its newest damage
// event follows its newest "transferred" event with no state change between them (none can
// happen in transit); one out of use already, or whose state may not become quarantined, is
// passed over. Each quarantine's reason is reasonPrefix + the newest report's note, cut to
// maxReason characters. Call it in the transaction that brought them back (after Return, or
// the receive).
func DamagedAway(txApp core.App, serials []string, reasonPrefix string, maxReason int, actor string, at time.Time) ([]Change, error) {
	if len(serials) == 0 {
		return nil, nil
	}
	params := dbx.Params{"damage": schema.PackEventDamage, "sent": schema.PackEventTransferred, "state": schema.PackEventState, "found": schema.PackEventFound}
	notes := map[string]string{}
	err := sqlitedb.Query(txApp.DB(), "SELECT p.id, d.reason FROM "+schema.Packs+" p JOIN "+schema.PackEvents+" d ON d.rowid = ("+
		"SELECT MAX(rowid) FROM "+schema.PackEvents+" WHERE pack = p.id AND kind = {:damage})"+
		" WHERE p.serial IN ("+sqlitedb.In(params, "s", serials)+")"+
		" AND d.rowid > COALESCE((SELECT MAX(rowid) FROM "+schema.PackEvents+" WHERE pack = p.id AND kind = {:sent}), d.rowid)"+
		" AND NOT EXISTS (SELECT 1 FROM "+schema.PackEvents+" x WHERE x.pack = p.id AND x.kind IN ({:state}, {:found}) AND x.rowid < d.rowid"+
		"   AND x.rowid > (SELECT MAX(rowid) FROM "+schema.PackEvents+" WHERE pack = p.id AND kind = {:sent}))", params,
		func(scan func(...any) error) error {
			var id, note string
			if err := scan(&id, &note); err != nil {
				return err
			}
			notes[id] = note
			return nil
		})
	if err != nil || len(notes) == 0 {
		return nil, err
	}
	ids := slices.Sorted(maps.Keys(notes))
	p2 := dbx.Params{}
	rows, err := stateRows(txApp, "p.id IN ("+sqlitedb.In(p2, "i", ids)+")", p2)
	if err != nil {
		return nil, err
	}
	w := writer{txApp: txApp, at: at.UTC(), actor: actor}
	var changes []Change
	for _, r := range rows {
		if OutOfUse(r.state, r.stateBefore) || !slices.Contains(Transitions[r.state], schema.PackStateQuarantined) {
			continue
		}
		reason := reasonPrefix + notes[r.id]
		if rs := []rune(reason); len(rs) > maxReason {
			reason = string(rs[:maxReason-1]) + "…"
		}
		changes = append(changes, w.setState(r, schema.PackStateQuarantined, reason, ""))
	}
	return changes, w.flush()
}

// Recall quarantines the packs matching column = value that are not already quarantined,
// retired or recycled (a lost one too: it stays out of use wherever it turns up), each with a
// "state" event naming recall, in a few statements whatever the lot's size. total is how many
// packs match at all.
func Recall(txApp core.App, column, value, recall, reason, actor string, at time.Time) (changes []Change, total int, err error) {
	rows, err := stateRows(txApp, "p."+column+" = {:v}", dbx.Params{"v": value})
	if err != nil {
		return nil, 0, err
	}
	changes, err = recallRows(txApp, rows, recall, reason, actor, at)
	return changes, len(rows), err
}

// RecallSerials quarantines the packs named by serials for the recall that stands for them
// (recall, reason) as Recall does: a pack received from another city whose lot, model or
// manufacturer this city has recalled (packs.RecallArrivals).
func RecallSerials(txApp core.App, serials []string, recall, reason, actor string, at time.Time) ([]Change, error) {
	if len(serials) == 0 {
		return nil, nil
	}
	params := dbx.Params{}
	rows, err := stateRows(txApp, "p.serial IN ("+sqlitedb.In(params, "s", serials)+")", params)
	if err != nil {
		return nil, err
	}
	return recallRows(txApp, rows, recall, reason, actor, at)
}

// recallRows quarantines rows for recall, passing over those already out of use and those in
// transit (in another city now: its own recall reaches them when they arrive, RecallSerials).
func recallRows(txApp core.App, rows []row, recall, reason, actor string, at time.Time) ([]Change, error) {
	var changes []Change
	w := writer{txApp: txApp, at: at.UTC(), actor: actor}
	for _, r := range rows {
		if OutOfUse(r.state, "") || r.state == schema.PackStateInTransit {
			continue
		}
		changes = append(changes, w.setState(r, schema.PackStateQuarantined, reason, recall))
	}
	return changes, w.flush()
}

// RecallCandidates counts the packs matching column = value (total) and those a recall would
// quarantine.
func RecallCandidates(txApp core.App, column, value string) (total, toQuarantine int, err error) {
	rows, err := stateRows(txApp, "p."+column+" = {:v}", dbx.Params{"v": value})
	for _, r := range rows {
		if !OutOfUse(r.state, "") && r.state != schema.PackStateInTransit {
			toQuarantine++
		}
	}
	return len(rows), toQuarantine, err
}

// Create registers a new pack, rec (a packs record set up by the registry: minted or
// imported), and its first event of kind (schema.PackEventCreated or PackEventImported), by
// actor at at. Call it inside a transaction.
func Create(txApp core.App, rec *core.Record, kind, actor string, at time.Time) error {
	if err := txApp.Save(rec); err != nil {
		return err
	}
	w := writer{txApp: txApp, at: at.UTC(), actor: actor}
	w.events = append(w.events, event{pack: rec.Id, kind: kind})
	return w.flush()
}
