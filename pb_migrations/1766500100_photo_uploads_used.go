package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Creates the used upload URLs table (schema.PhotoUploadsUsed): a one-time upload URL stays used
// after its photo is deleted (was: the same URL, within its 15 minutes, uploaded and claimed the
// deleted photo again). A plain table, not a collection.
func init() {
	m.Register(func(app core.App) error {
		_, err := app.DB().NewQuery("CREATE TABLE IF NOT EXISTS {{" + schema.PhotoUploadsUsed + "}} (id TEXT PRIMARY KEY NOT NULL, [[" +
			schema.PhotoUploadUsedExp + "]] INTEGER NOT NULL)").Execute()
		return err
	}, func(app core.App) error {
		_, err := app.DB().NewQuery("DROP TABLE IF EXISTS {{" + schema.PhotoUploadsUsed + "}}").Execute()
		return err
	})
}
