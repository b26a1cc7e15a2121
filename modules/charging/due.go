package charging

import (
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/events"
	"swapbay/lib/schema"
)

// dueWhere is the one rule for a due session (spec part 1 §4: Status is 'Due' once the ETA is
// now or past): active, with an ETA at or before {:now}. The UI's sessionStatus applies the same
// rule to the sessions it shows; AnnounceDue and CountDue share it here.
const dueWhere = "status = {:active} AND etaAt != '' AND etaAt <= {:now}"

// dueParams binds dueWhere at now.
func dueParams(now time.Time) dbx.Params {
	return dbx.Params{"now": now.UTC().Format(types.DefaultDateLayout), "active": schema.SessionStatusActive}
}

// Due counts the active sessions whose ETA is at or before now, and the batteries in them.
type Due struct {
	Sessions  int `db:"sessions" json:"sessions"`
	Batteries int `db:"batteries" json:"batteries"`
}

// CountDue returns the sessions due at now (dueWhere) and their batteries: the admin Home's
// attention strip. One indexed read; it writes nothing.
func CountDue(app core.App, now time.Time) (Due, error) {
	var d Due
	err := app.DB().NewQuery("SELECT COUNT(*) AS sessions, COALESCE(SUM(quantity), 0) AS batteries FROM " +
		schema.ChargingSessions + " WHERE " + dueWhere).Bind(dueParams(now)).One(&d)
	return d, err
}

// AnnounceDue (the charging-due job of modules/jobs) marks every active, not yet announced session whose ETA is at or before now as
// announced, in one statement inside a transaction, and publishes CHARGING_UPDATED once after
// the commit when there was any. It returns how many sessions it announced.
func AnnounceDue(app core.App, now time.Time) (int, error) {
	var n int64
	err := app.RunInTransaction(func(tx core.App) error {
		res, err := tx.DB().NewQuery("UPDATE " + schema.ChargingSessions + " SET dueAnnounced = TRUE, updated = {:now}" +
			" WHERE " + dueWhere + " AND dueAnnounced = FALSE").
			Bind(dueParams(now)).Execute()
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		if n > 0 {
			events.Publish(tx, events.ChargingUpdated)
		}
		return nil
	})
	return int(n), err
}

// ActiveRow is an active session as stored: times are PocketBase's UTC text ("" when unset).
type ActiveRow struct {
	Id          string `db:"id"`
	Quantity    int    `db:"quantity"`
	ChargerType string `db:"chargerType"`
	StartedAt   string `db:"startedAt"`
	EtaAt       string `db:"etaAt"`
}

// ActiveSessions lists the active sessions, soonest ETA first (index status+etaAt), for the
// state and the dashboard (modules/activity reads them here, not from the table).
func ActiveSessions(app core.App) ([]ActiveRow, error) {
	rows := []ActiveRow{}
	err := app.DB().NewQuery("SELECT id, quantity, chargerType, startedAt, etaAt FROM " + schema.ChargingSessions +
		" WHERE status = {:active} ORDER BY etaAt = '', etaAt, startedAt").
		Bind(dbx.Params{"active": schema.SessionStatusActive}).All(&rows)
	return rows, err
}
