package inventory

import (
	"fmt"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
)

// Meta keys the ledger stores on movements so they can be edited and displayed later.
const (
	MetaAssignmentType = "assignmentType" // pickups and assignments: the holding credited
	MetaUserNotes      = "userNotes"      // the notes as typed, without markers
	MetaExcess         = "excess"         // dropoffs: batteries returned beyond what was held
	MetaPair           = "pair"           // swaps: the id of the other half
	MetaFromUser       = "fromUserId"     // swaps: giver
	MetaToUser         = "toUserId"       // swaps: receiver
	MetaKind           = "kind"           // swaps: "swap", "exchange_return" or "dead_transfer"
)

// Part is a share of an allocation taken from one holder account.
type Part struct {
	Account *Account
	Qty     int
}

// Allocation is how q batteries are taken from a user's holdings: the pickup holding first,
// then the other assignment types; Excess is what the user did not hold.
type Allocation struct {
	Parts  []Part
	Excess int
}

// Held is the number of batteries the allocation found in holdings.
func (a Allocation) Held() int { return sumParts(a.Parts) }

// refs are the accounts the allocation takes from.
func (a Allocation) refs() []AccountRef {
	out := make([]AccountRef, len(a.Parts))
	for i, p := range a.Parts {
		out[i] = p.Account.Ref()
	}
	return out
}

func sumParts(ps []Part) int {
	n := 0
	for _, p := range ps {
		n += p.Qty
	}
	return n
}

// TakeFromHoldings plans taking q batteries from userId's holdings (see Allocation). It reads
// balances inside txApp; adjust, when not nil, is added to each balance first (used by edits
// to see the balances as if the edited movement had not happened). Call inside the
// transaction that posts the plan (txutil.Require refuses otherwise): outside it the
// balances could change before the plan is used.
func TakeFromHoldings(txApp core.App, userId string, q int, adjust map[string]int) (Allocation, error) {
	if err := txutil.Require(txApp, "inventory.TakeFromHoldings"); err != nil {
		return Allocation{}, err
	}
	accs, err := FindHolderAccounts(txApp, userId)
	if err != nil {
		return Allocation{}, err
	}
	seen := map[string]bool{}
	for _, a := range accs {
		seen[a.Id] = true
	}
	// accounts the edited movement emptied have balance 0 now but hold batteries "before" it
	for id, d := range adjust {
		if d > 0 && !seen[id] {
			if a, err := FindAccount(txApp, id); err == nil && a.Kind() == schema.AccountKindHolder && a.UserId() == userId {
				accs = append(accs, a)
			}
		}
	}
	sortHoldings(accs)
	var out Allocation
	left := q
	for _, a := range accs {
		if left == 0 {
			break
		}
		have := a.Balance() + adjust[a.Id]
		if have <= 0 {
			continue
		}
		take := min(have, left)
		out.Parts = append(out.Parts, Part{Account: a, Qty: take})
		left -= take
	}
	out.Excess = left
	return out, nil
}

// Messages of the driver operations (spec part 1 §5).
const (
	MsgPickupNotesRequired  = "This field is required"
	MsgDropoffNotesRequired = "Please provide notes about your drop-off"
	MsgDropoffNothing       = "You must drop off at least one battery (good or dead)"
)

// Pickup records userId taking quantity ready batteries into their pickup holding.
// Refused with apierr.ErrNotEnough when fewer are ready.
func Pickup(app core.App, op Op, userId string, quantity int) (*Movement, error) {
	if err := reqx.Count("quantity", quantity, 1, reqx.MaxCount, reqx.MsgQuantityRequired, reqx.MsgCountTooLarge); err != nil {
		return nil, err
	}
	if err := op.CleanNotes(); err != nil {
		return nil, err
	}
	if err := op.Packs.Only(FieldPacks); err != nil {
		return nil, err
	}
	var mv *Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		var err error
		mv, err = postPickup(txApp, Posting{KeyAt: op.KeyAt,
			Type: TypePickup, UserId: userId, ActorId: op.ActorId(), At: op.when(),
			Notes: op.Notes, Meta: map[string]any{MetaUserNotes: op.Notes},
		}, quantity, AssignmentPickup, op.Packs.Packs)
		if err != nil {
			return err
		}
		return op.Capture(txApp)
	})
	return mv, err
}

// postPickup moves quantity from ready into userId's holding of assignmentType, filling in
// the posting's quantity, meta and legs; packs are the serials named for them.
func postPickup(txApp core.App, p Posting, quantity int, assignmentType string, packs []string) (*Movement, error) {
	// fewer than quantity ready: the guarded update refuses with MsgOnlyReady (shortMessage)
	ready, err := accountRef(txApp, KeyReady)
	if err != nil {
		return nil, err
	}
	holder, err := holderRef(txApp, p.UserId, assignmentType)
	if err != nil {
		return nil, err
	}
	p.Quantity = -quantity
	if p.Meta == nil {
		p.Meta = map[string]any{}
	}
	p.Meta[MetaAssignmentType] = assignmentType
	p.Legs = []Leg{{From: ready, To: holder, Qty: quantity}}
	p.Packs = []PackGroup{{Field: FieldPacks, Serials: packs, Count: quantity, From: []AccountRef{ready}, To: holder}}
	mv, err := Post(txApp, p)
	if err != nil {
		return nil, err
	}
	events.Publish(txApp, MovementEvents...)
	return mv, nil
}

