// Package charging is SwapBay's charging module: charging sessions, each holding its
// batteries in its own ledger account (DESIGN.md §3). Batteries move only through the
// inventory package.
package charging

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
	"swapbay/modules/inventory"
)

// Register adds the charging routes (admin and master_admin only):
//
//	POST   /api/start-charging                         {chargerType, quantity}
//	       → {success, message, session, movement, stats}   waiting → session; ETA = start + charger minutes
//	POST   /api/admin/charge/{id}/complete             {}
//	       → {success, message, session, movement, stats}   session → ready, status completed
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
		se.Router.POST("/api/start-charging", handleStart).Bind(httpx.RequireAdmin())
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.POST("/charge/{id}/complete", handleEnd(Complete, "Charging session completed successfully"))
		admin.DELETE("/charging-sessions/{id}", handleEnd(Delete, "Charging session deleted successfully"))
		admin.PATCH("/charging-sessions/{id}/quantity", handleQuantity)
		return se.Next()
	})
}

type startForm struct {
	ChargerType string           `json:"chargerType"`
	Quantity    inventory.OptInt `json:"quantity"`
	Notes       string           `json:"notes"`
}

func handleStart(e *core.RequestEvent) error {
	var f startForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	if !IsChargerType(f.ChargerType) {
		return inventory.FieldError("chargerType", "Charger type is required")
	}
	if !f.Quantity.Valid || f.Quantity.V < 1 {
		return inventory.FieldError("quantity", "Quantity is required")
	}
	notes, err := inventory.CheckNotes("notes", f.Notes, "")
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	sess, mv, err := Start(e.App, inventory.Op{Actor: e.Auth, Notes: notes}, f.ChargerType, f.Quantity.V)
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "Charging session started successfully", map[string]any{"session": sess, "movement": mv})
}

func handleEnd(fn func(core.App, inventory.Op, string) (*Session, *inventory.Movement, error), message string) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		sess, mv, err := fn(e.App, inventory.Op{Actor: e.Auth}, e.Request.PathValue("id"))
		if err != nil {
			return inventory.ToAPIError(e, err)
		}
		return inventory.Success(e, message, map[string]any{"session": sess, "movement": mv})
	}
}

type quantityForm struct {
	Quantity    inventory.OptInt `json:"quantity"`
	Destination string           `json:"destination"`
}

func handleQuantity(e *core.RequestEvent) error {
	var f quantityForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	if !f.Quantity.Valid || f.Quantity.V < 0 {
		return inventory.FieldError("quantity", "Quantity must be 0 or greater")
	}
	sess, mv, err := SetQuantity(e.App, inventory.Op{Actor: e.Auth}, e.Request.PathValue("id"), f.Quantity.V, f.Destination)
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	if mv == nil {
		return inventory.Success(e, "Charging session quantity unchanged", map[string]any{"session": sess, "movement": nil})
	}
	return inventory.Success(e, "Charging session quantity updated successfully", map[string]any{"session": sess, "movement": mv})
}
