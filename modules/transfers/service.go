// Package transfers moves packs between cities (DESIGN.md §15, issue 45 item 6). City A sends
// packs in service from its bay's stock: one keyed `transfer_out` movement takes their
// batteries from ready / waiting to `outside` (A's fleet shrinks by N, nothing goes
// unaccounted) and the pack journal marks them in_transit (in use nowhere here: every route and
// the scanner refuse them, pack_in_transit). The send's page gives a manifest — `SWBT1.` +
// base64url(JSON) with each pack's identity — that an admin of city B pastes (or scans as a QR)
// on B's Receive screen. B scans the packs that arrived: one keyed `transfer_in` movement brings
// their batteries from `outside` to ready or waiting and the journal registers each pack in
// service there (or brings back one B sent earlier), its history naming the sender and the
// reference to its history in A (`<from.address>/p/<serial>`). A second receive of the same
// manifest takes the rest; a serial received (or in service here) already is refused.
//
// pack_transfers keeps one row per send (`out`, ref = its own id) and one per receive (`in`,
// ref = the sender's id, serials = the packs that receive took); head office reads them from
// the replicas to show packs in transit. Deleting a send's movement on the Activity page brings
// its packs back (journal.Return) and removes its row (inventory.OnDelete); a pack back whose
// lot, model or maker was recalled here while it was away lands quarantined, as an arrival does,
// and so does one reported damaged on its way.
// A receive cannot be deleted (the packs go back by a send).
package transfers

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
	"swapbay/modules/packs"
	"swapbay/modules/users"
)

// ManifestPrefix starts every manifest (version 1).
const ManifestPrefix = "SWBT1."

// MaxManifest bounds a manifest's text: 200 packs of the longest identities fit well under it.
const MaxManifest = 150_000

// Messages of the transfers' inputs.
var (
	MsgCity          = "City is required"
	MsgCityTooLong   = fmt.Sprintf("A city's name can be at most %d characters", schema.MaxPackTransferCityLength)
	MsgAddress       = "Address must be the other city's https address (https://…), or left empty"
	MsgSerials       = "Scan at least one pack"
	MsgTooMany       = fmt.Sprintf("At most %d packs move in one transfer", schema.MaxPackTransferPacks)
	MsgTo            = "Choose Ready or Waiting to charge"
	MsgManifest      = "Paste the manifest from the sending city's transfer page"
	MsgManifestLong  = "This manifest is too long to be a SwapBay transfer"
	MsgManifestRead  = "This is not a SwapBay transfer manifest: copy it again from the sending city's transfer page"
	MsgManifestVer   = "This manifest comes from a newer SwapBay: update this city's SwapBay to receive it"
	MsgManifestPacks = fmt.Sprintf("A manifest lists 1 to %d packs", schema.MaxPackTransferPacks)
	MsgManifestBad   = "The manifest's pack %s is not valid: %s"
	MsgManifestTwice = "The manifest lists pack %s twice"
	MsgNotInManifest = "Pack %s is not in this transfer"
	MsgReceivedTwice = "Pack %s was already received from this transfer"
	MsgOwnTransfer   = "This manifest is this city's own send: receive it in the other city"
	MsgNotTracking   = "Turn pack tracking on (optional or required) before moving packs between cities"
	MsgNotFound      = "Transfer not found"
	msgSent          = "Sent %s to %s"
	msgReceived      = "Received %s from %s"
	// ReasonReceived is a received pack's history line: the sender and its history there.
	ReasonReceived = "Received from %s (history: %s)"
)

// serialPattern is what a serial in a manifest may be (the registry's import rule).
var serialPattern = packs.SerialPattern()

// SendInput is a send: the other city (its name, its address or ""), the packs (serials or
// label URLs) and notes.
type SendInput struct {
	ToCity    string
	ToAddress string
	Serials   []string
	Notes     string
	// From is this city as the manifest names it (name, address: the site the request came to).
	From City
}

// City is a city as a manifest names it.
type City struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// Manifest is what travels from the sending city to the receiving one.
type Manifest struct {
	V     int            `json:"v"`
	Ref   string         `json:"ref"`
	From  City           `json:"from"`
	To    string         `json:"to"`
	At    string         `json:"at"`
	Packs []ManifestPack `json:"packs"`
}

