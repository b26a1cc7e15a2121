package packs

import (
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
)

// Transitions is the state table an admin's state change follows: the journal's, the one
// table every state change goes by (journal.Transitions).
var Transitions = journal.Transitions

// Messages of a state change.
const (
	MsgUnknownState  = journal.MsgUnknownState
	MsgReason        = "Please give a reason for the change"
	MsgStateChanged  = "Pack state changed"
	msgUnknownSerial = "No pack has the serial %s"
)

// StateLabel is how a state reads in a message ("in service", not "in_service").
func StateLabel(state string) string { return journal.StateLabel(state) }

// SetState changes the state of the pack with serial to state, for reason, by actor, in one
// transaction through the journal (its "state" event, or "found" when a lost pack comes back),
// and moves its battery with it: a pack taken out of use in ready or waiting goes to the
// quarantine account, one released from quarantine goes to waiting (inventory.Shelve). A change
// the table does not allow is a 409 pack_state; an unknown serial a 404.
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
		c, err := journal.SetState(txApp, serial, state, reason, actor, now)
		if err != nil {
			return err
		}
		if err := shelve(txApp, actor, now, []journal.Change{c}); err != nil {
			return err
		}
		// the pack pages, the recall page and the attention strip refetch
		events.Publish(txApp, events.InventoryUpdated, events.ActivityUpdated)
		out, err = FindBySerial(txApp, c.Serial)
		return err
	})
	return out, err
}

// shelve moves the batteries of changed packs with them (inventory.Shelve), recorded by actor.
func shelve(txApp core.App, actor string, at time.Time, changes []journal.Change) error {
	op := inventory.Op{At: at}
	if actor != "" {
		if u, err := txApp.FindRecordById(schema.Users, actor); err == nil {
			op.Actor = u
		}
	}
	_, err := inventory.Shelve(txApp, op, changes)
	return err
}
