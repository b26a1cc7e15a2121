package inventory

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/modules/journal"
)

// The ledger names its packs (DESIGN.md §14). Counts stay the truth for stock and pay; the
// packs a movement names are its detail, written in the movement's own transaction by Post,
// which calls the pack journal (modules/journal) directly. The write paths only say which
// share of their batteries each named list carries (PackGroup); the tracking mode, the
// refusals, discrepancies, out-of-use packs and the records' reconciliation with the counts
// live in one place, the journal.

// PackNames are the packs a battery-moving request names: Packs where one kind of battery
// moves, GoodPacks and DeadPacks where good and dead are counted apart (dropoffs, swaps).
// A serial may be sent as scanned: bare, or the label's URL <site>/p/<serial>.
type PackNames struct {
	Packs     []string `json:"packs"`
	GoodPacks []string `json:"goodPacks"`
	DeadPacks []string `json:"deadPacks"`
	// Return marks the names of an exchange's return (refusals name returnGoodPacks and
	// returnDeadPacks).
	Return bool `json:"-"`
}

// Request fields that name packs (refusals name the field).
const (
	FieldPacks     = "packs"
	FieldGoodPacks = "goodPacks"
	FieldDeadPacks = "deadPacks"
)

// PackGroup is a share of a posting's batteries and the packs named for it (the journal's).
type PackGroup = journal.Group

// PackMove is one pack a movement moved, kept in the movement's meta (MetaPacks) so that a
// correction or a delete can put it back where it was (the journal's).
type PackMove = journal.Move

// MetaPacks is the meta key of a movement's pack moves ([]PackMove).
const MetaPacks = journal.MetaPacks

// PackMoves returns the packs the movement moved (MetaPacks).
func (m *Movement) PackMoves() []PackMove {
	var meta struct {
		Packs []PackMove `json:"packs"`
	}
	_ = m.UnmarshalJSONField(schema.MovementMeta, &meta)
	return meta.Packs
}

// journalMovement is what the pack journal needs of movement rec (keyAt: when its request's
// Idempotency-Key was minted, zero when not keyed).
func journalMovement(rec *core.Record, keyAt time.Time) journal.Movement {
	mv := &Movement{rec}
	return journal.Movement{Id: rec.Id, UserId: mv.UserId(), ActorId: mv.ActorId(), SessionId: mv.SessionId(),
		At: rec.GetDateTime(schema.MovementOccurredAt).Time(), KeyAt: keyAt}
}

// returnPacks puts movement mv's packs back (a delete or a correction by op's actor); reason
// goes into each pack's history. It returns the named moves it put back.
func returnPacks(txApp core.App, op Op, mv *Movement, undo map[string]int, reason string) ([]PackMove, error) {
	moves := mv.PackMoves()
	if len(moves) == 0 {
		return nil, nil
	}
	return journal.Return(txApp, journalMovement(mv.Record, time.Time{}), moves, undo, op.ActorId(), reason)
}

// preparePacks reads the packs of groups for a movement keyed at keyAt, before its balances
// (journal.Prepare): an out-of-use pack returned to ready or waiting takes its battery to the
// quarantine account, so the legs bound there are redirected; in required mode a battery
// the legs take from outside comes from where the records had its named pack (sourceExcess;
// adjust: what a correction's reversal will add to the balances first). It returns the plan
// and the legs to post.
func preparePacks(txApp core.App, keyAt time.Time, groups []PackGroup, legs []Leg, adjust map[string]int) (*journal.Plan, []Leg, error) {
	if len(groups) == 0 {
		return nil, legs, nil
	}
	quarantine, err := accountRef(txApp, KeyQuarantine)
	if err != nil {
		return nil, nil, err
	}
	plan, err := journal.Prepare(txApp, journal.Movement{KeyAt: keyAt}, groups, quarantine)
	if err != nil {
		return plan, legs, err
	}
	if len(plan.Redirected) > 0 {
		out := make([]Leg, 0, len(legs)+1)
		left := maps.Clone(plan.Redirected)
		for _, l := range legs {
			if n := min(left[l.To.Id], l.Qty); n > 0 {
				left[l.To.Id] -= n
				out = append(out, Leg{From: l.From, To: quarantine, Qty: n})
				l.Qty -= n
			}
			out = append(out, l)
		}
		legs = out
	}
	if len(plan.Sourced) > 0 {
		if legs, err = sourceExcess(txApp, legs, plan.Sourced, adjust); err != nil {
			return nil, nil, err
		}
	}
	return plan, legs, nil
}

