package journal

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
)

// Packs between cities (DESIGN.md §15, issue 45 item 6; modules/transfers moves the batteries).
// A send takes packs in service from the bay's stock (ready or waiting) out of use here: each
// becomes in_transit with no location (a "transferred" event naming the city), and every route
// refuses to move it (pack_in_transit, Plan.Apply). Deleting the send's movement puts them back
// (Return: the place and the state). A receive registers the packs that arrive (or brings back
// one this city sent earlier, still in transit here) in service where the batteries go, each
// with a "received" event naming the sender and the history reference.

// Transit kinds of a Move.
const (
	TransitOut = "out"
	TransitIn  = "in"
)

// Messages and reasons of a transfer.
const (
	MsgPackInTransit  = "Pack %s was sent to another city and cannot be moved here"
	MsgPacksInTransit = "%d packs were sent to another city and cannot be moved here: %s"
	// MsgSendState refuses sending a pack that is not in service.
	MsgSendState = "Pack %s is %s: only a pack in service can be sent"
	// MsgSendPlace refuses sending a pack the records do not have on the ready or waiting shelf.
	MsgSendPlace = "Pack %s is not on the ready or waiting shelf: bring it back to the bay (or count it there) first"
	// MsgSendRefused is the message of a send refusing several packs.
	MsgSendRefused = "%d packs cannot be sent: %s"
	// MsgReceiveHere refuses receiving a serial this city has and is not in transit from here.
	MsgReceiveHere = "Pack %s is already registered here (%s): it cannot be received"
	// MsgReceiveRefused is the message of a receive refusing several packs.
	MsgReceiveRefused = "%d packs cannot be received: %s"
	// MsgSendCameBack refuses deleting a send whose pack this city has received back since: the
	// receive counts it here, so undoing the send would count its battery twice.
	MsgSendCameBack = "Pack %s has come back from the other city since this send: the send cannot be deleted"
	// ReasonTransferred is a sent pack's history line.
	ReasonTransferred = "Sent to %s"
)

// TransitRefusal is the refusal of a pack in transit to another city named by any route here.
func TransitRefusal(serial string) apierr.PackRefusal {
	return apierr.PackRefusal{Serial: serial, Code: apierr.CodePackInTransit, Message: fmt.Sprintf(MsgPackInTransit, serial)}
}

// transitState is the state a transit move leaves a pack in (returning: undone).
func transitState(transit string, returning bool) string {
	if (transit == TransitOut) != returning {
		return schema.PackStateInTransit
	}
	return schema.PackStateInService
}

// Outgoing is a send's packs, read before its batteries move (PlanSend).
type Outgoing struct {
	Moves []Move         // each pack's move: from its account to no place, in transit
	From  map[string]int // batteries leaving, by account id
	rows  []row
}

// refusedErr is one refusal naming every pack in list (status 409 unless the first is a 400
// code), its message the first's or format's count and serials.
func refusedErr(field, format string, list []apierr.PackRefusal) error {
	msg := list[0].Message
	if len(list) > 1 {
		serials := make([]string, len(list))
		for i, p := range list {
			serials[i] = p.Serial
		}
		msg = fmt.Sprintf(format, len(list), strings.Join(serials, ", "))
	}
	kind := apierr.ErrConflict
	if list[0].Code == apierr.CodePackUnknown || list[0].Code == apierr.CodePackCount {
		kind = apierr.ErrInvalid
	}
	return &apierr.Error{Kind: kind, Message: msg, Field: field, Code: list[0].Code, Packs: list}
}

