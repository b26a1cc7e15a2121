package hq

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/apierr"
	"swapbay/lib/audit"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/webui"
	"swapbay/modules/hq/follow"
)

// RollupsEnabled starts the rollup job at serve (tests that drive RollUp themselves turn it off).
var RollupsEnabled = true

// CopiesDir is where the cities' copies live in the HQ data dir (one directory per city id).
const CopiesDir = "copies"

// MsgForbidden refuses a signed-in caller without the route's head-office role.
const MsgForbidden = "You do not have permission to do this."

// Routes:
//
//	GET    /api/hq/cities        hq_admin, hq_viewer   [City] by name, each with its copy's state
//	                             and lag (copy: {state, lagSeconds, replicaAgeSeconds,
//	                             lastAppliedAt, copyTxid, replicaTxid, restores, error, warning})
//	POST   /api/hq/cities        hq_admin, keyed       CityInput → City (400 bad field, 409 name taken)
//	PUT    /api/hq/cities/{id}   hq_admin, keyed       CityInput → City (blank keys/token keep the
//	                             stored ones; 404 unknown id)
//	DELETE /api/hq/cities/{id}   hq_admin, keyed       {deleted: id}; the city's copy is deleted
//	POST   /api/hq/auth/login    everyone              {email, password} → {user: {id, email, name, role}}
//	                             and the session cookie (400 "Invalid email or password."; rate
//	                             limited: "POST /api/hq/auth/login" 20 per 10 s and per address)
//	POST   /api/hq/auth/logout   everyone, keyed       204: this device's session ends, cookie cleared
//	GET    /api/hq/me            hq_admin, hq_viewer   {user} (401 signed out)
//	GET    /api/hq/overview      hq_admin, hq_viewer   Overview: per city (its copy's state, stock,
//	                             swaps per day for 30 days, pay per week for 8 weeks, recalls,
//	                             missing packs; ok:false with words when its copy cannot be read)
//	                             and totals
//	GET    /api/hq/history       hq_admin, hq_viewer   ?weeks=1..260 (52): History from city_days
//	GET    /api/hq/packs         hq_admin, hq_viewer   ?q=serial or prefix (3..40) or a label URL →
//	                             PackSearch (at most 50 packs, by serial)
//	GET    /api/hq/transit       hq_admin, hq_viewer   Transit: packs sent between cities, received
//	                             and pending
//	GET    /api/hq/audit         hq_admin              {entries: [{id, at, actor, actorKind, action,
//	                             collection, recordId, fields}]}: head office's audit list, the raw
//	                             writes through PocketBase's record API or HQ's /_/ that its door
//	                             allowed (hooks/hq.go), the newest 200 first
//
// Every route accepts the session cookie (lib/httpx's CookieSession) or Authorization; a cookie
// token names a session row (hq_sessions) that must still exist (liveSession). Writes from
// another site are refused (httpx.SameOrigin, the city's check); every mutation is keyed.
//
// The rollup job (rollups.go) writes city_days from the copies every RollupEvery.
//
// Each city's replica is followed into HQDIR/copies/<id>/copy.db from serve until the server
// stops (set, supervised under one context); a saved city (re)starts its follower once the save
// commits, a deleted one stops it and deletes its copy (followCommitted).
func Register(app core.App, set *follow.Set) {
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Id: "hqMiddlewares",
		Func: func(se *core.ServeEvent) error {
			se.Router.Bind(apierr.Codes())
			// the city's: answers gzipped and tagged (an overview of 50 cities is ~150 KB of JSON),
			// cross-site writes refused, the cookie session, a signed-out session a guest
			se.Router.Bind(webui.GzipJSON(), webui.ETagJSON(), httpx.SameOrigin(), httpx.CookieSession(), liveSession())
			se.Router.Bind(idempotency.Middleware())
			return se.Next()
		},
		Priority: -100,
	})
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		cities, err := ListCities(se.App)
		if err != nil {
			return err
		}
		for _, c := range cities {
			set.Put(c.Id, ReplicaConfig(c))
		}
		h := &handlers{app: se.App, set: set}
		se.Router.GET("/api/hq/cities", h.list).Bind(requireRoles(RoleAdmin, RoleViewer))
		se.Router.POST("/api/hq/cities", httpx.FormUpTo(maxBody, h.create)).Bind(requireRoles(RoleAdmin), h.followCommitted(), idempotency.Keyed())
		se.Router.PUT("/api/hq/cities/{id}", httpx.FormUpTo(maxBody, h.update)).Bind(requireRoles(RoleAdmin), h.followCommitted(), idempotency.Keyed())
		se.Router.DELETE("/api/hq/cities/{id}", h.remove).Bind(requireRoles(RoleAdmin), h.followCommitted(), idempotency.Keyed())
		viewers := func() *hook.Handler[*core.RequestEvent] { return requireRoles(RoleAdmin, RoleViewer) }
		se.Router.POST("/api/hq/auth/login", httpx.FormUpTo(maxLoginBody, login)).Bind(idempotency.Skip("checks a password (bcrypt); a sign-in is not a change to replay"))
		se.Router.POST("/api/hq/auth/logout", logout).Bind(idempotency.Keyed())
		se.Router.GET("/api/hq/me", me).Bind(viewers())
		se.Router.GET("/api/hq/overview", h.overview).Bind(viewers())
		se.Router.GET("/api/hq/history", h.history).Bind(viewers())
		se.Router.GET("/api/hq/packs", h.packs).Bind(viewers())
		se.Router.GET("/api/hq/transit", h.transit).Bind(viewers())
		se.Router.GET("/api/hq/audit", audit.Handler(AuditLog)).Bind(requireRoles(RoleAdmin))
		se.Router.GET("/api/{path...}", httpx.APINotFound)
		if RollupsEnabled {
			stop, err := startRollups(se.App, set)
			if err != nil {
				return err
			}
			se.App.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
				stop()
				return e.Next()
			})
		}
		return se.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		set.Close()
		return e.Next()
	})
}

