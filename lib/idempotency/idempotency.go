// Package idempotency makes SwapBay's mutations safe to retry (DESIGN.md §5, §11): a POST,
// PUT, PATCH or DELETE under /api/ carrying an Idempotency-Key header from a signed-in user is
// answered once; a repeat of the same user and key gets the first 2xx answer (status and body)
// again and changes nothing. Refused (non-2xx) answers are not kept, so a corrected retry can
// succeed.
//
// How long: the outbox sends a driver action for up to 7 days (DESIGN.md §12), so a key is
// answered for Kept (8 days) and then refused key_expired, never run again. A key minted by
// the app is time-ordered (a UUIDv7: its first 48 bits are the tap's Unix milliseconds), so
// its age is read from the key itself, also once its stored answer has been pruned; a stored
// answer is kept for Kept plus MaxKeyAhead after its commit, so a key that is not expired yet
// always finds it. A key of another form (an API client's) is answered for as long as its answer
// is kept; a keyed driver write carries occurredAt, which is refused too_old after 7 days,
// before its answer is pruned.
//
// One transaction per keyed mutation: the middleware opens a write transaction, runs the
// route with e.App set to the transaction's app (the services' own RunInTransaction calls join
// it), stores the answer in that same transaction and commits; the client sees the answer only
// after the commit. So a crash leaves either the change and its answer, or neither: a retry
// after a restart is answered from the store, never run twice. A non-2xx answer rolls the
// whole transaction back. Concurrent requests with the same key wait on a per-key lock, then
// find the first one's answer. On routes bound with Grouped, keyed requests that queue for the
// write lock share one transaction, each in a savepoint of its own (group commit, group.go).
//
// The middleware runs after the route's guards (lib/order), so a replay is answered only to a
// caller whose current rights still allow the route (a suspended user gets 403, not the cached
// 200). The JSON body is read before the transaction opens, so a slow client never holds the
// database's write lock. It is a leaf package: it imports no SwapBay module.
package idempotency

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/ids"
	"swapbay/lib/order"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/lib/txutil"
)

// Header is the request header carrying the client's key.
const Header = "Idempotency-Key"

// ReplayedHeader is set on answers served from the cache.
const ReplayedHeader = "Idempotent-Replayed"

// MiddlewareId identifies the middleware on the router.
const MiddlewareId = "swapbayIdempotency"

// Kept is how long a key is answered from its first answer, counted from the key's own time
// (KeyTime) or, for a key without one, from its commit: the outbox's 7 days (DESIGN.md §12)
// plus a margin. An older time-ordered key is refused key_expired.
const Kept = 8 * 24 * time.Hour

// MaxKeyAhead bounds how far a key's own time may be ahead of the server clock (a phone's
// clock set wrong); a key further ahead is refused occurred_in_future, since its answer could
// be pruned before the key looked expired.
const MaxKeyAhead = time.Hour

// retain is how long a stored answer is kept after its commit: a key's time is at most
// MaxKeyAhead after the commit, so an answer outlives its key's Kept.
const retain = Kept + MaxKeyAhead

// MaxKeyLength bounds the header value.
const MaxKeyLength = 200

// MaxCachedBody is the largest answer body stored for replay. A larger 2xx answer is
// replaced by a short note on replay (the mutation is still not repeated).
const MaxCachedBody = 256 << 10

// pruneEvery is how often expired keys are deleted (opportunistically, on a save).
const pruneEvery = 10 * time.Minute

var lastPrune atomic.Int64

// MaxBody is the largest keyed request body held in memory before the transaction opens.
const MaxBody = 1 << 20

// Messages.
const (
	MsgKeyTooLong   = "Idempotency-Key is too long."
	MsgKeyReused    = "This Idempotency-Key was already used for a different request."
	MsgBodyTooLarge = "Request body is too large."
	MsgKeyExpired   = "This action is more than 8 days old and can no longer be sent: ask an admin to record it"
)

// Middleware returns the router middleware (see the package doc).
func Middleware() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       MiddlewareId,
		Priority: order.Idempotency,
		Func:     handle,
	}
}

// BeforeSave, when set (tests only), runs inside the transaction just before the answer is
// stored; an error from it rolls the change back as a failed save would.
var BeforeSave func(txApp core.App) error

// errNotKept rolls back a transaction whose answer is not a 2xx.
var errNotKept = errors.New("idempotency: answer not kept")

// keyedKey marks a request whose route is keyed (Keyed, Grouped).
const keyedKey = "swapbay.idempotency.keyed"

