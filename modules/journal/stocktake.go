package journal

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/lib/txutil"
)

// A stocktake (DESIGN.md §14, issue 42 item 4): an admin counts a place by scanning every
// pack there. Count compares the scanned serials with the records — found (the records have it
// here), missing (the records have it here, it was not scanned), unexpected (scanned here, the
// records had it elsewhere or nowhere), wrong place (an out-of-use pack scanned where it may
// not stay: it goes to quarantine) and unknown serials — and writes nothing. Apply writes what
// the tally says in the stocktake movement's transaction: an unexpected pack moves here (a
// discrepancy: where it was scanned, where the records had it), a wrong-place one to quarantine,
// a missing one leaves the place and is lost (its last holder is kept in its history: the
// lastSeen fields stay), a lost pack scanned is found. The ledger moves the batteries with them
// (modules/stocktake), so the place's count equals what was scanned.

// Messages of a stocktake's refusals.
const (
	// MsgStocktakeUnknown refuses an apply that names serials no pack has (each in data.packs).
	MsgStocktakeUnknown = "%d scanned codes are not packs: %s"
	// ReasonStocktakeMissing is the history's reason for a pack the stocktake did not find.
	ReasonStocktakeMissing = "Not found at the stocktake of %s"
	// ReasonStocktakeWrongPlace is the history's reason for an out-of-use pack counted outside
	// quarantine.
	ReasonStocktakeWrongPlace = "Counted at the stocktake of %s: out of use, moved to quarantine"
	// ReasonStocktakeUnexpected is the history's reason for a pack counted where the records did
	// not have it.
	ReasonStocktakeUnexpected = "Counted at the stocktake of %s where the records did not have it"
	// MsgStocktakeInTransit refuses an apply that counts a pack sent to another city (its
	// serial, the city): the send still says it left, so counting it here would put it in two
	// cities. The way out is the send's own undo, or leaving it out of the count.
	MsgStocktakeInTransit = "Pack %s was sent to %s and cannot be counted here: if it never left, delete its send on the Activity page; if it left, leave it out of the count"
	// MsgStocktakeInTransitMany is the same refusal of several packs (how many, their serials).
	MsgStocktakeInTransitMany = "%d packs were sent to another city and cannot be counted here: %s. If they never left, delete their send on the Activity page; if they left, leave them out of the count"
)

// Place is what a stocktake counts: the accounts of Kinds (their packs are expected), where a
// pack scanned here but recorded elsewhere goes (Here, one of them), and the bay's quarantine
// account (where an out-of-use pack counted anywhere else goes). Name is how the place reads in
// the packs' history ("the ready shelf").
type Place struct {
	Name       string
	Kinds      []string
	Here       AccountRef
	Quarantine AccountRef
}

// Counted is one pack of a stocktake: where the records had it and where the stocktake leaves
// it (To "" for a missing pack: it leaves the place).
type Counted struct {
	Serial     string `json:"serial"`
	State      string `json:"state"`
	From       string `json:"from"`     // account id where the records had it ("" unknown)
	FromKey    string `json:"fromKey"`  // that account's key ("ready", "holder:<user>:pickup", …; "" unknown)
	FromKind   string `json:"fromKind"` // its kind
	FromUser   string `json:"fromUser,omitempty"`
	To         string `json:"to"`
	LastSeenAt string `json:"lastSeenAt"`
	PackId     string `json:"-"`
	r          row
}

// Tally is a stocktake's comparison of the scanned serials with the records (Count).
type Tally struct {
	Place      Place
	Found      []Counted
	Missing    []Counted
	Unexpected []Counted
	WrongPlace []Counted
	Unknown    []string
	// Balances are the ledger's balances of the place's accounts and of every account a
	// counted pack leaves or joins (by id), as read by Count; Kinds and Keys their kinds and keys.
	Balances map[string]int
	Kinds    map[string]string
	Keys     map[string]string
	// InPlace lists the place's accounts (ids), the ones whose counts the stocktake sets.
	InPlace []string
}