// sourceExcess takes the batteries of legs that come from outside (a dropoff's excess over
// what the driver holds) from where the records put the packs named for them (sourced, by
// account id: journal.Plan.Sourced, required mode), as far as those accounts' balances allow
// once the other legs have drawn on them (and adjust, a correction's reversal, has been added);
// the rest still comes from outside. A pack already where the leg goes (brought back to the
// shelf the records had it on) adds no battery there.
func sourceExcess(txApp core.App, legs []Leg, sourced, adjust map[string]int) ([]Leg, error) {
	drawn := map[string]int{}
	for _, l := range legs {
		drawn[l.From.Id] += l.Qty
	}
	avail := map[string]int{}
	for _, id := range slices.Sorted(maps.Keys(sourced)) {
		acc, err := FindAccount(txApp, id)
		if err != nil {
			return nil, err
		}
		avail[id] = min(sourced[id], max(0, acc.Balance()+adjust[id]-drawn[id]))
	}
	out := make([]Leg, 0, len(legs)+len(sourced))
	for _, l := range legs {
		if l.From.Kind != schema.AccountKindOutside {
			out = append(out, l)
			continue
		}
		for _, id := range slices.Sorted(maps.Keys(avail)) {
			n := min(avail[id], l.Qty)
			if n <= 0 {
				continue
			}
			avail[id] -= n
			l.Qty -= n
			if id == l.To.Id {
				continue // already there: no battery moves
			}
			acc, err := FindAccount(txApp, id)
			if err != nil {
				return nil, err
			}
			out = append(out, Leg{From: acc.Ref(), To: l.To, Qty: n})
		}
		if l.Qty > 0 {
			out = append(out, l)
		}
	}
	return out, nil
}

// applyPacks writes the packs of plan for rec, a movement about to be stored with entries
// deltas, and keeps the moves in its meta (MetaPacks, and MetaUnnamed for batteries moved
// without packs under the offline grace of required mode).
func applyPacks(txApp core.App, rec *core.Record, plan *journal.Plan, deltas map[string]int, keyAt time.Time) error {
	if plan == nil {
		return nil
	}
	moves, err := plan.Apply(txApp, journalMovement(rec, keyAt), deltas)
	if err != nil {
		return err
	}
	mv := &Movement{rec}
	meta := mv.Meta()
	if len(moves) > 0 {
		meta[MetaPacks] = moves
	} else {
		delete(meta, MetaPacks)
	}
	if plan.Unnamed > 0 {
		meta[journal.MetaUnnamed] = plan.Unnamed
	}
	if len(plan.Redirected) > 0 {
		n := 0
		for _, q := range plan.Redirected {
			n += q
		}
		meta[MetaQuarantined] = n
	}
	rec.Set("meta", meta)
	return nil
}

// MetaQuarantined is the meta key of how many of a movement's batteries went to quarantine
// instead of ready or waiting (out-of-use packs returned).
const MetaQuarantined = "quarantined"

// Named reports whether the request named packs in any field (an empty list counts: it
// names none on purpose).
func (n PackNames) Named() bool {
	return n.Packs != nil || n.GoodPacks != nil || n.DeadPacks != nil
}

// orPrevious returns n, or when it names nothing, the serials of returned by field (a
// correction that does not name packs names again the packs its movement had, those that had
// not moved on).
func (n PackNames) orPrevious(returned []PackMove) PackNames {
	if n.Named() {
		return n
	}
	var out PackNames
	for _, m := range returned {
		switch f := strings.TrimPrefix(m.Field, "return"); strings.ToLower(f[:min(1, len(f))]) + f[min(1, len(f)):] {
		case FieldPacks:
			out.Packs = append(out.Packs, m.Serial)
		case FieldGoodPacks:
			out.GoodPacks = append(out.GoodPacks, m.Serial)
		case FieldDeadPacks:
			out.DeadPacks = append(out.DeadPacks, m.Serial)
		}
	}
	return out
}

// MsgPacksField refuses packs named in a field the write does not take (e.g. packs on a
// dropoff, which names goodPacks and deadPacks).
const MsgPacksField = "This action names its packs as %s"

// MsgPacksNone refuses packs named on a write that moves no batteries.
const MsgPacksNone = "This action moves no batteries: it names no packs"

