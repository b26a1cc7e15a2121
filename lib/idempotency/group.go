package idempotency

import (
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// Group commit (DESIGN.md §11 keeps: one transaction holds a change and its answer).
//
// SQLite has one writer: each keyed request used to wait for the write connection, begin,
// run its route, store its answer and commit, and the next one could only start then. On a
// route bound with Grouped, keyed requests queue up, and one worker goroutine per app takes
// them off the queue: it opens one transaction, runs every request's route in it, one after
// another, each between a savepoint and its release, then commits once and tells each request
// how it ended. A request refused or failing after it wrote is rolled back to its savepoint
// alone (its events are dropped, txutil.Part); a failed commit fails every request of the
// transaction, none of which was answered yet. So each answer still goes out only after the
// commit that holds its change, and a crash still leaves a change with its answer or neither.
//
// The worker runs while the queue has requests and exits when it is empty; the next request
// starts it again. It takes the next batch as soon as a transaction ends: a request told to
// lead would first have to be scheduled, and on a busy machine that wait held up every queued
// request (BENCHMARKS.md).
//
// Grouped is bound only on routes whose changes go through the ledger's services and whose
// after-commit work goes through lib/events: a PocketBase record hook run after the commit
// (OnRecordAfter…Success) would also run for a record a rolled-back request saved.

// MaxGroup bounds the requests one transaction runs, so an answer waits for at most that
// many routes after its own. Larger groups wrote more requests a second up to 32 and no
// more beyond it (make bench -only writes; the figures are in BENCHMARKS.md); each commit
// writes the pages every request of its transaction touched (the ledger's hot pages) once.
const MaxGroup = 32

// savepoint names each request's part of a grouped transaction (parts run one at a time).
const savepoint = "swapbay_request"

// groupKey marks a request whose route is Grouped.
const groupKey = "swapbay.idempotency.grouped"

// Grouped is bound on routes whose keyed requests may share a write transaction (see above);
// it makes the route keyed, as Keyed does.
func Grouped() *hook.Handler[*core.RequestEvent] {
	h := mark("Grouped", groupKey)
	next := h.Func
	h.Func = func(e *core.RequestEvent) error {
		e.Set(keyedKey, true)
		return next(e)
	}
	return h
}

// group is an app's queue of grouped jobs.
type group struct {
	app     core.App
	mu      sync.Mutex
	queue   []*job
	working bool // the worker runs (it clears this under mu when it finds the queue empty)
	running int  // the jobs of the transaction the worker runs now
}

func groupOf(app core.App) *group {
	return app.Store().GetOrSet("swapbay.idempotency.group", func() any { return &group{app: app} }).(*group)
}

// run queues j, starting the worker when it is not running, and returns when the
// transaction holding j has ended (its error: nil when it committed).
func (g *group) run(j *job) error {
	j.done = make(chan error, 1)
	g.mu.Lock()
	g.queue = append(g.queue, j)
	start := !g.working
	g.working = true
	g.mu.Unlock()
	if start {
		go g.work()
	}
	return <-j.done
}

// work runs the queued jobs, up to MaxGroup per transaction, until the queue is empty.
func (g *group) work() {
	for {
		g.mu.Lock()
		n := min(len(g.queue), MaxGroup)
		if n == 0 {
			g.working = false
			g.mu.Unlock()
			return
		}
		batch := g.queue[:n:n]
		g.queue = g.queue[n:]
		g.running = n
		g.mu.Unlock()

		err := g.commit(batch)
		g.mu.Lock()
		g.running = 0
		g.mu.Unlock()
		for _, j := range batch {
			j.done <- err // buffered: never blocks the worker
		}
	}
}

// commit runs batch's routes in one transaction. A panic outside the routes (each route's
// own is its request's 500, job.run) fails the whole batch instead of the process.
func (g *group) commit(batch []*job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			g.app.Logger().Error("idempotency: grouped transaction panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("idempotency: grouped transaction panicked: %v", p)
		}
	}()
	return g.app.RunInTransaction(func(txApp core.App) error {
		for _, j := range batch {
			if err := j.run(txApp, true); err != nil {
				return err
			}
		}
		return nil
	})
}