// ManifestPack is one pack's identity in a manifest.
type ManifestPack struct {
	Serial string `json:"serial"`
	packs.Specs
	InServiceSince string `json:"inServiceSince"`
	ChargeCount    int    `json:"chargeCount"`
}

// Transfer is a pack_transfers row as the routes answer it.
type Transfer struct {
	Id           string   `json:"id"`
	Direction    string   `json:"direction"`
	Ref          string   `json:"ref"`
	OtherCity    string   `json:"otherCity"`
	OtherAddress string   `json:"otherAddress"`
	At           string   `json:"at"`
	Actor        Actor    `json:"actor"`
	Serials      []string `json:"serials"`
	// Received: in, the serials received from this ref so far (every receive); out, [].
	Received []string `json:"received"`
	// Expected: in, every serial the manifest lists; out, the serials sent.
	Expected []string `json:"expected"`
	Manifest string   `json:"manifest,omitempty"` // out only
	Movement string   `json:"movement"`
	Notes    string   `json:"notes"`
	// States is each of Serials' state here now (Get only; a serial no longer registered here is
	// absent): a pack received quarantined by a recall of this city reads so on its transfer.
	States map[string]string `json:"states,omitzero"`
}

// Actor names who recorded a transfer.
type Actor struct {
	Name string `json:"name"`
}

// cityName checks a city's name (1..100 characters, no control characters).
func cityName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", apierr.Invalid(field, MsgCity)
	}
	if utf8.RuneCountInString(s) > schema.MaxPackTransferCityLength {
		return "", apierr.Invalid(field, MsgCityTooLong)
	}
	return reqx.Name(field, s, MsgCity, MsgCityTooLong)
}

// address checks a city's address: "" or an https URL (http only for this machine, for trials),
// without its trailing slash.
func address(field, s string) (string, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || len(s) > 300 || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(s, " \t\r\n") {
		return "", apierr.Invalid(field, MsgAddress)
	}
	local := u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1" || u.Hostname() == "::1"
	if u.Scheme != "https" && !(u.Scheme == "http" && local) {
		return "", apierr.Invalid(field, MsgAddress)
	}
	return s, nil
}

// codes checks a list of scanned codes' size.
func codes(list []string) error {
	if len(list) == 0 {
		return apierr.Invalid("serials", MsgSerials)
	}
	if len(list) > schema.MaxPackTransferPacks {
		return apierr.Invalid("serials", MsgTooMany)
	}
	return nil
}

// packsWord is "1 pack" or "N packs".
func packsWord(n int) string {
	if n == 1 {
		return "1 pack"
	}
	return fmt.Sprintf("%d packs", n)
}

