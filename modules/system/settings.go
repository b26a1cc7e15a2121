package system

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
)

// MaxPromptLength bounds the prompt settings.
const MaxPromptLength = 500

// Messages of the settings the system module owns (spec part 2 §5).
const (
	MsgUnknownTimeZone = "Unknown time zone: " // followed by the zone sent
)

// msgPromptTooLong is the message of a prompt over MaxPromptLength characters.
var msgPromptTooLong = fmt.Sprintf("Prompts can be at most %d characters", MaxPromptLength)

// The settings the system module owns. The fleet size is inventory.TotalBatteries (the
// ledger needs it), the charger minutes charging.ChargerMinutes (a session's ETA); other modules register their own keys (docs/modules.md, "Settings").
var (
	// DropoffPrompt is the text shown above the driver's dropoff form; a blank save resets it
	// to the default, none.
	DropoffPrompt = promptKey(schema.SettingDropoffPrompt)
	// PickupPrompt is the text shown above the driver's pickup form; a blank save resets it.
	PickupPrompt = promptKey(schema.SettingPickupPrompt)
	// TimeZone is the operation's IANA time zone (DESIGN.md §3) as a zone name: the stored
	// name, else $SWAPBAY_TZ when blank, else UTC. Input must be a known zone or blank.
	TimeZone = settings.Register(settings.Key[string]{
		Name:    schema.SettingTimeZone,
		Default: "",
		Parse:   func(text string) (string, error) { return clock.LocationFor(text).String(), nil },
		Check: func(name, text string) (string, error) {
			if _, err := time.LoadLocation(text); text != "" && err != nil {
				return "", apierr.Invalid(name, MsgUnknownTimeZone+text)
			}
			return text, nil
		},
	})
)

func promptKey(name string) settings.Key[string] {
	return settings.Register(settings.Key[string]{Name: name, Parse: settings.ParseText,
		Check: func(name, text string) (string, error) {
			text = strings.TrimSpace(reqx.StripControls(text))
			if len([]rune(text)) > MaxPromptLength {
				return "", apierr.Invalid(name, msgPromptTooLong)
			}
			return text, nil
		}})
}

// Settings are the operator settings (spec part 2 §3) in typed form.
type Settings struct {
	TotalBatteries int `json:"total_batteries"`
	// ChargerMinutes maps a charger type (2.5A, 4A, 5A) to its charge time in minutes as
	// stored; 0 means "not set" and EtaMinutes falls back to the default.
	ChargerMinutes map[string]int `json:"chargerMinutes"`
	DropoffPrompt  string         `json:"dropoff_prompt"`
	PickupPrompt   string         `json:"pickup_prompt"`
	TimeZone       string         `json:"time_zone"`

	// Values are the stored rows, for keys other modules registered (Key.Get(s.Values)).
	Values settings.Values `json:"-"`
}

// EtaMinutes is how long a session on chargerType takes (charging.EtaMinutes).
func (s Settings) EtaMinutes(chargerType string) int {
	return charging.EtaMinutes(s.Values, chargerType)
}

// Location returns the operation's time zone (UTC when it cannot be loaded).
func (s Settings) Location() *time.Location { return clock.LoadLocation(s.TimeZone) }

// Load reads every setting in one query. A database error is returned; a missing or
// unparsable value takes its key's default; an unset time_zone takes $SWAPBAY_TZ, else UTC.
func Load(app core.App) (Settings, error) {
	vals, err := settings.Load(app)
	if err != nil {
		return Settings{}, err
	}
	s := Settings{
		TotalBatteries: inventory.TotalBatteries.Get(vals),
		ChargerMinutes: make(map[string]int, len(charging.ChargerMinutes)),
		DropoffPrompt:  DropoffPrompt.Get(vals),
		PickupPrompt:   PickupPrompt.Get(vals),
		TimeZone:       TimeZone.Get(vals),
		Values:         vals,
	}
	for typ, key := range charging.ChargerMinutes {
		s.ChargerMinutes[typ] = key.Get(vals)
	}
	return s, nil
}

// Location reads the operation's time zone alone (one query): for callers that need nothing
// else from the settings.
func Location(app core.App) (*time.Location, error) {
	name, err := TimeZone.Read(app)
	if err != nil {
		return nil, err
	}
	return clock.LoadLocation(name), nil
}
