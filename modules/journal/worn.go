package journal

import (
	"fmt"
	"strings"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
)

// Worn packs (DESIGN.md §16, issue 46). A pack is worn when its derived health says so (the
// packs' worn and wornReason columns, written by modules/health only). The worn mode chooses
// what a worn pack meets at hand-out: flag (the default) refuses nothing, refuse refuses it
// going to a person or a charger (pack_worn, naming it). Returning it to the bay is never
// refused.

// Messages of the worn rule.
const (
	// MsgPackWorn refuses a worn pack at hand-out: its serial and why it is worn.
	MsgPackWorn = "Pack %s is worn and cannot be handed out: %s"
	// MsgWornMode refuses a worn mode other than flag or refuse (System page).
	MsgWornMode = "Worn packs must be flag or refuse"
	// wornReasonUnknown stands for a worn pack's reason when the row has none.
	wornReasonUnknown = "its state of health is under its model's threshold"
)

// WornMode is the worn mode (schema.SettingPackWornMode), set by a master admin on the System
// page's pack settings card beside the tracking mode.
var WornMode = modeKey(schema.SettingPackWornMode, schema.PackWornFlag, "worn mode", IsWornMode, MsgWornMode)

// IsWornMode reports whether mode is flag or refuse.
func IsWornMode(mode string) bool {
	return mode == schema.PackWornFlag || mode == schema.PackWornRefuse
}

// WornRefused reports whether the stored worn mode is refuse (read with the tracking mode,
// from the journal's cache when it is current).
func WornRefused(txApp core.App) (bool, error) {
	e, err := storedEntry(txApp)
	if err != nil {
		return false, err
	}
	return WornMode.Get(map[string]string{schema.SettingPackWornMode: strings.TrimSpace(e.worn)}) == schema.PackWornRefuse, nil
}

// WornRefusal is the refusal of the worn pack serial at hand-out (pack_worn), with why it is
// worn. The scanner judges a scan by it (GET /api/packs/out-of-use, in refuse mode).
func WornRefusal(serial, reason string) apierr.PackRefusal {
	if strings.TrimSpace(reason) == "" {
		reason = wornReasonUnknown
	}
	return apierr.PackRefusal{Serial: serial, Code: apierr.CodePackWorn, Message: fmt.Sprintf(MsgPackWorn, serial, reason)}
}

// handOut reports whether an account of kind is a hand-out: a person (a holder, the field's
// unassigned batteries) or a charger (a session, the untracked charger account).
func handOut(kind string) bool {
	switch kind {
	case schema.AccountKindHolder, schema.AccountKindUnassigned, schema.AccountKindSession, schema.AccountKindUntracked:
		return true
	}
	return false
}