// cleanSerials reads codes (bare serials or label URLs) as serials: a blank one, one too long
// to be a serial or one named twice is refused (400, naming it).
func cleanSerials(field string, codes []string) ([]string, error) {
	out := make([]string, 0, len(codes))
	seen := map[string]bool{}
	for _, code := range codes {
		serial := Serial(code)
		switch {
		case serial == "":
			return nil, packErr(http.StatusBadRequest, field, apierr.CodePackUnknown, MsgPackBlank)
		case len(serial) > schema.MaxPackSerialLength:
			short := serial[:schema.MaxPackSerialLength] + "…"
			return nil, refusedErr(field, MsgSendRefused, []apierr.PackRefusal{{Serial: short, Code: apierr.CodePackUnknown, Message: fmt.Sprintf(MsgPackUnknown, short)}})
		case seen[serial]:
			return nil, refusedErr(field, MsgSendRefused, []apierr.PackRefusal{{Serial: serial, Code: apierr.CodePackCount, Message: fmt.Sprintf(MsgPackTwice, serial)}})
		}
		seen[serial] = true
		out = append(out, serial)
	}
	return out, nil
}

// PlanSend reads the packs named by codes for a send from the accounts stock (the ready and
// waiting accounts' ids) and writes nothing. Unknown serials are refused (400 pack_unknown,
// every one named); a pack in transit already (pack_in_transit), out of use (pack_quarantined /
// pack_retired), in another state than in service (pack_state) or not in stock (pack_state) is
// refused 409, every such pack named in data.packs. Call it inside the send's transaction.
func PlanSend(txApp core.App, codes []string, stock []string) (*Outgoing, error) {
	serials, err := cleanSerials("serials", codes)
	if err != nil {
		return nil, err
	}
	found, err := bySerial(txApp, serials)
	if err != nil {
		return nil, err
	}
	var unknown, refused []apierr.PackRefusal
	o := &Outgoing{From: map[string]int{}}
	for _, serial := range serials {
		r, ok := found[serial]
		switch {
		case !ok:
			unknown = append(unknown, apierr.PackRefusal{Serial: serial, Code: apierr.CodePackUnknown, Message: fmt.Sprintf(MsgPackUnknown, serial)})
			continue
		case r.state == schema.PackStateInTransit:
			refused = append(refused, TransitRefusal(serial))
			continue
		case r.outOfUse():
			refused = append(refused, refusal(r))
			continue
		case r.state != schema.PackStateInService:
			refused = append(refused, apierr.PackRefusal{Serial: serial, Code: apierr.CodePackState, Message: fmt.Sprintf(MsgSendState, serial, StateLabel(r.state))})
			continue
		case !slices.Contains(stock, r.location):
			refused = append(refused, apierr.PackRefusal{Serial: serial, Code: apierr.CodePackState, Message: fmt.Sprintf(MsgSendPlace, serial)})
			continue
		}
		o.rows = append(o.rows, r)
		o.From[r.location]++
		o.Moves = append(o.Moves, Move{Serial: serial, Field: "serials", From: r.location, To: "", Transit: TransitOut})
	}
	if len(unknown) > 0 {
		return nil, refusedErr("serials", MsgStocktakeUnknown, unknown)
	}
	if len(refused) > 0 {
		return nil, refusedErr("serials", MsgSendRefused, refused)
	}
	return o, nil
}

// Apply writes the send's packs for its movement mv (its batteries moved by the caller in the
// same transaction): each is in transit, with no location, and its history says to where.
func (o *Outgoing) Apply(txApp core.App, mv Movement, city string) error {
	if err := txutil.Require(txApp, "journal.Outgoing.Apply"); err != nil {
		return err
	}
	w := writer{txApp: txApp, mv: mv.Id, at: mv.At, actor: mv.ActorId}
	reason := fmt.Sprintf(ReasonTransferred, city)
	for i, r := range o.rows {
		if err := w.move(r, o.Moves[i], Group{}); err != nil {
			return err
		}
		e := &w.events[len(w.events)-1]
		e.kind, e.reason, e.fromState, e.toState = schema.PackEventTransferred, reason, r.state, schema.PackStateInTransit
	}
	return w.flush()
}

// Arrival is a pack a receive registers: a new record set up by the caller with the
// manifest's identity (Record), or, when this city knows the serial, nil.
type Arrival struct {
	Serial string
	Record *core.Record
	Reason string // its history line (the sender and the reference to its history there)
}