// Send sends in.Serials to in.ToCity: one `transfer_out` movement (their batteries from ready /
// waiting to outside), the packs in transit, and the send's row with its manifest — in one
// transaction. Refusals name every pack (journal.PlanSend).
func Send(app core.App, op inventory.Op, in SendInput) (*Transfer, error) {
	var err error
	if in.ToCity, err = cityName("toCity", in.ToCity); err != nil {
		return nil, err
	}
	if in.ToAddress, err = address("toAddress", in.ToAddress); err != nil {
		return nil, err
	}
	if err := codes(in.Serials); err != nil {
		return nil, err
	}
	op.Notes = in.Notes
	if err := op.CleanNotes(); err != nil {
		return nil, err
	}
	return record(app, op, func(txApp core.App, id string) (entry, error) {
		acc := map[string]*inventory.Account{}
		for _, key := range []string{inventory.KeyReady, inventory.KeyWaiting, inventory.KeyOutside} {
			a, err := inventory.SystemAccount(txApp, key)
			if err != nil {
				return entry{}, err
			}
			acc[key] = a
		}
		out, err := journal.PlanSend(txApp, in.Serials, []string{acc[inventory.KeyReady].Id, acc[inventory.KeyWaiting].Id})
		if err != nil {
			return entry{}, err
		}
		var legs []inventory.Leg
		for _, key := range []string{inventory.KeyReady, inventory.KeyWaiting} {
			if n := out.From[acc[key].Id]; n > 0 {
				legs = append(legs, inventory.Leg{From: acc[key].Ref(), To: acc[inventory.KeyOutside].Ref(), Qty: n})
			}
		}
		n := len(out.Moves)
		notes := fmt.Sprintf(msgSent, packsWord(n), in.ToCity)
		if op.Notes != "" {
			notes += " - " + op.Notes
		}
		mv, err := inventory.Post(txApp, inventory.Posting{
			Type: inventory.TypeTransferOut, Quantity: -n, Notes: notes, UserId: op.ActorId(), ActorId: op.ActorId(),
			At: op.At, Legs: legs,
			Meta: map[string]any{inventory.MetaKind: "transfer_out", "toCity": in.ToCity, "transfer": id, inventory.MetaUserNotes: op.Notes,
				journal.MetaPacks: out.Moves},
		})
		if err != nil {
			return entry{}, err
		}
		jm := journal.Movement{Id: mv.Id, UserId: op.ActorId(), ActorId: op.ActorId(), At: mv.OccurredAt()}
		if err := out.Apply(txApp, jm, in.ToCity); err != nil {
			return entry{}, err
		}
		// the fleet shrinks by the batteries sent: none of them is unaccounted
		if _, _, err := inventory.ShiftTotal(txApp, -n); err != nil {
			return entry{}, err
		}
		serials := make([]string, n)
		for i, m := range out.Moves {
			serials[i] = m.Serial
		}
		manifest, err := makeManifest(txApp, Manifest{V: 1, Ref: id, From: in.From, To: in.ToCity,
			At: mv.OccurredAt().UTC().Format(time.RFC3339)}, serials)
		if err != nil {
			return entry{}, err
		}
		return entry{direction: schema.PackTransferDirectionOut, ref: id, city: in.ToCity, address: in.ToAddress,
			serials: serials, movement: mv, manifest: manifest}, nil
	})
}

// entry is what a send or a receipt records in its pack_transfers row.
type entry struct {
	direction string // schema.PackTransferDirectionOut or …In
	ref       string // the send's id, in both cities
	city      string // the other city's name
	address   string // and its address ("" when not known)
	serials   []string
	movement  *inventory.Movement
	manifest  string
}

// record runs write (a send's or a receipt's work) in one transaction while pack tracking is
// on, saves the row it describes under the id write was handed (its movement names the row
// first) and answers that row as Get does.
func record(app core.App, op inventory.Op, write func(txApp core.App, id string) (entry, error)) (*Transfer, error) {
	var id string
	err := app.RunInTransaction(func(txApp core.App) error {
		if err := journal.RequireTracking(txApp, MsgNotTracking); err != nil {
			return err
		}
		id = core.GenerateDefaultRandomId()
		e, err := write(txApp, id)
		if err != nil {
			return err
		}
		row, err := records.New(txApp, schema.PackTransfers)
		if err != nil {
			return err
		}
		row.Id = id
		row.Set(schema.PackTransferDirection, e.direction)
		row.Set(schema.PackTransferRef, e.ref)
		row.Set(schema.PackTransferOtherCity, e.city)
		row.Set(schema.PackTransferOtherAddress, e.address)
		row.Set(schema.PackTransferSerials, e.serials)
		row.Set(schema.PackTransferMovement, e.movement.Id)
		row.Set(schema.PackTransferActor, op.ActorId())
		row.Set(schema.PackTransferAt, e.movement.OccurredAt())
		row.Set(schema.PackTransferManifest, e.manifest)
		if err := txApp.Save(row); err != nil {
			return err
		}
		events.Publish(txApp, inventory.MovementEvents...)
		return op.Capture(txApp)
	})
	if err != nil {
		return nil, err
	}
	return Get(app, id)
}

