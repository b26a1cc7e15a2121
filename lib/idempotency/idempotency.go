// Package idempotency makes SwapBay's mutations safe to retry (DESIGN.md §5): a POST, PUT,
// PATCH or DELETE under /api/ carrying an Idempotency-Key header from a signed-in user is
// answered once; a repeat of the same user and key within 24 h gets the first 2xx answer
// (status and body) again and changes nothing. Concurrent duplicates wait on a per-key lock.
// Refused (non-2xx) answers are not cached, so a corrected retry can succeed.
//
// The answer is stored after the handler's own transaction committed; if the process dies in
// between, a retry runs again. It is a leaf package: it imports no SwapBay module.
package idempotency

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/schema"
)

// Header is the request header carrying the client's key.
const Header = "Idempotency-Key"

// ReplayedHeader is set on answers served from the cache.
const ReplayedHeader = "Idempotent-Replayed"

// MiddlewareId identifies the middleware on the router.
const MiddlewareId = "swapbayIdempotency"

// TTL is how long an answer is replayed.
const TTL = 24 * time.Hour

// MaxKeyLength bounds the header value.
const MaxKeyLength = 200

// MaxCachedBody is the largest answer body stored for replay. A larger 2xx answer is
// replaced by a short note on replay (the mutation is still not repeated).
const MaxCachedBody = 256 << 10

// pruneEvery is how often expired keys are deleted (opportunistically, on a save).
const pruneEvery = 10 * time.Minute

var lastPrune atomic.Int64

// Middleware returns the router middleware. It runs after the auth token is loaded and the
// body limit is applied, before route guards (so a guard's refusal is simply not cached).
func Middleware() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       MiddlewareId,
		Priority: apis.DefaultBodyLimitMiddlewarePriority + 10,
		Func:     handle,
	}
}

func handle(e *core.RequestEvent) error {
	key := strings.TrimSpace(e.Request.Header.Get(Header))
	if key == "" || !isMutation(e.Request.Method) || !strings.HasPrefix(e.Request.URL.Path, "/api/") ||
		e.Auth == nil || e.Auth.Collection().Name != schema.Users {
		return e.Next()
	}
	if len(key) > MaxKeyLength {
		return e.BadRequestError("Idempotency-Key is too long.", nil)
	}
	userId := e.Auth.Id
	unlock := lock(userId + "\x00" + key)
	defer unlock()

	if prev, err := find(e.App, userId, key); err == nil {
		if prev.GetString(schema.IdemMethod) != e.Request.Method || prev.GetString(schema.IdemPath) != e.Request.URL.Path {
			return e.Error(http.StatusConflict, "This Idempotency-Key was already used for a different request.", nil)
		}
		h := e.Response.Header()
		h.Set("Content-Type", "application/json")
		h.Set(ReplayedHeader, "true")
		e.Response.WriteHeader(prev.GetInt(schema.IdemStatus))
		_, err := e.Response.Write([]byte(prev.GetString(schema.IdemBody)))
		return err
	}

	rec := &recorder{ResponseWriter: e.Response}
	e.Response = rec
	err := e.Next()
	e.Response = rec.ResponseWriter
	if err != nil || rec.status < 200 || rec.status > 299 {
		return err
	}
	body := rec.buf.String()
	if rec.overflow {
		body = `{"success":true,"message":"Already processed."}`
	}
	if saveErr := save(e.App, userId, key, e.Request.Method, e.Request.URL.Path, rec.status, body); saveErr != nil {
		e.App.Logger().Warn("idempotency: could not store answer", "error", saveErr)
	}
	return nil
}

func isMutation(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// find returns the live (younger than TTL) stored answer of userId's key.
func find(app core.App, userId, key string) (*core.Record, error) {
	return app.FindFirstRecordByFilter(schema.IdempotencyKeys,
		"user = {:user} && key = {:key} && created > {:since}",
		dbx.Params{"user": userId, "key": key, "since": since()})
}

func since() string {
	dt, _ := types.ParseDateTime(time.Now().Add(-TTL))
	return dt.String()
}

func save(app core.App, userId, key, method, path string, status int, body string) error {
	// an expired answer of the same key makes way (the (user, key) index is unique)
	if _, err := app.DB().Delete(schema.IdempotencyKeys, dbx.HashExp{schema.IdemUser: userId, schema.IdemKey: key}).Execute(); err != nil {
		return err
	}
	col, err := app.FindCachedCollectionByNameOrId(schema.IdempotencyKeys)
	if err != nil {
		return err
	}
	rec := core.NewRecord(col)
	rec.Set(schema.IdemUser, userId)
	rec.Set(schema.IdemKey, key)
	rec.Set(schema.IdemMethod, method)
	rec.Set(schema.IdemPath, path)
	rec.Set(schema.IdemStatus, status)
	rec.Set(schema.IdemBody, body)
	if err := app.SaveNoValidate(rec); err != nil {
		return err
	}
	now := time.Now().Unix()
	if last := lastPrune.Load(); now-last > int64(pruneEvery/time.Second) && lastPrune.CompareAndSwap(last, now) {
		_, err = app.DB().NewQuery("DELETE FROM idempotency_keys WHERE created <= {:since}").Bind(dbx.Params{"since": since()}).Execute()
	}
	return err
}

// recorder passes the answer through while keeping a copy of status and body.
type recorder struct {
	http.ResponseWriter
	status   int
	buf      bytes.Buffer
	overflow bool
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if !r.overflow {
		if r.buf.Len()+len(b) > MaxCachedBody {
			r.overflow = true
			r.buf.Reset()
		} else {
			r.buf.Write(b)
		}
	}
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController and PocketBase's write tracking reach the real writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// keyed locks, dropped when nobody holds or waits on them
var (
	locksMu sync.Mutex
	locks   = map[string]*keyLock{}
)

type keyLock struct {
	mu   sync.Mutex
	refs int
}

func lock(k string) (unlock func()) {
	locksMu.Lock()
	l, ok := locks[k]
	if !ok {
		l = &keyLock{}
		locks[k] = l
	}
	l.refs++
	locksMu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		locksMu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(locks, k)
		}
		locksMu.Unlock()
	}
}
