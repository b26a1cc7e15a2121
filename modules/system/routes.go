// Package system is SwapBay's system module: operator settings, stat edits, the emergency override, recalculation, the history wipe and the clean slate. All
// battery changes go through the inventory ledger.
package system

import (
	"strconv"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/roles"
	"swapbay/modules/inventory"
)

// Register adds the system routes. Admin and master_admin unless marked (master):
//
//	POST   /api/admin/update-stats            {total?, ready?, waiting?, charging?, inField?}
//	       → {success, message, movement|null, stats}
//	POST   /api/admin/emergency-override      {ready, waiting, charging, total}
//	POST   /api/admin/emergency-inventory-override (same)
//	       → {success, message: 'Emergency override applied successfully!', movement|null, stats}
//	POST   /api/admin/recalculate-inventory   {}
//	       → {success, message, after: {ready, waiting, charging, inField, total, unaccounted}, corrections: [...], stats}
//	POST   /api/admin/settings                {settings: [{key, value}, ...]}
//	       → {success, message: 'Settings saved successfully!', settings: Settings, stats}
//	POST   /api/admin/history/wipe (master)   {targetDate: 'YYYY-MM-DD', confirmPhrase: 'DELETE HISTORY'}
//	       → {success, message: 'History wiped successfully!', deleted, checkpoint|null, stats}
//	POST   /api/admin/clean-slate (master)    {}
//	       → {success, message: 'System reset for production deployment!', checkpoint, stats}
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.POST("/update-stats", handleUpdateStats)
		admin.POST("/emergency-override", handleOverride)
		admin.POST("/emergency-inventory-override", handleOverride)
		admin.POST("/recalculate-inventory", handleRecalculate)
		admin.POST("/settings", handleSettings)

		master := se.Router.Group("/api/admin")
		master.Bind(httpx.RequireRoles(roles.MasterAdmin))
		master.POST("/history/wipe", handleWipe)
		master.POST("/clean-slate", handleCleanSlate)
		return se.Next()
	})
}

type statsForm struct {
	Total    inventory.OptInt `json:"total"`
	Ready    inventory.OptInt `json:"ready"`
	Waiting  inventory.OptInt `json:"waiting"`
	Charging inventory.OptInt `json:"charging"`
	InField  inventory.OptInt `json:"inField"`
}

func handleUpdateStats(e *core.RequestEvent) error {
	var f statsForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	for _, c := range []struct {
		field string
		v     inventory.OptInt
	}{{"total", f.Total}, {"ready", f.Ready}, {"waiting", f.Waiting}, {"charging", f.Charging}, {"inField", f.InField}} {
		if !c.v.NonNegative() {
			return inventory.FieldError(c.field, "Please enter a valid positive number")
		}
	}
	mv, err := UpdateStats(e.App, inventory.Op{Actor: e.Auth}, StatTargets{
		Total: f.Total.Ptr(), Ready: f.Ready.Ptr(), Waiting: f.Waiting.Ptr(), Charging: f.Charging.Ptr(), InField: f.InField.Ptr(),
	})
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "Statistics updated successfully", map[string]any{"movement": movementOrNil(mv)})
}

func movementOrNil(mv *inventory.Movement) any {
	if mv == nil {
		return nil
	}
	return mv
}

type overrideForm struct {
	Ready    inventory.OptInt `json:"ready"`
	Waiting  inventory.OptInt `json:"waiting"`
	Charging inventory.OptInt `json:"charging"`
	Total    inventory.OptInt `json:"total"`
}

func handleOverride(e *core.RequestEvent) error {
	var f overrideForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	for _, c := range []struct {
		field, label string
		v            inventory.OptInt
		min          int
	}{{"ready", "Ready", f.Ready, 0}, {"waiting", "Waiting", f.Waiting, 0}, {"charging", "Charging", f.Charging, 0}, {"total", "Total", f.Total, 1}} {
		if !c.v.Present {
			return inventory.FieldError(c.field, c.label+" count is required")
		}
		if !c.v.Valid || c.v.V < c.min {
			return inventory.FieldError(c.field, c.label+" count must be a whole number of at least "+strconv.Itoa(c.min))
		}
	}
	mv, err := Override(e.App, inventory.Op{Actor: e.Auth}, f.Ready.V, f.Waiting.V, f.Charging.V, f.Total.V)
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "Emergency override applied successfully!", map[string]any{"movement": movementOrNil(mv)})
}

func handleRecalculate(e *core.RequestEvent) error {
	res, err := inventory.Recalculate(e.App)
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	msg := "Inventory recalculated: no corrections needed"
	if len(res.Corrections) > 0 {
		msg = "Inventory recalculated: balances corrected"
	}
	return inventory.Success(e, msg, map[string]any{"after": res.After, "corrections": res.Corrections})
}

type settingsForm struct {
	Settings []Setting `json:"settings"`
}

func handleSettings(e *core.RequestEvent) error {
	var f settingsForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	s, err := SaveSettings(e.App, f.Settings)
	if err != nil {
		return apierr.Response(e, err)
	}
	return inventory.Success(e, "Settings saved successfully!", map[string]any{"settings": s})
}

type wipeForm struct {
	TargetDate    string `json:"targetDate"`
	ConfirmPhrase string `json:"confirmPhrase"`
}

func handleWipe(e *core.RequestEvent) error {
	var f wipeForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	res, err := WipeHistory(e.App, inventory.Op{Actor: e.Auth}, f.TargetDate, f.ConfirmPhrase)
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "History wiped successfully!", map[string]any{"deleted": res.Deleted, "checkpoint": movementOrNil(res.Checkpoint)})
}

func handleCleanSlate(e *core.RequestEvent) error {
	mv, err := CleanSlate(e.App, inventory.Op{Actor: e.Auth})
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "System reset for production deployment!", map[string]any{"checkpoint": mv})
}
