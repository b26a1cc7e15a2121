package inventory_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

func fixed(url, body string) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
	return func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) { return url, body }
}

func movementField(t testing.TB, body map[string]any, field string) any {
	t.Helper()
	mv, ok := body["movement"].(map[string]any)
	if !ok {
		t.Fatalf("answer without movement: %v", body)
	}
	return mv[field]
}

func expectStats(t testing.TB, app *tests.TestApp, want inventory.Snapshot) {
	t.Helper()
	got, err := inventory.Stats(app)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("stats: got %+v, want %+v", got, want)
	}
}

// withReady seeds ready down to n (the rest leaves the pool) before the request.
func withReady(n int, url, body string) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
	return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, n, 0, 0, 160); err != nil {
			t.Fatal(err)
		}
		return url, body
	}
}

// pickedUp seeds a pickup of n for every caller that may hold batteries.
func pickedUp(n int, url, body string) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
	return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		for _, u := range []string{c.Driver.Id, c.Admin.Id, c.Master.Id} {
			if _, err := inventory.Pickup(app, inventory.Op{}, u, n); err != nil {
				t.Fatal(err)
			}
		}
		return url, body
	}
}

func TestPickupAPI(t *testing.T) {
	const url = "/api/driver/pickup"
	cases := ledgertest.Matrix("pickup", "POST", ledgertest.DriverRoute, fixed(url, `{"quantity":5,"notes":"Y"}`), 200,
		[]string{`"success":true`, `"message":"Battery pickup recorded successfully"`, `"type":"pickup"`, `"quantity":-5`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			user := movementField(t, body, "user").(string)
			if got := ledgertest.Held(t, app, user, "pickup"); got != 5 {
				t.Fatalf("holder has %d, want 5", got)
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 155, InField: 5})
		})
	v := func(name, body string, status int, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Driver, Method: "POST", Prepare: fixed(url, body), Status: status, Contains: []string{msg}}
	}
	cases = append(cases,
		v("no quantity", `{"notes":"Y"}`, 400, `"message":"Quantity is required"`),
		v("zero quantity", `{"quantity":0,"notes":"Y"}`, 400, `"message":"Quantity is required"`),
		v("text quantity", `{"quantity":"many","notes":"Y"}`, 400, `"message":"Quantity is required"`),
		v("no notes", `{"quantity":2}`, 400, `"message":"This field is required"`),
		v("blank notes", `{"quantity":2,"notes":"   "}`, 400, `"message":"This field is required"`),
		v("long notes", fmt.Sprintf(`{"quantity":2,"notes":%q}`, strings.Repeat("x", 2001)), 400, `"notes"`),
		v("bad json", `{"quantity":`, 400, `"status":400`),
		v("huge body", `{"notes":"`+strings.Repeat("x", 70<<10)+`"}`, 413, `"status":413`),
		ledgertest.Case{Name: "more than ready", Who: testkit.Driver, Method: "POST", Prepare: withReady(3, url, `{"quantity":4,"notes":"Y"}`),
			Status: 409, Contains: []string{`"message":"Not enough batteries: only 3 ready"`}},
		ledgertest.Case{Name: "exactly ready", Who: testkit.Driver, Method: "POST", Prepare: withReady(3, url, `{"quantity":3,"notes":"N"}`),
			Status: 200, Contains: []string{`"ready":0`, `"inField":3`}},
	)
	ledgertest.Run(t, cases)
}

