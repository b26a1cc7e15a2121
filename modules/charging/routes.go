// Package charging is SwapBay's charging module: charging sessions, each holding its
// batteries in its own ledger account (DESIGN.md §3). Batteries move only through the
// inventory package.
package charging

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/modules/inventory"
)

// Register adds the charging routes (admin and master_admin only):
//
//	POST   /api/start-charging                         {chargerType, quantity}
//	       → {success, message, session, movement, stats}   waiting → session; ETA = start + charger minutes
//	POST   /api/admin/charge/{id}/complete             {packs?, energyWh?}
//	       → {success, message, session, movement, stats}   session → ready, status completed; energyWh
//	       (0 < n ≤ 100000, the charger's report) is kept on the session and its packs' health re-derived
//	DELETE /api/admin/charging-sessions/{id}
//	       → {success, message, session, movement, stats}   session → waiting, status deleted
//	PATCH  /api/admin/charging-sessions/{id}/quantity  {quantity, destination: "ready"|"waiting"}
//	       → {success, message, session, movement|null, stats}  down: session → destination; up: waiting → session
//
// session is the charging_sessions record: id, quantity, chargerType, startedAt, etaAt,
// status, endedAt, startedBy. 404 for an unknown session, 409 when it is no longer active or
// batteries are short. Events: CHARGING_UPDATED, INVENTORY_UPDATED, ACTIVITY_UPDATED.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/start-charging", handleStart).Bind(httpx.RequireAdmin(), idempotency.Keyed())
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.POST("/charge/{id}/complete", handleComplete).Bind(idempotency.Keyed())
		admin.DELETE("/charging-sessions/{id}", handleEnd(Delete, "Charging session deleted successfully")).Bind(idempotency.Keyed())
		admin.PATCH("/charging-sessions/{id}/quantity", handleQuantity).Bind(idempotency.Keyed())
		return se.Next()
	})
}

type startForm struct {
	ChargerType string   `json:"chargerType"`
	Quantity    reqx.Int `json:"quantity"`
	Notes       string   `json:"notes"`
	inventory.PackNames
}

func handleStart(e *core.RequestEvent) error {
	var f startForm
	if err := reqx.Decode(e, &f, 0); err != nil {
		return apierr.Response(e, err)
	}
	var stats inventory.Snapshot
	sess, mv, err := Start(e.App, inventory.Op{Actor: e.Auth, Notes: f.Notes, Packs: f.PackNames, Stats: &stats}, f.ChargerType, f.Quantity.Or(0))
	if err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "Charging session started successfully", stats, map[string]any{"session": sess, "movement": mv})
}

func handleEnd(fn func(core.App, inventory.Op, string) (*Session, *inventory.Movement, error), message string) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		var f inventory.PackNames // optional body: the packs coming off the chargers
		if err := reqx.Decode(e, &f, 0); err != nil {
			return apierr.Response(e, err)
		}
		var stats inventory.Snapshot
		sess, mv, err := fn(e.App, inventory.Op{Actor: e.Auth, Packs: f, Stats: &stats}, e.Request.PathValue("id"))
		if err != nil {
			return apierr.Response(e, err)
		}
		return httpx.Success(e, message, stats, map[string]any{"session": sess, "movement": mv})
	}
}

// completeForm is the completion's optional body: the packs coming off the chargers and the
// energy the charger reported (Wh; absent: not reported).
type completeForm struct {
	inventory.PackNames
	EnergyWh *float64 `json:"energyWh"`
}

func handleComplete(e *core.RequestEvent) error {
	var f completeForm
	if err := reqx.Decode(e, &f, 0); err != nil {
		return apierr.Response(e, err)
	}
	var stats inventory.Snapshot
	sess, mv, err := CompleteWithEnergy(e.App, inventory.Op{Actor: e.Auth, Packs: f.PackNames, Stats: &stats}, e.Request.PathValue("id"), f.EnergyWh)
	if err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "Charging session completed successfully", stats, map[string]any{"session": sess, "movement": mv})
}

type quantityForm struct {
	Quantity    reqx.Int `json:"quantity"`
	Destination string   `json:"destination"`
	inventory.PackNames
}

func handleQuantity(e *core.RequestEvent) error {
	var f quantityForm
	if err := reqx.Decode(e, &f, 0); err != nil {
		return apierr.Response(e, err)
	}
	var stats inventory.Snapshot
	sess, mv, err := SetQuantity(e.App, inventory.Op{Actor: e.Auth, Packs: f.PackNames, Stats: &stats}, e.Request.PathValue("id"), f.Quantity.Or(reqx.NotAnInteger), f.Destination)
	if err != nil {
		return apierr.Response(e, err)
	}
	if mv == nil {
		return httpx.Success(e, "Charging session quantity unchanged", stats, map[string]any{"session": sess, "movement": nil})
	}
	return httpx.Success(e, "Charging session quantity updated successfully", stats, map[string]any{"session": sess, "movement": mv})
}