// ReceiveMoves are the moves a receive of serials to the account to makes (Receive returns
// the same; the movement keeps them in its meta).
func ReceiveMoves(serials []string, to string) []Move {
	out := make([]Move, len(serials))
	for i, s := range serials {
		out[i] = Move{Serial: s, Field: "serials", To: to, Transit: TransitIn}
	}
	return out
}

// PlanReceive splits serials into the packs this city does not know (new: the caller makes their
// records) and those it sent away earlier, still in transit here (they come back). A serial
// registered here in any other state is refused (409 pack_state, every one named). Call it
// inside the receive's transaction.
func PlanReceive(txApp core.App, serials []string) (unknown []string, err error) {
	found, err := bySerial(txApp, serials)
	if err != nil {
		return nil, err
	}
	var refused []apierr.PackRefusal
	for _, s := range serials {
		r, ok := found[s]
		switch {
		case !ok:
			unknown = append(unknown, s)
		case r.state != schema.PackStateInTransit:
			refused = append(refused, apierr.PackRefusal{Serial: s, Code: apierr.CodePackState, Message: fmt.Sprintf(MsgReceiveHere, s, StateLabel(r.state))})
		}
	}
	if len(refused) > 0 {
		return nil, refusedErr("serials", MsgReceiveRefused, refused)
	}
	return unknown, nil
}

// Receive registers the arrivals for the receive's movement mv (its batteries moved by the
// caller to the account to): a new pack is saved in service there, a known one (in transit
// here) comes back in service there; each gets a "received" event with its Reason (the sender
// and the history reference). It returns the moves for the movement's meta.
func Receive(txApp core.App, mv Movement, arrivals []Arrival, to AccountRef) ([]Move, error) {
	if err := txutil.Require(txApp, "journal.Receive"); err != nil {
		return nil, err
	}
	w := writer{txApp: txApp, mv: mv.Id, at: mv.At, actor: mv.ActorId}
	var back []string
	var moves []Move
	reasons := map[string]string{}
	for _, a := range arrivals {
		reasons[a.Serial] = a.Reason
		if a.Record == nil {
			back = append(back, a.Serial)
			continue
		}
		rec := a.Record
		rec.Set(schema.PackState, schema.PackStateInService)
		rec.Set(schema.PackStateBefore, "")
		rec.Set(schema.PackLocation, to.Id)
		rec.Set(schema.PackLastSeenAt, w.atText())
		rec.Set(schema.PackLastSeenBy, w.actor)
		rec.Set(schema.PackLastSeenMovement, mv.Id)
		if err := txApp.Save(rec); err != nil {
			return nil, err
		}
		w.events = append(w.events, event{pack: rec.Id, kind: schema.PackEventReceived, to: to.Id, reason: a.Reason,
			toState: schema.PackStateInService})
		moves = append(moves, Move{Serial: a.Serial, Field: "serials", To: to.Id, Transit: TransitIn})
	}
	if len(back) > 0 {
		found, err := bySerial(txApp, back)
		if err != nil {
			return nil, err
		}
		for _, s := range back {
			r, ok := found[s]
			if !ok || r.state != schema.PackStateInTransit {
				return nil, refusedErr("serials", MsgReceiveRefused, []apierr.PackRefusal{{Serial: s, Code: apierr.CodePackState,
					Message: fmt.Sprintf(MsgReceiveHere, s, StateLabel(r.state))}})
			}
			m := Move{Serial: s, Field: "serials", To: to.Id, Transit: TransitIn}
			if err := w.move(r, m, Group{}); err != nil {
				return nil, err
			}
			e := &w.events[len(w.events)-1]
			e.kind, e.reason, e.fromState, e.toState = schema.PackEventReceived, reasons[s], r.state, schema.PackStateInService
			moves = append(moves, m)
		}
	}
	return moves, w.flush()
}

// InTransit lists the serials of the packs in transit from here (OutOfUseList's pack_in_transit
// rows: the scanner refuses them).
func InTransit(app core.App) ([]string, error) {
	var out []string
	err := app.DB().Select(schema.PackSerial).From(schema.Packs).
		Where(dbx.HashExp{schema.PackState: schema.PackStateInTransit}).OrderBy(schema.PackSerial).Column(&out)
	return out, err
}
