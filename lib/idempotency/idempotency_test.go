package idempotency_test

import (
	"errors"
	"net/http"
	"sync"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

const pickup = `{"quantity":1,"notes":"Y"}`

func setup(t *testing.T) (core.App, string, func(token, key, path, body string) (int, string, http.Header)) {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	srv := testkit.Serve(t, app)
	driver := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	do := func(token, key, path, body string) (int, string, http.Header) {
		h := map[string]string{}
		if key != "" {
			h[idempotency.Header] = key
		}
		status, raw, hdr := ledgertest.Do(t, srv.Client(), "POST", srv.URL+path, token, body, h)
		return status, string(raw), hdr
	}
	return app, testkit.Token(t, driver), do
}

func pickups(t *testing.T, app core.App) int {
	return ledgertest.MovementsOfType(t, app, inventory.TypePickup)
}

func TestRepeatReturnsTheFirstAnswer(t *testing.T) {
	app, token, do := setup(t)
	s1, b1, h1 := do(token, "k-1", "/api/driver/pickup", pickup)
	s2, b2, h2 := do(token, "k-1", "/api/driver/pickup", pickup)
	if s1 != 200 || s2 != 200 || b1 != b2 {
		t.Fatalf("repeat answered %d %s, first %d %s", s2, b2, s1, b1)
	}
	if h1.Get(idempotency.ReplayedHeader) != "" || h2.Get(idempotency.ReplayedHeader) != "true" {
		t.Fatalf("replay header: first %q, repeat %q", h1.Get(idempotency.ReplayedHeader), h2.Get(idempotency.ReplayedHeader))
	}
	if n := pickups(t, app); n != 1 {
		t.Fatalf("%d pickups, want 1", n)
	}
	// a new key is a new action; no key at all is never deduplicated
	do(token, "k-2", "/api/driver/pickup", pickup)
	do(token, "", "/api/driver/pickup", pickup)
	do(token, "", "/api/driver/pickup", pickup)
	if n := pickups(t, app); n != 4 {
		t.Fatalf("%d pickups, want 4", n)
	}
}

func TestRefusalsAreNotCached(t *testing.T) {
	app, token, do := setup(t)
	if _, err := system.Override(app, inventory.Op{}, 0, 0, 0, 160); err != nil {
		t.Fatal(err)
	}
	if s, b, _ := do(token, "k", "/api/driver/pickup", pickup); s != 409 {
		t.Fatalf("want 409, got %d %s", s, b)
	}
	if _, err := system.Override(app, inventory.Op{}, 5, 0, 0, 160); err != nil {
		t.Fatal(err)
	}
	if s, b, _ := do(token, "k", "/api/driver/pickup", pickup); s != 200 {
		t.Fatalf("retry after refusal: %d %s", s, b)
	}
	if n := pickups(t, app); n != 1 {
		t.Fatalf("%d pickups, want 1", n)
	}
}

func TestKeysArePerUserAndPerRequest(t *testing.T) {
	app, token, do := setup(t)
	other := testkit.Token(t, testkit.CreateUser(t, app, roles.Driver, roles.Approved))
	do(token, "shared", "/api/driver/pickup", pickup)
	if s, _, _ := do(other, "shared", "/api/driver/pickup", pickup); s != 200 {
		t.Fatalf("other user's key: %d", s)
	}
	if n := pickups(t, app); n != 2 {
		t.Fatalf("%d pickups, want 2", n)
	}
	if s, b, _ := do(token, "shared", "/api/driver/rebalance", pickup); s != 409 {
		t.Fatalf("key reused for another route: %d %s", s, b)
	}
	if s, _, _ := do("", "guest", "/api/driver/pickup", pickup); s != 401 {
		t.Fatalf("guest: %d", s)
	}
}

func TestExpiredKeysAreIgnored(t *testing.T) {
	app, token, do := setup(t)
	do(token, "old", "/api/driver/pickup", pickup)
	if _, err := app.DB().NewQuery("UPDATE idempotency_keys SET created = '2020-01-01 00:00:00.000Z'").Execute(); err != nil {
		t.Fatal(err)
	}
	if s, _, h := do(token, "old", "/api/driver/pickup", pickup); s != 200 || h.Get(idempotency.ReplayedHeader) != "" {
		t.Fatalf("expired key replayed (%d)", s)
	}
	if n := pickups(t, app); n != 2 {
		t.Fatalf("%d pickups, want 2", n)
	}
}

// TestConcurrentDuplicatesRunOnce fires the same key 10 times at once: exactly one movement,
// ten identical 200 answers.
func TestConcurrentDuplicatesRunOnce(t *testing.T) {
	app, token, do := setup(t)
	var wg sync.WaitGroup
	start := make(chan struct{})
	bodies := make([]string, 10)
	statuses := make([]int, 10)
	for i := range bodies {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			statuses[i], bodies[i], _ = do(token, "burst", "/api/driver/dropoff-batteries", `{"goodBatteries":1,"deadBatteries":0,"notes":"x"}`)
		}(i)
	}
	close(start)
	wg.Wait()
	for i := range bodies {
		if statuses[i] != 200 || bodies[i] != bodies[0] {
			t.Fatalf("answer %d: %d %s (first %s)", i, statuses[i], bodies[i], bodies[0])
		}
	}
	if n := ledgertest.MovementsOfType(t, app, inventory.TypeDropoff); n != 1 {
		t.Fatalf("%d dropoffs, want 1", n)
	}
	ledgertest.AssertSound(t, app)
}

