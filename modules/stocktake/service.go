package stocktake

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
	"swapbay/modules/packs"
)

// Places a stocktake counts (DESIGN.md §14).
const (
	PlaceReady      = "ready"
	PlaceWaiting    = "waiting"
	PlaceQuarantine = "quarantine"
	PlaceChargers   = "chargers"
	PlaceBay        = "bay"
)

// Places lists them in the order the screen offers them.
var Places = []string{PlaceReady, PlaceWaiting, PlaceQuarantine, PlaceChargers, PlaceBay}

// MaxSerials bounds one stocktake's scanned list (a whole bay of the largest fleet a request
// counts, reqx.MaxCount).
const MaxSerials = reqx.MaxCount

// Messages of the stocktake.
const (
	MsgPlace   = "Place must be one of ready, waiting, quarantine, chargers, bay"
	MsgSerials = "Scan at least one pack, or count the place as empty"
	// MsgEmptyScanned refuses scans sent with empty (the place counted as holding no pack):
	// which one the admin meant cannot be told, and taking either would lose the other.
	MsgEmptyScanned = "A place counted as empty has no scanned packs: send the scans or count it as empty"
	MsgTooMany      = "A stocktake counts at most 10,000 packs"
	MsgNotTracking  = "Turn pack tracking on (optional or required) before a stocktake"
	msgApplied      = "Stocktake applied: %s"
	msgPreview      = "Stocktake of %s: %s"
)

// placeNames is how each place reads in messages and in the packs' history.
var placeNames = map[string]string{
	PlaceReady: "the ready shelf", PlaceWaiting: "the waiting shelf", PlaceQuarantine: "quarantine",
	PlaceChargers: "the chargers", PlaceBay: "the whole bay",
}

// Input is what the admin counted: the place and the serials scanned there (bare or as the
// label's URL). Empty confirms the place holds no pack at all (else an empty list is refused).
type Input struct {
	Place   string
	Serials []string
	Empty   bool
}

// Result is a stocktake's answer: the tally in people's words, and once applied the movement.
type Result struct {
	Place      string              `json:"place"`
	Applied    bool                `json:"applied"`
	Counts     Counts              `json:"counts"`
	Found      []Pack              `json:"found"`
	Missing    []Pack              `json:"missing"`
	Unexpected []Pack              `json:"unexpected"`
	WrongPlace []Pack              `json:"wrongPlace"`
	Unknown    []string            `json:"unknown"`
	Movement   *inventory.Movement `json:"movement"`
	Summary    string              `json:"-"`
}

// Counts are the tally's sizes, and the place's count before and after.
type Counts struct {
	Scanned    int `json:"scanned"`
	Expected   int `json:"expected"` // packs the records put here
	Found      int `json:"found"`
	Missing    int `json:"missing"`
	Unexpected int `json:"unexpected"`
	WrongPlace int `json:"wrongPlace"`
	Unknown    int `json:"unknown"`
	Before     int `json:"before"`  // the place's batteries as the ledger counts them
	After      int `json:"after"`   // what Apply leaves: the packs counted here
	Refused    int `json:"refused"` // scanned packs Apply would refuse (each with its refusal)
}

// Pack is one counted pack: its state, where the records had it (nil: nowhere), when it was
// last seen and, for a missing one, the last person it was with.
type Pack struct {
	Serial     string        `json:"serial"`
	State      string        `json:"state"`
	From       *packs.Place  `json:"from"`
	LastSeenAt string        `json:"lastSeenAt"`
	LastHolder *packs.Person `json:"lastHolder,omitempty"`
	// Refusal is why Apply would refuse this pack (a pack sent to another city: 409
	// pack_in_transit, the same code and message), so the preview says it before the admin
	// applies; nil when it can be counted.
	Refusal *Refusal `json:"refusal,omitempty"`
}

// Refusal is a pack's refusal as Apply would give it: its code and message.
type Refusal struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// place resolves a place's name into what the journal counts.
func place(txApp core.App, name string) (journal.Place, error) {
	ref := func(key string) (inventory.AccountRef, error) {
		acc, err := inventory.SystemAccount(txApp, key)
		if err != nil {
			return inventory.AccountRef{}, err
		}
		return acc.Ref(), nil
	}
	q, err := ref(inventory.KeyQuarantine)
	if err != nil {
		return journal.Place{}, err
	}
	p := journal.Place{Name: placeNames[name], Quarantine: q}
	var here string
	switch name {
	case PlaceReady:
		p.Kinds, here = []string{schema.AccountKindReady}, inventory.KeyReady
	case PlaceWaiting:
		p.Kinds, here = []string{schema.AccountKindWaiting}, inventory.KeyWaiting
	case PlaceQuarantine:
		p.Kinds, here = []string{schema.AccountKindQuarantine}, inventory.KeyQuarantine
	case PlaceChargers:
		// a pack found on a charger that no session names is counted as charging (untracked)
		p.Kinds, here = []string{schema.AccountKindSession, schema.AccountKindUntracked}, inventory.KeyUntracked
	case PlaceBay:
		// a pack found in the bay that the records had elsewhere waits to be charged
		p.Kinds, here = slices.Clone(journal.BayKinds), inventory.KeyWaiting
	default:
		return journal.Place{}, apierr.Invalid("place", MsgPlace)
	}
	if p.Here, err = ref(here); err != nil {
		return journal.Place{}, err
	}
	return p, nil
}

