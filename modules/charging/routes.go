// Package charging is SwapBay's charging module: charging sessions, each holding its
// batteries in its own ledger account (DESIGN.md §3). Batteries move only through the
// inventory package.
package charging

import (
	"github.com/pocketbase/pocketbase/core"

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
		se.Router.POST("/api/start-charging", httpx.Form(handleStart)).Bind(httpx.RequireAdmin(), idempotency.Keyed())
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.POST("/charge/{id}/complete", httpx.Form(handleComplete)).Bind(idempotency.Keyed())
		admin.DELETE("/charging-sessions/{id}", httpx.Form(handleEnd(Delete, "Charging session deleted successfully"))).Bind(idempotency.Keyed())
		admin.PATCH("/charging-sessions/{id}/quantity", httpx.Form(handleQuantity)).Bind(idempotency.Keyed())
		return se.Next()
	})
}

type startForm struct {
	ChargerType string   `json:"chargerType"`
	Quantity    reqx.Int `json:"quantity"`
	Notes       string   `json:"notes"`
	inventory.PackNames
}

func handleStart(e *core.RequestEvent, f *startForm) error {
	var stats inventory.Snapshot
	sess, mv, err := Start(e.App, inventory.Op{Actor: e.Auth, Notes: f.Notes, Packs: f.PackNames, Stats: &stats}, f.ChargerType, f.Quantity.Or(0))
	return sessionChanged(e, "Charging session started successfully", stats, sess, mv, err)
}

// sessionChanged answers a change to a charging session: {success, message, session,
// movement, stats}, or err as its ApiError.
func sessionChanged(e *core.RequestEvent, message string, stats inventory.Snapshot, sess *Session, mv *inventory.Movement, err error) error {
	return httpx.Reply(e, httpx.Succeeded(message, stats, map[string]any{"session": sess, "movement": mv}), err)
}

// handleEnd ends a session by fn; its optional body names the packs coming off the chargers.
func handleEnd(fn func(core.App, inventory.Op, string) (*Session, *inventory.Movement, error), message string) func(*core.RequestEvent, *inventory.PackNames) error {
	return func(e *core.RequestEvent, f *inventory.PackNames) error {
		var stats inventory.Snapshot
		sess, mv, err := fn(e.App, inventory.Op{Actor: e.Auth, Packs: *f, Stats: &stats}, e.Request.PathValue("id"))
		return sessionChanged(e, message, stats, sess, mv, err)
	}
}

// completeForm is the completion's optional body: the packs coming off the chargers and the
// energy the charger reported (Wh; absent: not reported).
type completeForm struct {
	inventory.PackNames
	EnergyWh *float64 `json:"energyWh"`
}

func handleComplete(e *core.RequestEvent, f *completeForm) error {
	var stats inventory.Snapshot
	sess, mv, err := CompleteWithEnergy(e.App, inventory.Op{Actor: e.Auth, Packs: f.PackNames, Stats: &stats}, e.Request.PathValue("id"), f.EnergyWh)
	return sessionChanged(e, "Charging session completed successfully", stats, sess, mv, err)
}

type quantityForm struct {
	Quantity    reqx.Int `json:"quantity"`
	Destination string   `json:"destination"`
	inventory.PackNames
}

func handleQuantity(e *core.RequestEvent, f *quantityForm) error {
	var stats inventory.Snapshot
	sess, mv, err := SetQuantity(e.App, inventory.Op{Actor: e.Auth, Packs: f.PackNames, Stats: &stats}, e.Request.PathValue("id"), f.Quantity.Or(reqx.NotAnInteger), f.Destination)
	msg := "Charging session quantity updated successfully"
	if mv == nil {
		msg = "Charging session quantity unchanged"
	}
	return sessionChanged(e, msg, stats, sess, mv, err)
}