// The answer of a keyed request and its movement commit or fail together (DESIGN.md §11):
// a failure between them leaves neither, and the retry then runs once.
func TestAnswerAndChangeCommitTogether(t *testing.T) {
	app, token, do := setup(t)
	idempotency.BeforeSave = func(core.App) error { return errors.New("disk gone between the movement and its answer") }
	s, _, _ := do(token, "crash", "/api/driver/pickup", pickup)
	idempotency.BeforeSave = nil
	if s < 500 {
		t.Fatalf("failed save answered %d; the client must not see a success", s)
	}
	if n := pickups(t, app); n != 0 {
		t.Fatalf("the movement committed without its answer: %d pickups", n)
	}
	if n, _ := app.CountRecords(schema.IdempotencyKeys); n != 0 {
		t.Fatalf("%d answers stored", n)
	}
	// the retry runs now, once, and its answer is kept with it
	if s, b, _ := do(token, "crash", "/api/driver/pickup", pickup); s != 200 {
		t.Fatalf("retry: %d %s", s, b)
	}
	if s, _, h := do(token, "crash", "/api/driver/pickup", pickup); s != 200 || h.Get(idempotency.ReplayedHeader) != "true" {
		t.Fatalf("second retry not replayed: %d", s)
	}
	if n := pickups(t, app); n != 1 {
		t.Fatalf("%d pickups, want 1", n)
	}
	ledgertest.AssertSound(t, app)
}

// A replay is answered only after the caller's current rights are checked.
func TestReplayChecksCurrentRights(t *testing.T) {
	app, token, do := setup(t)
	if s, _, _ := do(token, "before-suspension", "/api/driver/pickup", pickup); s != 200 {
		t.Fatal(s)
	}
	users, err := app.FindAllRecords(schema.Users)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		u.Set(schema.UserIsApproved, roles.Suspended)
		if err := app.SaveNoValidate(u); err != nil {
			t.Fatal(err)
		}
	}
	// the suspension ended the session: the replay is refused like any request
	if s, b, h := do(token, "before-suspension", "/api/driver/pickup", pickup); s < 400 || h.Get(idempotency.ReplayedHeader) != "" {
		t.Fatalf("suspended user's replay answered %d %s", s, b)
	}
}

func TestReplayAfterRoleLossIsRefused(t *testing.T) {
	app, _, do := setup(t)
	admin := testkit.CreateUser(t, app, roles.Admin, roles.Approved)
	token := testkit.Token(t, admin)
	if s, b, _ := do(token, "k-rebalance", "/api/driver/rebalance", `{"quantity":2}`); s != 200 {
		t.Fatalf("%d %s", s, b)
	}
	// a session that survives a change of rights (approval kept, terms re-sign asked) is
	// refused by the guard before any replay
	admin.Set(schema.UserMustResignTerms, true)
	if err := app.SaveNoValidate(admin); err != nil {
		t.Fatal(err)
	}
	if s, _, h := do(token, "k-rebalance", "/api/driver/rebalance", `{"quantity":2}`); s != 403 || h.Get(idempotency.ReplayedHeader) != "" {
		t.Fatalf("replay after the rights changed: %d", s)
	}
}
