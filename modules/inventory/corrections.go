package inventory

import (
	"errors"
	"strings"
	"sync"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/journal"
)

// EditableTypes are the movement types the Movement Options dialog may correct (spec part 1 §2).
var EditableTypes = []string{TypePickup, TypeDropoff, TypeDriverSwapIn, TypeDriverSwapOut, TypeAdjustment}

// IsEditable reports whether movements of type t may be edited.
func IsEditable(t string) bool {
	for _, e := range EditableTypes {
		if e == t {
			return true
		}
	}
	return false
}

// carrier returns the movement holding the ledger entries for mv and, for swaps, the other
// half (nil otherwise). A swap's entries sit on its driver_swap_out half.
func carrier(txApp core.App, mv *Movement) (*Movement, *Movement, error) {
	if mv.Type() != TypeDriverSwapIn && mv.Type() != TypeDriverSwapOut {
		return mv, nil, nil
	}
	other, err := FindMovement(txApp, mv.MetaString(MetaPair))
	if err != nil {
		return mv, nil, nil // a lone half (its pair already gone): it stands alone
	}
	if mv.Type() == TypeDriverSwapOut {
		return mv, other, nil
	}
	return other, mv, nil
}

// entryDeltas returns the movement's entries as account id → delta, and their reversal.
func entryDeltas(txApp core.App, movementId string) (deltas, undo map[string]int, err error) {
	entries, err := FindEntries(txApp, movementId)
	if err != nil {
		return nil, nil, err
	}
	deltas, undo = map[string]int{}, map[string]int{}
	for _, e := range entries {
		deltas[e.AccountId()] += e.Delta()
		undo[e.AccountId()] -= e.Delta()
	}
	return deltas, undo, nil
}

func legDeltas(legs []Leg) map[string]int {
	out := map[string]int{}
	for _, l := range legs {
		out[l.From.Id] -= l.Qty
		out[l.To.Id] += l.Qty
	}
	return out
}

// Reasons recorded in a pack's history when a movement's correction or delete puts it back.
const (
	MsgPacksCorrected = "Returned: the movement was corrected"
	MsgPacksDeleted   = "Returned: the movement was deleted"
)

// MsgEditTotal refuses a correction without batteries (spec part 1 §2).
const MsgEditTotal = "Total batteries must be greater than 0"

// MsgEditFormerUser refuses editing a movement of a deleted user (KeepFormerUser).
const MsgEditFormerUser = "This movement belongs to a deleted user and cannot be edited; delete it or correct the counts instead"