// check refuses what no stocktake can be, before anything is read.
func check(in Input) error {
	if !slices.Contains(Places, in.Place) {
		return apierr.Invalid("place", MsgPlace)
	}
	if len(in.Serials) > MaxSerials {
		return apierr.Invalid("serials", MsgTooMany)
	}
	if len(in.Serials) == 0 && !in.Empty {
		return apierr.Invalid("serials", MsgSerials)
	}
	if len(in.Serials) > 0 && in.Empty {
		return apierr.Invalid("serials", MsgEmptyScanned)
	}
	return nil
}

// Reconcile compares what was scanned with the records and writes nothing: the screen's live
// found / missing / unexpected / wrong place.
func Reconcile(app core.App, in Input) (*Result, error) {
	if err := check(in); err != nil {
		return nil, err
	}
	if in.Empty {
		in.Serials = nil
	}
	// a read: no transaction, so a scan's live preview never holds the write lock
	if err := journal.RequireTracking(app, MsgNotTracking); err != nil {
		return nil, err
	}
	p, err := place(app, in.Place)
	if err != nil {
		return nil, err
	}
	t, err := journal.Count(app, p, in.Serials)
	if err != nil {
		return nil, err
	}
	return result(app, in.Place, t)
}

// Apply counts in.Place as scanned: one keyed `stocktake` movement moves the counts and the
// packs together to what was scanned (missing packs lost, unexpected ones moved here, each a
// discrepancy, out-of-use ones to quarantine), in one transaction. Unknown serials refuse the
// whole stocktake (pack_unknown, each in data.packs): nothing changes.
func Apply(app core.App, op inventory.Op, in Input) (*Result, error) {
	if err := check(in); err != nil {
		return nil, err
	}
	if in.Empty {
		in.Serials = nil
	}
	var res *Result
	err := app.RunInTransaction(func(txApp core.App) error {
		if err := journal.RequireTracking(txApp, MsgNotTracking); err != nil {
			return err
		}
		p, err := place(txApp, in.Place)
		if err != nil {
			return err
		}
		t, err := journal.Count(txApp, p, in.Serials)
		if err != nil {
			return err
		}
		if err := t.UnknownErr(); err != nil {
			return err
		}
		if err := t.TransitErr(txApp); err != nil {
			return err
		}
		outside, err := inventory.SystemAccount(txApp, inventory.KeyOutside)
		if err != nil {
			return err
		}
		legs, before, after := legsOf(t, outside.Ref())
		if res, err = result(txApp, in.Place, t); err != nil {
			return err
		}
		mv, err := inventory.Post(txApp, inventory.Posting{
			Type: inventory.TypeStocktake, Quantity: after - before, Notes: fmt.Sprintf(msgPreview, placeNames[in.Place], res.Summary),
			UserId: op.ActorId(), ActorId: op.ActorId(), Discrepancy: len(t.Unexpected) > 0 || len(t.WrongPlace) > 0,
			At: op.At, Legs: legs,
			Meta: map[string]any{inventory.MetaKind: "stocktake", "place": in.Place, "scanned": len(in.Serials),
				"found": len(t.Found), "missing": len(t.Missing), "unexpected": len(t.Unexpected), "wrongPlace": len(t.WrongPlace),
				"before": before, "after": after},
		})
		if err != nil {
			return err
		}
		jm := journal.Movement{Id: mv.Id, UserId: op.ActorId(), ActorId: op.ActorId(), At: mv.OccurredAt()}
		if err := t.Apply(txApp, jm); err != nil {
			return err
		}
		// a session's quantity follows its account (a missing pack left a charger); one left
		// with no battery ends, as a quantity lowered to 0 does
		if err := charging.SyncQuantities(txApp); err != nil {
			return err
		}
		if err := charging.EndEmptied(txApp, mv.OccurredAt()); err != nil {
			return err
		}
		res.Applied, res.Movement = true, mv
		events.Publish(txApp, append(slices.Clone(inventory.MovementEvents), events.ChargingUpdated)...)
		return op.Capture(txApp)
	})
	return res, err
}