// makeManifest fills m's packs with the identity of serials (as the registry has them) and
// encodes it.
func makeManifest(txApp core.App, m Manifest, serials []string) (string, error) {
	var rows []struct {
		Serial string `db:"serial"`
		packs.Specs
		InServiceSince string `db:"inServiceSince"`
		ChargeCount    int    `db:"chargeCount"`
	}
	params := dbx.Params{}
	err := txApp.DB().NewQuery("SELECT serial, COALESCE(model, '') AS model, COALESCE(chemistry, '') AS chemistry, COALESCE(nominalWh, 0) AS nominalWh, " +
		"COALESCE(manufacturer, '') AS manufacturer, COALESCE(lot, '') AS lot, COALESCE(manufactured, '') AS manufactured, " +
		"COALESCE(inServiceSince, '') AS inServiceSince, COALESCE(chargeCount, 0) AS chargeCount FROM " + schema.Packs +
		" WHERE serial IN (" + sqlitedb.In(params, "s", serials) + ") ORDER BY serial").Bind(params).All(&rows)
	if err != nil {
		return "", err
	}
	for _, r := range rows {
		since := ""
		if d, err := types.ParseDateTime(r.InServiceSince); err == nil && !d.IsZero() {
			since = d.Time().UTC().Format(time.RFC3339)
		}
		m.Packs = append(m.Packs, ManifestPack{Serial: r.Serial, Specs: r.Specs, InServiceSince: since, ChargeCount: r.ChargeCount})
	}
	return Encode(m)
}

// Encode is a manifest's text: ManifestPrefix + base64url(JSON), unpadded.
func Encode(m Manifest) (string, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	return ManifestPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// Decode reads and checks a manifest's text (400 naming the field `manifest` otherwise): the
// prefix, base64url (padded or not), the JSON, version 1, a ref, the sender's name and address,
// 1..200 packs each with a serial of the registry's form, listed once, and an identity within
// the registry's bounds.
func Decode(text string) (*Manifest, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, apierr.Invalid("manifest", MsgManifest)
	}
	if len(text) > MaxManifest {
		return nil, apierr.Invalid("manifest", MsgManifestLong)
	}
	rest, ok := strings.CutPrefix(text, ManifestPrefix)
	if !ok {
		if strings.HasPrefix(text, "SWBT") {
			return nil, apierr.Invalid("manifest", MsgManifestVer)
		}
		return nil, apierr.Invalid("manifest", MsgManifestRead)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(rest, "="))
	if err != nil {
		return nil, apierr.Invalid("manifest", MsgManifestRead)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, apierr.Invalid("manifest", MsgManifestRead)
	}
	if m.V != 1 {
		if m.V > 1 {
			return nil, apierr.Invalid("manifest", MsgManifestVer)
		}
		return nil, apierr.Invalid("manifest", MsgManifestRead)
	}
	if m.Ref == "" || len(m.Ref) > 40 || strings.IndexFunc(m.Ref, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) >= 0 {
		return nil, apierr.Invalid("manifest", MsgManifestRead)
	}
	if m.From.Name, err = cityName("manifest", m.From.Name); err != nil {
		return nil, apierr.Invalid("manifest", MsgManifestRead)
	}
	if m.From.Address, err = address("manifest", m.From.Address); err != nil {
		return nil, apierr.Invalid("manifest", MsgManifestRead)
	}
	if len(m.Packs) == 0 || len(m.Packs) > schema.MaxPackTransferPacks {
		return nil, apierr.Invalid("manifest", MsgManifestPacks)
	}
	seen := map[string]bool{}
	for i := range m.Packs {
		p := &m.Packs[i]
		serial := strings.TrimSpace(p.Serial)
		if !serialPattern.MatchString(serial) {
			shown := serial
			if len(shown) > schema.MaxPackSerialLength {
				shown = shown[:schema.MaxPackSerialLength] + "…"
			}
			return nil, apierr.Invalid("manifest", fmt.Sprintf(MsgManifestBad, fmt.Sprintf("%q", shown), "a serial is capitals, digits, dots and dashes (at most 40)"))
		}
		if seen[serial] {
			return nil, apierr.Invalid("manifest", fmt.Sprintf(MsgManifestTwice, serial))
		}
		seen[serial] = true
		p.Serial = serial
		specs, err := p.Specs.Check()
		if err != nil {
			return nil, apierr.Invalid("manifest", fmt.Sprintf(MsgManifestBad, serial, err.Error()))
		}
		p.Specs = specs
		if p.InServiceSince != "" {
			t, err := time.Parse(time.RFC3339, p.InServiceSince)
			if err != nil || t.Year() < 1900 || t.Year() > 2999 {
				return nil, apierr.Invalid("manifest", fmt.Sprintf(MsgManifestBad, serial, "in service since must be a date"))
			}
		}
		if p.ChargeCount < 0 || p.ChargeCount > 1_000_000 || math.IsNaN(p.NominalWh) {
			return nil, apierr.Invalid("manifest", fmt.Sprintf(MsgManifestBad, serial, "charge count must be a whole number from 0 to 1,000,000"))
		}
	}
	return &m, nil
}

