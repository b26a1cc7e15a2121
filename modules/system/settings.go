package system

import (
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// Default charger minutes per charger type (spec part 2 §9).
const (
	DefaultMinutes2_5A = 240
	DefaultMinutes4A   = 180
	DefaultMinutes5A   = 150
)

// EnvTimeZone names the environment variable that sets the time zone when the setting is
// unset (DESIGN.md §3).
const EnvTimeZone = clock.EnvTimeZone

// Settings are the operator settings (spec part 2 §3) in typed form.
type Settings struct {
	TotalBatteries int `json:"total_batteries"`
	// ChargerMinutes maps a charger type (2.5A, 4A, 5A) to its charge time in minutes as
	// stored; 0 means "not set" and EtaMinutes falls back to the default.
	ChargerMinutes map[string]int `json:"chargerMinutes"`
	DropoffPrompt  string         `json:"dropoff_prompt"`
	PickupPrompt   string         `json:"pickup_prompt"`
	TimeZone       string         `json:"time_zone"`
}

// ChargerSettingKeys maps each charger type to its setting key.
var ChargerSettingKeys = map[string]string{
	"2.5A": schema.SettingCharger2_5A,
	"4A":   schema.SettingCharger4A,
	"5A":   schema.SettingCharger5A,
}

// DefaultChargerMinutes maps each charger type to its default charge time.
var DefaultChargerMinutes = map[string]int{"2.5A": DefaultMinutes2_5A, "4A": DefaultMinutes4A, "5A": DefaultMinutes5A}

// EtaMinutes is how long a session on chargerType takes. An empty or 0 setting (the spec
// lets the form save "empty means 0") falls back to the default, since a session that is
// due the moment it starts helps nobody.
func (s Settings) EtaMinutes(chargerType string) int {
	if m := s.ChargerMinutes[chargerType]; m > 0 {
		return m
	}
	return DefaultChargerMinutes[chargerType]
}

// Location returns the operation's time zone (UTC when it cannot be loaded).
func (s Settings) Location() *time.Location { return clock.LoadLocation(s.TimeZone) }

// Load reads every setting. Missing or unparsable numbers take their defaults; an unset
// time_zone takes $SWAPBAY_TZ, else UTC.
func Load(app core.App) (Settings, error) {
	recs, err := app.FindAllRecords(schema.Settings)
	if err != nil {
		return Settings{}, err
	}
	raw := map[string]string{}
	for _, r := range recs {
		raw[r.GetString(schema.SettingKey)] = strings.TrimSpace(r.GetString(schema.SettingValue))
	}
	s := Settings{
		TotalBatteries: inventory.DefaultTotalBatteries,
		ChargerMinutes: map[string]int{},
		DropoffPrompt:  raw[schema.SettingDropoffPrompt],
		PickupPrompt:   raw[schema.SettingPickupPrompt],
		TimeZone:       raw[schema.SettingTimeZone],
	}
	if v, ok := raw[schema.SettingTotalBatteries]; ok {
		if n, err := strconv.Atoi(v); err == nil {
			s.TotalBatteries = n
		}
	}
	for typ, key := range ChargerSettingKeys {
		s.ChargerMinutes[typ] = DefaultChargerMinutes[typ]
		if v, ok := raw[key]; ok {
			n, err := strconv.Atoi(v)
			if v == "" {
				n, err = 0, nil
			}
			if err == nil {
				s.ChargerMinutes[typ] = n
			}
		}
	}
	s.TimeZone = clock.LocationFor(s.TimeZone).String()
	return s, nil
}
