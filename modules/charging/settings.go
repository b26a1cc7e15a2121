package charging

import (
	"strconv"

	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
)

// Default charger minutes per charger type (spec part 2 §9).
const (
	DefaultMinutes2_5A = 240
	DefaultMinutes4A   = 180
	DefaultMinutes5A   = 150
)

// MsgChargerMinutesInvalid refuses a charger minutes setting that is not a whole number ≥ 0.
const MsgChargerMinutesInvalid = "Charger minutes must be a whole number 0 or greater"

// ChargerMinutes maps a charger type (2.5A, 4A, 5A) to the setting of its charge time in
// minutes, a key charging owns (docs/modules.md, "Settings"); POST /api/admin/settings saves
// it like every registered key. Blank input is stored as 0 ("not set"; see EtaMinutes).
var ChargerMinutes = map[string]settings.Key[int]{
	"2.5A": chargerKey(schema.SettingCharger2_5A, DefaultMinutes2_5A),
	"4A":   chargerKey(schema.SettingCharger4A, DefaultMinutes4A),
	"5A":   chargerKey(schema.SettingCharger5A, DefaultMinutes5A),
}

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

// EtaMinutes is how long a session on chargerType takes, given the stored settings. An empty
// or 0 setting (the spec lets the form save "empty means 0") falls back to the default, since
// a session that is due the moment it starts helps nobody.
func EtaMinutes(vals settings.Values, chargerType string) int {
	key := ChargerMinutes[chargerType]
	if m := key.Get(vals); m > 0 {
		return m
	}
	return key.Default
}
