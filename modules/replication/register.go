package replication

import (
	"context"
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// FlagURL is `serve --replicate=URL` (pb_app binds it); it wins over $SWAPBAY_REPLICA_URL.
var FlagURL string

// storeKey is where the running Replicator lives in app.Store().
const storeKey = "swapbay.replication"

// ShutdownTimeout bounds the last sync when the server stops.
const ShutdownTimeout = 15 * time.Second

// startErrKey keeps why the System page's replica did not start at serve (StatusOf warns).
const startErrKey = "swapbay.replication.startError"

// Routes:
//
//	GET /api/admin/replication   admin, master admin   Status ({enabled:false} when off); a
//	                             master admin also gets settings: Form (never the credentials)
//	PUT /api/admin/replication   master admin          Input {enabled, url, accessKeyId,
//	                             secretAccessKey} → Status + settings: saved and applied at once
//	                             (Configure; 400 bad URL, 409 set by flag/env, 422
//	                             replica_unreachable); bound idempotency.Skip(): the network check
//	                             and Litestream's start must not hold the write transaction
//
// On serve, when a replica is configured (FlagURL, else $SWAPBAY_REPLICA_URL, else the System
// page's settings), data.db is replicated until the server stops. A flag or environment replica
// that cannot start stops the server from starting (a server that silently does not replicate
// is worse than one that does not start); one from the System page is reported there instead
// (the server stays up so a master admin can fix it).
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		if Of(se.App) == nil {
			cfg, err := configured(se.App)
			if err != nil {
				return err
			}
			if cfg.URL != "" {
				if err := startIn(se.App, cfg); err != nil {
					if cfg.Source != "settings" {
						return err
					}
					se.App.Logger().Error("replication: the System page's replica did not start", "error", err.Error())
					se.App.Store().Set(startErrKey, err.Error())
				}
			}
		}
		se.Router.GET("/api/admin/replication", handleStatus).Bind(httpx.RequireAdmin())
		se.Router.PUT("/api/admin/replication", handleConfigure).Bind(httpx.RequireRoles(roles.MasterAdmin), idempotency.Skip())
		return se.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		Stop(e.App)
		return e.Next()
	})
}

// Stop ends app's replication after a last sync (bounded by ShutdownTimeout), as the server
// does when it stops; the stored settings stay as they are.
func Stop(app core.App) {
	applyMu.Lock()
	defer applyMu.Unlock()
	if r := Of(app); r != nil {
		ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
		if err := r.Close(ctx); err != nil {
			app.Logger().Error("replication: last sync before stopping failed", "error", err.Error())
		}
		cancel()
		app.Store().Remove(storeKey)
	}
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
		return r.Status(clock.Now())
	}
	if msg, _ := app.Store().Get(startErrKey).(string); msg != "" {
		return Status{Warning: MsgStartFailed + msg}
	}
	return Status{}
}

// answer is the replication route's answer: the status, and for a master admin the form.
type answer struct {
	Status
	Settings *Form `json:"settings,omitempty"`
}

func handleStatus(e *core.RequestEvent) error {
	out := answer{Status: StatusOf(e.App)}
	if e.Auth.GetString(schema.UserRole) == roles.MasterAdmin {
		f, err := FormOf(e.App)
		if err != nil {
			return apierr.Response(e, err)
		}
		out.Settings = &f
	}
	return e.JSON(http.StatusOK, out)
}

func handleConfigure(e *core.RequestEvent) error {
	var in Input
	if err := reqx.Decode(e, &in, 0); err != nil {
		return apierr.Response(e, err)
	}
	f, err := Configure(e.Request.Context(), e.App, e.Auth.Id, in)
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, answer{Status: StatusOf(e.App), Settings: &f})
}