// Dropoff records userId returning good batteries to ready and dead ones to waiting. They
// come out of the user's holdings (pickup first); any excess over what the user holds comes
// from outside and the movement is flagged as a discrepancy.
func Dropoff(app core.App, op Op, userId string, good, dead int) (*Movement, error) {
	if err := reqx.Count("goodBatteries", good, 0, reqx.MaxCount, reqx.MsgCountInvalid, reqx.MsgCountTooLarge); err != nil {
		return nil, err
	}
	if err := reqx.Count("deadBatteries", dead, 0, reqx.MaxCount, reqx.MsgCountInvalid, reqx.MsgCountTooLarge); err != nil {
		return nil, err
	}
	if good+dead < 1 {
		return nil, apierr.Invalid("goodBatteries", MsgDropoffNothing)
	}
	if err := op.CleanNotes(); err != nil {
		return nil, err
	}
	if err := op.Packs.Only(FieldGoodPacks, FieldDeadPacks); err != nil {
		return nil, err
	}
	var mv *Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		legs, packs, excess, err := dropoffLegs(txApp, userId, good, dead, nil, op.Packs)
		if err != nil {
			return err
		}
		mv, err = Post(txApp, Posting{KeyAt: op.KeyAt,
			Type: TypeDropoff, Quantity: good + dead, UserId: userId, ActorId: op.ActorId(), At: op.when(),
			Notes: DropoffNotes(good, dead, op.Notes), Good: good, Dead: dead, Discrepancy: excess > 0,
			Meta: map[string]any{MetaUserNotes: op.Notes, MetaExcess: excess},
			Legs: legs, Packs: packs,
		})
		if err != nil {
			return err
		}
		events.Publish(txApp, MovementEvents...)
		return op.Capture(txApp)
	})
	return mv, err
}

// DropoffNotes are a dropoff's notes with the spec's 'N good' and 'N dead' markers.
func DropoffNotes(good, dead int, notes string) string {
	s := fmt.Sprintf("%d good, %d dead", good, dead)
	if notes != "" {
		s += " - " + notes
	}
	return s
}

// dropoffLegs plans a dropoff of good+dead from userId's holdings (see TakeFromHoldings), and
// the pack groups of names: good packs to ready, dead ones to waiting.
func dropoffLegs(txApp core.App, userId string, good, dead int, adjust map[string]int, names PackNames) ([]Leg, []PackGroup, int, error) {
	ready, err := accountRef(txApp, KeyReady)
	if err != nil {
		return nil, nil, 0, err
	}
	waiting, err := accountRef(txApp, KeyWaiting)
	if err != nil {
		return nil, nil, 0, err
	}
	outside, err := accountRef(txApp, KeyOutside)
	if err != nil {
		return nil, nil, 0, err
	}
	alloc, err := TakeFromHoldings(txApp, userId, good+dead, adjust)
	if err != nil {
		return nil, nil, 0, err
	}
	// everything lands in ready first; the dead share moves on to waiting (entries are netted)
	var legs []Leg
	for _, p := range alloc.Parts {
		legs = append(legs, Leg{From: p.Account.Ref(), To: ready, Qty: p.Qty})
	}
	legs = append(legs, Leg{From: outside, To: ready, Qty: alloc.Excess}, Leg{From: ready, To: waiting, Qty: dead})
	from := alloc.refs()
	packs := []PackGroup{
		{Field: FieldGoodPacks, Serials: names.GoodPacks, Count: good, From: from, FromUser: userId, To: ready},
		{Field: FieldDeadPacks, Serials: names.DeadPacks, Count: dead, From: from, FromUser: userId, To: waiting},
	}
	return legs, packs, alloc.Excess, nil
}

// LogActivity records a rebalance (moves) or retrieves-repairs (recovers) activity: a
// movement without entries that counts for pay only.
func LogActivity(app core.App, op Op, userId, movementType string, quantity int) (*Movement, error) {
	if movementType != TypeRebalance && movementType != TypeRetrievesRepairs {
		return nil, fmt.Errorf("LogActivity: unsupported type %q", movementType)
	}
	if err := reqx.Count("quantity", quantity, 1, reqx.MaxCount, reqx.MsgQuantityRequired, reqx.MsgCountTooLarge); err != nil {
		return nil, err
	}
	if err := op.CleanNotes(); err != nil {
		return nil, err
	}
	var mv *Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		var err error
		mv, err = Post(txApp, Posting{
			Type: movementType, Quantity: quantity, UserId: userId, ActorId: op.ActorId(), At: op.when(),
			Notes: op.Notes, Meta: map[string]any{MetaUserNotes: op.Notes},
		})
		if err != nil {
			return err
		}
		events.Publish(txApp, MovementEvents...)
		return op.Capture(txApp)
	})
	return mv, err
}
