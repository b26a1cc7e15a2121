// Package system is SwapBay's system module: operator settings, stat edits, the emergency override, recalculation, the history wipe and the clean slate. All
// battery changes go through the inventory ledger.
package system

import (
	"encoding/json"
	"fmt"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/audit"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/inventory"
)

// Register adds the system routes. Admin and master_admin unless marked (master):
//
//	POST   /api/admin/update-stats            {stat, value, from}: one figure, 409 stat_changed when it is no longer from
//	       → {success, message, movement|null, stats}
//	POST   /api/admin/emergency-override      {ready, waiting, charging, total}
//	POST   /api/admin/emergency-inventory-override (same)
//	       → {success, message: 'Emergency override applied successfully!', movement|null, stats}
//	POST   /api/admin/recalculate-inventory   {}
//	       → {success, message, after: {ready, waiting, charging, inField, total, unaccounted}, corrections: [...],
//	          packCorrections: [...] (the pack records' differences from the counts, DESIGN.md §14), stats}
//	POST   /api/admin/settings                {settings: [{key, value}, ...]}
//	       → {success, message: 'Settings saved successfully!', settings: Settings, stats}
//	GET    /api/admin/history/count?targetDate=YYYY-MM-DD  → {count}: movements a wipe would remove
//	GET    /api/admin/audit                   → {entries: [{id, at, actor, actorKind, action, collection, recordId, fields}]}
//	       the audit list: raw writes through PocketBase's record API or /_/ that hooks/ allowed, newest first
//	POST   /api/admin/history/wipe (master)   {targetDate: 'YYYY-MM-DD', confirmPhrase: 'DELETE HISTORY'}
//	       → {success, message: 'History wiped successfully!', deleted, checkpoint|null, stats}
//	POST   /api/admin/clean-slate (master)    {}
//	       → {success, message: 'System reset for production deployment!', checkpoint, stats}
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.POST("/update-stats", httpx.Form(handleUpdateStats)).Bind(idempotency.Keyed())
		admin.POST("/emergency-override", httpx.Form(handleOverride)).Bind(idempotency.Keyed())
		admin.POST("/emergency-inventory-override", httpx.Form(handleOverride)).Bind(idempotency.Keyed())
		admin.POST("/recalculate-inventory", handleRecalculate).Bind(idempotency.Keyed())
		admin.POST("/settings", httpx.Form(handleSettings)).Bind(idempotency.Keyed())
		admin.GET("/history/count", handleHistoryCount)
		admin.GET("/audit", audit.Handler(schema.AuditLog))

		master := se.Router.Group("/api/admin")
		master.Bind(httpx.RequireRoles(roles.MasterAdmin))
		master.POST("/history/wipe", httpx.Form(handleWipe)).Bind(idempotency.Keyed())
		master.POST("/clean-slate", handleCleanSlate).Bind(idempotency.Keyed())
		return se.Next()
	})
}

// statEditForm is one edited figure with the value it was edited from. The old body, the
// whole snapshot (total, ready, waiting, charging, inField), is refused: it moved every figure
// that differed from the server's, including ones nobody edited.
type statEditForm struct {
	Stat  string   `json:"stat"`
	Value reqx.Int `json:"value"`
	From  reqx.Int `json:"from"`

	Total    json.RawMessage `json:"total"`
	Ready    json.RawMessage `json:"ready"`
	Waiting  json.RawMessage `json:"waiting"`
	Charging json.RawMessage `json:"charging"`
	InField  json.RawMessage `json:"inField"`
}

// MsgStatSnapshot refuses the old full-snapshot body (%s: the field sent).
const MsgStatSnapshot = "%s is not accepted: send the edited stat as {stat, value, from}"

func handleUpdateStats(e *core.RequestEvent, f *statEditForm) error {
	for _, old := range []struct {
		field string
		v     json.RawMessage
	}{{"total", f.Total}, {"ready", f.Ready}, {"waiting", f.Waiting}, {"charging", f.Charging}, {"inField", f.InField}} {
		if old.v != nil {
			return apierr.Response(e, apierr.Invalid(old.field, fmt.Sprintf(MsgStatSnapshot, old.field)))
		}
	}
	var stats inventory.Snapshot
	mv, err := EditStat(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, f.Stat, f.Value.Or(reqx.NotAnInteger), f.From.Or(reqx.NotAnInteger))
	return httpx.Reply(e, httpx.Succeeded("Statistics updated successfully", stats, map[string]any{"movement": movementOrNil(mv)}), err)
}

