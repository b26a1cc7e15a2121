package idempotency_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/events"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// burst holds the write connection while n drivers each send one keyed pickup, so the
// requests queue up and run in shared transactions (group commit) once it is released.
func burst(t *testing.T, app core.App, do func(token, key, path, body string) (int, string, http.Header), n int) (statuses []int, bodies []string) {
	t.Helper()
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = testkit.TokenIn(t, app, testkit.CreateUser(t, app, roles.Driver, roles.Approved))
	}
	statuses, bodies = make([]int, n), make([]string, n)
	held := make(chan struct{})
	release := make(chan struct{})
	go app.RunInTransaction(func(core.App) error {
		close(held)
		<-release
		return nil
	})
	<-held
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], bodies[i], _ = do(tokens[i], fmt.Sprint("burst-", i), "/api/driver/pickup", pickup)
		}()
	}
	// every request is queued (or in the worker's transaction) behind the held transaction
	for deadline := time.Now().Add(30 * time.Second); idempotency.Pending(app) < n; {
		if time.Now().After(deadline) {
			close(release)
			t.Fatalf("%d of %d requests queued", idempotency.Pending(app), n)
		}
		<-time.After(time.Millisecond) // poll the condition without spinning a core
	}
	close(release)
	wg.Wait()
	return statuses, bodies
}

// Grouped requests commit together, and a refusal inside a group is rolled back alone: 30
// pickups of one battery against 20 ready give 20 movements, 20 kept answers and 20
// notifications, and 10 refusals that changed nothing.
func TestGroupedRequestsRefusedAlone(t *testing.T) {
	app, _, do := setup(t)
	if _, err := system.Override(app, inventory.Op{}, 20, 0, 0, 160); err != nil {
		t.Fatal(err)
	}
	var notified atomic.Int64
	cancel := events.For(app).Subscribe(func(m events.Message) {
		if m.Type == events.InventoryUpdated {
			notified.Add(1)
		}
	})
	defer cancel()
	statuses, bodies := burst(t, app, do, 30)
	ok, refused := 0, 0
	for i, s := range statuses {
		switch {
		case s == 200:
			ok++
		case s == 409 && strings.Contains(bodies[i], "Not enough batteries: only 0 ready"):
			refused++
		default:
			t.Fatalf("answer %d: %d %s", i, s, bodies[i])
		}
	}
	if ok != 20 || refused != 10 {
		t.Fatalf("%d kept, %d refused; want 20 and 10", ok, refused)
	}
	if n := pickups(t, app); n != 20 {
		t.Fatalf("%d pickups, want 20", n)
	}
	if n, _ := app.CountRecords(schema.IdempotencyKeys); n != 20 {
		t.Fatalf("%d answers kept, want 20", n)
	}
	if n := notified.Load(); n != 20 {
		t.Fatalf("%d inventory notifications, want 20 (none for a refusal)", n)
	}
	stats, err := inventory.Stats(app)
	if err != nil || stats.Ready != 0 || stats.InField != 20 {
		t.Fatalf("stats %+v %v", stats, err)
	}
	ledgertest.AssertSound(t, app)
}

// A transaction that fails as a whole (here a panic while an answer is stored) fails every
// request in it with a 5xx (more than one: the requests were grouped), commits none of them,
// and the queue goes on: later requests run.
func TestGroupedFailureFailsTheGroupOnly(t *testing.T) {
	app, token, do := setup(t)
	var calls atomic.Int64
	idempotency.BeforeSave = func(core.App) error {
		if calls.Add(1) == 2 {
			panic("storage failed while storing the answer")
		}
		return nil
	}
	statuses, bodies := burst(t, app, do, 8)
	idempotency.BeforeSave = nil
	failed := 0
	for i, s := range statuses {
		switch {
		case s >= 500:
			failed++
		case s != 200:
			t.Fatalf("answer %d: %d %s", i, s, bodies[i])
		}
	}
	// the panic came in a transaction of more than one request (every request queued before
	// the worker could run: burst), and it failed every request of that transaction
	if failed < 2 {
		t.Fatalf("%d requests saw the failed transaction, want a group of 2 or more", failed)
	}
	if n := pickups(t, app); n != 8-failed {
		t.Fatalf("%d pickups for %d successes", n, 8-failed)
	}
	if n, _ := app.CountRecords(schema.IdempotencyKeys); int(n) != 8-failed {
		t.Fatalf("%d answers kept for %d successes", n, 8-failed)
	}
	// the worker goes on: new requests run and commit
	if s, b, _ := do(token, "after", "/api/driver/pickup", pickup); s != 200 {
		t.Fatalf("after the failed group: %d %s", s, b)
	}
	ledgertest.AssertSound(t, app)
}

// Each kept answer of a group carries the figures right after its own change: 20 keyed pickups
// of one battery from 40 ready, two of them failing after their change was written (their
// parts rolled back), answer 18 distinct ready counts, 39 down to 22, each with the rest in
// the field.
func TestGroupedAnswersCarryTheirOwnFigures(t *testing.T) {
	app, _, do := setup(t)
	if _, err := system.Override(app, inventory.Op{}, 40, 0, 0, 160); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	idempotency.BeforeSave = func(core.App) error {
		if n := calls.Add(1); n == 3 || n == 7 {
			return fmt.Errorf("storage failed (call %d)", n)
		}
		return nil
	}
	statuses, bodies := burst(t, app, do, 20)
	idempotency.BeforeSave = nil
	var ready []int
	failed := 0
	for i, s := range statuses {
		if s != 200 {
			failed++
			continue
		}
		var answer struct{ Stats inventory.Snapshot }
		if err := json.Unmarshal([]byte(bodies[i]), &answer); err != nil {
			t.Fatal(err)
		}
		if answer.Stats.Ready+answer.Stats.InField != 40 || answer.Stats.Unaccounted != 120 {
			t.Fatalf("answer %d: %+v", i, answer.Stats)
		}
		ready = append(ready, answer.Stats.Ready)
	}
	if failed != 2 {
		t.Fatalf("%d failed, want 2: %v", failed, statuses)
	}
	slices.Sort(ready)
	for i, r := range ready {
		if r != 22+i {
			t.Fatalf("ready in the kept answers: %v, want 22 to 39 once each", ready)
		}
	}
	if stats, err := inventory.Stats(app); err != nil || stats.Ready != 22 || stats.InField != 18 {
		t.Fatalf("stats %+v %v", stats, err)
	}
	ledgertest.AssertSound(t, app)
}
