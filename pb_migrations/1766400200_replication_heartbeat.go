package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Creates the heartbeat table (schema.Heartbeat): one row, rewritten once a minute while the
// city replicates, so head office can tell a quiet city from a stopped one (docs/hq.md). A plain
// table, not a collection.
func init() {
	m.Register(func(app core.App) error {
		_, err := app.DB().NewQuery("CREATE TABLE IF NOT EXISTS {{" + schema.Heartbeat + "}} (id INTEGER PRIMARY KEY CHECK (id = 1), [[" +
			schema.HeartbeatAt + "]] TEXT NOT NULL DEFAULT '')").Execute()
		return err
	}, func(app core.App) error {
		_, err := app.DB().NewQuery("DROP TABLE IF EXISTS {{" + schema.Heartbeat + "}}").Execute()
		return err
	})
}
