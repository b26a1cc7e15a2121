// Package packs is SwapBay's pack registry (DESIGN.md §14): every battery known by name. It
// holds the packs and their history (pack_events), mints serials, imports a CSV of existing
// packs, prints label sheets and answers the pack reads. Other modules name packs on their
// battery-moving writes through the exported functions that take their txApp.
package packs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/journal"
)

// Messages of the pack settings (shown on the System page).
const (
	MsgPrefix = "The pack prefix must be 2 to 8 capital letters or digits, starting with a letter"
)

// DefaultPrefix is the serial prefix until a master admin sets the operation's own.
const DefaultPrefix = "SWB"

// SequenceDigits is how many digits a minted serial's sequence is zero-padded to (SWB-000123).
const SequenceDigits = 6

// prefixPattern is what a prefix may be: short, upper case, safe in a URL and on a label.
var prefixPattern = regexp.MustCompile(`^[A-Z][A-Z0-9]{1,7}$`)

// The pack settings (DESIGN.md §14), set by a master admin on the System page.
var (
	// Tracking is the tracking mode (the journal owns it: journal.Tracking).
	Tracking = journal.Tracking
	// Prefix is the serial prefix of minted packs (the operation's own, so serials stay
	// unique across cities). Changing it never renames existing packs.
	Prefix = settings.Register(settings.Key[string]{
		Name:    schema.SettingPackPrefix,
		Default: DefaultPrefix,
		Parse: func(text string) (string, error) {
			if !prefixPattern.MatchString(text) {
				return "", fmt.Errorf("bad pack prefix %q", text)
			}
			return text, nil
		},
		KeepWhenBlank: true,
		MasterOnly:    true,
		Check: func(name, text string) (string, error) {
			text = strings.ToUpper(text)
			if !prefixPattern.MatchString(text) {
				return "", apierr.Invalid(name, MsgPrefix)
			}
			return text, nil
		},
	})
)

// IsTrackingMode reports whether mode is off, optional or required.
func IsTrackingMode(mode string) bool { return journal.IsTrackingMode(mode) }

// IsState reports whether state is one of schema.PackStates.
func IsState(state string) bool { return slices.Contains(schema.PackStates, state) }

// Serial is the serial of a minted pack: prefix, a dash, the sequence zero-padded.
func Serial(prefix string, seq int) string {
	return fmt.Sprintf("%s-%0*d", prefix, SequenceDigits, seq)
}

// Pack is a typed proxy of a packs record (app.Save(p) saves it as a record, with its hooks).
type Pack struct{ core.BaseRecordProxy }

// NewPack returns an unsaved pack in the packs collection, in service.
func NewPack(c *core.Collection) *Pack {
	p := AsPack(core.NewRecord(c))
	p.Set(schema.PackState, schema.PackStateInService)
	return p
}

// AsPack wraps a packs record.
func AsPack(r *core.Record) *Pack {
	p := &Pack{}
	p.SetProxyRecord(r)
	return p
}

// Serial is the pack's unique serial.
func (p *Pack) Serial() string { return p.GetString(schema.PackSerial) }

// Model is the pack's model name.
func (p *Pack) Model() string { return p.GetString(schema.PackModel) }

// Chemistry is the cell chemistry (e.g. NMC, LFP).
func (p *Pack) Chemistry() string { return p.GetString(schema.PackChemistry) }

// NominalWh is the pack's nominal energy in watt-hours.
func (p *Pack) NominalWh() float64 { return p.GetFloat(schema.PackNominalWh) }

// Manufacturer is who made the pack.
func (p *Pack) Manufacturer() string { return p.GetString(schema.PackManufacturer) }

// Lot is the manufacturer's lot (what a recall names).
func (p *Pack) Lot() string { return p.GetString(schema.PackLot) }

// Manufactured is the month of manufacture, YYYY-MM (blank when unknown).
func (p *Pack) Manufactured() string { return p.GetString(schema.PackManufactured) }

// InServiceSince is when the pack was put into service.
func (p *Pack) InServiceSince() types.DateTime { return p.GetDateTime(schema.PackInServiceSince) }

// State is one of schema.PackStates.
func (p *Pack) State() string { return p.GetString(schema.PackState) }

// StateBefore is the state a lost pack had before it was lost (it returns to it when found).
func (p *Pack) StateBefore() string { return p.GetString(schema.PackStateBefore) }

// Location is the id of the account the pack is at ("" = unknown or outside).
func (p *Pack) Location() string { return p.GetString(schema.PackLocation) }

// LastSeenAt is when a movement last named the pack.
func (p *Pack) LastSeenAt() types.DateTime { return p.GetDateTime(schema.PackLastSeenAt) }

// LastSeenBy is the id of the user who last named the pack.
func (p *Pack) LastSeenBy() string { return p.GetString(schema.PackLastSeenBy) }

// LastSeenMovement is the id of the movement that last named the pack.
func (p *Pack) LastSeenMovement() string { return p.GetString(schema.PackLastSeenMovement) }

// ChargeCount is how many charging sessions the pack completed.
func (p *Pack) ChargeCount() int { return p.GetInt(schema.PackChargeCount) }

// Event is a typed proxy of a pack_events record: one thing that happened to a pack.
type Event struct{ core.BaseRecordProxy }

// NewEvent returns an unsaved event of kind for pack at the time at, by actor (a user id or "").
func NewEvent(c *core.Collection, pack, kind, actor string, at time.Time) *Event {
	e := AsEvent(core.NewRecord(c))
	e.Set(schema.PackEventPack, pack)
	e.Set(schema.PackEventKind, kind)
	e.Set(schema.PackEventActor, actor)
	e.Set(schema.PackEventAt, at.UTC())
	return e
}

// AsEvent wraps a pack_events record.
func AsEvent(r *core.Record) *Event {
	e := &Event{}
	e.SetProxyRecord(r)
	return e
}

// Pack is the id of the pack the event is about.
func (e *Event) Pack() string { return e.GetString(schema.PackEventPack) }

// Kind is one of schema.PackEventKinds.
func (e *Event) Kind() string { return e.GetString(schema.PackEventKind) }

// Movement is the id of the movement that moved or named the pack ("" when none).
func (e *Event) Movement() string { return e.GetString(schema.PackEventMovement) }

// At is when it happened.
func (e *Event) At() types.DateTime { return e.GetDateTime(schema.PackEventAt) }
