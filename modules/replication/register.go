package replication

import (
	"context"
	"net/http"
	"path/filepath"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
	"swapbay/lib/roles"
)

// FlagURL is `serve --replicate=URL` (pb_app binds it); it wins over $SWAPBAY_REPLICA_URL.
var FlagURL string

// storeKey is where the running Replicator lives in app.Store().
const storeKey = "swapbay.replication"

// ShutdownTimeout bounds the last sync when the server stops.
const ShutdownTimeout = 15 * time.Second

// Routes:
//
//	GET /api/admin/replication   master admin   Status ({enabled:false} when off)
//
// On serve, when a replica URL is configured (FlagURL, else $SWAPBAY_REPLICA_URL), data.db is
// replicated until the server stops; a replica that cannot start stops the server from
// starting (a server that silently does not replicate is worse than one that does not start).
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		cfg := configured()
		if cfg.URL != "" && Of(se.App) == nil {
			r, err := Start(context.Background(), filepath.Join(se.App.DataDir(), "data.db"), cfg, se.App.Logger().With("module", "replication"))
			if err != nil {
				return err
			}
			se.App.Store().Set(storeKey, r)
			se.App.Logger().Info("replicating data.db", "target", cfg.Target(), "source", cfg.Source, "litestream", LitestreamVersion)
		}
		se.Router.GET("/api/admin/replication", handleStatus).Bind(httpx.RequireRoles(roles.MasterAdmin))
		return se.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		if r := Of(e.App); r != nil {
			ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
			if err := r.Close(ctx); err != nil {
				e.App.Logger().Error("replication: last sync before stopping failed", "error", err.Error())
			}
			cancel()
			e.App.Store().Remove(storeKey)
		}
		return e.Next()
	})
}

// configured is the replica configuration: the flag, else the environment.
func configured() Config {
	cfg := FromEnv()
	if FlagURL != "" {
		cfg.URL, cfg.Source = FlagURL, "flag"
	}
	return cfg
}

// Of is app's running Replicator, nil when it does not replicate.
func Of(app core.App) *Replicator {
	r, _ := app.Store().Get(storeKey).(*Replicator)
	return r
}

// Active reports whether app's data.db is being replicated (Litestream then owns its
// checkpoints: modules/jobs skips it).
func Active(app core.App) bool { return Of(app) != nil }

// StatusOf is the replication's status now ({enabled:false} when off).
func StatusOf(app core.App) Status {
	if r := Of(app); r != nil {
		return r.Status(time.Now())
	}
	return Status{}
}

func handleStatus(e *core.RequestEvent) error {
	return e.JSON(http.StatusOK, StatusOf(e.App))
}
