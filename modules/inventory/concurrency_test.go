package inventory_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// TestConcurrentPickupsNeverOversell races 50 drivers against a real server for the last
// 20 ready batteries (one each): exactly 20 succeed, 30 get 409, ready ends at 0, no balance
// goes negative and recalculation finds nothing to correct. A second round with mixed sizes
// checks that what succeeded is exactly what left ready.
func TestConcurrentPickupsNeverOversell(t *testing.T) {
	const clients, last = 50, 20
	app := testkit.NewApp(t)
	defer app.Cleanup()
	tokens := make([]string, clients)
	for i := range tokens {
		tokens[i] = testkit.Token(t, testkit.CreateUser(t, app, roles.Driver, roles.Approved))
	}
	if _, err := system.Override(app, inventory.Op{}, last, 0, 0, 160); err != nil {
		t.Fatal(err)
	}
	srv := ledgertest.Serve(t, app)

	race := func(quantity func(i int) int) (ok, refused, taken int) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < clients; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				q := quantity(i)
				body, _ := json.Marshal(map[string]any{"quantity": q, "notes": "Y"})
				status, raw, _ := ledgertest.Do(t, srv.Client(), "POST", srv.URL+"/api/driver/pickup", tokens[i], string(body), nil)
				mu.Lock()
				defer mu.Unlock()
				switch status {
				case http.StatusOK:
					ok++
					taken += q
				case http.StatusConflict:
					refused++
				default:
					t.Errorf("client %d: unexpected %d %s", i, status, raw)
				}
			}(i)
		}
		close(start)
		wg.Wait()
		return
	}

	ok, refused, _ := race(func(int) int { return 1 })
	if ok != last || refused != clients-last {
		t.Fatalf("%d succeeded and %d refused, want %d and %d", ok, refused, last, clients-last)
	}
	s, _ := inventory.Stats(app)
	if s.Ready != 0 || s.InField != last {
		t.Fatalf("after the race: %+v", s)
	}
	ledgertest.AssertSound(t, app)

	if _, err := system.Override(app, inventory.Op{}, 37, 0, 0, 160); err != nil {
		t.Fatal(err)
	}
	_, _, taken := race(func(i int) int { return 1 + i%4 })
	s, _ = inventory.Stats(app)
	if s.Ready != 37-taken || s.Ready < 0 || s.Ready > 3 {
		t.Fatalf("mixed round: %d taken, stats %+v", taken, s)
	}
	ledgertest.AssertSound(t, app)
	res, err := inventory.Recalculate(app)
	if err != nil || len(res.Corrections) != 0 {
		t.Fatalf("recalculation corrections %v (%v)", res.Corrections, err)
	}
}