// EditMovement corrects a pickup, dropoff, swap (either half) or adjustment to good+dead
// batteries: the old entries are replaced by new ones and the balances move by the
// difference, atomically. Refused when a balance would go below zero. Empty notes keep the
// old notes.
func EditMovement(app core.App, op Op, id string, good, dead int, notes string) (*Movement, error) {
	if err := reqx.Count("goodBatteries", good, 0, reqx.MaxCount, MsgEditTotal, reqx.MsgCountTooLarge); err != nil {
		return nil, err
	}
	if err := reqx.Count("deadBatteries", dead, 0, reqx.MaxCount, MsgEditTotal, reqx.MsgCountTooLarge); err != nil {
		return nil, err
	}
	if good+dead <= 0 {
		return nil, apierr.Invalid("goodBatteries", MsgEditTotal)
	}
	op.Notes = notes
	if err := op.CleanNotes(); err != nil {
		return nil, err
	}
	notes = op.Notes
	total := good + dead
	var result *Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		mv, err := FindMovement(txApp, id)
		if err != nil {
			return err
		}
		if !IsEditable(mv.Type()) || mv.Checkpoint() {
			return apierr.Conflict("Only pickup, dropoff, driver swap and adjustment movements can be edited")
		}
		main, pair, err := carrier(txApp, mv)
		if err != nil {
			return err
		}
		if main.UserId() == "" && main.Meta()[MetaFormerUser] != nil {
			// the holdings an edit would give to or take from went with the user
			return apierr.Conflict(MsgEditFormerUser)
		}
		old, undo, err := entryDeltas(txApp, main.Id)
		if err != nil {
			return err
		}
		// its packs go back where they were; the corrected movement names them again (an
		// edit that names none keeps the packs it had)
		returned, err := returnPacks(txApp, op, main, undo, MsgPacksCorrected)
		if err != nil {
			return err
		}
		names := op.Packs.orPrevious(returned)
		userNotes := notes
		if userNotes == "" {
			userNotes = main.MetaString(MetaUserNotes)
		}

		var legs []Leg
		var packs []PackGroup
		var newDeltas map[string]int
		meta := main.Meta()
		meta[MetaUserNotes] = userNotes
		switch main.Type() {
		case TypePickup:
			typ := main.MetaString(MetaAssignmentType)
			if typ == "" {
				typ = AssignmentPickup
			}
			ready, err := SystemAccount(txApp, KeyReady)
			if err != nil {
				return err
			}
			holder, err := HolderAccount(txApp, main.UserId(), typ)
			if err != nil {
				return err
			}
			if err := names.Only(FieldPacks); err != nil {
				return err
			}
			legs = []Leg{{From: ready.Ref(), To: holder.Ref(), Qty: total}}
			packs = []PackGroup{{Field: FieldPacks, Serials: names.Packs, Count: total, From: []AccountRef{ready.Ref()}, To: holder.Ref()}}
			main.Set(schema.MovementQuantity, -total)
			main.Set(schema.MovementNotes, userNotes)
			if main.MetaString(MetaKind) == "manual_assignment" {
				user, _ := txApp.FindRecordById(schema.Users, main.UserId())
				main.Set(schema.MovementNotes, AssignmentNotes(user, total, typ, userNotes))
			}
		case TypeDropoff:
			if err := names.Only(FieldGoodPacks, FieldDeadPacks); err != nil {
				return err
			}
			var excess int
			legs, packs, excess, err = dropoffLegs(txApp, main.UserId(), good, dead, undo, names)
			if err != nil {
				return err
			}
			meta[MetaExcess] = excess
			main.Set(schema.MovementQuantity, total)
			main.Set(schema.MovementGood, good)
			main.Set(schema.MovementDead, dead)
			main.Set(schema.MovementDiscrepancy, excess > 0)
			main.Set(schema.MovementNotes, DropoffNotes(good, dead, userNotes))
		case TypeDriverSwapOut, TypeDriverSwapIn:
			from, ferr := txApp.FindRecordById(schema.Users, main.MetaString(MetaFromUser))
			to, terr := txApp.FindRecordById(schema.Users, main.MetaString(MetaToUser))
			if ferr != nil || terr != nil {
				return apierr.Conflict("This swap's drivers no longer exist; delete it instead")
			}
			if legs, packs, err = swapLegs(txApp, from, to, good, dead, undo, names); err != nil {
				return err
			}
			sNotes := SwapNotes(from, to, good, dead, userNotes)
			for _, half := range []*Movement{main, pair} {
				if half == nil {
					continue
				}
				q := total
				if half.Type() == TypeDriverSwapOut {
					q = -total
				}
				half.Set(schema.MovementQuantity, q)
				half.Set(schema.MovementGood, good)
				half.Set(schema.MovementDead, dead)
				half.Set(schema.MovementNotes, sNotes)
			}
		case TypeAdjustment:
			if err := journal.RequireCounted(txApp); err != nil {
				return err
			}
			if err := names.Only(); err != nil {
				return err
			}
			newDeltas, err = editAdjustment(txApp, old, total)
			if err != nil {
				return err
			}
			sign := 1
			if main.Quantity() < 0 {
				sign = -1
			}
			main.Set(schema.MovementQuantity, sign*total)
			if notes != "" {
				main.Set(schema.MovementNotes, notes)
			}
		}
		plan, legs, err := preparePacks(txApp, op.KeyAt, packs, legs, undo)
		if err != nil {
			return err
		}
		if newDeltas == nil {
			newDeltas = legDeltas(legs)
		}
		net := map[string]int{}
		for acc, d := range newDeltas {
			net[acc] += d
		}
		for acc, d := range old {
			net[acc] -= d
		}
		if err := ApplyDeltas(txApp, net); err != nil {
			return err
		}
		if err := replaceEntries(txApp, main.Id, newDeltas); err != nil {
			return err
		}
		main.Set(schema.MovementMeta, meta)
		if err := applyPacks(txApp, main.Record, plan, newDeltas, op.KeyAt); err != nil {
			return err
		}
		for _, half := range []*Movement{main, pair} {
			if half == nil {
				continue
			}
			if err := updateMovement(txApp, half.Record); err != nil {
				return err
			}
		}
		result = main
		if mv.Id != main.Id {
			result = pair
		}
		events.Publish(txApp, MovementEvents...)
		return op.Capture(txApp)
	})
	return result, err
}

