package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"
)

// Schedules PocketBase's backups daily at 03:00 (in the operation's time zone: modules/backups
// sets the cron's zone) and keeps the newest 7 (DESIGN.md §11). An operator who already set a
// schedule at /_/ keeps theirs.
func init() {
	m.Register(func(app core.App) error {
		s := app.Settings()
		if s.Backups.Cron != "" {
			return nil
		}
		s.Backups.Cron = "0 3 * * *"
		s.Backups.CronMaxKeep = 7
		return app.Save(s)
	}, nil)
}
