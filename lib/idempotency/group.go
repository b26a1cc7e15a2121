package idempotency

import (
	"fmt"
	"sync"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// Group commit (DESIGN.md §11 keeps: one transaction holds a change and its answer).
//
// SQLite has one writer: each keyed request used to wait for the write connection, begin,
// run its route, store its answer and commit, and the next one could only start then. On a
// route bound with Grouped, keyed requests that arrive while a transaction runs queue up; the
// first of them then leads: it opens one transaction and runs every queued request's route in
// it, one after another on its own goroutine, each between a savepoint and its release, then
// commits once and tells each request how it ended. A request refused or failing after it
// wrote is rolled back to its savepoint alone (its events are dropped, txutil.Part); a failed
// commit fails every request of the transaction, none of which was answered yet. So each
// answer still goes out only after the commit that holds its change, and a crash still
// leaves a change with its answer or neither.
//
// Grouped is bound only on routes whose changes go through the ledger's services and whose
// after-commit work goes through lib/events: a PocketBase record hook run after the commit
// (OnRecordAfter…Success) would also run for a record a rolled-back request saved.

// MaxGroup bounds the requests one transaction runs, so a leader's own answer waits for at
// most that many routes.
const MaxGroup = 16

// savepoint names each request's part of a grouped transaction (parts run one at a time).
const savepoint = "swapbay_request"

// groupKey marks a request whose route is Grouped.
const groupKey = "swapbay.idempotency.grouped"

// Grouped is bound on routes whose keyed requests may share a write transaction (see above).
func Grouped() *hook.Handler[*core.RequestEvent] { return mark("Grouped", groupKey) }

// turn is what a queued job is told: lead the next transaction, or how its transaction ended.
type turn struct {
	lead bool
	err  error
}

// group is an app's queue of grouped jobs.
type group struct {
	app     core.App
	mu      sync.Mutex
	queue   []*job
	leading bool // a job is running a transaction or has been told to lead the next
}

func groupOf(app core.App) *group {
	return app.Store().GetOrSet("swapbay.idempotency.group", func() any { return &group{app: app} }).(*group)
}

// run queues j and returns when the transaction holding it has ended (its error: nil when it
// committed). j leads that transaction when no other job does.
func (g *group) run(j *job) error {
	j.done = make(chan turn, 1)
	g.mu.Lock()
	g.queue = append(g.queue, j)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	if !lead {
		t := <-j.done
		if !t.lead {
			return t.err
		}
	}
	return g.lead(j)
}

// lead runs the jobs at the head of the queue (j first: a job leads when the queue was empty
// or when it was told to as the head, and only the leader takes jobs off the queue) in one
// transaction, answers the others, and hands the lead to the next queued job.
func (g *group) lead(j *job) (err error) {
	g.mu.Lock()
	n := min(len(g.queue), MaxGroup)
	batch := g.queue[:n:n]
	g.queue = g.queue[n:]
	g.mu.Unlock()

	answered := false
	defer func() {
		p := recover()
		if p != nil {
			err = fmt.Errorf("idempotency: grouped transaction panicked: %v", p)
		}
		if !answered {
			for _, o := range batch[1:] {
				o.done <- turn{err: err}
			}
		}
		g.mu.Lock()
		if len(g.queue) > 0 {
			g.queue[0].done <- turn{lead: true} // it stays at the head of the queue
		} else {
			g.leading = false
		}
		g.mu.Unlock()
		if p != nil {
			panic(p)
		}
	}()

	err = g.app.RunInTransaction(func(txApp core.App) error {
		for _, o := range batch {
			if err := o.run(txApp, true); err != nil {
				return err
			}
		}
		return nil
	})
	for _, o := range batch[1:] {
		o.done <- turn{err: err}
	}
	answered = true
	return err
}
