package system

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/events"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/photos"
)

// WipeConfirmPhrase is what the user types to confirm a history wipe (spec part 2 §5).
const WipeConfirmPhrase = "DELETE HISTORY"

// MaxPromptLength bounds the prompt settings.
const MaxPromptLength = 500

// Setting is one key/value pair of POST /api/admin/settings. Value may be a JSON string or
// number.
type Setting struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// text returns the value as trimmed text (numbers as written, null as "").
func (s Setting) text() string {
	var str string
	if err := json.Unmarshal(s.Value, &str); err == nil {
		return strings.TrimSpace(str)
	}
	v := strings.TrimSpace(string(s.Value))
	if v == "null" {
		return ""
	}
	return v
}

// saveSetting upserts key = value inside txApp.
func saveSetting(txApp core.App, key, value string) error {
	rec, err := txApp.FindFirstRecordByData(schema.Settings, schema.SettingKey, key)
	if err != nil {
		col, cerr := txApp.FindCachedCollectionByNameOrId(schema.Settings)
		if cerr != nil {
			return cerr
		}
		rec = core.NewRecord(col)
		rec.Set(schema.SettingKey, key)
	}
	rec.Set(schema.SettingValue, value)
	return txApp.Save(rec)
}

// SaveSettings validates and stores settings (spec part 2 §5): total_batteries a whole
// number ≥ 0 ('Total batteries is required' when blank); charger minutes whole numbers ≥ 0,
// blank stored as 0 (the ETA then uses the default, see Settings.EtaMinutes); blank prompts
// are ignored (the form sends them only when non-blank); time_zone must be an IANA zone
// (blank falls back to $SWAPBAY_TZ, else UTC). Keys not sent stay as they are.
func SaveSettings(app core.App, pairs []Setting) (Settings, error) {
	values := map[string]string{}
	for _, p := range pairs {
		v := p.text()
		switch p.Key {
		case schema.SettingTotalBatteries:
			if v == "" {
				return Settings{}, inventory.Invalid(p.Key, "Total batteries is required")
			}
			if n, err := strconv.Atoi(v); err != nil || n < 0 {
				return Settings{}, inventory.Invalid(p.Key, "Total batteries must be a whole number 0 or greater")
			}
		case schema.SettingCharger2_5A, schema.SettingCharger4A, schema.SettingCharger5A:
			if v == "" {
				v = "0"
			}
			if n, err := strconv.Atoi(v); err != nil || n < 0 {
				return Settings{}, inventory.Invalid(p.Key, "Charger minutes must be a whole number 0 or greater")
			}
		case schema.SettingDropoffPrompt, schema.SettingPickupPrompt:
			if v == "" {
				continue
			}
			if len([]rune(v)) > MaxPromptLength {
				return Settings{}, inventory.Invalid(p.Key, fmt.Sprintf("Prompts can be at most %d characters", MaxPromptLength))
			}
		case schema.SettingTimeZone:
			if _, err := time.LoadLocation(v); v != "" && err != nil {
				return Settings{}, inventory.Invalid(p.Key, "Unknown time zone: "+v)
			}
		default:
			return Settings{}, inventory.Invalid("settings", "Unknown setting: "+p.Key)
		}
		values[p.Key] = v
	}
	var out Settings
	err := app.RunInTransaction(func(txApp core.App) error {
		for k, v := range values {
			if err := saveSetting(txApp, k, v); err != nil {
				return err
			}
		}
		var err error
		out, err = Load(txApp)
		inventory.Publish(txApp, events.InventoryUpdated)
		return err
	})
	return out, err
}

// StatTargets are the figures of a stat edit; nil leaves one unchanged.
type StatTargets struct {
	Total, Ready, Waiting, Charging, InField *int
}

// UpdateStats applies an admin stat edit: total sets the total_batteries setting, the other
// figures are reached by one adjustment movement (see inventory.Adjust).
func UpdateStats(app core.App, op inventory.Op, t StatTargets) (*inventory.Movement, error) {
	return adjust(app, op, t, "Stat edit", events.InventoryUpdated, events.ActivityUpdated)
}

