// Package setup wires SwapBay onto a PocketBase app: the shared middlewares, the invariant
// hooks (hooks/), every module's routes, and the SPA. pb_app/main.go and the tests call the same Register.
package setup

import (
	"net/http"
	"os"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/hooks"
	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/webui"
	"swapbay/modules/activity"
	"swapbay/modules/auth"
	"swapbay/modules/backups"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/debuginfo"
	"swapbay/modules/earnings"
	"swapbay/modules/headoffice"
	"swapbay/modules/health"
	"swapbay/modules/inventory"
	"swapbay/modules/jobs"
	"swapbay/modules/journal"
	"swapbay/modules/packs"
	"swapbay/modules/photos"
	"swapbay/modules/realtime"
	"swapbay/modules/replication"
	"swapbay/modules/restore"
	"swapbay/modules/stocktake"
	"swapbay/modules/system"
	"swapbay/modules/terms"
	"swapbay/modules/transfers"
	"swapbay/modules/users"
	"swapbay/ui"

	_ "swapbay/pb_migrations"
)

// Register wires every SwapBay module onto app, and the hooks that guard its invariants for
// every writer (hooks/: the /_/ dashboard and PocketBase's record API included), once. It is
// safe to call on a test app.
func Register(app core.App) {
	restore.Register(app) // first: a restore's unfinished dir is refused before anything opens it
	hooks.Register(app)
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Id: "swapbayMiddlewares",
		Func: func(se *core.ServeEvent) error {
			se.Router.Bind(apierr.Codes()) // every error answer carries its stable code (DESIGN.md §5)
			se.Router.Bind(webui.GzipJSON(), webui.ETagJSON(), httpx.SecurityHeaders(ui.BootScriptHash()), httpx.SideDoors(),
				httpx.SameOrigin(), httpx.CookieSession(), httpx.LiveSession())
			se.Router.Bind(idempotency.Middleware())
			return se.Next()
		},
		Priority: -100,
	})

	auth.Register(app)
	users.Register(app)
	terms.Register(app)
	inventory.Register(app)
	charging.Register(app)
	custody.Register(app)
	journal.Register(app) // the pack journal keeps the tracking mode in memory (DESIGN.md §14)
	activity.Register(app)
	system.Register(app)
	realtime.Register(app)
	photos.Register(app)
	earnings.Register(app)
	jobs.Register(app)
	backups.Register(app)
	debuginfo.Register(app)
	replication.Register(app)
	packs.Register(app)
	health.Register(app)
	stocktake.Register(app)
	transfers.Register(app)
	headoffice.Register(app) // head office's tokens and their door (DESIGN.md §15)

	registerSPA(app)
}

// UIDirEnv names a directory to serve the UI from instead of the embedded build, read on every
// request (webui.NewLive). It is how the e2e tests deploy a new build under a running server
// (e2e/tests/field-offline.spec.ts: a new service worker while actions wait); unset in production.
const UIDirEnv = "SWAPBAY_UI_DIR"

// registerSPA serves the embedded UI for every GET that is not an API route (lib/webui: cached,
// precompressed assets; deep links get index.html) and answers unknown /api/* GETs with a JSON 404.
func registerSPA(app core.App) {
	site := webui.New(ui.Dist())
	if dir := os.Getenv(UIDirEnv); dir != "" {
		site = webui.NewLive(os.DirFS(dir))
	}
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Id: "swapbaySPA",
		Func: func(se *core.ServeEvent) error {
			se.Router.GET("/api/{path...}", httpx.APINotFound)
			if !se.Router.HasRoute(http.MethodGet, "/{path...}") {
				se.Router.GET("/{path...}", site.Handle)
			}
			return se.Next()
		},
		Priority: 999,
	})
}