// NewSet is the followers of app's cities under ctx, with their copies in app's data dir.
func NewSet(ctx context.Context, app core.App, opt follow.Options) *follow.Set {
	return follow.NewSet(ctx, filepath.Join(app.DataDir(), CopiesDir), opt, app.Logger().With("module", "hq"))
}

// requireRoles answers 401 to a guest and 403 to a signed-in caller without one of allowed.
func requireRoles(allowed ...string) *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id: httpx.RolesId,
		Func: func(e *core.RequestEvent) error {
			if e.Auth == nil || e.Auth.Collection().Name != Users {
				return apierr.Unauthorized(e)
			}
			if !slices.Contains(allowed, e.Auth.GetString(UserRole)) {
				return apierr.New(http.StatusForbidden, "", MsgForbidden)
			}
			return e.Next()
		},
	}
}

type handlers struct {
	app core.App // outside any transaction
	set *follow.Set
}

// cityKey is where a cities route leaves the id of the city it saved or deleted.
const cityKey = "hq.city"

// followCommitted follows the city the route touched (cityKey) as committed
// (idempotency.AfterCommit): a saved city's follower (re)starts, a deleted or rolled-back new
// one's stops. Followers are never started for a change that did not commit.
func (h *handlers) followCommitted() *hook.Handler[*core.RequestEvent] {
	return idempotency.AfterCommit("hqFollowCommitted", cityKey, h.sync)
}

// sync follows the city id as the database has it now.
func (h *handlers) sync(id string) {
	rec, err := h.app.FindRecordById(Cities, id)
	if err != nil {
		h.set.Remove(id)
		return
	}
	h.set.Put(id, ReplicaConfig(rec))
}

func (h *handlers) list(e *core.RequestEvent) error {
	recs, err := ListCities(e.App)
	if err != nil {
		return apierr.Response(e, err)
	}
	out := make([]City, 0, len(recs))
	for _, r := range recs {
		out = append(out, view(r, h.set))
	}
	return e.JSON(http.StatusOK, out)
}

// maxBody bounds a city's JSON (its fields' limits add up to under 8 KB).
const maxBody = 16 << 10

func (h *handlers) create(e *core.RequestEvent, in *CityInput) error { return h.save(e, "", in) }

func (h *handlers) update(e *core.RequestEvent, in *CityInput) error {
	return h.save(e, e.Request.PathValue("id"), in)
}

func (h *handlers) save(e *core.RequestEvent, id string, in *CityInput) error {
	rec, err := SaveCity(e.App, id, *in, e.Auth.Id)
	if err != nil {
		return apierr.Response(e, err)
	}
	e.Set(cityKey, rec.Id)
	return e.JSON(http.StatusOK, view(rec, h.set))
}

func (h *handlers) remove(e *core.RequestEvent) error {
	id := e.Request.PathValue("id")
	if err := DeleteCity(e.App, id); err != nil {
		return apierr.Response(e, err)
	}
	e.Set(cityKey, id)
	return e.JSON(http.StatusOK, map[string]string{"deleted": id})
}
