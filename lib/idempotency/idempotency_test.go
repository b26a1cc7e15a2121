package idempotency_test

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

const pickup = `{"quantity":1,"notes":"Y"}`

func setup(t *testing.T) (core.App, string, func(token, key, path, body string) (int, string, http.Header)) {
	t.Helper()
	app, _, token, do := setupServer(t)
	return app, token, do
}

func setupServer(t *testing.T) (core.App, *httptest.Server, string, func(token, key, path, body string) (int, string, http.Header)) {
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
	return app, srv, testkit.Token(t, driver), do
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

// keyAt mints a time-ordered key (UUIDv7) as the app does, at the time at.
func keyAt(at time.Time) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	ms := at.UnixMilli()
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// age moves every stored answer's commit back by d, as if it had been stored d ago.
func age(t *testing.T, app core.App, d time.Duration) {
	t.Helper()
	dt, _ := types.ParseDateTime(time.Now().Add(-d))
	if _, err := app.DB().NewQuery("UPDATE " + schema.IdempotencyKeys + " SET created = {:at}").Bind(dbx.Params{"at": dt.String()}).Execute(); err != nil {
		t.Fatal(err)
	}
}

// TestKeysAreAnsweredForTheOutboxWindow: the outbox sends for up to 7 days (DESIGN.md §12): a
// lost answer resent after 25 hours or 7 days gets the first answer, recording nothing twice
// (main kept keys 24 h and recorded the 25 h resend again).
func TestKeysAreAnsweredForTheOutboxWindow(t *testing.T) {
	for _, old := range []time.Duration{25 * time.Hour, 7 * 24 * time.Hour} {
		t.Run(old.String(), func(t *testing.T) {
			app, token, do := setup(t)
			for _, key := range []string{keyAt(time.Now().Add(-old)), "plain-" + old.String()} {
				s1, b1, _ := do(token, key, "/api/driver/pickup", pickup)
				age(t, app, old)
				s2, b2, h := do(token, key, "/api/driver/pickup", pickup)
				if s1 != 200 || s2 != 200 || b1 != b2 || h.Get(idempotency.ReplayedHeader) != "true" {
					t.Fatalf("key %s aged %s: first %d %s, resent %d %s (replayed %q)", key, old, s1, b1, s2, b2, h.Get(idempotency.ReplayedHeader))
				}
			}
			if n := pickups(t, app); n != 2 {
				t.Fatalf("%d pickups, want 2", n)
			}
		})
	}
}

// TestKeysOlderThanKeptAreRefused: a time-ordered key older than Kept is refused key_expired
// and records nothing, whether its answer is still stored, pruned, or was never stored.
func TestKeysOlderThanKeptAreRefused(t *testing.T) {
	app, token, do := setup(t)
	expired := func(key, what string) {
		t.Helper()
		s, b, _ := do(token, key, "/api/driver/pickup", pickup)
		if s != 409 || !strings.Contains(b, `"code":"key_expired"`) || !strings.Contains(b, idempotency.MsgKeyExpired) {
			t.Fatalf("%s: want 409 key_expired, got %d %s", what, s, b)
		}
	}
	expired(keyAt(time.Now().Add(-idempotency.Kept-time.Minute)), "never seen")
	if n := pickups(t, app); n != 0 {
		t.Fatalf("%d pickups, want 0", n)
	}

	// the first send was answered; the resend comes once the key is older than Kept
	old := time.Now().Add(-idempotency.Kept + 2*time.Second)
	key := keyAt(old)
	if s, b, _ := do(token, key, "/api/driver/pickup", pickup); s != 200 {
		t.Fatalf("first send: %d %s", s, b)
	}
	time.Sleep(time.Until(old.Add(idempotency.Kept + time.Millisecond)))
	expired(key, "stored answer, key expired")
	age(t, app, idempotency.Kept+idempotency.MaxKeyAhead+time.Minute)
	if err := idempotency.Prune(app); err != nil {
		t.Fatal(err)
	}
	if n := storedKeys(t, app); n != 0 {
		t.Fatalf("%d stored answers after the prune, want 0", n)
	}
	expired(key, "answer pruned")
	if n := pickups(t, app); n != 1 {
		t.Fatalf("%d pickups, want 1", n)
	}

	// a key from further ahead than MaxKeyAhead could outlive its answer: refused too
	s, b, _ := do(token, keyAt(time.Now().Add(idempotency.MaxKeyAhead+time.Minute)), "/api/driver/pickup", pickup)
	if s != 400 || !strings.Contains(b, `"code":"occurred_in_future"`) {
		t.Fatalf("key from the future: %d %s", s, b)
	}
	if n := pickups(t, app); n != 1 {
		t.Fatalf("%d pickups, want 1", n)
	}
}

// TestPlainKeysOutliveTheOutboxWindow: a key without a time (an API client's) is answered
// while its answer is kept; once the answer is pruned, the driver write's occurredAt is older
// than the outbox's 7 days and refused too_old: recorded once, whatever the key.
func TestPlainKeysOutliveTheOutboxWindow(t *testing.T) {
	app, token, do := setup(t)
	tap := time.Now().Add(-time.Hour)
	body := `{"quantity":1,"notes":"Y","occurredAt":"` + tap.UTC().Format(time.RFC3339) + `"}`
	if s, b, _ := do(token, "plain", "/api/driver/pickup", body); s != 200 {
		t.Fatalf("first send: %d %s", s, b)
	}
	later := time.Now().Add(idempotency.Kept + idempotency.MaxKeyAhead + time.Minute)
	defer clock.Set(func() time.Time { return later })()
	if err := idempotency.Prune(app); err != nil {
		t.Fatal(err)
	}
	if n := storedKeys(t, app); n != 0 {
		t.Fatalf("%d stored answers after the prune, want 0", n)
	}
	if s, b, _ := do(token, "plain", "/api/driver/pickup", body); s != 400 || !strings.Contains(b, `"code":"too_old"`) {
		t.Fatalf("resent after its answer was pruned: %d %s, want 400 too_old", s, b)
	}
	if n := pickups(t, app); n != 1 {
		t.Fatalf("%d pickups, want 1", n)
	}
}

// TestNonJSONBodiesAreRefused: the idempotency step and the handler agree on what a body is
// (reqx.IsJSON). Two identical keyed text/plain posts recorded two movements on main (the key
// was ignored for a body that was not JSON, which the handler parsed as JSON all the same).
func TestNonJSONBodiesAreRefused(t *testing.T) {
	app, srv, token, _ := setupServer(t)
	for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "application/jsonp"} {
		for _, key := range []string{"text-1", "text-1", ""} {
			s, raw, _ := ledgertest.Do(t, srv.Client(), "POST", srv.URL+"/api/driver/pickup", token, pickup,
				map[string]string{"Content-Type": ct, idempotency.Header: key})
			if s != http.StatusUnsupportedMediaType || !strings.Contains(string(raw), `"code":"unsupported_media_type"`) {
				t.Fatalf("%s, key %q: %d %s, want 415 unsupported_media_type", ct, key, s, raw)
			}
		}
	}
	if n := pickups(t, app) + storedKeys(t, app); n != 0 {
		t.Fatalf("%d pickups and stored answers, want none", n)
	}
	s, raw, _ := ledgertest.Do(t, srv.Client(), "POST", srv.URL+"/api/driver/pickup", token, pickup,
		map[string]string{"Content-Type": "application/json; charset=utf-8", idempotency.Header: "json-1"})
	if s != 200 {
		t.Fatalf("application/json; charset=utf-8: %d %s", s, raw)
	}
}

