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
var Tracking = settings.Register(settings.Key[string]{

	Name:    schema.SettingPackTracking,
	Default: schema.PackTrackingOff,
	Parse: func(text string) (string, error) {
		if !IsTrackingMode(text) {
			return "", fmt.Errorf("unknown pack tracking mode %q", text)
		}
		return text, nil
	},
	KeepWhenBlank: true,
	MasterOnly:    true,
	Check: func(name, text string) (string, error) {
		text = strings.ToLower(text)
		if !IsTrackingMode(text) {
			return "", apierr.Invalid(name, MsgTrackingMode)
		}
		return text, nil
	},
})

// IsTrackingMode reports whether mode is off, optional or required.
func IsTrackingMode(mode string) bool {
	return mode == schema.PackTrackingOff || mode == schema.PackTrackingOptional || mode == schema.PackTrackingRequired
}
