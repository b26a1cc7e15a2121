package system

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/photos"
)

// WipeConfirmPhrase is what the user types to confirm a history wipe (spec part 2 §5).
const WipeConfirmPhrase = "DELETE HISTORY"

// MsgUnknownSetting answers a key no module registered, followed by the key.
const MsgUnknownSetting = "Unknown setting: "

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

// SaveSettings checks and stores settings (spec part 2 §5) in one transaction: each key must
// be registered (see lib/settings), and its Check validates the value and gives the text to
// store; a key with KeepWhenBlank ignores blank input, any other stores a blank as sent (it
// resets the key: the prompts). Keys not sent stay as they are. The first refused value
// refuses them all. op.Stats (when set) receives the stats read inside the transaction, for
// the route's answer. It is the one way a setting is saved: POST /api/admin/settings, the
// seed and the tests all come through here.
func SaveSettings(app core.App, op inventory.Op, pairs []Setting) (Settings, error) {
	values := map[string]string{}
	for _, p := range pairs {
		spec, ok := settings.Lookup(p.Key)
		if !ok {
			return Settings{}, apierr.Invalid("settings", MsgUnknownSetting+p.Key)
		}
		v := p.text()
		if v == "" && spec.KeepWhenBlank {
			continue
		}
		if spec.Check != nil {
			var err error
			if v, err = spec.Check(p.Key, v); err != nil {
				return Settings{}, err
			}
		}
		values[p.Key] = v
	}
	var out Settings
	err := app.RunInTransaction(func(txApp core.App) error {
		for k, v := range values {
			if err := settings.Store(txApp, k, v); err != nil {
				return err
			}
		}
		var err error
		if out, err = Load(txApp); err != nil {
			return err
		}
		events.Publish(txApp, events.InventoryUpdated)
		return op.Capture(txApp)
	})
	return out, err
}

// statTargets are the figures an adjustment reaches; nil leaves one unchanged.
type statTargets struct {
	Total, Ready, Waiting, Charging, InField *int
}

// Messages of the stat edit and the emergency override (spec part 2 §8).
const (
	MsgStatInvalid      = "Please enter a valid positive number"
	msgOverrideRequired = "%s count is required"
	msgOverrideMin      = "%s count must be a whole number of at least %d"
)

// Stats an admin edits one at a time (POST /api/admin/update-stats), with their labels.
var editableStats = map[string]string{
	"total": "Total", "ready": "Ready", "waiting": "Waiting", "charging": "Charging", "inField": "In Field",
}

// Messages of the one-figure stat edit.
const (
	MsgStatUnknown = "Stat must be one of total, ready, waiting, charging, inField"
	// MsgStatChanged is the 409 when the figure moved while the admin was editing it: label,
	// the value they edited from, the value now.
	MsgStatChanged = "%s changed from %d to %d while you were editing. Check the new figure and try again."
	// CodeStatChanged is MsgStatChanged's code.
	CodeStatChanged = "stat_changed"
)

// EditStat applies an admin's edit of one figure: stat (total, ready, waiting, charging or
// inField) goes to value, by one adjustment movement (see inventory.Adjust), only if it still is from, the value
// the admin edited; otherwise 409 CodeStatChanged and nothing changes. So a dropoff that lands
// between loading the page and saving is never undone by the edit. value and from are whole
// numbers from 0 to reqx.MaxFleet.
func EditStat(app core.App, op inventory.Op, stat string, value, from int) (*inventory.Movement, error) {
	label, ok := editableStats[stat]
	if !ok {
		return nil, apierr.Invalid("stat", MsgStatUnknown)
	}
	if err := reqx.Count("value", value, 0, reqx.MaxFleet, MsgStatInvalid, reqx.MsgFleetTooLarge); err != nil {
		return nil, err
	}
	if err := reqx.Count("from", from, 0, reqx.MaxFleet, MsgStatInvalid, reqx.MsgFleetTooLarge); err != nil {
		return nil, err
	}
	var mv *inventory.Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		var current int
		var err error
		if stat == "total" {
			// the setting alone: inventory.Stats would remember the total in this transaction
			// (txutil.Remember), and the answer would then show the total before the edit
			current, err = inventory.TotalBatteries.Read(txApp)
		} else {
			var now inventory.Snapshot
			now, err = inventory.Stats(txApp)
			current = map[string]int{"ready": now.Ready, "waiting": now.Waiting, "charging": now.Charging, "inField": now.InField}[stat]
		}
		if err != nil {
			return err
		}
		if current != from {
			return &apierr.Error{Kind: apierr.ErrConflict, Code: CodeStatChanged, Message: fmt.Sprintf(MsgStatChanged, label, from, current)}
		}
		var t statTargets
		switch stat {
		case "total":
			t.Total = &value
		case "ready":
			t.Ready = &value
		case "waiting":
			t.Waiting = &value
		case "charging":
			t.Charging = &value
		case "inField":
			t.InField = &value
		}
		mv, err = adjust(txApp, op, t, "Stat edit", events.InventoryUpdated, events.ActivityUpdated)
		return err
	})
	return mv, err
}