func storedKeys(t *testing.T, app core.App) int {
	t.Helper()
	var n int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.IdempotencyKeys).Row(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestKeyTime(t *testing.T) {
	at := time.UnixMilli(time.Now().UnixMilli())
	if got, ok := idempotency.KeyTime(keyAt(at)); !ok || !got.Equal(at) {
		t.Fatalf("KeyTime(v7) = %v %v, want %v", got, ok, at)
	}
	for _, k := range []string{"k-1", "0f4e2f5c-3b9a-4d2e-8f00-1a2b3c4d5e6f", "0f4e2f5c-3b9a-7d2e-cf00-1a2b3c4d5e6f", "0f4e2f5c-3b9a-7d2e-8f00-1a2b3c4d5e6g"} {
		if _, ok := idempotency.KeyTime(k); ok {
			t.Fatalf("KeyTime(%q) read a time", k)
		}
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

// A key repeated with another body is refused (409, nothing changed), not answered with the
// first body's answer; the same body (whitespace aside) is still replayed. Was: the second
// body got the first's 200 while nothing of it was recorded (an admin's new pay rates
// "updated successfully" and not saved).
func TestKeyRepeatedWithAnotherBodyIsRefused(t *testing.T) {
	app, token, do := setup(t)
	if s, b, _ := do(token, "k-body", "/api/driver/pickup", pickup); s != 200 {
		t.Fatalf("first: %d %s", s, b)
	}
	if s, b, _ := do(token, "k-body", "/api/driver/pickup", `{"quantity":3,"notes":"Y"}`); s != 409 || !strings.Contains(b, idempotency.MsgKeyReused) {
		t.Fatalf("another body under the same key: %d %s", s, b)
	}
	// the same body again: whitespace, key order and the tap's time (occurredAt) aside
	for _, same := range []string{" " + pickup + "\n", `{"notes":"Y","quantity":1}`, `{"quantity":1,"notes":"Y","occurredAt":"` + time.Now().Format(time.RFC3339) + `"}`} {
		if s, b, h := do(token, "k-body", "/api/driver/pickup", same); s != 200 || h.Get(idempotency.ReplayedHeader) != "true" {
			t.Fatalf("the same body again (%s): %d %s", same, s, b)
		}
	}
	if n := pickups(t, app); n != 1 {
		t.Fatalf("%d pickups, want 1", n)
	}
}
