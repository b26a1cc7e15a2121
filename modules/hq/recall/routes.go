package recall

import (
	"context"
	"net/http"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/txutil"
	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
)

// Register adds head office's recall routes to app (after hq.Register, whose middlewares —
// apierr's codes, lib/idempotency — they run under) and its sender: every pending send resumed
// at serve, every send stopped at terminate, and a city added later sent every recall made
// before (AddCity, on hq.OnCityAdded).
//
//	GET  /api/hq/recall-preview?by=lot|model|manufacturer&value=X   hq_admin
//	     → Preview {total, alreadyQuarantined, cities: [{id, name, count, alreadyQuarantined, ok, error}]}
//	       counted in the copies (count: what the city's recall would quarantine)
//	POST /api/hq/recalls                         hq_admin, keyed   {by, value, reason} → 201 {recall: HQRecall};
//	     400 a bad field (named); 404 no pack in any copy matches; 409 every matching pack already
//	     out of use (both only when every copy could be read); then sent to each city once committed
//	GET  /api/hq/recalls                         hq_admin, hq_viewer   → [HQRecall] newest first (the newest MaxList)
//	GET  /api/hq/recalls/{id}                    hq_admin, hq_viewer   → HQRecall; 404 unknown
//	POST /api/hq/recalls/{id}/cities/{cityId}/retry   hq_admin, keyed  {} → {recall: HQRecall}: a failed
//	     send pending again (after a new token is saved) and sent now; 404 unknown, 409 already sent
//
// HQRecall: {id, by, value, reason, at, actor: {name}, done, cities: [{id, name, send:
// pending|sent|failed, attempts, error, cityRecallId, sentAt, matching, quarantined, done, copyOk,
// copyError}]}.
func Register(app core.App, set *follow.Set, opt Options) *Sender {
	s := NewSender(context.Background(), app, opt)
	h := &handlers{set: set, sender: s}
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		r := se.Router
		r.GET("/api/hq/recall-preview", h.preview).Bind(hq.RequireRoles(hq.RoleAdmin))
		r.POST("/api/hq/recalls", httpx.FormUpTo(maxBody, h.create)).Bind(hq.RequireRoles(hq.RoleAdmin), h.sendCommitted(), idempotency.Keyed())
		r.GET("/api/hq/recalls", h.list).Bind(hq.RequireRoles(hq.RoleAdmin, hq.RoleViewer))
		r.GET("/api/hq/recalls/{id}", h.get).Bind(hq.RequireRoles(hq.RoleAdmin, hq.RoleViewer))
		r.POST("/api/hq/recalls/{id}/cities/{cityId}/retry", httpx.FormUpTo(maxBody, h.retry)).Bind(hq.RequireRoles(hq.RoleAdmin), h.sendCommitted(), idempotency.Keyed())
		if err := s.Resume(); err != nil {
			return err
		}
		return se.Next()
	})
	// a city added later is sent every recall made before, once its save commits
	hq.OnCityAdded(app).BindFunc(func(e *hq.CityAddedEvent) error {
		ids, err := AddCity(e.App, e.City)
		if err != nil {
			return err
		}
		txutil.OnCommit(e.App, func() { s.Kick(ids...) })
		return e.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		s.Close()
		return e.Next()
	})
	return s
}

type handlers struct {
	set    *follow.Set
	sender *Sender
}

// sentKey is where a route leaves the recall whose pending sends go once it commits.
const sentKey = "hq.recall"

// sendCommitted starts the pending sends of the recall the route touched (sentKey) as the
// database has them once the keyed transaction is over (idempotency.AfterCommit) — none for a
// change that did not commit.
func (h *handlers) sendCommitted() *hook.Handler[*core.RequestEvent] {
	return idempotency.AfterCommit("hqRecallSendCommitted", sentKey, h.sender.KickRecall)
}

// maxBody bounds a recall's JSON (a value of 100 characters and a reason of 2,000).
const maxBody = 32 << 10

func (h *handlers) preview(e *core.RequestEvent) error {
	q := e.Request.URL.Query()
	p, err := PreviewOf(e.App, h.set, q.Get("by"), q.Get("value"))
	return httpx.Reply(e, p, err)
}

func (h *handlers) create(e *core.RequestEvent, f *Form) error {
	rec, err := Create(e.App, h.set, *f, e.Auth.Id, clock.Now())
	if err != nil {
		return apierr.Response(e, err)
	}
	v, err := Get(e.App, h.set, rec.Id)
	if err != nil {
		return apierr.Response(e, err)
	}
	e.Set(sentKey, rec.Id)
	return e.JSON(http.StatusCreated, map[string]any{"recall": v})
}

func (h *handlers) list(e *core.RequestEvent) error {
	list, err := List(e.App, h.set)
	return httpx.Reply(e, list, err)
}

func (h *handlers) get(e *core.RequestEvent) error {
	v, err := Get(e.App, h.set, e.Request.PathValue("id"))
	return httpx.Reply(e, v, err)
}

// retry's body is {}; it is decoded all the same (a JSON body, at most maxBody).
func (h *handlers) retry(e *core.RequestEvent, _ *struct{}) error {
	id := e.Request.PathValue("id")
	if _, err := Retry(e.App, h.set, id, e.Request.PathValue("cityId")); err != nil {
		return apierr.Response(e, err)
	}
	v, err := Get(e.App, h.set, id)
	if err != nil {
		return apierr.Response(e, err)
	}
	e.Set(sentKey, id)
	return e.JSON(http.StatusOK, map[string]any{"recall": v})
}
