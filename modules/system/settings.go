package system

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/inventory"
)

// Default charger minutes per charger type (spec part 2 §9).
const (
	DefaultMinutes2_5A = 240
	DefaultMinutes4A   = 180
	DefaultMinutes5A   = 150
)

// MaxPromptLength bounds the prompt settings.
const MaxPromptLength = 500

// Messages of the settings the system module owns (spec part 2 §5).
const (
	MsgChargerMinutesInvalid = "Charger minutes must be a whole number 0 or greater"
	MsgUnknownTimeZone       = "Unknown time zone: " // followed by the zone sent
)

// msgPromptTooLong is the message of a prompt over MaxPromptLength characters.
var msgPromptTooLong = fmt.Sprintf("Prompts can be at most %d characters", MaxPromptLength)

// The settings the system module owns. The fleet size is inventory.TotalBatteries (the
// ledger needs it); other modules register their own keys (docs/modules.md, "Settings").
var (
	// ChargerMinutes maps a charger type (2.5A, 4A, 5A) to the setting of its charge time in
	// minutes. Blank input is stored as 0 ("not set"; see Settings.EtaMinutes).
	ChargerMinutes = map[string]settings.Key[int]{
		"2.5A": chargerKey(schema.SettingCharger2_5A, DefaultMinutes2_5A),
		"4A":   chargerKey(schema.SettingCharger4A, DefaultMinutes4A),
		"5A":   chargerKey(schema.SettingCharger5A, DefaultMinutes5A),
	}
	// DropoffPrompt is the text shown above the driver's dropoff form; blank input keeps it.
	DropoffPrompt = promptKey(schema.SettingDropoffPrompt)
	// PickupPrompt is the text shown above the driver's pickup form; blank input keeps it.
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

func chargerKey(name string, def int) settings.Key[int] {
	parse := func(text string) (int, error) {
		if text == "" {
			return 0, nil // saved blank: "not set"
		}
		return strconv.Atoi(text)
	}
	return settings.Register(settings.Key[int]{Name: name, Default: def, Parse: parse,
		Check: func(name, text string) (string, error) {
			if text == "" {
				text = "0"
			}
			n := reqx.Digits(text)
			if err := reqx.Count(name, n, 0, reqx.MaxCount, MsgChargerMinutesInvalid, reqx.MsgCountTooLarge); err != nil {
				return "", err
			}
			return strconv.Itoa(n), nil
		}})
}

func promptKey(name string) settings.Key[string] {
	return settings.Register(settings.Key[string]{Name: name, Parse: settings.ParseText, KeepWhenBlank: true,
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

// EtaMinutes is how long a session on chargerType takes. An empty or 0 setting (the spec
// lets the form save "empty means 0") falls back to the default, since a session that is
// due the moment it starts helps nobody.
func (s Settings) EtaMinutes(chargerType string) int {
	if m := s.ChargerMinutes[chargerType]; m > 0 {
		return m
	}
	return ChargerMinutes[chargerType].Default
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
		ChargerMinutes: make(map[string]int, len(ChargerMinutes)),
		DropoffPrompt:  DropoffPrompt.Get(vals),
		PickupPrompt:   PickupPrompt.Get(vals),
		TimeZone:       TimeZone.Get(vals),
		Values:         vals,
	}
	for typ, key := range ChargerMinutes {
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