func movementOrNil(mv *inventory.Movement) any {
	if mv == nil {
		return nil
	}
	return mv
}

type overrideForm struct {
	Ready    reqx.Int `json:"ready"`
	Waiting  reqx.Int `json:"waiting"`
	Charging reqx.Int `json:"charging"`
	Total    reqx.Int `json:"total"`
}

func handleOverride(e *core.RequestEvent, f *overrideForm) error {
	// every figure is required: a missing one is a decoding error, its range the service's
	for _, c := range []struct {
		field, label string
		v            reqx.Int
	}{{"ready", "Ready", f.Ready}, {"waiting", "Waiting", f.Waiting}, {"charging", "Charging", f.Charging}, {"total", "Total", f.Total}} {
		if !c.v.Present {
			return apierr.Response(e, apierr.Invalid(c.field, fmt.Sprintf(msgOverrideRequired, c.label)))
		}
	}
	var stats inventory.Snapshot
	mv, err := Override(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, f.Ready.Or(0), f.Waiting.Or(0), f.Charging.Or(0), f.Total.Or(0))
	return httpx.Reply(e, httpx.Succeeded("Emergency override applied successfully!", stats, map[string]any{"movement": movementOrNil(mv)}), err)
}

// MsgPackRecordsDiffer answers a recalculation whose counts were sound but whose pack records
// differ from them (packCorrections lists where).
const MsgPackRecordsDiffer = "Inventory recalculated: the pack records differ from the counts"

func handleRecalculate(e *core.RequestEvent) error {
	res, err := Recalculate(e.App)
	msg := "Inventory recalculated: no corrections needed"
	switch {
	case len(res.Corrections) > 0:
		msg = "Inventory recalculated: balances corrected"
	case len(res.PackCorrections) > 0:
		msg = MsgPackRecordsDiffer
	}
	return httpx.Reply(e, httpx.Succeeded(msg, res.After, map[string]any{"after": res.After, "corrections": res.Corrections, "packCorrections": res.PackCorrections}), err)
}

// MsgMasterOnlySetting refuses an admin's change to a master admin's setting (the pack
// tracking mode and prefix, DESIGN.md §14).
const MsgMasterOnlySetting = "Only a master admin can change this setting"

type settingsForm struct {
	Settings []Setting `json:"settings"`
}

func handleSettings(e *core.RequestEvent, f *settingsForm) error {
	if e.Auth.GetString(schema.UserRole) != roles.MasterAdmin {
		for _, p := range f.Settings {
			if spec, ok := settings.Lookup(p.Key); ok && spec.MasterOnly {
				return apierr.Response(e, apierr.Forbidden(MsgMasterOnlySetting))
			}
		}
	}
	var stats inventory.Snapshot
	s, err := SaveSettings(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, f.Settings)
	return httpx.Reply(e, httpx.Succeeded("Settings saved successfully!", stats, map[string]any{"settings": s}), err)
}

type wipeForm struct {
	TargetDate    string `json:"targetDate"`
	ConfirmPhrase string `json:"confirmPhrase"`
}

func handleWipe(e *core.RequestEvent, f *wipeForm) error {
	var stats inventory.Snapshot
	res, err := WipeHistory(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, f.TargetDate, f.ConfirmPhrase)
	return httpx.Reply(e, httpx.Succeeded("History wiped successfully!", stats, map[string]any{"deleted": res.Deleted, "checkpoint": movementOrNil(res.Checkpoint)}), err)
}

func handleHistoryCount(e *core.RequestEvent) error {
	n, err := HistoryCount(e.App, e.Request.URL.Query().Get("targetDate"))
	return httpx.Reply(e, map[string]int{"count": n}, err)
}

func handleCleanSlate(e *core.RequestEvent) error {
	var stats inventory.Snapshot
	mv, err := CleanSlate(e.App, inventory.Op{Actor: e.Auth, Stats: &stats})
	return httpx.Reply(e, httpx.Succeeded("System reset for production deployment!", stats, map[string]any{"checkpoint": mv}), err)
}