// Only refuses the fields of n that a write does not take (fields: the ones it does).
func (n PackNames) Only(fields ...string) error {
	sent := map[string][]string{FieldPacks: n.Packs, FieldGoodPacks: n.GoodPacks, FieldDeadPacks: n.DeadPacks}
	for _, f := range []string{FieldPacks, FieldGoodPacks, FieldDeadPacks} {
		if sent[f] == nil || slices.Contains(fields, f) {
			continue
		}
		named := make([]string, len(fields))
		for i, g := range fields {
			named[i] = n.field(g)
		}
		if len(named) == 0 {
			return apierr.Invalid(n.field(f), MsgPacksNone)
		}
		return apierr.Invalid(n.field(f), fmt.Sprintf(MsgPacksField, strings.Join(named, " and ")))
	}
	return nil
}

// field is the request's name of field f (an exchange's return prefixes it).
func (n PackNames) field(f string) string {
	if n.Return {
		return "return" + strings.ToUpper(f[:1]) + f[1:]
	}
	return f
}

// The meta kinds (MetaKind) of the movements that carry a pack's battery when its state
// changes (Shelve): they follow the pack's state and are not deleted on their own
// (MsgShelvedKept).
const (
	KindShelvedQuarantine = "quarantine"
	KindShelvedRelease    = "release"
)

// Reasons of the movements that carry a pack's battery when its state changes.
const (
	MsgShelvedQuarantine = "Out of use: %d moved to quarantine (%s)"
	MsgShelvedRelease    = "Back in use: %d moved from quarantine to waiting (%s)"
)

// Shelve moves the batteries of packs whose state changed with them (DESIGN.md §14): a pack
// that went out of use in ready or waiting goes to the quarantine account, one released from
// quarantine goes to waiting — one internal_transfer movement for each direction, in txApp's
// transaction (the caller publishes MovementEvents). Where the counts hold fewer batteries than the records put packs there
// (optional tracking), only as many move. It returns the movements written.
func Shelve(txApp core.App, op Op, changes []journal.Change) ([]*Movement, error) {
	quarantine, err := accountRef(txApp, KeyQuarantine)
	if err != nil {
		return nil, err
	}
	waiting, err := accountRef(txApp, KeyWaiting)
	if err != nil {
		return nil, err
	}
	type leg struct{ from, to string }
	bySource := map[leg][]string{}
	var order []leg
	for _, c := range changes {
		var l leg
		switch {
		case c.WentOutOfUse() && (c.LocationKind == schema.AccountKindReady || c.LocationKind == schema.AccountKindWaiting):
			l = leg{c.Location, quarantine.Id}
		case c.Released() && c.LocationKind == schema.AccountKindQuarantine:
			l = leg{quarantine.Id, waiting.Id}
		default:
			continue
		}
		if _, ok := bySource[l]; !ok {
			order = append(order, l)
		}
		bySource[l] = append(bySource[l], c.Serial)
	}
	var out []*Movement
	for _, dir := range []string{quarantine.Id, waiting.Id} {
		var legs []Leg
		var groups []PackGroup
		var serials []string
		for _, l := range order {
			if l.to != dir {
				continue
			}
			from, err := FindAccount(txApp, l.from)
			if err != nil {
				return nil, err
			}
			list := bySource[l]
			list = list[:min(len(list), from.Balance())]
			if len(list) == 0 {
				continue
			}
			to := quarantine
			if dir == waiting.Id {
				to = waiting
			}
			legs = append(legs, Leg{From: from.Ref(), To: to, Qty: len(list)})
			groups = append(groups, PackGroup{Serials: list, Count: len(list), From: []AccountRef{from.Ref()}, To: to, Always: true})
			serials = append(serials, list...)
		}
		if len(legs) == 0 {
			continue
		}
		format, kind := MsgShelvedQuarantine, KindShelvedQuarantine
		if dir == waiting.Id {
			format, kind = MsgShelvedRelease, KindShelvedRelease
		}
		notes := fmt.Sprintf(format, len(serials), strings.Join(serials, ", "))
		if len(notes) > 2000 {
			notes = notes[:1999] + "…"
		}
		mv, err := Post(txApp, Posting{
			Type: TypeInternalTransfer, Quantity: len(serials), Notes: notes, UserId: op.ActorId(), ActorId: op.ActorId(),
			At: op.when(), Meta: map[string]any{MetaKind: kind}, Legs: legs, Packs: groups,
		})
		if err != nil {
			return nil, err
		}
		out = append(out, mv)
	}
	return out, nil // the caller announces its change (MovementEvents among them when out is not empty)
}
