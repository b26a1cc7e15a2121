package journal

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/clock"
	"swapbay/lib/schema"
)

// modeCacheKey is where Register keeps an app's modeCache (app.Store()).
const modeCacheKey = "journal.modeCache"

// cacheOf returns app's mode cache (nil before Register: every read goes to the table).
func cacheOf(app core.App) *modeCache {
	c, _ := app.Store().Get(modeCacheKey).(*modeCache)
	return c
}

// modeCache keeps the stored tracking mode (its value and when it was last changed) and the
// worn mode (pack_worn_mode, DESIGN.md §16) in memory,
// so that a ledger write does not read the settings table for it (issue 35: the read was about
// an eighth of the pack ledger's cost in the packwrites profile).
//
// It listens to the settings rows' model hooks rather than to events.SettingsSaved alone:
// that message comes after the commit, and a write inside the saving transaction (the tests',
// a seed's) must already see the new mode, while a save rolled back must never be seen.
//
// Every save or delete of a settings row (system.SaveSettings, the /_/ dashboard, the tests'
// helpers: all of them record saves, which run the model hooks) invalidates it twice: when the
// save starts (inside its transaction) and when that transaction completes, committed or
// rolled back. While a settings write is pending the cache is neither used nor filled, so a
// value read inside a transaction that later rolls back is never kept. A fill is filed under
// the generation read before the database was read, so a fill that raced a save is already
// stale. modeCacheTTL is the backstop for a write that runs no hook (a hand edit with a
// SQLite shell on the live data dir).
type modeCache struct {
	gen     atomic.Uint64
	pending atomic.Int64 // settings saves started whose transaction has not completed
	mu      sync.Mutex
	entry   modeEntry
}

type modeEntry struct {
	ok             bool
	gen            uint64
	filled         time.Time
	value, updated string
	found          bool
	// worn is the stored pack_worn_mode text ("" unset), read with the tracking mode (one query
	// for both, cached alike: a hand-out reads it on every write that names packs)
	worn string
}

// modeCacheTTL bounds how long a cached mode is used without a notification.
const modeCacheTTL = 5 * time.Second

// DisableModeCache turns the cache off (tests compare both ways).
var DisableModeCache atomic.Bool

func newModeCache(app core.App) *modeCache {
	c := &modeCache{}
	hook := func(e *core.ModelEvent) error {
		c.pending.Add(1)
		c.gen.Add(1)
		done := func() {
			c.gen.Add(1)
			c.pending.Add(-1)
		}
		if info := e.App.TxInfo(); info != nil {
			info.OnComplete(func(error) error {
				done()
				return nil
			})
			return e.Next()
		}
		defer done()
		return e.Next()
	}
	app.OnModelCreate(schema.Settings).BindFunc(hook)
	app.OnModelUpdate(schema.Settings).BindFunc(hook)
	app.OnModelDelete(schema.Settings).BindFunc(hook)
	return c
}

// get returns the cached (value, updated, found) if current, and the generation a fill must
// be filed under.
func (c *modeCache) get() (modeEntry, bool, uint64) {
	if c == nil || DisableModeCache.Load() || c.pending.Load() > 0 {
		return modeEntry{}, false, 0
	}
	gen := c.gen.Load()
	c.mu.Lock()
	e := c.entry
	c.mu.Unlock()
	if e.ok && e.gen == gen && clock.Now().Sub(e.filled) < modeCacheTTL {
		return e, true, gen
	}
	return modeEntry{}, false, gen
}

// put files e, read from the database after get returned gen.
func (c *modeCache) put(gen uint64, e modeEntry) {
	if c == nil || DisableModeCache.Load() || c.pending.Load() > 0 || c.gen.Load() != gen {
		return
	}
	e.ok, e.gen, e.filled = true, gen, clock.Now()
	c.mu.Lock()
	c.entry = e
	c.mu.Unlock()
}