// Each mutation route says at its binding how it meets an Idempotency-Key, with exactly one
// of Keyed, Grouped or Skip (pb_app/setup/routes_test.go reads the bindings and fails on a
// route without one; README lists the Skip routes with their reasons). A route bound with
// none is not keyed.

// Keyed is bound on a route whose keyed requests run inside the keyed write transaction, one
// transaction each: exactly-once.
func Keyed() *hook.Handler[*core.RequestEvent] { return mark("Keyed", keyedKey) }

// Skip is bound on a route that must not run inside the keyed write transaction, with the
// reason: one that cannot (a backup copies the database with VACUUM INTO) or should not hold
// SQLite's only writer while it renders, hashes or streams (a PDF, bcrypt, an upload). Its
// keyed requests run plainly, answered and not kept: a repeat of the key runs the route again
// (it is not exactly-once), so such a route must make its own repeat harmless or refused.
// The reason is for the reader: the route test requires one and README lists it.
func Skip(reason string) *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{Id: MiddlewareId + "Skip", Priority: order.IdempotencyPolicy, Func: func(e *core.RequestEvent) error { return e.Next() }}
}

// mark returns the route middleware that sets key on a request for handle to read (Keyed,
// Grouped); it runs just before handle.
func mark(name, key string) *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       MiddlewareId + name,
		Priority: order.IdempotencyPolicy,
		Func: func(e *core.RequestEvent) error {
			e.Set(key, true)
			return e.Next()
		},
	}
}

func handle(e *core.RequestEvent) error {
	key := strings.TrimSpace(e.Request.Header.Get(Header))
	if keyed, _ := e.Get(keyedKey).(bool); !keyed || key == "" || !isMutation(e.Request.Method) || !strings.HasPrefix(e.Request.URL.Path, "/api/") ||
		e.Auth == nil || e.Auth.Collection().Name != schema.Users {
		return e.Next()
	}
	// a keyed route's body is JSON (a route that streams another body is bound Skip): any other
	// is refused here, before it is held, never run unkeyed
	if err := reqx.RequireJSON(e.Request); err != nil {
		return err
	}
	if len(key) > MaxKeyLength {
		return apierr.New(http.StatusBadRequest, "", MsgKeyTooLong)
	}
	if err := checkAge(key, clock.Now()); err != nil {
		return err
	}
	// the body is read now, before the write lock is taken
	body, err := io.ReadAll(io.LimitReader(e.Request.Body, MaxBody+1))
	if err != nil {
		return apierr.New(http.StatusBadRequest, "", "Could not read the request body.")
	}
	if len(body) > MaxBody {
		return apierr.NewCode(http.StatusRequestEntityTooLarge, "", MsgBodyTooLarge, apierr.CodeTooLarge)
	}
	e.Request.Body = io.NopCloser(bytes.NewReader(body))

	userId := e.Auth.Id
	unlock := lock(userId + "\x00" + key)
	defer unlock()

	hash := bodyHash(body)
	if prev, err := find(e.App, userId, key); err == nil {
		return replay(e, prev, hash)
	}

	j := &job{e: e, rec: &recorder{header: e.Response.Header()}, userId: userId, key: key, hash: hash, part: &txutil.Part{}}
	real := e.Response
	var txErr error
	if grouped, _ := e.Get(groupKey).(bool); grouped {
		txErr = groupOf(e.App).run(j)
	} else {
		txErr = e.App.RunInTransaction(func(txApp core.App) error {
			if err := j.run(txApp, false); err != nil {
				return err
			}
			if !j.kept {
				return errNotKept
			}
			return nil
		})
	}
	switch {
	case j.routeErr != nil:
		return j.routeErr // the route's own refusal; nothing was kept
	case j.saveErr != nil:
		e.App.Logger().Error("idempotency: the change and its answer were not committed", "error", j.saveErr, "path", e.Request.URL.Path)
		return apierr.Response(e, j.saveErr)
	case txErr != nil && !errors.Is(txErr, errNotKept):
		e.App.Logger().Error("idempotency: the change and its answer were not committed", "error", txErr, "path", e.Request.URL.Path)
		return apierr.Response(e, txErr) // rolled back: an error, never a 2xx for nothing
	}
	return j.rec.flush(real)
}

