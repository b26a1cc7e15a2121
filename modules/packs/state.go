package packs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
)

// Transitions is the state table an admin's state change follows (DESIGN.md §14, issue 37):
// from each state, the states it may go to.
//   - A quarantined pack (a damage report, a recall, an admin's doubt) waits for an admin's
//     decision: maintenance, back in service or retired. It is never recycled straight away:
//     retired first, so a pack's end of life is one path. A recalled pack that never comes
//     back may be declared lost; found again, it returns quarantined (StateBefore).
//   - Recycled is final; retired only goes on to recycled.
//   - A lost pack that is found returns to the state it had (StateBefore) — by a scan (the
//     ledger) or by an admin choosing a state here.
var Transitions = map[string][]string{
	schema.PackStateInService:   {schema.PackStateMaintenance, schema.PackStateQuarantined, schema.PackStateRetired, schema.PackStateLost},
	schema.PackStateMaintenance: {schema.PackStateInService, schema.PackStateQuarantined, schema.PackStateRetired, schema.PackStateLost},
	schema.PackStateQuarantined: {schema.PackStateInService, schema.PackStateMaintenance, schema.PackStateRetired, schema.PackStateLost},
	schema.PackStateRetired:     {schema.PackStateRecycled},
	schema.PackStateRecycled:    {},
	schema.PackStateLost:        {schema.PackStateInService, schema.PackStateMaintenance, schema.PackStateQuarantined, schema.PackStateRetired},
}

// Messages of a state change.
const (
	MsgUnknownState  = "State must be one of in_service, maintenance, quarantined, retired, recycled, lost"
	MsgReason        = "Please give a reason for the change"
	MsgStateChanged  = "Pack state changed"
	msgStateRefused  = "A pack that is %s cannot be made %s"
	msgSameState     = "The pack is already %s"
	msgUnknownSerial = "No pack has the serial %s"
)

// StateLabel is how a state reads in a message ("in service", not "in_service").
func StateLabel(state string) string { return strings.ReplaceAll(state, "_", " ") }

// SetState changes the state of the pack with serial to state, for reason, by actor, in one
// transaction with its "state" event (or "found" when a lost pack comes back). A change the
// table does not allow is a 409 pack_state; an unknown serial a 404.
func SetState(app core.App, serial, state, reason, actor string, now time.Time) (*Pack, error) {
	state = strings.TrimSpace(state)
	if !IsState(state) {
		return nil, apierr.Invalid("state", MsgUnknownState)
	}
	reason, err := reqx.Notes("reason", reason, MsgReason)
	if err != nil {
		return nil, err
	}
	var out *Pack
	err = app.RunInTransaction(func(txApp core.App) error {
		p, err := FindBySerial(txApp, serial)
		if err != nil {
			return err
		}
		from := p.State()
		if from == state {
			return &apierr.Error{Kind: apierr.ErrConflict, Code: apierr.CodePackState, Message: fmt.Sprintf(msgSameState, StateLabel(state))}
		}
		if !slices.Contains(Transitions[from], state) {
			return &apierr.Error{Kind: apierr.ErrConflict, Code: apierr.CodePackState,
				Message: fmt.Sprintf(msgStateRefused, StateLabel(from), StateLabel(state))}
		}
		kind := schema.PackEventState
		switch {
		case state == schema.PackStateLost:
			p.Set(schema.PackStateBefore, from)
		case from == schema.PackStateLost:
			kind = schema.PackEventFound
			p.Set(schema.PackStateBefore, "")
		}
		p.Set(schema.PackState, state)
		if err := txApp.Save(p); err != nil {
			return err
		}
		_, evCol, err := collections(txApp)
		if err != nil {
			return err
		}
		ev := NewEvent(evCol, p.Id, kind, actor, now)
		ev.Set(schema.PackEventFromState, from)
		ev.Set(schema.PackEventToState, state)
		ev.Set(schema.PackEventReason, reason)
		ev.Set(schema.PackEventToAccount, p.Location())
		if err := txApp.Save(ev); err != nil {
			return err
		}
		// the pack pages, the recall page and the attention strip refetch
		events.Publish(txApp, events.InventoryUpdated)
		out = p
		return nil
	})
	return out, err
}
