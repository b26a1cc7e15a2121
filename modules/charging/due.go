package charging

import (
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/events"
	"swapbay/lib/schema"
)

// AnnounceDue (the charging-due job of modules/jobs) marks every active, not yet announced session whose ETA is at or before now as
// announced, in one statement inside a transaction, and publishes CHARGING_UPDATED once after
// the commit when there was any. It returns how many sessions it announced.
func AnnounceDue(app core.App, now time.Time) (int, error) {
	var n int64
	err := app.RunInTransaction(func(tx core.App) error {
		stamp := now.UTC().Format(types.DefaultDateLayout)
		res, err := tx.DB().NewQuery("UPDATE " + schema.ChargingSessions + " SET dueAnnounced = TRUE, updated = {:now}" +
			" WHERE status = {:active} AND etaAt != '' AND etaAt <= {:now} AND dueAnnounced = FALSE").
			Bind(dbx.Params{"now": stamp, "active": schema.SessionStatusActive}).Execute()
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