// legsOf is the stocktake movement's legs: each unexpected or wrong-place pack's battery comes
// from where the records had it (from outside when that place has none to give), each missing
// pack's leaves for outside, and each counted account's count is then set to the packs counted
// there (the rest to or from outside). before and after are the place's counts.
func legsOf(t *journal.Tally, outside inventory.AccountRef) (legs []inventory.Leg, before, after int) {
	ref := func(id string) inventory.AccountRef {
		return inventory.AccountRef{Id: id, Key: t.Keys[id], Kind: t.Kinds[id]}
	}
	left := map[string]int{}
	for id, b := range t.Balances {
		left[id] = b
	}
	add := func(from, to inventory.AccountRef, n int) {
		if n > 0 {
			legs = append(legs, inventory.Leg{From: from, To: to, Qty: n})
		}
	}
	in := map[string]int{}
	target := map[string]int{}
	for _, c := range t.Found {
		target[c.To]++
	}
	for _, list := range [][]journal.Counted{t.Unexpected, t.WrongPlace} {
		for _, c := range list {
			target[c.To]++
			if c.From == c.To {
				continue
			}
			in[c.To]++
			if c.From != "" && c.FromKind != schema.AccountKindOutside && left[c.From] > 0 {
				left[c.From]--
				add(ref(c.From), ref(c.To), 1)
			} else {
				add(outside, ref(c.To), 1)
			}
		}
	}
	for _, c := range t.Missing {
		if left[c.From] > 0 {
			left[c.From]--
			add(ref(c.From), outside, 1)
		}
	}
	for _, id := range t.InPlace {
		before += t.Balances[id]
		after += target[id]
		now := left[id] + in[id]
		add(ref(id), outside, now-target[id])
		add(outside, ref(id), target[id]-now)
	}
	return legs, before, after
}

// result puts tally t in people's words: each pack with where the records had it, the missing
// ones with their last holder.
func result(txApp core.App, placeName string, t *journal.Tally) (*Result, error) {
	var froms, missingIds []string
	for _, list := range [][]journal.Counted{t.Missing, t.Unexpected, t.WrongPlace} {
		for _, c := range list {
			if c.From != "" && !slices.Contains(froms, c.From) {
				froms = append(froms, c.From)
			}
		}
	}
	for _, c := range t.Missing {
		missingIds = append(missingIds, c.PackId)
	}
	places, err := packs.PlacesOf(txApp, froms)
	if err != nil {
		return nil, err
	}
	holders, err := packs.LastHolders(txApp, missingIds)
	if err != nil {
		return nil, err
	}
	conv := func(list []journal.Counted) []Pack {
		out := make([]Pack, len(list))
		for i, c := range list {
			out[i] = Pack{Serial: c.Serial, State: c.State, From: places[c.From], LastSeenAt: c.LastSeenAt, LastHolder: holders[c.PackId]}
		}
		return out
	}
	res := &Result{Place: placeName, Found: conv(t.Found), Missing: conv(t.Missing), Unexpected: conv(t.Unexpected),
		WrongPlace: conv(t.WrongPlace), Unknown: t.Unknown}
	// the packs Apply would refuse, each with the refusal it would give
	transit, err := t.InTransit(txApp)
	if err != nil {
		return nil, err
	}
	refused := make(map[string]*Refusal, len(transit))
	for _, r := range transit {
		refused[r.Serial] = &Refusal{Code: r.Code, Message: r.Message}
	}
	for i := range res.Unexpected {
		res.Unexpected[i].Refusal = refused[res.Unexpected[i].Serial]
	}
	if res.Unknown == nil {
		res.Unknown = []string{}
	}
	_, before, after := legsOf(t, inventory.AccountRef{})
	res.Counts = Counts{Scanned: len(t.Found) + len(t.Unexpected) + len(t.WrongPlace) + len(t.Unknown),
		Expected: len(t.Found) + len(t.Missing), Found: len(t.Found), Missing: len(t.Missing), Unexpected: len(t.Unexpected),
		WrongPlace: len(t.WrongPlace), Unknown: len(t.Unknown), Before: before, After: after, Refused: len(transit)}
	for _, c := range t.WrongPlace {
		if slices.Contains(t.InPlace, c.From) {
			res.Counts.Expected++ // the records had it here
		}
	}
	parts := []string{fmt.Sprintf("%d found", res.Counts.Found), fmt.Sprintf("%d missing", res.Counts.Missing),
		fmt.Sprintf("%d unexpected", res.Counts.Unexpected)}
	if res.Counts.WrongPlace > 0 {
		parts = append(parts, fmt.Sprintf("%d in the wrong place", res.Counts.WrongPlace))
	}
	if res.Counts.Refused > 0 {
		parts = append(parts, fmt.Sprintf("%d cannot be counted here", res.Counts.Refused))
	}
	res.Summary = strings.Join(parts, ", ")
	return res, nil
}

// Message is the answer's toast.
func (r *Result) Message() string {
	if r.Applied {
		return fmt.Sprintf(msgApplied, r.Summary)
	}
	return fmt.Sprintf(msgPreview, placeNames[r.Place], r.Summary)
}
