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
		driver.POST("/pickup", driverWrite("Battery pickup recorded successfully", MsgPickupNotesRequired, pickup)).Bind(idempotency.Grouped())
		driver.POST("/dropoff-batteries", driverWrite("Battery dropoff recorded successfully", MsgDropoffNotesRequired, dropoff)).Bind(idempotency.Grouped())
		driver.POST("/rebalance", driverWrite("Rebalance recorded successfully", "", logActivity(TypeRebalance))).Bind(idempotency.Grouped())
		driver.POST("/retrieves-repairs-dropoff", driverWrite("Recovers recorded successfully", "", logActivity(TypeRetrievesRepairs))).Bind(idempotency.Grouped())

		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.PUT("/movements/{id}", httpx.Form(handleEditMovement)).Bind(idempotency.Keyed())
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

// driverWrite is a driver route: its body is decoded into a new F (httpx.Form), write
// records it with the Op it runs as — the caller, the tap's time (reqx.OccurredAt) and the
// key's (keyAt), the notes (blank ones refused with notesRequired when it is set) and packs —
// and the answer is {success, message, movement, stats}.
func driverWrite[F any, PF interface {
	*F
	driver() *driverForm
}](message, notesRequired string, write func(e *core.RequestEvent, op Op, f PF) (*Movement, error)) func(*core.RequestEvent) error {
	return httpx.Form(func(e *core.RequestEvent, f *F) error {
		d := PF(f).driver()
		at, err := reqx.OccurredAt(d.OccurredAt)
		if err != nil {
			return apierr.Response(e, err)
		}
		var stats Snapshot
		op := Op{Actor: e.Auth, At: at, KeyAt: keyAt(e), Notes: d.Notes, NotesRequired: notesRequired, Packs: d.PackNames, Stats: &stats}
		mv, err := write(e, op, f)
		return httpx.Reply(e, httpx.Succeeded(message, stats, map[string]any{"movement": mv}), err)
	})
}

type quantityForm struct {
	Quantity reqx.Int `json:"quantity"`
	driverForm
}

func pickup(e *core.RequestEvent, op Op, f *quantityForm) (*Movement, error) {
	return Pickup(e.App, op, e.Auth.Id, f.Quantity.Or(0))
}

type dropoffForm struct {
	Good reqx.Int `json:"goodBatteries"`
	Dead reqx.Int `json:"deadBatteries"`
	driverForm
}

func dropoff(e *core.RequestEvent, op Op, f *dropoffForm) (*Movement, error) {
	return Dropoff(e.App, op, e.Auth.Id, f.Good.Or(0), f.Dead.Or(0))
}

// logActivity records moves or recovers (movementType): they count for pay, no batteries move.
func logActivity(movementType string) func(*core.RequestEvent, Op, *quantityForm) (*Movement, error) {
	return func(e *core.RequestEvent, op Op, f *quantityForm) (*Movement, error) {
		if err := f.PackNames.Only(); err != nil {
			return nil, err
		}
		op.Packs = PackNames{}
		return LogActivity(e.App, op, e.Auth.Id, movementType, f.Quantity.Or(0))
	}
}

// keyAt is when the request's Idempotency-Key was minted (a UUIDv7 carries its time; zero for
// an unkeyed request or a key of another form): the tap of an offline action, which the
// client cannot back-date as it can occurredAt.
func keyAt(e *core.RequestEvent) time.Time {
	at, _ := idempotency.KeyTime(strings.TrimSpace(e.Request.Header.Get(idempotency.Header)))
	return at
}