// ReceiveInput is a receive: the manifest's text, the packs scanned (serials or label URLs of
// any city's site) and where their batteries go (ready or waiting).
type ReceiveInput struct {
	Manifest string
	Serials  []string
	To       string
}

// Receive registers the scanned packs of a manifest here: one `transfer_in` movement brings their
// batteries from outside to in.To, the journal registers each pack in service there (or brings
// back one this city sent), and a receive row records it — in one transaction.
func Receive(app core.App, op inventory.Op, in ReceiveInput) (*Transfer, error) {
	m, err := Decode(in.Manifest)
	if err != nil {
		return nil, err
	}
	if in.To != inventory.KeyReady && in.To != inventory.KeyWaiting {
		return nil, apierr.Invalid("to", MsgTo)
	}
	if err := codes(in.Serials); err != nil {
		return nil, err
	}
	listed := map[string]*ManifestPack{}
	for i := range m.Packs {
		listed[m.Packs[i].Serial] = &m.Packs[i]
	}
	serials := make([]string, 0, len(in.Serials))
	seen := map[string]bool{}
	var refused []apierr.PackRefusal
	for _, code := range in.Serials {
		s := journal.Serial(code)
		switch {
		case s == "":
			return nil, apierr.Invalid("serials", journal.MsgPackBlank)
		case len(s) > schema.MaxPackSerialLength:
			s = s[:schema.MaxPackSerialLength] + "…"
			refused = append(refused, apierr.PackRefusal{Serial: s, Code: apierr.CodePackUnknown, Message: fmt.Sprintf(MsgNotInManifest, s)})
		case seen[s]:
			return nil, &apierr.Error{Kind: apierr.ErrInvalid, Field: "serials", Code: apierr.CodePackCount, Message: fmt.Sprintf(journal.MsgPackTwice, s),
				Packs: []apierr.PackRefusal{{Serial: s, Code: apierr.CodePackCount, Message: fmt.Sprintf(journal.MsgPackTwice, s)}}}
		case listed[s] == nil:
			refused = append(refused, apierr.PackRefusal{Serial: s, Code: apierr.CodePackUnknown, Message: fmt.Sprintf(MsgNotInManifest, s)})
		}
		seen[s] = true
		serials = append(serials, s)
	}
	if len(refused) > 0 {
		return nil, refusedList(apierr.ErrInvalid, refused)
	}
	return record(app, op, func(txApp core.App, id string) (entry, error) {
		// this city's own send is received in the other city, never here
		var own int
		if err := txApp.DB().Select("count(*)").From(schema.PackTransfers).Where(dbx.HashExp{
			schema.PackTransferRef: m.Ref, schema.PackTransferDirection: schema.PackTransferDirectionOut}).Row(&own); err != nil {
			return entry{}, err
		}
		if own > 0 {
			return entry{}, apierr.Conflict(MsgOwnTransfer)
		}
		before, err := receivedOf(txApp, m.Ref)
		if err != nil {
			return entry{}, err
		}
		var twice []apierr.PackRefusal
		for _, s := range serials {
			if slices.Contains(before, s) {
				twice = append(twice, apierr.PackRefusal{Serial: s, Code: apierr.CodePackState, Message: fmt.Sprintf(MsgReceivedTwice, s)})
			}
		}
		if len(twice) > 0 {
			return entry{}, refusedList(apierr.ErrConflict, twice)
		}
		unknown, err := journal.PlanReceive(txApp, serials)
		if err != nil {
			return entry{}, err
		}
		to, err := inventory.SystemAccount(txApp, in.To)
		if err != nil {
			return entry{}, err
		}
		outside, err := inventory.SystemAccount(txApp, inventory.KeyOutside)
		if err != nil {
			return entry{}, err
		}
		n := len(serials)
		mv, err := inventory.Post(txApp, inventory.Posting{
			Type: inventory.TypeTransferIn, Quantity: n, Notes: fmt.Sprintf(msgReceived, packsWord(n), m.From.Name),
			UserId: op.ActorId(), ActorId: op.ActorId(), At: op.At,
			Legs: []inventory.Leg{{From: outside.Ref(), To: to.Ref(), Qty: n}},
			Meta: map[string]any{inventory.MetaKind: "transfer_in", "fromCity": m.From.Name, "ref": m.Ref, "transfer": id, inventory.MetaUserNotes: "",
				journal.MetaPacks: journal.ReceiveMoves(serials, to.Id)},
		})
		if err != nil {
			return entry{}, err
		}
		packCol, err := txApp.FindCachedCollectionByNameOrId(schema.Packs)
		if err != nil {
			return entry{}, err
		}
		arrivals := make([]journal.Arrival, 0, n)
		for _, s := range serials {
			// each pack's history names its own page in the sending city
			ref := m.From.Name
			if m.From.Address != "" {
				ref = packs.PackURL(m.From.Address, s)
			}
			a := journal.Arrival{Serial: s, Reason: fmt.Sprintf(ReasonReceived, m.From.Name, ref)}
			if slices.Contains(unknown, s) {
				p := listed[s]
				pack := packs.NewPack(packCol)
				pack.Set(schema.PackSerial, s)
				p.Specs.Apply(pack)
				if p.InServiceSince != "" {
					pack.Set(schema.PackInServiceSince, p.InServiceSince)
				}
				pack.Set(schema.PackChargeCount, p.ChargeCount)
				a.Record = pack.Record
			}
			arrivals = append(arrivals, a)
		}
		jm := journal.Movement{Id: mv.Id, UserId: op.ActorId(), ActorId: op.ActorId(), At: mv.OccurredAt()}
		if _, err := journal.Receive(txApp, jm, arrivals, to.Ref()); err != nil {
			return entry{}, err
		}
		// the fleet grows by the batteries received
		if _, _, err := inventory.ShiftTotal(txApp, n); err != nil {
			return entry{}, err
		}
		// a pack whose lot, model or maker this city has recalled arrives quarantined (a recall
		// made while it was on the way passed it over in both cities)
		if _, err := packs.RecallArrivals(txApp, serials, op.ActorId(), mv.OccurredAt()); err != nil {
			return entry{}, err
		}
		// one of this city's own packs coming back that a damage report here reached while it was
		// away (the report could not quarantine it in transit) arrives quarantined too
		if _, err := packs.DamagedAway(txApp, serials, op.ActorId(), mv.OccurredAt()); err != nil {
			return entry{}, err
		}
		return entry{direction: schema.PackTransferDirectionIn, ref: m.Ref, city: m.From.Name, address: m.From.Address,
			serials: serials, movement: mv, manifest: strings.TrimSpace(in.Manifest)}, nil
	})
}

