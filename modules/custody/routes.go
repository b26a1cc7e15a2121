// Package custody is SwapBay's custody module: who holds which batteries. Manual
// assignments, assignment deletion, driver-to-driver swaps and dead-battery transfers, all
// as ledger movements between holder accounts (DESIGN.md §3).
package custody

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
	"swapbay/modules/inventory"
)

// Register adds the custody routes (admin and master_admin only):
//
//	POST   /api/admin/assignments            {userId, quantity, assignmentType, notes?}
//	       → {success, message, movement, holder, stats}   ready → holder(user, type); 409 'Only N batteries available'
//	DELETE /api/admin/assignments/{id}       id = the holder's user id: every holding of theirs → waiting
//	       → {success, message: 'Assignment deleted - batteries moved to waiting', movements: [...], stats}
//	POST   /api/admin/driver-swap            {fromUserId, toUserId, goodBatteries, deadBatteries, notes?,
//	                                          returnGoodBatteries?, returnDeadBatteries?, isExchange?}
//	       → {success, message, transfer: {out, in}, return: {out, in}|absent, stats}
//	POST   /api/admin/dead-battery-transfer  {fromUserId, toUserId, deadBatteries, notes?}
//	       → {success, message, transfer: {out, in}, stats}
//
// holder is the accounts record (id, key, kind, user, assignmentType, balance). A swap is
// two movements: driver_swap_out for the giver (carries the entries) and driver_swap_in for
// the receiver, linked through meta.pair.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.POST("/assignments", handleAssign)
		admin.DELETE("/assignments/{id}", handleDeleteAssignment)
		admin.POST("/driver-swap", handleSwap)
		admin.POST("/dead-battery-transfer", handleDeadTransfer)
		return se.Next()
	})
}

type assignForm struct {
	UserId         string           `json:"userId"`
	Quantity       inventory.OptInt `json:"quantity"`
	AssignmentType string           `json:"assignmentType"`
	Notes          string           `json:"notes"`
}

func handleAssign(e *core.RequestEvent) error {
	var f assignForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	if f.UserId == "" {
		return inventory.FieldError("userId", "Driver is required")
	}
	if !f.Quantity.Valid || f.Quantity.V < 1 {
		return inventory.FieldError("quantity", "Quantity is required")
	}
	notes, err := inventory.CheckNotes("notes", f.Notes, "")
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	mv, holder, err := Assign(e.App, inventory.Op{Actor: e.Auth, Notes: notes}, f.UserId, f.Quantity.V, f.AssignmentType)
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "Batteries assigned successfully", map[string]any{"movement": mv, "holder": holder})
}

func handleDeleteAssignment(e *core.RequestEvent) error {
	mvs, err := DeleteAssignment(e.App, inventory.Op{Actor: e.Auth}, e.Request.PathValue("id"))
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "Assignment deleted - batteries moved to waiting", map[string]any{"movements": mvs})
}

type swapForm struct {
	FromUserId string           `json:"fromUserId"`
	ToUserId   string           `json:"toUserId"`
	Good       inventory.OptInt `json:"goodBatteries"`
	Dead       inventory.OptInt `json:"deadBatteries"`
	ReturnGood inventory.OptInt `json:"returnGoodBatteries"`
	ReturnDead inventory.OptInt `json:"returnDeadBatteries"`
	IsExchange bool             `json:"isExchange"`
	Notes      string           `json:"notes"`
}

func handleSwap(e *core.RequestEvent) error {
	var f swapForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	for field, v := range map[string]inventory.OptInt{"goodBatteries": f.Good, "deadBatteries": f.Dead, "returnGoodBatteries": f.ReturnGood, "returnDeadBatteries": f.ReturnDead} {
		if !v.NonNegative() {
			return inventory.FieldError(field, "Must be a valid number 0 or greater")
		}
	}
	notes, err := inventory.CheckNotes("notes", f.Notes, "")
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	res, err := Swap(e.App, inventory.Op{Actor: e.Auth, Notes: notes}, SwapRequest{
		FromUserId: f.FromUserId, ToUserId: f.ToUserId,
		Good: f.Good.Or(0), Dead: f.Dead.Or(0), ReturnGood: f.ReturnGood.Or(0), ReturnDead: f.ReturnDead.Or(0),
		IsExchange: f.IsExchange,
	})
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	fields := map[string]any{"transfer": res.Transfer}
	msg := "Driver swap recorded successfully"
	if res.Return != nil {
		fields["return"] = res.Return
		msg = "Battery exchange recorded successfully"
	}
	return inventory.Success(e, msg, fields)
}

type deadForm struct {
	FromUserId string           `json:"fromUserId"`
	ToUserId   string           `json:"toUserId"`
	Dead       inventory.OptInt `json:"deadBatteries"`
	Notes      string           `json:"notes"`
}

func handleDeadTransfer(e *core.RequestEvent) error {
	var f deadForm
	if err := httpx.BindJSON(e, &f, 0); err != nil {
		return err
	}
	if f.Dead.Present && !f.Dead.Valid {
		return inventory.FieldError("deadBatteries", "Dead batteries must be at least 1")
	}
	notes, err := inventory.CheckNotes("notes", f.Notes, "")
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	pair, err := DeadTransfer(e.App, inventory.Op{Actor: e.Auth, Notes: notes}, f.FromUserId, f.ToUserId, f.Dead.Or(0))
	if err != nil {
		return inventory.ToAPIError(e, err)
	}
	return inventory.Success(e, "Dead batteries transferred successfully", map[string]any{"transfer": pair})
}