// editAdjustment re-targets an adjustment that changed exactly one counted account to a
// magnitude of total (keeping its direction); outside takes the other side.
func editAdjustment(txApp core.App, old map[string]int, total int) (map[string]int, error) {
	outside, err := SystemAccount(txApp, KeyOutside)
	if err != nil {
		return nil, err
	}
	target, sign := "", 0
	for acc, d := range old {
		if acc == outside.Id || d == 0 {
			continue
		}
		if target != "" {
			return nil, apierr.Conflict("This adjustment changed several counts; record a new stat edit instead")
		}
		target, sign = acc, 1
		if d < 0 {
			sign = -1
		}
	}
	if target == "" {
		return nil, apierr.Conflict("This adjustment moved no batteries; record a new stat edit instead")
	}
	return map[string]int{target: sign * total, outside.Id: -sign * total}, nil
}

// MsgStocktakeKept refuses deleting a stocktake: its packs were counted, not moved by a
// request that can be undone; the place is counted again instead.
const MsgStocktakeKept = "A stocktake cannot be deleted: count the place again instead"

// MsgShelvedKept refuses deleting the movement that took a pack's battery to quarantine or
// back with its state change (Shelve): undone alone it left the place and the state apart (a
// pack quarantined again after its release was counted twice in quarantine). The state is
// changed instead, which moves the battery again.
const MsgShelvedKept = "This movement follows a pack's state change and cannot be deleted: change the pack's state instead"

// MsgTransferInKept refuses deleting a receive from another city: its packs are registered
// here; send them back instead.
const MsgTransferInKept = "Packs received from another city cannot be un-received: send them back to that city instead"

// onDelete holds the functions OnDelete registered, by movement type (string → func). A sync.Map:
// every app a process starts registers them again (tests start many at once).
var onDelete sync.Map

// OnDelete registers fn to run in the transaction of every delete of a movement of type t,
// after its entries and packs are reversed (modules/transfers removes the send's row). Call it
// at start-up (a module's Register).
func OnDelete(t string, fn func(txApp core.App, mv *Movement) error) { onDelete.Store(t, fn) }

// DeleteMovement removes a movement and reverses its entries, returning the batteries to
// where they came from. A swap's two halves go together. Refused with apierr.ErrNotEnough when the
// batteries have moved on (a reversal would make a balance negative), and for checkpoints
// and charging-session movements (those change through the session actions).
func DeleteMovement(app core.App, op Op, id string) error {
	return app.RunInTransaction(func(txApp core.App) error {
		mv, err := FindMovement(txApp, id)
		if err != nil {
			return err
		}
		if mv.Checkpoint() {
			return apierr.Conflict("Checkpoint movements cannot be deleted")
		}
		if mv.Type() == TypeStocktake {
			return apierr.Conflict(MsgStocktakeKept)
		}
		if mv.Type() == TypeTransferIn {
			return apierr.Conflict(MsgTransferInKept)
		}
		if mv.Type() == TypeInternalTransfer && (mv.MetaString(MetaKind) == KindShelvedQuarantine || mv.MetaString(MetaKind) == KindShelvedRelease) {
			return apierr.Conflict(MsgShelvedKept)
		}
		if mv.SessionId() != "" {
			return apierr.Conflict("Charging session movements cannot be deleted here; complete, edit or delete the charging session instead")
		}
		main, pair, err := carrier(txApp, mv)
		if err != nil {
			return err
		}
		if main.Type() == TypeAdjustment {
			if err := journal.RequireCounted(txApp); err != nil {
				return err
			}
		}
		_, undo, err := entryDeltas(txApp, main.Id)
		if err != nil {
			return err
		}
		if err := ApplyDeltas(txApp, undo); err != nil {
			if !errors.Is(err, apierr.ErrNotEnough) {
				return err
			}
			return apierr.NotEnough("Cannot delete this movement: its batteries have already moved on (" + strings.TrimPrefix(err.Error(), "Not enough batteries: ") + ")")
		}
		if _, err := returnPacks(txApp, op, main, undo, MsgPacksDeleted); err != nil {
			return err
		}
		if fn, ok := onDelete.Load(main.Type()); ok {
			// the rows another module keeps about this movement go with it (a transfer's row)
			if err := fn.(func(core.App, *Movement) error)(txApp, main); err != nil {
				return err
			}
		}
		for _, half := range []*Movement{main, pair} {
			if half == nil {
				continue
			}
			if err := deleteMovements(txApp, "id = {:id}", dbx.Params{"id": half.Id}); err != nil {
				return err
			}
		}
		events.Publish(txApp, MovementEvents...)
		return op.Capture(txApp)
	})
}
