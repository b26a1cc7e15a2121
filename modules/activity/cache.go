package activity

import (
	"encoding/json/jsontext"
	"encoding/json/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
	"swapbay/lib/webui"
)

// StateCacheTTL bounds how long a cached /api/state answer may be served without a change
// notification: a backstop for writes that bypass the services (raw SQL from a shell, a
// dashboard edit of a ledger table, whose writes run no record hooks we may rely on).
const StateCacheTTL = 5 * time.Second

// maxCachedStates bounds the cache; past it the cache starts over.
const maxCachedStates = 4096

// DisableStateCache turns the /api/state cache off (the benchmark measures both ways).
var DisableStateCache atomic.Bool

// stateCache keeps each caller's encoded /api/state until anything changes. Every commit that
// changes what the state shows publishes an event (lib/events); a dashboard save of a user,
// a setting or a charging session bumps it too (after its commit, txutil.OnCommit). Either
// bumps the generation, and an answer is served only for the generation, day and caller it
// was built for.
//
// Race-free by construction: a builder reads the generation before it reads the database
// and files its answer under that generation, so an answer built across a commit is filed
// under a generation that is already stale.
type stateCache struct {
	gen     atomic.Uint64
	mu      sync.Mutex
	entries map[string]cachedState
}

type cachedState struct {
	gen   uint64
	loc   *time.Location // the operation's zone when built (a zone change bumps gen)
	day   int64          // unix seconds of the local day start the state was cut at
	built time.Time
	body  []byte
	etag  string // webui.JSONETag(body), hashed once per build
}

// newStateCache creates app's cache and subscribes it to every change notification.
func newStateCache(app core.App) *stateCache {
	c := &stateCache{entries: map[string]cachedState{}}
	cancel := events.For(app).Subscribe(func(events.Message) { c.bump() })
	// records the state shows that PocketBase's dashboard can save without a service (the
	// ledger's tables are written by the ledger alone, which publishes, and run no hooks)
	bump := func(e *core.ModelEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		txutil.OnCommit(e.App, c.bump)
		return nil
	}
	app.OnModelCreate(schema.Users, schema.Settings, schema.ChargingSessions).BindFunc(bump)
	app.OnModelUpdate(schema.Users, schema.Settings, schema.ChargingSessions).BindFunc(bump)
	app.OnModelDelete(schema.Users, schema.Settings, schema.ChargingSessions).BindFunc(bump)
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		return e.Next()
	})
	return c
}

func (c *stateCache) bump() { c.gen.Add(1) }

// get returns the body cached for key if it is still current at now (same generation,
// same local day, younger than the TTL), and the generation a new build must be filed under.
func (c *stateCache) get(key string, now time.Time) (cachedState, bool, uint64) {
	gen := c.gen.Load()
	if DisableStateCache.Load() {
		return cachedState{}, false, gen
	}
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.gen == gen && now.Sub(e.built) < StateCacheTTL && clock.DayStart(now, e.loc).Unix() == e.day {
		return e, true, gen
	}
	return cachedState{}, false, gen
}

// put files e, built at e.built in zone e.loc, under the generation read before building.
func (c *stateCache) put(key string, gen uint64, e cachedState) {
	if DisableStateCache.Load() {
		return
	}
	e.gen, e.day = gen, clock.DayStart(e.built, e.loc).Unix()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedStates {
		clear(c.entries)
	}
	c.entries[key] = e
}

// handleState answers GET /api/state from the cache or builds, caches and sends it.
func (c *stateCache) handleState(e *core.RequestEvent) error {
	now := clock.Now()
	cached, ok, gen := c.get(e.Auth.Id, now)
	if !ok {
		st, err := BuildState(e.App, CallerOf(e.Auth), now)
		if err != nil {
			return apierr.Log(e, http.StatusInternalServerError, "Failed to load data. Please try again.", err)
		}
		body, err := encode(st)
		if err != nil {
			return apierr.Log(e, http.StatusInternalServerError, "Failed to load data. Please try again.", err)
		}
		cached = cachedState{loc: st.loc, built: now, body: body, etag: webui.JSONETag(body)}
		c.put(e.Auth.Id, gen, cached)
	}
	// a poll that finds the same answer gets 304 (lib/webui), without hashing it again
	return webui.ServeJSON(e, cached.body, cached.etag)
}

// encode renders v as e.JSON would.
func encode(v any) ([]byte, error) {
	return json.Marshal(v, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
}