// Override applies the emergency inventory override: ready, waiting and charging reached by
// one adjustment movement, total set as the fleet size.
func Override(app core.App, op inventory.Op, ready, waiting, charging, total int) (*inventory.Movement, error) {
	return adjust(app, op, StatTargets{Total: &total, Ready: &ready, Waiting: &waiting, Charging: &charging},
		"Emergency override", events.EmergencyOverride, events.InventoryUpdated, events.ActivityUpdated)
}

func adjust(app core.App, op inventory.Op, t StatTargets, label string, types ...string) (*inventory.Movement, error) {
	var mv *inventory.Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		if t.Total != nil {
			if *t.Total < 0 {
				return inventory.Invalid("total", "Please enter a valid positive number")
			}
			if err := saveSetting(txApp, schema.SettingTotalBatteries, strconv.Itoa(*t.Total)); err != nil {
				return err
			}
		}
		var err error
		mv, err = inventory.Adjust(txApp, op, inventory.Targets{Ready: t.Ready, Waiting: t.Waiting, Charging: t.Charging, InField: t.InField}, label)
		if err != nil {
			return err
		}
		inventory.Publish(txApp, types...)
		return nil
	})
	return mv, err
}

// ParseTargetDate reads a wipe's target date (YYYY-MM-DD, or an RFC 3339 time whose date is
// used) as the start of that day in loc.
func ParseTargetDate(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if len(s) >= 10 {
		if d, err := time.ParseInLocation("2006-01-02", s[:10], loc); err == nil {
			return d, nil
		}
	}
	return time.Time{}, inventory.Invalid("targetDate", "Target date must be a date (YYYY-MM-DD)")
}

// WipeHistory deletes the movements that occurred before targetDate (the day cut in the
// configured time zone) and folds them into one checkpoint (see inventory.Wipe).
func WipeHistory(app core.App, op inventory.Op, targetDate, confirmPhrase string) (inventory.WipeResult, error) {
	if strings.TrimSpace(targetDate) == "" {
		return inventory.WipeResult{}, inventory.Invalid("targetDate", "Target date is required")
	}
	if strings.TrimSpace(confirmPhrase) == "" {
		return inventory.WipeResult{}, inventory.Invalid("confirmPhrase", "Confirmation phrase is required")
	}
	if strings.TrimSpace(confirmPhrase) != WipeConfirmPhrase {
		return inventory.WipeResult{}, inventory.Invalid("confirmPhrase", "Please type DELETE HISTORY to confirm")
	}
	var res inventory.WipeResult
	err := app.RunInTransaction(func(txApp core.App) error {
		settings, err := Load(txApp)
		if err != nil {
			return err
		}
		cut, err := ParseTargetDate(targetDate, settings.Location())
		if err != nil {
			return err
		}
		if cut.After(time.Now()) {
			return inventory.Invalid("targetDate", "Target date cannot be in the future")
		}
		res, err = inventory.Wipe(txApp, op, cut, "History before "+cut.Format("2006-01-02"))
		if err != nil {
			return err
		}
		inventory.Publish(txApp, events.EmergencyOverride, events.InventoryUpdated, events.ActivityUpdated)
		return nil
	})
	return res, err
}

// CleanSlate resets the system for production: movements, sessions and balances go, users,
// settings and agreements stay, and total_batteries are ready as one checkpoint movement.
// Every photo goes too, its file deleted by PocketBase after the commit.
func CleanSlate(app core.App, op inventory.Op) (*inventory.Movement, error) {
	var mv *inventory.Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		total, err := inventory.TotalBatteries(txApp)
		if err != nil {
			return err
		}
		if mv, err = inventory.CleanSlate(txApp, op, total); err != nil {
			return err
		}
		if err := photos.DeleteAll(txApp); err != nil {
			return err
		}
		inventory.Publish(txApp, events.EmergencyOverride, events.InventoryUpdated, events.ActivityUpdated, events.ChargingUpdated)
		return nil
	})
	return mv, err
}
