// Package inventory is SwapBay's battery ledger (DESIGN.md §3): accounts with cached
// balances, movements and their balanced entries, the stats read from them, and the driver
// operations. Every balance change goes through Post inside one transaction; no balance but
// outside's may go below zero. Other modules (charging, custody, system) move batteries only
// through this package's exported functions.
package inventory

import (
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
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

// MsgHoldsBatteries is the one answer (409) to deleting a user who still holds batteries,
// whether the users service or the hook that keeps battery holders (hooks/) catches it.
const MsgHoldsBatteries = "This user still holds batteries: record their dropoff or delete their assignments before deleting the account"

// driverForm is what every driver write's body carries beside its counts: the notes, the
// tap's time and the packs it names.
type driverForm struct {
	Notes      string `json:"notes"`
	OccurredAt string `json:"occurredAt"`
	PackNames
}

func (d *driverForm) driver() *driverForm { return d }

// decodeDriver decodes a driver write's body into f and gives the Op it runs as: the caller,
// the tap's time (reqx.OccurredAt), the notes and packs, and stats to fill with the figures.
func decodeDriver[F interface{ driver() *driverForm }](e *core.RequestEvent, f F, stats *Snapshot) (Op, error) {
	if err := reqx.Decode(e, f, 0); err != nil {
		return Op{}, err
	}
	d := f.driver()
	at, err := reqx.OccurredAt(d.OccurredAt)
	if err != nil {
		return Op{}, err
	}
	return Op{Actor: e.Auth, At: at, Notes: d.Notes, Packs: d.PackNames, Stats: stats}, nil
}

type quantityForm struct {
	Quantity reqx.Int `json:"quantity"`
	driverForm
}

func handlePickup(e *core.RequestEvent) error {
	var f quantityForm
	var stats Snapshot
	op, err := decodeDriver(e, &f, &stats)
	if err != nil {
		return apierr.Response(e, err)
	}
	op.KeyAt = keyAt(e)
	op.NotesRequired = MsgPickupNotesRequired
	mv, err := Pickup(e.App, op, e.Auth.Id, f.Quantity.Or(0))
	if err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "Battery pickup recorded successfully", stats, map[string]any{"movement": mv})
}

type dropoffForm struct {
	Good reqx.Int `json:"goodBatteries"`
	Dead reqx.Int `json:"deadBatteries"`
	driverForm
}

func handleDropoff(e *core.RequestEvent) error {
	var f dropoffForm
	var stats Snapshot
	op, err := decodeDriver(e, &f, &stats)
	if err != nil {
		return apierr.Response(e, err)
	}
	op.KeyAt = keyAt(e)
	op.NotesRequired = MsgDropoffNotesRequired
	mv, err := Dropoff(e.App, op, e.Auth.Id, f.Good.Or(0), f.Dead.Or(0))
	if err != nil {
		return apierr.Response(e, err)
	}
	return httpx.Success(e, "Battery dropoff recorded successfully", stats, map[string]any{"movement": mv})
}

func handleActivity(movementType, message string) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		var f quantityForm
		var stats Snapshot
		op, err := decodeDriver(e, &f, &stats)
		if err != nil {
			return apierr.Response(e, err)
		}
		if err := f.PackNames.Only(); err != nil { // moves and recovers count for pay: no batteries move
			return apierr.Response(e, err)
		}
		op.Packs = PackNames{}
		mv, err := LogActivity(e.App, op, e.Auth.Id, movementType, f.Quantity.Or(0))
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
