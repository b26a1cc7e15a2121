package journal

import (
	"fmt"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/lib/sqlitedb"
)

// MsgTrackingMode refuses a tracking mode other than off, optional or required (System page).
const MsgTrackingMode = "Pack tracking must be off, optional or required"

// Tracking is the tracking mode (DESIGN.md §14), set by a master admin on the System page:
// off (the default: no write names packs), optional (a movement may name its packs) or
// required (battery-moving writes must name exactly as many packs as batteries).
var Tracking = modeKey(schema.SettingPackTracking, schema.PackTrackingOff, "pack tracking mode", IsTrackingMode, MsgTrackingMode)

// IsTrackingMode reports whether mode is off, optional or required.
func IsTrackingMode(mode string) bool {
	return mode == schema.PackTrackingOff || mode == schema.PackTrackingOptional || mode == schema.PackTrackingRequired
}

// modeKey registers a master admin's mode setting: one of the words valid accepts (what names
// it in the error of a stored text that is not), def when unset, typed in any case; msg refuses
// any other word. A blank input leaves it as it is.
func modeKey(name, def, what string, valid func(string) bool, msg string) settings.Key[string] {
	return settings.Register(settings.Key[string]{
		Name:    name,
		Default: def,
		Parse: func(text string) (string, error) {
			if !valid(text) {
				return "", fmt.Errorf("unknown %s %q", what, text)
			}
			return text, nil
		},
		KeepWhenBlank: true,
		MasterOnly:    true,
		Check: func(name, text string) (string, error) {
			text = strings.ToLower(strings.TrimSpace(text))
			if !valid(text) {
				return "", apierr.Invalid(name, msg)
			}
			return text, nil
		},
	})
}

// BayKinds are the kinds of the accounts in the bay itself (the shelves, quarantine and the
// chargers): what a stocktake of the whole bay counts.
var BayKinds = []string{schema.AccountKindReady, schema.AccountKindWaiting, schema.AccountKindQuarantine,
	schema.AccountKindSession, schema.AccountKindUntracked}

// UnnamedInBay is, in required mode, how many of the bay's batteries no pack names: each bay
// account's count beyond the packs the records put there. Switching to required names no pack
// by itself; a stocktake of the whole bay makes every battery there a named pack (the System
// page says so while any remain). 0 in the other modes, where unnamed batteries are allowed.
// One read on the accounts, each counting its packs by the packs' location index.
func UnnamedInBay(app core.App) (int, error) {
	mode, err := Mode(app)
	if err != nil || mode != schema.PackTrackingRequired {
		return 0, err
	}
	params := dbx.Params{}
	var n int
	err = app.DB().NewQuery("SELECT COALESCE(SUM(MAX(0, a.balance - (SELECT COUNT(*) FROM " + schema.Packs + " p WHERE p.location = a.id))), 0)" +
		" FROM " + schema.Accounts + " a WHERE a.balance > 0 AND a.kind IN (" + sqlitedb.In(params, "k", BayKinds) + ")").Bind(params).Row(&n)
	return n, err
}