// job is one keyed request on its way through a write transaction.
type job struct {
	e           *core.RequestEvent
	rec         *recorder
	userId, key string
	hash        string // the request body's (IdemBodyHash)
	part        *txutil.Part
	routeErr    error      // the route's own error (its refusal)
	saveErr     error      // BeforeSave's or the answer's save failed: the change was rolled back
	kept        bool       // a 2xx answer, stored with the change
	done        chan error // grouped jobs: how their transaction ended
}

// run runs the route inside txApp's transaction and stores a 2xx answer with its change. As a
// part of a shared transaction (part) it runs between a savepoint and its release, and a
// refused or failed request is rolled back to its savepoint: the transaction goes on with the
// other parts. It returns an error only when the transaction itself failed.
func (j *job) run(txApp core.App, part bool) (err error) {
	e := j.e
	if part {
		if err := sqlitedb.Exec(txApp.DB(), "SAVEPOINT "+savepoint, nil); err != nil {
			return err
		}
	}
	real, outer := e.Response, e.App
	e.App, e.Response = txApp, j.rec
	restore := func() { e.App, e.Response = outer, real }
	defer restore() // also when a panic goes on to PocketBase's recovery, which answers on real
	err = txutil.RunPart(txApp, j.part, func() error {
		defer func() {
			if p := recover(); p != nil {
				if !part {
					panic(p) // PocketBase's recovery middleware answers it, as for any route
				}
				// the group's worker runs every request's route: a panic is that request's 500
				outer.Logger().Error("idempotency: the route panicked", "panic", fmt.Sprint(p), "path", e.Request.URL.Path, "stack", string(debug.Stack()))
				j.routeErr = apierr.New(http.StatusInternalServerError, "", apierr.MsgInternal)
			}
		}()
		j.routeErr = e.Next()
		return nil
	})
	restore()
	if err != nil {
		return err
	}
	if j.routeErr == nil && j.rec.status >= 200 && j.rec.status <= 299 {
		j.saveErr = j.store(txApp)
		j.kept = j.saveErr == nil
	}
	if !part {
		if j.saveErr != nil {
			return j.saveErr
		}
		return nil
	}
	if !j.kept {
		j.part.Discard()
		if err := sqlitedb.Exec(txApp.DB(), "ROLLBACK TO "+savepoint, nil); err != nil {
			return err
		}
	}
	return sqlitedb.Exec(txApp.DB(), "RELEASE "+savepoint, nil)
}

// store keeps the answer (BeforeSave first, in tests).
func (j *job) store(txApp core.App) error {
	if BeforeSave != nil {
		if err := BeforeSave(txApp); err != nil {
			return err
		}
	}
	answer := j.rec.buf.String()
	if len(answer) > MaxCachedBody {
		answer = `{"success":true,"message":"Already processed."}`
	}
	r := j.e.Request
	return save(txApp, j.userId, j.key, r.Method, r.URL.Path, j.hash, j.rec.status, answer)
}

// bodyHash is what a repeat's body must match (IdemBodyHash): the SHA-256 of the JSON object
// with its keys sorted and without occurredAt (the tap's time is not the request: a resend
// stamped again is the same action, DESIGN.md §12), else of the body as sent, whitespace
// trimmed.
func bodyHash(body []byte) string {
	canon := bytes.TrimSpace(body)
	var obj map[string]any
	d := json.NewDecoder(bytes.NewReader(canon))
	d.UseNumber()
	if d.Decode(&obj) == nil && obj != nil {
		delete(obj, "occurredAt")
		if b, err := json.Marshal(obj); err == nil {
			canon = b
		}
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:])
}

// replay answers with a stored answer, after checking it was for the same method, path and
// body (hash; an answer kept before bodies were hashed has none). Was: a key repeated with
// another body got the first body's answer, a 2xx for a request that changed nothing.
func replay(e *core.RequestEvent, prev *stored, hash string) error {
	if prev.Method != e.Request.Method || prev.Path != e.Request.URL.Path || prev.Hash != "" && prev.Hash != hash {
		return apierr.NewCode(http.StatusConflict, "", MsgKeyReused, apierr.CodeIdempotencyKeyReused)
	}
	h := e.Response.Header()
	h.Set("Content-Type", "application/json")
	h.Set(ReplayedHeader, "true")
	e.Response.WriteHeader(prev.Status)
	_, err := e.Response.Write([]byte(prev.Body))
	return err
}

