package replication

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// storeKey is where the running Replicator lives in app.Store().
const storeKey = "swapbay.replication"

// optionsKey is where app's Options live in app.Store() (SetOptions).
const optionsKey = "swapbay.replication.options"

// SetOptions gives app's replication the options o. The app keeps o itself: a flag bound to
// o.ServerURL is read when the server starts. Without it, DefaultOptions.
func SetOptions(app core.App, o *Options) { app.Store().Set(optionsKey, o) }

// optionsOf is app's replication options.
func optionsOf(app core.App) Options {
	if o, _ := app.Store().Get(optionsKey).(*Options); o != nil {
		return *o
	}
	return *DefaultOptions()
}

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
// On serve, when a replica is configured (Options.ServerURL, else $SWAPBAY_REPLICA_URL, else
// the System page's settings), data.db is replicated until the server stops. A flag or
// environment URL that is not a replica URL at all, or a file:// replica at or inside the data
// dir, stops the server from starting (a typo must not go unnoticed; MsgURLInDataDir, as the
// System page refuses it); a stored one inside the data dir, or a replica that cannot start (a
// directory that cannot be made, …) leaves the server up and the System page and
// /api/debug/info warn why. An unreachable S3 replica
// starts: its uploads fail, are retried, and the card names the failure until it answers.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		if Of(se.App) == nil {
			cfg, err := configured(se.App)
			if err != nil {
				return err
			}
			if cfg.URL != "" {
				if _, err := cfg.Client(); err != nil && cfg.Source != "settings" {
					return fmt.Errorf("replication (%s): %w", sourceName(cfg.Source), err)
				}
				// a file:// replica inside the data dir goes down with the disk it guards: the
				// flag's and the environment's refused as the System page's are
				err := outsideDataDir(se.App.DataDir(), cfg.URL)
				if err != nil && cfg.Source != "settings" {
					return fmt.Errorf("replication (%s, %s): %w", sourceName(cfg.Source), cfg.Target(), err)
				}
				if err == nil {
					err = startIn(se.App, cfg)
				}
				if err != nil {
					se.App.Logger().Error("replication did not start", "source", cfg.Source, "error", err.Error())
					se.App.Store().Set(startErrKey, startFailure{Source: cfg.Source, Target: cfg.Target(), Reason: Explain(err)})
				}
			}
		}
		se.Router.GET("/api/admin/replication", handleStatus).Bind(httpx.RequireAdmin())
		se.Router.PUT("/api/admin/replication", httpx.Form(handleConfigure)).Bind(httpx.RequireRoles(roles.MasterAdmin), idempotency.Skip("reaches the replica (S3 or a directory) before saving: no network call holds the write lock"))
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
	if f, ok := app.Store().Get(startErrKey).(startFailure); ok {
		return Status{Target: f.Target, Source: f.Source, Warning: fmt.Sprintf(MsgStartFailed, sourceName(f.Source)) + f.Reason}
	}
	return Status{}
}

// startFailure is why the configured replica did not start at serve.
type startFailure struct{ Source, Target, Reason string }

// sourceName is where a replica was set, as messages say it.
func sourceName(source string) string {
	switch source {
	case "flag":
		return "the --replicate flag"
	case "env":
		return "$" + EnvURL
	}
	return "the System page's settings"
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

func handleConfigure(e *core.RequestEvent, in *Input) error {
	f, err := Configure(e.Request.Context(), e.App, e.Auth.Id, *in)
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, answer{Status: StatusOf(e.App), Settings: &f})
}
