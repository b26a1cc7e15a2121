// Package journal is the pack journal (DESIGN.md §14, issue 42): the one package that owns a
// pack's place and state. Every pack write goes through it — a movement's packs (Move, called
// by inventory.Post in the movement's transaction), a correction or delete (Return), a state
// change (SetState, by the one transition table Transitions), a damage report (Damage), a
// recall (Recall), a find, a stand-in — and it is the one writer of the packs' place and state
// and of pack_events (writer.flush). internal/archtest fails when other code writes packs or
// pack_events.
//
// It is a leaf module: it imports lib/* only, so the ledger (modules/inventory) calls it
// directly, with no service locator, and modules/packs (the registry, the pack pages, the
// safety routes) calls it for every change of a pack.
//
// Out of use: a pack quarantined, retired or recycled — or lost while it was one of those, so
// that a recalled pack stays out of use whatever state it passes through — moves only toward
// the bay's quarantine account (schema.AccountKindQuarantine). A movement that would take one
// to a person or a charger is refused (pack_quarantined / pack_retired, each pack named in
// data.packs); one that returns it to the bay's stock (ready or waiting) takes it, and its
// battery, to quarantine instead (Prepare's redirect).
//
// Worn (DESIGN.md §16, issue 46; worn.go): while the worn mode (pack_worn_mode) is refuse, a
// worn pack going to a person or a charger is refused (pack_worn, each pack named in
// data.packs); returning it to the bay never is. The mode is read with the tracking mode.
package journal

import (
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/events"
	"swapbay/lib/schema"
)

// AccountRef names a ledger account: its id, key and kind (inventory.AccountRef is this type).
type AccountRef struct {
	Id, Key, Kind string
}

// Group is a share of a posting's batteries and the packs named for it (inventory.PackGroup).
type Group struct {
	Field   string   // the request field that named them (refusals name it)
	Serials []string // as sent
	Count   int      // how many batteries of the posting the group carries
	// From is where the records should have these packs (the accounts the batteries leave);
	// FromUser, when set, accepts any holding of that user too. A pack found elsewhere is
	// moved anyway and the difference is recorded as a discrepancy.
	From     []AccountRef
	FromUser string
	To       AccountRef // where they go
	// Implicit: when no pack is named, the packs the records put at From[0] travel (a
	// charging session completed or deleted, an assignment deleted: the whole account moves).
	Implicit bool
	Charged  bool // a charge completion: each pack's charge count goes up
	// Always: the group moves its packs whatever the tracking mode (the journal's own
	// movements: a pack quarantined or released moves with its battery even when off).
	Always bool
	// unseen: the packs were not named but taken from the records (an implicit group's
	// out-of-use packs, split off to quarantine by Prepare): no scan, so a lost one is not found
	unseen bool
}

// Move is one pack a movement moved, kept in the movement's meta (MetaPacks) so that a
// correction or a delete can put it back where it was (inventory.PackMove).
type Move struct {
	Serial      string `json:"serial"`
	Field       string `json:"field,omitempty"` // the request field that named it ("" for a stand-in or an implicit move)
	From        string `json:"from"`            // account id where the records had it ("" unknown)
	To          string `json:"to"`
	Charged     bool   `json:"charged,omitempty"`
	Discrepancy bool   `json:"discrepancy,omitempty"` // named, but the records had it elsewhere
	StandIn     bool   `json:"standIn,omitempty"`     // not named: moved so the records match the counts
	Found       string `json:"found,omitempty"`       // a lost pack found: the state it returned to
	// Transit: the pack left for another city (TransitOut: in service → in transit) or arrived
	// from one (TransitIn: in transit → in service); a return undoes the state too
	Transit string `json:"transit,omitempty"`
}

// MetaPacks is the meta key of a movement's pack moves ([]Move).
const MetaPacks = "packs"

// MetaUnnamed is the meta key of how many batteries a movement moved without packs in
// required mode, under the grace of an offline action keyed before the switch (the attention
// strip shows them to admins).
const MetaUnnamed = "unnamedBatteries"

// Movement is what the journal needs of the movement its packs ride on.
type Movement struct {
	Id, UserId, ActorId, SessionId string
	At                             time.Time // when it happened (occurredAt)
	// KeyAt is when the request's Idempotency-Key (a UUIDv7) was minted: an offline action
	// keyed before required mode was switched on is judged optional. Zero: not keyed.
	KeyAt time.Time
}

// Serial returns the serial in a scanned or typed code: the label URL's last part after /p/
// (<site>/p/<serial>) or the bare serial, trimmed and in capitals as the registry stores
// serials. It is the one place a code becomes a serial (the UI's is serialOf in
// ui/src/lib/serial.ts).
func Serial(code string) string {
	code = strings.TrimSpace(code)
	if i := strings.LastIndex(code, "/p/"); i >= 0 {
		code = code[i+3:]
		if j := strings.IndexAny(code, "?#/"); j >= 0 {
			code = code[:j]
		}
	}
	return strings.ToUpper(strings.TrimSpace(code))
}

// OutOfUse reports whether a pack in state (stateBefore: the state a lost pack had) may move
// only toward quarantine.
func OutOfUse(state, stateBefore string) bool {
	if state == schema.PackStateLost {
		state = stateBefore
	}
	return state == schema.PackStateQuarantined || state == schema.PackStateRetired || state == schema.PackStateRecycled
}

// Register binds the journal's cache of the tracking mode to app's settings (pb_app/setup does
// it, like every module's Register): it listens to events.SettingsSaved as the other modules do
// (the backup schedule, the jobs' zone), and to the settings rows' saves for a read inside the
// saving transaction (mode.go). Without it every write reads the mode from the settings table:
// slower, never wrong.
func Register(app core.App) {
	c := newModeCache(app)
	app.Store().Set(modeCacheKey, c)
	cancel := events.For(app).Subscribe(func(m events.Message) {
		if ch, ok := m.Data.(events.SettingsChange); ok && m.Type == events.SettingsSaved && (slices.Contains(ch.Keys, schema.SettingPackTracking) || slices.Contains(ch.Keys, schema.SettingPackWornMode)) {
			c.gen.Add(1) // the next write reads the saved modes
		}
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		return e.Next()
	})
}
