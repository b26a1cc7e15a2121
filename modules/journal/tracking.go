package journal

import (
	"fmt"
	"strings"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
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
