// Package custody is SwapBay's custody module: who holds which batteries. Manual
// assignments, assignment deletion, driver-to-driver swaps and dead-battery transfers, all
// as ledger movements between holder accounts (DESIGN.md §3).
package custody

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/modules/inventory"
)

// Register adds the custody routes (admin and master_admin only):
//
//	POST   /api/admin/assignments            {userId, quantity, assignmentType, notes?}
//	       → {success, message, movement, holder, stats}   ready → holder(user, type); 409 'Only N batteries available'
//	DELETE /api/admin/assignments/{id}       id = an assignment's id (GET /api/admin/battery-holders):
//	                                         that holding → waiting; or a holder's user id: all of theirs
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
		admin.POST("/assignments", httpx.Form(handleAssign)).Bind(idempotency.Keyed())
		admin.DELETE("/assignments/{id}", handleDeleteAssignment).Bind(idempotency.Keyed())
		admin.POST("/driver-swap", httpx.Form(handleSwap)).Bind(idempotency.Keyed())
		admin.POST("/dead-battery-transfer", httpx.Form(handleDeadTransfer)).Bind(idempotency.Keyed())
		return se.Next()
	})
}

type assignForm struct {
	UserId         string   `json:"userId"`
	Quantity       reqx.Int `json:"quantity"`
	AssignmentType string   `json:"assignmentType"`
	Notes          string   `json:"notes"`
	inventory.PackNames
}

func handleAssign(e *core.RequestEvent, f *assignForm) error {
	var stats inventory.Snapshot
	mv, holder, err := Assign(e.App, inventory.Op{Actor: e.Auth, Notes: f.Notes, Packs: f.PackNames, Stats: &stats}, f.UserId, f.Quantity.Or(0), f.AssignmentType)
	return httpx.Reply(e, httpx.Succeeded("Batteries assigned successfully", stats, map[string]any{"movement": mv, "holder": holder}), err)
}

func handleDeleteAssignment(e *core.RequestEvent) error {
	var stats inventory.Snapshot
	mvs, err := DeleteAssignment(e.App, inventory.Op{Actor: e.Auth, Stats: &stats}, e.Request.PathValue("id"))
	return httpx.Reply(e, httpx.Succeeded("Assignment deleted - batteries moved to waiting", stats, map[string]any{"movements": mvs}), err)
}

type swapForm struct {
	FromUserId string   `json:"fromUserId"`
	ToUserId   string   `json:"toUserId"`
	Good       reqx.Int `json:"goodBatteries"`
	Dead       reqx.Int `json:"deadBatteries"`
	ReturnGood reqx.Int `json:"returnGoodBatteries"`
	ReturnDead reqx.Int `json:"returnDeadBatteries"`
	IsExchange bool     `json:"isExchange"`
	Notes      string   `json:"notes"`
	inventory.PackNames
	ReturnGoodPacks []string `json:"returnGoodPacks"`
	ReturnDeadPacks []string `json:"returnDeadPacks"`
}

func handleSwap(e *core.RequestEvent, f *swapForm) error {
	var stats inventory.Snapshot
	res, err := Swap(e.App, inventory.Op{Actor: e.Auth, Notes: f.Notes, Packs: f.PackNames, Stats: &stats}, SwapRequest{
		FromUserId: f.FromUserId, ToUserId: f.ToUserId,
		Good: f.Good.Or(0), Dead: f.Dead.Or(0), ReturnGood: f.ReturnGood.Or(0), ReturnDead: f.ReturnDead.Or(0),
		IsExchange:  f.IsExchange,
		ReturnPacks: inventory.PackNames{GoodPacks: f.ReturnGoodPacks, DeadPacks: f.ReturnDeadPacks},
	})
	if err != nil {
		return apierr.Response(e, err)
	}
	fields := map[string]any{"transfer": res.Transfer}
	msg := "Driver swap recorded successfully"
	if res.Return != nil {
		fields["return"] = res.Return
		msg = "Battery exchange recorded successfully"
	}
	return httpx.Success(e, msg, stats, fields)
}

type deadForm struct {
	FromUserId string   `json:"fromUserId"`
	ToUserId   string   `json:"toUserId"`
	Dead       reqx.Int `json:"deadBatteries"`
	Notes      string   `json:"notes"`
	inventory.PackNames
}

func handleDeadTransfer(e *core.RequestEvent, f *deadForm) error {
	var stats inventory.Snapshot
	pair, err := DeadTransfer(e.App, inventory.Op{Actor: e.Auth, Notes: f.Notes, Packs: f.PackNames, Stats: &stats}, f.FromUserId, f.ToUserId, f.Dead.Or(0))
	return httpx.Reply(e, httpx.Succeeded("Dead batteries transferred successfully", stats, map[string]any{"transfer": pair}), err)
}