// refusedList is one refusal naming every pack in list (kind's status), its message the first's
// or how many.
func refusedList(kind error, list []apierr.PackRefusal) error {
	msg := list[0].Message
	if len(list) > 1 {
		names := make([]string, len(list))
		for i, p := range list {
			names[i] = p.Serial
		}
		msg = fmt.Sprintf("%d packs cannot be received: %s", len(list), strings.Join(names, ", "))
	}
	return &apierr.Error{Kind: kind, Field: "serials", Code: list[0].Code, Message: msg, Packs: list}
}

// receivedOf lists the serials received here from the send ref so far.
func receivedOf(app core.App, ref string) ([]string, error) {
	var lists []string
	err := app.DB().Select(schema.PackTransferSerials).From(schema.PackTransfers).Where(dbx.HashExp{
		schema.PackTransferRef: ref, schema.PackTransferDirection: schema.PackTransferDirectionIn}).Column(&lists)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, l := range lists {
		var s []string
		_ = json.Unmarshal([]byte(l), &s)
		out = append(out, s...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// transferRow is a pack_transfers row as read.
type transferRow struct {
	Id           string `db:"id"`
	Direction    string `db:"direction"`
	Ref          string `db:"ref"`
	OtherCity    string `db:"otherCity"`
	OtherAddress string `db:"otherAddress"`
	Serials      string `db:"serials"`
	Movement     string `db:"movement"`
	Actor        string `db:"actor"`
	At           string `db:"at"`
	Manifest     string `db:"manifest"`
	Notes        string `db:"notes"`
}

const selectTransfers = "SELECT t.id, t.direction, t.ref, t.otherCity, t.otherAddress, COALESCE(t.serials, '[]') AS serials, t.movement, " +
	"t.actor, t.at, t.manifest, COALESCE(m.notes, '') AS notes FROM " + schema.PackTransfers + " t LEFT JOIN " + schema.Movements + " m ON m.id = t.movement"

// List answers every transfer, newest first (at most limit).
func List(app core.App, limit int) ([]Transfer, error) {
	var rows []transferRow
	if err := app.DB().NewQuery(selectTransfers + " ORDER BY t.at DESC, t.rowid DESC LIMIT {:n}").Bind(dbx.Params{"n": limit}).All(&rows); err != nil {
		return nil, err
	}
	return answer(app, rows)
}

// Get answers the transfer id (404 when there is none).
func Get(app core.App, id string) (*Transfer, error) {
	var rows []transferRow
	if err := app.DB().NewQuery(selectTransfers + " WHERE t.id = {:id}").Bind(dbx.Params{"id": id}).All(&rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, apierr.NotFound(MsgNotFound)
	}
	list, err := answer(app, rows)
	if err != nil {
		return nil, err
	}
	t := &list[0]
	t.States = map[string]string{}
	found, err := packs.LookupSerials(app, t.Serials)
	for _, l := range found {
		if l.Known {
			t.States[l.Serial] = l.State
		}
	}
	return t, err
}

func answer(app core.App, rows []transferRow) ([]Transfer, error) {
	ids := make([]string, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.Actor)
	}
	people, err := users.Names(app, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Transfer, 0, len(rows))
	for _, r := range rows {
		t := Transfer{Id: r.Id, Direction: r.Direction, Ref: r.Ref, OtherCity: r.OtherCity, OtherAddress: r.OtherAddress,
			Serials: []string{}, Received: []string{}, Expected: []string{}, Movement: r.Movement, Notes: r.Notes}
		if d, err := types.ParseDateTime(r.At); err == nil {
			t.At = d.Time().UTC().Format(time.RFC3339)
		}
		if p, ok := people[r.Actor]; ok {
			t.Actor.Name = strings.TrimSpace(p.FirstName + " " + p.LastName)
		}
		_ = json.Unmarshal([]byte(r.Serials), &t.Serials)
		if r.Direction == schema.PackTransferDirectionOut {
			t.Manifest, t.Expected = r.Manifest, t.Serials
		} else {
			if t.Received, err = receivedOf(app, r.Ref); err != nil {
				return nil, err
			}
			if m, err := Decode(r.Manifest); err == nil {
				for _, p := range m.Packs {
					t.Expected = append(t.Expected, p.Serial)
				}
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// deleteSent removes a send's row when its movement is deleted (its packs came back, and their
// batteries count in the fleet again). A pack back from its way whose lot, model or maker this
// city recalled meanwhile (the recall passed it over: it was in use nowhere here) is reached by
// the recall now, as an arrival is (packs.RecallArrivals): it lands quarantined; so does one a
// damage report reached on its way (packs.DamagedAway).
func deleteSent(txApp core.App, mv *inventory.Movement) error {
	if _, _, err := inventory.ShiftTotal(txApp, -mv.Quantity()); err != nil {
		return err
	}
	var lists []string
	if err := txApp.DB().Select(schema.PackTransferSerials).From(schema.PackTransfers).
		Where(dbx.HashExp{schema.PackTransferMovement: mv.Id}).Column(&lists); err != nil {
		return err
	}
	var serials []string
	for _, l := range lists {
		var s []string
		_ = json.Unmarshal([]byte(l), &s)
		serials = append(serials, s...)
	}
	if _, err := txApp.DB().Delete(schema.PackTransfers, dbx.HashExp{schema.PackTransferMovement: mv.Id}).Execute(); err != nil {
		return err
	}
	if _, err := packs.RecallArrivals(txApp, serials, "", clock.Now().UTC()); err != nil {
		return err
	}
	// one reported damaged on its way (the report could not quarantine it in transit) lands
	// quarantined too, not on the shelf to be handed out
	_, err := packs.DamagedAway(txApp, serials, "", clock.Now().UTC())
	return err
}