func TestDropoffAPI(t *testing.T) {
	const url = "/api/driver/dropoff-batteries"
	cases := ledgertest.Matrix("dropoff", "POST", ledgertest.DriverRoute, pickedUp(5, url, `{"goodBatteries":3,"deadBatteries":1,"notes":"fine"}`), 200,
		[]string{`"message":"Battery dropoff recorded successfully"`, `"type":"dropoff"`, `"quantity":4`, `"discrepancy":false`, `"notes":"3 good, 1 dead - fine"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			user := movementField(t, body, "user").(string)
			if got := ledgertest.Held(t, app, user, "pickup"); got != 1 {
				t.Fatalf("holder keeps %d, want 1", got)
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 148, Waiting: 1, InField: 11})
		})
	v := func(name, body string, status int, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Driver, Method: "POST", Prepare: pickedUp(5, url, body), Status: status, Contains: []string{msg}}
	}
	cases = append(cases,
		v("negative good", `{"goodBatteries":-1,"deadBatteries":2,"notes":"x"}`, 400, `"message":"Must be a valid number 0 or greater"`),
		v("text dead", `{"goodBatteries":1,"deadBatteries":"two","notes":"x"}`, 400, `"message":"Must be a valid number 0 or greater"`),
		v("nothing", `{"goodBatteries":0,"deadBatteries":0,"notes":"x"}`, 400, `"message":"You must drop off at least one battery (good or dead)"`),
		v("empty strings", `{"goodBatteries":"","deadBatteries":"","notes":"x"}`, 400, `"message":"You must drop off at least one battery (good or dead)"`),
		v("no notes", `{"goodBatteries":1,"deadBatteries":0}`, 400, `"message":"Please provide notes about your drop-off"`),
		ledgertest.Case{Name: "more than held is a discrepancy", Who: testkit.Driver, Method: "POST",
			Prepare: pickedUp(5, url, `{"goodBatteries":4,"deadBatteries":4,"notes":"found some"}`), Status: 200,
			Contains: []string{`"discrepancy":true`, `"excess":3`},
			Check: func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 149, Waiting: 4, InField: 10, Unaccounted: -3})
			}},
		ledgertest.Case{Name: "pickup holding first", Who: testkit.Driver, Method: "POST",
			Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				if _, _, err := custody.Assign(app, inventory.Op{Actor: c.Admin}, c.Driver.Id, 2, "home_charger"); err != nil {
					t.Fatal(err)
				}
				if _, err := inventory.Pickup(app, inventory.Op{}, c.Driver.Id, 3); err != nil {
					t.Fatal(err)
				}
				return url, `{"goodBatteries":4,"deadBatteries":0,"notes":"ok"}`
			}, Status: 200, Contains: []string{`"discrepancy":false`},
			Check: func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				user := movementField(t, body, "user").(string)
				if p, h := ledgertest.Held(t, app, user, "pickup"), ledgertest.Held(t, app, user, "home_charger"); p != 0 || h != 1 {
					t.Fatalf("pickup %d home_charger %d, want 0 and 1", p, h)
				}
			}},
	)
	ledgertest.Run(t, cases)
}

func TestActivityAPI(t *testing.T) {
	for _, r := range []struct{ path, typ, msg string }{
		{"/api/driver/rebalance", "rebalance", "Rebalance recorded successfully"},
		{"/api/driver/retrieves-repairs-dropoff", "retrieves_repairs_dropoff", "Recovers recorded successfully"},
	} {
		cases := ledgertest.Matrix(r.typ, "POST", ledgertest.DriverRoute, fixed(r.path, `{"quantity":7,"notes":"Moves activity logged"}`), 200,
			[]string{`"message":"` + r.msg + `"`, `"type":"` + r.typ + `"`, `"quantity":7`},
			func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				after := ledgertest.Capture(t, app)
				if after.Movements != before.Movements+1 || after.Entries != before.Entries || after.Stats != before.Stats {
					t.Fatalf("activity must add one movement without entries: %+v → %+v", before, after)
				}
			})
		cases = append(cases,
			ledgertest.Case{Name: "zero", Who: testkit.Driver, Method: "POST", Prepare: fixed(r.path, `{"quantity":0}`), Status: 400, Contains: []string{`"message":"Quantity is required"`}},
			ledgertest.Case{Name: "no notes is fine", Who: testkit.Driver, Method: "POST", Prepare: fixed(r.path, `{"quantity":1}`), Status: 200, Contains: []string{`"success":true`}},
		)
		ledgertest.Run(t, cases)
	}
}