func isMutation(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// stored is a kept answer.
type stored struct {
	Method string `db:"method"`
	Path   string `db:"path"`
	Hash   string `db:"bodyHash"`
	Status int    `db:"status"`
	Body   string `db:"body"`
}

// checkAge refuses a time-ordered key older than Kept (key_expired, whether or not its answer
// is still stored) or further ahead than MaxKeyAhead.
func checkAge(key string, now time.Time) error {
	at, ok := KeyTime(key)
	switch {
	case !ok:
		return nil
	case at.Before(now.Add(-Kept)):
		return apierr.NewCode(http.StatusConflict, "", MsgKeyExpired, apierr.CodeKeyExpired)
	case at.After(now.Add(MaxKeyAhead)):
		return apierr.NewCode(http.StatusBadRequest, "", reqx.MsgOccurredInFuture, apierr.CodeOccurredInFuture)
	}
	return nil
}

// KeyTime returns the time a UUIDv7 key was minted (its first 48 bits, Unix milliseconds);
// ok is false for a key of any other form.
func KeyTime(key string) (at time.Time, ok bool) {
	// xxxxxxxx-xxxx-7xxx-[89ab]xxx-xxxxxxxxxxxx
	if len(key) != 36 || key[8] != '-' || key[13] != '-' || key[18] != '-' || key[23] != '-' || key[14] != '7' {
		return time.Time{}, false
	}
	b, err := hex.DecodeString(key[0:8] + key[9:13] + key[14:18] + key[19:23] + key[24:])
	if err != nil || b[8]&0xc0 != 0x80 {
		return time.Time{}, false
	}
	var ms int64
	for _, x := range b[:6] {
		ms = ms<<8 | int64(x)
	}
	return time.UnixMilli(ms), true
}

// find returns the live (younger than retain) stored answer of userId's key: one indexed lookup.
func find(app core.App, userId, key string) (*stored, error) {
	var s stored
	err := app.DB().NewQuery("SELECT method, path, bodyHash, status, body FROM " + schema.IdempotencyKeys +
		" WHERE user = {:user} AND key = {:key} AND created > {:since} LIMIT 1").
		Bind(dbx.Params{"user": userId, "key": key, "since": since()}).One(&s)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func since() string {
	dt, _ := types.ParseDateTime(clock.Now().Add(-retain))
	return dt.String()
}

// save keeps the answer in one statement; an expired answer of the same key (the (user, key)
// index is unique) is replaced. Once in a while expired answers are pruned.
func save(app core.App, userId, key, method, path, hash string, status int, body string) error {
	err := sqlitedb.Exec(app.DB(), "INSERT INTO "+schema.IdempotencyKeys+
		" (id, user, key, method, path, bodyHash, status, body, created) VALUES ({:id}, {:user}, {:key}, {:method}, {:path}, {:hash}, {:status}, {:body}, {:now})"+
		" ON CONFLICT(user, key) DO UPDATE SET method = excluded.method, path = excluded.path, bodyHash = excluded.bodyHash, status = excluded.status,"+
		" body = excluded.body, created = excluded.created",
		dbx.Params{"id": ids.New(), "user": userId, "key": key, "method": method, "path": path, "hash": hash,
			"status": status, "body": body, "now": types.NowDateTime().String()})
	if err != nil {
		return err
	}
	now := clock.Now().Unix()
	if last := lastPrune.Load(); now-last > int64(pruneEvery/time.Second) && lastPrune.CompareAndSwap(last, now) {
		err = Prune(app)
	}
	return err
}

// PruneBatch bounds the answers one prune deletes: it runs inside a keyed write's
// transaction, and after a day's downtime a day's answers (50,000 in a busy city) are due at
// once, which took seconds in one statement (make bench -only keys). Kept longer is safe; a
// backlog is gone within a few prunes.
const PruneBatch = 2000

// Prune deletes up to PruneBatch answers older than retain, oldest first (a keyed write does
// it every pruneEvery).
func Prune(app core.App) error {
	_, err := app.DB().NewQuery("DELETE FROM " + schema.IdempotencyKeys + " WHERE rowid IN (SELECT rowid FROM " + schema.IdempotencyKeys +
		" WHERE created <= {:since} ORDER BY created LIMIT {:n})").Bind(dbx.Params{"since": since(), "n": PruneBatch}).Execute()
	return err
}

// recorder holds the answer back until the transaction committed: status and body are kept,
// headers go to the real writer's header map (sent by flush).
type recorder struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.buf.Write(b)
}

// flush sends the held answer to w.
func (r *recorder) flush(w http.ResponseWriter) error {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	w.WriteHeader(r.status)
	_, err := w.Write(r.buf.Bytes())
	return err
}

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
