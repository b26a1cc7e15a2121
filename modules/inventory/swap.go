package inventory

import (
	"fmt"
	"swapbay/lib/apierr"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/events"
	"swapbay/lib/txutil"
)

// Swap kinds stored in a swap movement's meta (MetaKind).
const (
	SwapKindSwap         = "swap"            // from → to, good and dead
	SwapKindReturn       = "exchange_return" // the return leg of an exchange (to → from)
	SwapKindDeadTransfer = "dead_transfer"   // dead batteries only
)

// SwapPair is the two halves of one transfer between holders: the giver's driver_swap_out
// (which carries the balanced entries) and the receiver's driver_swap_in (the mirror record,
// no entries). Editing or deleting either half acts on both.
type SwapPair struct {
	Out *Movement `json:"out"`
	In  *Movement `json:"in"`
}

// PostSwap moves good+dead batteries from the giver's holdings (pickup holding first) into
// the receiver's pickup holding, as a SwapPair, inside txApp's transaction. Refused with
// apierr.ErrNotEnough when the giver holds fewer; the message names the giver.
// Call inside a transaction (txutil.Require refuses otherwise).
func PostSwap(txApp core.App, op Op, from, to *core.Record, good, dead int, kind string) (SwapPair, error) {
	if err := txutil.Require(txApp, "inventory.PostSwap"); err != nil {
		return SwapPair{}, err
	}
	fields := []string{FieldGoodPacks, FieldDeadPacks}
	if kind == SwapKindDeadTransfer {
		fields = []string{FieldPacks, FieldDeadPacks}
	}
	if err := op.Packs.Only(fields...); err != nil {
		return SwapPair{}, err
	}
	legs, packs, err := swapLegs(txApp, from, to, good, dead, nil, op.Packs)
	if err != nil {
		return SwapPair{}, err
	}
	q := good + dead
	notes := SwapNotes(from, to, good, dead, op.Notes)
	meta := func() map[string]any {
		return map[string]any{
			MetaKind: kind, MetaFromUser: from.Id, MetaToUser: to.Id, MetaUserNotes: op.Notes,
		}
	}
	out, err := Post(txApp, Posting{
		Type: TypeDriverSwapOut, Quantity: -q, UserId: from.Id, ActorId: op.ActorId(), At: op.when(),
		Notes: notes, Good: good, Dead: dead, Meta: meta(), Legs: legs, Packs: packs,
	})
	if err != nil {
		return SwapPair{}, err
	}
	inMeta := meta()
	inMeta[MetaPair] = out.Id
	in, err := Post(txApp, Posting{
		Type: TypeDriverSwapIn, Quantity: q, UserId: to.Id, ActorId: op.ActorId(), At: op.when(),
		Notes: notes, Good: good, Dead: dead, Meta: inMeta,
	})
	if err != nil {
		return SwapPair{}, err
	}
	outMeta := out.Meta()
	outMeta[MetaPair] = in.Id
	out.Set("meta", outMeta)
	if err := updateMovement(txApp, out.Record); err != nil {
		return SwapPair{}, err
	}
	events.Publish(txApp, MovementEvents...)
	return SwapPair{Out: out, In: in}, nil
}

// swapLegs plans moving good+dead from from's holdings into to's pickup holding, and the
// pack groups of names (GoodPacks, DeadPacks; a dead transfer may name its packs as Packs).
func swapLegs(txApp core.App, from, to *core.Record, good, dead int, adjust map[string]int, names PackNames) ([]Leg, []PackGroup, error) {
	q := good + dead
	alloc, err := TakeFromHoldings(txApp, from.Id, q, adjust)
	if err != nil {
		return nil, nil, err
	}
	if alloc.Excess > 0 {
		return nil, nil, apierr.NotEnoughOf(apierr.CodeInsufficientHoldings, fmt.Sprintf(MsgCannotGive, DisplayName(from), alloc.Held(), q))
	}
	dest, err := holderRef(txApp, to.Id, AssignmentPickup)
	if err != nil {
		return nil, nil, err
	}
	legs := make([]Leg, 0, len(alloc.Parts))
	for _, p := range alloc.Parts {
		legs = append(legs, Leg{From: p.Account.Ref(), To: dest, Qty: p.Qty})
	}
	deadField, deadSerials := FieldDeadPacks, names.DeadPacks
	if names.Packs != nil && good == 0 {
		deadField, deadSerials = FieldPacks, names.Packs
	}
	src := alloc.refs()
	packs := []PackGroup{
		{Field: names.field(FieldGoodPacks), Serials: names.GoodPacks, Count: good, From: src, FromUser: from.Id, To: dest},
		{Field: names.field(deadField), Serials: deadSerials, Count: dead, From: src, FromUser: from.Id, To: dest},
	}
	return legs, packs, nil
}

// SwapNotes are a swap's notes with the spec's 'DRIVER_SWAP:', 'From: X To: Y', 'N good'
// and 'N dead' markers.
func SwapNotes(from, to *core.Record, good, dead int, notes string) string {
	s := fmt.Sprintf("DRIVER_SWAP: %d good, %d dead From: %s To: %s", good, dead, DisplayName(from), DisplayName(to))
	if notes != "" {
		s += " - " + notes
	}
	return s
}

// PostAssignment moves quantity ready batteries into userId's holding of assignmentType
// (a manual assignment, recorded as a pickup with the 'MANUAL_ASSIGNMENT:' marker).
// Call inside a transaction (txutil.Require refuses otherwise).
func PostAssignment(txApp core.App, op Op, user *core.Record, quantity int, assignmentType string) (*Movement, error) {
	if err := txutil.Require(txApp, "inventory.PostAssignment"); err != nil {
		return nil, err
	}
	notes := AssignmentNotes(user, quantity, assignmentType, op.Notes)
	if err := op.Packs.Only(FieldPacks); err != nil {
		return nil, err
	}
	return postPickup(txApp, Posting{
		Type: TypePickup, UserId: user.Id, ActorId: op.ActorId(), At: op.when(), Notes: notes,
		Meta: map[string]any{MetaUserNotes: op.Notes, MetaKind: "manual_assignment"},
	}, quantity, assignmentType, op.Packs.Packs)
}

// AssignmentNotes are a manual assignment's notes with the 'MANUAL_ASSIGNMENT: … assigned
// to …' marker.
func AssignmentNotes(user *core.Record, quantity int, assignmentType, notes string) string {
	s := fmt.Sprintf("MANUAL_ASSIGNMENT: %d batteries (%s) assigned to %s", quantity, assignmentType, DisplayName(user))
	if notes != "" {
		s += " - " + notes
	}
	return s
}
