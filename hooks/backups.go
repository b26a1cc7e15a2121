package hooks

import (
	"errors"
	"net/http"
	"regexp"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/order"
)

// MsgRestoreRefused answers PocketBase's own backup restore: SwapBay has one restore pipeline
// (modules/restore), which builds the data beside the live dir, checks SQLite's integrity and
// the ledger (0 corrections) and only then swaps it in. PocketBase's restore replaces the
// live data without either check.
const MsgRestoreRefused = "Restoring from the dashboard is turned off: restore a backup with `swapbay restore --from <backup.zip> --dir <data dir>` on the server, which checks the data and the ledger before swapping it in."

// restoreRoute is PocketBase's POST /api/backups/{key}/restore.
var restoreRoute = regexp.MustCompile(`^/api/backups/[^/]+/restore/?$`)

func bindBackups(app core.App) {
	// a restore goes through the one restore pipeline (`swapbay restore`): PocketBase's own
	// restore route, which /_/ offers, is refused before it answers (it restores in the
	// background, after a 204)…
	app.OnServe().Bind(named(BackupRestoreRouteId, 0, func(se *core.ServeEvent) error {
		se.Router.Bind(named(BackupRestoreRouteId, order.RawDoors, func(e *core.RequestEvent) error {
			if e.Request.Method == http.MethodPost && restoreRoute.MatchString(e.Request.URL.Path) {
				return apierr.NewCode(http.StatusForbidden, "", MsgRestoreRefused, apierr.CodeRestoreRefused)
			}
			return e.Next()
		}))
		return se.Next()
	}))
	// …and app.RestoreBackup itself, whoever calls it (SwapBay never does)
	app.OnBackupRestore().Bind(named(BackupRestoreId, 0, func(e *core.BackupEvent) error {
		return errors.New(MsgRestoreRefused)
	}))
}
