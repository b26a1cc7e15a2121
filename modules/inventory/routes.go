// Package inventory is SwapBay's battery ledger (DESIGN.md §3): accounts with cached
// balances, movements and their balanced entries, the stats read from them, and the driver
// operations. Every balance change goes through Post inside one transaction; no balance but
// outside's may go below zero. Other modules (charging, custody, system) move batteries only
// through this package's exported functions.
package inventory

import (
	"net/http"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// Routes (driver operations; callers: approved driver, admin, master_admin — always for
// themselves). Every success answers 200 with
//
//	{success: true, message, movement: <movement record>, stats: Snapshot}
//
// where the movement record has id, type, quantity (signed), notes, user, actor,
// goodBatteries, deadBatteries, discrepancy, session, meta, checkpoint, occurredAt (the tap),
// recordedAt (the commit), created.
//
//	POST /api/driver/pickup                   {quantity, notes, occurredAt?}                      ready → holder(me, pickup); 409 when ready < quantity
//	POST /api/driver/dropoff-batteries        {goodBatteries, deadBatteries, notes, occurredAt?}  holder(me) → ready (good), waiting (dead); excess from outside (discrepancy)
//	POST /api/driver/rebalance                {quantity, notes?, occurredAt?}                     activity only (moves), no entries
//	POST /api/driver/retrieves-repairs-dropoff {quantity, notes?, occurredAt?}                    activity only (recovers), no entries
//
// occurredAt is the time of the driver's tap (RFC 3339, DESIGN.md §12; absent: now); more
// than 2 minutes ahead of the server is a 400 occurred_in_future, older than 7 days a 400
// too_old (reqx.OccurredAt). Balances are checked at the commit, against the ledger as it is.
//
// Corrections (admin, master_admin):
//
//	PUT    /api/admin/movements/{id}   {goodBatteries, deadBatteries, notes?}  EditMovement
//	       → {success, message: 'The movement has been corrected successfully.', movement, stats}
//	DELETE /api/admin/movements/{id}                                            DeleteMovement
//	       → {success, message: 'The movement has been deleted and batteries returned.', stats}
func Register(app core.App) {
	app.OnRecordDelete(schema.Users).Bind(&hook.Handler[*core.RecordEvent]{
		Id:       KeepHoldersHookId,
		Priority: keepHoldersPriority,
		Func:     keepHolders,
	})
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		driver := se.Router.Group("/api/driver")
		driver.Bind(httpx.RequireRoles(roles.Driver, roles.Admin, roles.MasterAdmin))
		driver.POST("/pickup", handlePickup).Bind(idempotency.Grouped())
		driver.POST("/dropoff-batteries", handleDropoff).Bind(idempotency.Grouped())
		driver.POST("/rebalance", handleActivity(TypeRebalance, "Rebalance recorded successfully")).Bind(idempotency.Grouped())
		driver.POST("/retrieves-repairs-dropoff", handleActivity(TypeRetrievesRepairs, "Recovers recorded successfully")).Bind(idempotency.Grouped())

		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.PUT("/movements/{id}", handleEditMovement).Bind(idempotency.Keyed())
		admin.DELETE("/movements/{id}", handleDeleteMovement).Bind(idempotency.Keyed())
		return se.Next()
	})
}

// KeepHoldersHookId names the hook that refuses deleting a user who still holds batteries:
// their holder accounts would lose their owner and the batteries would be stranded in the
// field count. Delete or move their assignments first.
const KeepHoldersHookId = "swapbayKeepBatteryHolders"

// MsgHoldsBatteries is the one answer (409) to deleting a user who still holds batteries,
// whether the users service or this hook catches it.
const MsgHoldsBatteries = "This user still holds batteries: record their dropoff or delete their assignments before deleting the account"

const keepHoldersPriority = -30

func keepHolders(e *core.RecordEvent) error {
	held, err := HeldBy(e.App, e.Record.Id)
	if err != nil {
		return err
	}
	if held > 0 {
		return apierr.NewCode(http.StatusConflict, "", MsgHoldsBatteries, apierr.CodeHoldsBatteries)
	}
	return e.Next()
}

type quantityForm struct {
	Quantity   reqx.Int `json:"quantity"`
	Notes      string   `json:"notes"`
	OccurredAt string   `json:"occurredAt"`
	PackNames
}

func handlePickup(e *core.RequestEvent) error {
	var f quantityForm
	if err := reqx.Decode(e, &f, 0); err != nil {
		return apierr.Response(e, err)
	}
	at, err := reqx.OccurredAt(f.OccurredAt)
	if err != nil {
		return apierr.Response(e, err)
	}
	var stats Snapshot
	mv, err := Pickup(e.App, Op{Actor: e.Auth, At: at, KeyAt: keyAt(e), Notes: f.Notes, NotesRequired: MsgPickupNotesRequired, Packs: f.PackNames, Stats: &stats}, e.Auth.Id, f.Quantity.Or(0))
	if err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "Battery pickup recorded successfully", stats, map[string]any{"movement": mv})
}

type dropoffForm struct {
	Good       reqx.Int `json:"goodBatteries"`
	Dead       reqx.Int `json:"deadBatteries"`
	Notes      string   `json:"notes"`
	OccurredAt string   `json:"occurredAt"`
	PackNames
}

func handleDropoff(e *core.RequestEvent) error {
	var f dropoffForm
	if err := reqx.Decode(e, &f, 0); err != nil {
		return apierr.Response(e, err)
	}
	at, err := reqx.OccurredAt(f.OccurredAt)
	if err != nil {
		return apierr.Response(e, err)
	}
	var stats Snapshot
	mv, err := Dropoff(e.App, Op{Actor: e.Auth, At: at, KeyAt: keyAt(e), Notes: f.Notes, NotesRequired: MsgDropoffNotesRequired, Packs: f.PackNames, Stats: &stats}, e.Auth.Id, f.Good.Or(0), f.Dead.Or(0))
	if err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "Battery dropoff recorded successfully", stats, map[string]any{"movement": mv})
}

func handleActivity(movementType, message string) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		var f quantityForm
		if err := reqx.Decode(e, &f, 0); err != nil {
			return apierr.Response(e, err)
		}
		at, err := reqx.OccurredAt(f.OccurredAt)
		if err != nil {
			return apierr.Response(e, err)
		}
		var stats Snapshot
		if err := f.PackNames.Only(); err != nil { // moves and recovers count for pay: no batteries move
			return apierr.Response(e, err)
		}
		mv, err := LogActivity(e.App, Op{Actor: e.Auth, At: at, Notes: f.Notes, Stats: &stats}, e.Auth.Id, movementType, f.Quantity.Or(0))
		if err != nil {
			return apierr.Response(e, err)
		}
		return httpx.Success(e, message, stats, map[string]any{"movement": mv})
	}
}

// keyAt is when the request's Idempotency-Key was minted (a UUIDv7 carries its time; zero for
// an unkeyed request or a key of another form): the tap of an offline action, which the
// client cannot back-date as it can occurredAt.
func keyAt(e *core.RequestEvent) time.Time {
	at, _ := idempotency.KeyTime(strings.TrimSpace(e.Request.Header.Get(idempotency.Header)))
	return at
}