// Override applies the emergency inventory override: ready, waiting and charging (0 to
// reqx.MaxFleet) reached by one adjustment movement, total (1 to reqx.MaxFleet) set as the
// fleet size. It works even when a cached balance is damaged (see inventory.Adjust).
func Override(app core.App, op inventory.Op, ready, waiting, charging, total int) (*inventory.Movement, error) {
	for _, c := range []struct {
		field, label string
		v, min       int
	}{{"ready", "Ready", ready, 0}, {"waiting", "Waiting", waiting, 0}, {"charging", "Charging", charging, 0}, {"total", "Total", total, 1}} {
		if err := reqx.Count(c.field, c.v, c.min, reqx.MaxFleet, fmt.Sprintf(msgOverrideMin, c.label, c.min), reqx.MsgFleetTooLarge); err != nil {
			return nil, err
		}
	}
	return adjust(app, op, statTargets{Total: &total, Ready: &ready, Waiting: &waiting, Charging: &charging},
		"Emergency override", events.EmergencyOverride, events.InventoryUpdated, events.ActivityUpdated)
}

// adjust writes the targets (validated by the caller) in one transaction.
func adjust(app core.App, op inventory.Op, t statTargets, label string, types ...string) (*inventory.Movement, error) {
	var mv *inventory.Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		if t.Total != nil {
			if err := settings.Store(txApp, schema.SettingTotalBatteries, strconv.Itoa(*t.Total)); err != nil {
				return err
			}
		}
		var err error
		mv, err = inventory.Adjust(txApp, op, inventory.Targets{Ready: t.Ready, Waiting: t.Waiting, Charging: t.Charging, InField: t.InField}, label)
		if err != nil {
			return err
		}
		events.Publish(txApp, types...)
		return op.Capture(txApp)
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
	return time.Time{}, apierr.Invalid("targetDate", "Target date must be a date (YYYY-MM-DD)")
}

// HistoryCount is how many movements a wipe before targetDate would remove (the day cut in
// the configured time zone, as WipeHistory cuts it), for the confirmation.
func HistoryCount(app core.App, targetDate string) (int, error) {
	if strings.TrimSpace(targetDate) == "" {
		return 0, apierr.Invalid("targetDate", "Target date is required")
	}
	settings, err := Load(app)
	if err != nil {
		return 0, err
	}
	cut, err := ParseTargetDate(targetDate, settings.Location())
	if err != nil {
		return 0, err
	}
	return inventory.CountBefore(app, cut)
}

// WipeHistory deletes the movements that occurred before targetDate (the day cut in the
// configured time zone) and folds them into one checkpoint (see inventory.Wipe).
func WipeHistory(app core.App, op inventory.Op, targetDate, confirmPhrase string) (inventory.WipeResult, error) {
	if strings.TrimSpace(targetDate) == "" {
		return inventory.WipeResult{}, apierr.Invalid("targetDate", "Target date is required")
	}
	if strings.TrimSpace(confirmPhrase) == "" {
		return inventory.WipeResult{}, apierr.Invalid("confirmPhrase", "Confirmation phrase is required")
	}
	if strings.TrimSpace(confirmPhrase) != WipeConfirmPhrase {
		return inventory.WipeResult{}, apierr.Invalid("confirmPhrase", "Please type DELETE HISTORY to confirm")
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
		if cut.After(clock.Now()) {
			return apierr.Invalid("targetDate", "Target date cannot be in the future")
		}
		res, err = inventory.Wipe(txApp, op, cut, "History before "+cut.Format("2006-01-02"))
		if err != nil {
			return err
		}
		events.Publish(txApp, events.EmergencyOverride, events.InventoryUpdated, events.ActivityUpdated)
		return op.Capture(txApp)
	})
	return res, err
}

// Recalculate rebuilds every cached balance from the ledger's entries (inventory.Recalculate)
// and each active session's quantity from its account (charging.SyncQuantities), in one
// transaction. Corrections lists what changed; outside an emergency it is empty.
func Recalculate(app core.App) (inventory.Recalculation, error) {
	var res inventory.Recalculation
	err := app.RunInTransaction(func(txApp core.App) error {
		var err error
		if res, err = inventory.Recalculate(txApp); err != nil {
			return err
		}
		return charging.SyncQuantities(txApp)
	})
	return res, err
}

// CleanSlate resets the system for production: movements, sessions and balances go, users,
// settings and agreements stay, and total_batteries are ready as one checkpoint movement.
// Every photo goes too, its file deleted by PocketBase after the commit.
func CleanSlate(app core.App, op inventory.Op) (*inventory.Movement, error) {
	var mv *inventory.Movement
	err := app.RunInTransaction(func(txApp core.App) error {
		total, err := inventory.TotalBatteries.Read(txApp)
		if err != nil {
			return err
		}
		if err := charging.DeleteAll(txApp); err != nil {
			return err
		}
		if mv, err = inventory.CleanSlate(txApp, op, total); err != nil {
			return err
		}
		if err := photos.DeleteAll(txApp); err != nil {
			return err
		}
		events.Publish(txApp, events.EmergencyOverride, events.InventoryUpdated, events.ActivityUpdated, events.ChargingUpdated)
		return op.Capture(txApp)
	})
	return mv, err
}