// Count compares codes (serials as scanned: bare or the label's URL) with the packs the records
// put at place, and reads the balances the ledger needs; it writes nothing. Blank codes, codes
// too long to be a serial, and a pack scanned twice are refused (400, naming them in
// data.packs); serials no pack has are listed as Unknown. Call it inside the transaction that
// applies it, or alone for a preview.
func Count(txApp core.App, place Place, codes []string) (*Tally, error) {
	serials := make([]string, 0, len(codes))
	seen := make(map[string]bool, len(codes))
	for _, code := range codes {
		serial := Serial(code)
		if serial == "" {
			return nil, packErr(http.StatusBadRequest, "serials", apierr.CodePackUnknown, MsgPackBlank)
		}
		if len(serial) > schema.MaxPackSerialLength {
			short := serial[:schema.MaxPackSerialLength]
			e := packErr(http.StatusBadRequest, "serials", apierr.CodePackUnknown, fmt.Sprintf(MsgPackUnknown, short+"…"))
			e.(*apierr.Error).Packs = []apierr.PackRefusal{{Serial: short, Code: apierr.CodePackUnknown, Message: e.Error()}}
			return nil, e
		}
		if seen[serial] {
			e := packErr(http.StatusBadRequest, "serials", apierr.CodePackCount, fmt.Sprintf(MsgPackTwice, serial))
			e.(*apierr.Error).Packs = []apierr.PackRefusal{{Serial: serial, Code: apierr.CodePackCount, Message: e.Error()}}
			return nil, e
		}
		seen[serial] = true
		serials = append(serials, serial)
	}
	t := &Tally{Place: place, Balances: map[string]int{}, Kinds: map[string]string{}, Keys: map[string]string{}}

	// the place's accounts: those of its kinds that hold batteries or packs
	params := dbx.Params{}
	kinds := sqlitedb.In(params, "k", place.Kinds)
	err := sqlitedb.Query(txApp.DB(), "SELECT id, key, kind, balance FROM "+schema.Accounts+" WHERE kind IN ("+kinds+")"+
		" AND (balance != 0 OR id IN (SELECT location FROM "+schema.Packs+" WHERE location != '') OR id = {:here})",
		with(params, "here", place.Here.Id), func(scan func(...any) error) error {
			var id, key, kind string
			var balance int
			if err := scan(&id, &key, &kind, &balance); err != nil {
				return err
			}
			t.Balances[id], t.Kinds[id], t.Keys[id] = balance, kind, key
			t.InPlace = append(t.InPlace, id)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("stocktake: read the place: %w", err)
	}
	inPlace := make(map[string]bool, len(t.InPlace))
	for _, id := range t.InPlace {
		inPlace[id] = true
	}

	// the packs the records put there, and the scanned ones
	expected := map[string]row{}
	if len(t.InPlace) > 0 {
		params := dbx.Params{}
		err = sqlitedb.Query(txApp.DB(), selectRows+" WHERE p.location IN ("+sqlitedb.In(params, "a", t.InPlace)+")", params, scanRow(expected))
		if err != nil {
			return nil, err
		}
	}
	found, err := bySerial(txApp, serials)
	if err != nil {
		return nil, err
	}
	counted := func(r row, to string) Counted {
		from := r.location
		if r.locKind == schema.AccountKindOutside {
			from = ""
		}
		c := Counted{Serial: r.serial, State: r.state, From: from, FromKind: r.locKind, FromUser: r.locUser, To: to,
			LastSeenAt: r.lastSeen, PackId: r.id, r: r}
		if from == "" {
			c.FromKind = ""
		}
		return c
	}
	for _, serial := range serials {
		r, ok := found[serial]
		if !ok {
			t.Unknown = append(t.Unknown, serial)
			continue
		}
		here := inPlace[r.location]
		to := place.Here.Id
		if here {
			to = r.location
		}
		switch {
		case r.outOfUse() && (here && t.Kinds[r.location] != schema.AccountKindQuarantine || !here && place.Here.Kind != schema.AccountKindQuarantine):
			t.WrongPlace = append(t.WrongPlace, counted(r, place.Quarantine.Id))
		case here:
			t.Found = append(t.Found, counted(r, to))
		default:
			t.Unexpected = append(t.Unexpected, counted(r, to))
		}
	}
	for serial, r := range expected {
		if !seen[serial] {
			t.Missing = append(t.Missing, counted(r, ""))
		}
	}
	sort.Slice(t.Missing, func(i, j int) bool { return t.Missing[i].Serial < t.Missing[j].Serial })

	// the other accounts the counted packs leave or join, with their balances and keys
	var others []string
	add := func(id string) {
		if _, ok := t.Balances[id]; !ok && id != "" && !slices.Contains(others, id) {
			others = append(others, id)
		}
	}
	for _, list := range [][]Counted{t.Unexpected, t.WrongPlace} {
		for _, c := range list {
			add(c.From)
			add(c.To)
		}
	}
	if len(others) > 0 {
		params := dbx.Params{}
		err = sqlitedb.Query(txApp.DB(), "SELECT id, key, kind, balance FROM "+schema.Accounts+" WHERE id IN ("+sqlitedb.In(params, "o", others)+")", params,
			func(scan func(...any) error) error {
				var id, key, kind string
				var balance int
				if err := scan(&id, &key, &kind, &balance); err != nil {
					return err
				}
				t.Balances[id], t.Kinds[id], t.Keys[id] = balance, kind, key
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	for _, list := range [][]Counted{t.Found, t.Missing, t.Unexpected, t.WrongPlace} {
		for i := range list {
			list[i].FromKey = t.Keys[list[i].From]
		}
	}
	return t, nil
}

// with sets params[k] = v and returns params.
func with(params dbx.Params, k string, v any) dbx.Params {
	params[k] = v
	return params
}

// UnknownErr is the refusal of an apply whose tally has serials no pack has (400 pack_unknown,
// each named in data.packs), or nil.
func (t *Tally) UnknownErr() error {
	if len(t.Unknown) == 0 {
		return nil
	}
	list := make([]apierr.PackRefusal, len(t.Unknown))
	for i, s := range t.Unknown {
		list[i] = apierr.PackRefusal{Serial: s, Code: apierr.CodePackUnknown, Message: fmt.Sprintf(MsgPackUnknown, s)}
	}
	msg := list[0].Message
	if len(list) > 1 {
		shown := t.Unknown[:min(len(t.Unknown), 10)]
		msg = fmt.Sprintf(MsgStocktakeUnknown, len(list), strings.Join(shown, ", "))
		if len(t.Unknown) > len(shown) {
			msg += ", …"
		}
	}
	return &apierr.Error{Kind: apierr.ErrInvalid, Message: msg, Field: "serials", Code: apierr.CodePackUnknown, Packs: list}
}

// InTransit lists the tally's packs sent to another city, each with the refusal an apply would
// give it (pack_in_transit, naming the city its send named), in scan order; none: nil. The
// preview shows them before the admin applies (DESIGN.md §14); TransitErr refuses the apply.
func (t *Tally) InTransit(txApp core.App) ([]apierr.PackRefusal, error) {
	var ids []string
	for _, c := range t.Unexpected {
		if c.r.state == schema.PackStateInTransit {
			ids = append(ids, c.r.id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	// where each went: its latest "transferred" event says so in its history line
	cities := map[string]string{}
	params := dbx.Params{"k": schema.PackEventTransferred}
	err := sqlitedb.Query(txApp.DB(), "SELECT pack, reason FROM "+schema.PackEvents+" WHERE kind = {:k} AND pack IN ("+
		sqlitedb.In(params, "p", ids)+") ORDER BY rowid", params, func(scan func(...any) error) error {
		var pack, reason string
		if err := scan(&pack, &reason); err != nil {
			return err
		}
		cities[pack] = reason
		return nil
	})
	if err != nil {
		return nil, err
	}
	var list []apierr.PackRefusal
	for _, c := range t.Unexpected {
		if c.r.state != schema.PackStateInTransit {
			continue
		}
		city, ok := strings.CutPrefix(cities[c.r.id], strings.TrimSuffix(ReasonTransferred, "%s"))
		if !ok || city == "" {
			city = "another city"
		}
		list = append(list, apierr.PackRefusal{Serial: c.Serial, Code: apierr.CodePackInTransit, Message: fmt.Sprintf(MsgStocktakeInTransit, c.Serial, city)})
	}
	return list, nil
}

// TransitErr is the refusal of an apply whose tally counts packs sent to another city (409
// pack_in_transit, each named in data.packs with the city its send named), or nil. Such a pack
// left this city's counts and total with its send, whose record still says it went: counted
// back here it would be in service in two cities (DESIGN.md §15) and this city's total one
// short. Deleting the send (the Activity page) is the undo of a send that never left.
func (t *Tally) TransitErr(txApp core.App) error {
	list, err := t.InTransit(txApp)
	if err != nil || len(list) == 0 {
		return err
	}
	msg := list[0].Message
	if len(list) > 1 {
		serials := make([]string, 0, min(len(list), 10))
		for _, r := range list[:min(len(list), 10)] {
			serials = append(serials, r.Serial)
		}
		joined := strings.Join(serials, ", ")
		if len(list) > len(serials) {
			joined += ", …"
		}
		msg = fmt.Sprintf(MsgStocktakeInTransitMany, len(list), joined)
	}
	return &apierr.Error{Kind: apierr.ErrConflict, Message: msg, Field: "serials", Code: apierr.CodePackInTransit, Packs: list}
}

// Apply writes the tally's packs for the stocktake movement mv (its batteries moved by the
// caller in the same transaction): the found ones are seen (a lost one is found), the
// unexpected ones move here (a discrepancy, or first seen), the wrong-place ones to quarantine,
// the missing ones leave the place and are lost (a retired or recycled one, which cannot be
// lost, only leaves). Call it inside the movement's transaction, after Count.
func (t *Tally) Apply(txApp core.App, mv Movement) error {
	if err := txutil.Require(txApp, "journal.Tally.Apply"); err != nil {
		return err
	}
	w := writer{txApp: txApp, mv: mv.Id, at: mv.At, actor: mv.ActorId}
	if w.actor == "" {
		w.actor = mv.UserId
	}
	name := t.Place.Name
	for _, c := range t.Found {
		// seen where the records have it: no move to record, only the sighting (and a find)
		if c.r.state == schema.PackStateLost {
			if err := w.move(c.r, Move{Serial: c.Serial, From: c.From, To: c.To, Found: foundState(c.r)}, Group{}); err != nil {
				return err
			}
			w.events = w.events[:len(w.events)-1] // the find's event is enough
			continue
		}
		w.queue("seen", "lastSeenAt = {:at}, lastSeenBy = {:by}, lastSeenMovement = {:mv}, updated = {:now}",
			dbx.Params{"at": w.atText(), "by": w.actor, "mv": w.mv, "now": w.nowText()}, c.r.id)
	}
	for _, list := range [][]Counted{t.Unexpected, t.WrongPlace} {
		for _, c := range list {
			m := Move{Serial: c.Serial, From: c.From, To: c.To, Found: foundState(c.r)}
			wrong := c.To == t.Place.Quarantine.Id && c.To != t.Place.Here.Id
			away := c.From != "" && !slices.Contains(t.InPlace, c.From)
			m.Discrepancy = away
			if err := w.move(c.r, m, Group{From: []AccountRef{t.Place.Here}}); err != nil {
				return err
			}
			e := &w.events[len(w.events)-1]
			switch {
			case wrong:
				e.reason = fmt.Sprintf(ReasonStocktakeWrongPlace, name)
			case away:
				e.reason = fmt.Sprintf(ReasonStocktakeUnexpected, name)
			}
		}
	}
	reason := fmt.Sprintf(ReasonStocktakeMissing, name)
	for _, c := range t.Missing {
		r := c.r
		e := event{pack: r.id, kind: schema.PackEventMoved, from: r.location, to: "", reason: reason}
		if r.state != schema.PackStateLost && slices.Contains(Transitions[r.state], schema.PackStateLost) {
			// lost, keeping the state it had (a recalled pack stays out of use) and its last
			// sighting (who had it last)
			e.kind, e.fromState, e.toState = schema.PackEventState, r.state, schema.PackStateLost
			w.queue("lost|"+r.state, "location = '', state = {:lost}, stateBefore = {:before}, updated = {:now}",
				dbx.Params{"lost": schema.PackStateLost, "before": r.state, "now": w.nowText()}, r.id)
		} else {
			w.queue("gone", "location = '', updated = {:now}", dbx.Params{"now": w.nowText()}, r.id)
		}
		w.events = append(w.events, e)
	}
	return w.flush()
}

// foundState is the state a lost pack returns to when it is counted ("" when r is not lost).
func foundState(r row) string {
	if r.state != schema.PackStateLost {
		return ""
	}
	if r.stateBefore == "" || r.stateBefore == schema.PackStateLost {
		return schema.PackStateInService
	}
	return r.stateBefore
}
