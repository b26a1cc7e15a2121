package charging_test

import (
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// withWaiting seeds waiting = n (and ready = 160 - n) and runs then.
func withWaiting(n int, then func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string)) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
	return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, 160-n, n, 0, 160); err != nil {
			t.Fatal(err)
		}
		return then(t, app, c)
	}
}

func fixed(url, body string) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
	return func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) { return url, body }
}

// withSession seeds waiting 20 and an active 2.5A session of 8, then builds the request
// for the session's id.
func withSession(build func(id string) (string, string)) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
	return withWaiting(20, func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		s, _, err := charging.Start(app, inventory.Op{Actor: c.Admin}, "2.5A", 8)
		if err != nil {
			t.Fatal(err)
		}
		return build(s.Id)
	})
}

func expectStats(t testing.TB, app *tests.TestApp, want inventory.Snapshot) {
	t.Helper()
	got, _ := inventory.Stats(app)
	if got != want {
		t.Fatalf("stats: got %+v, want %+v", got, want)
	}
}

func session(t testing.TB, app *tests.TestApp, body map[string]any) *charging.Session {
	t.Helper()
	m, ok := body["session"].(map[string]any)
	if !ok {
		t.Fatalf("answer without session: %v", body)
	}
	s, err := charging.FindSession(app, m["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStartChargingAPI(t *testing.T) {
	const url = "/api/start-charging"
	cases := ledgertest.Matrix("start charging", "POST", ledgertest.AdminRoute, withWaiting(10, func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
		return url, `{"chargerType":"4A","quantity":6}`
	}), 200, []string{`"type":"charge_start"`, `"status":"active"`, `"chargerType":"4A"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			s := session(t, app, body)
			if got := s.EtaAt().Sub(s.StartedAt()); got != 180*time.Minute {
				t.Fatalf("4A ETA after %v, want 180m", got)
			}
			if s.Quantity() != 6 {
				t.Fatalf("session quantity %d", s.Quantity())
			}
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 150, Waiting: 4, Charging: 6})
		})
	v := func(name string, prepare func(testing.TB, *tests.TestApp, testkit.Callers) (string, string), status int, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST", Prepare: prepare, Status: status, Contains: []string{msg}}
	}
	cases = append(cases,
		v("no charger", fixed(url, `{"quantity":1}`), 400, `"message":"Charger type is required"`),
		v("unknown charger", fixed(url, `{"chargerType":"9A","quantity":1}`), 400, `"message":"Charger type is required"`),
		v("no quantity", fixed(url, `{"chargerType":"5A"}`), 400, `"message":"Quantity is required"`),
		v("zero quantity", fixed(url, `{"chargerType":"5A","quantity":0}`), 400, `"message":"Quantity is required"`),
		v("none waiting", fixed(url, `{"chargerType":"5A","quantity":1}`), 409, `"message":"No batteries available to charge"`),
		v("more than waiting", withWaiting(3, func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
			return url, `{"chargerType":"5A","quantity":4}`
		}), 409, `"message":"Not enough batteries: only 3 waiting"`),
		ledgertest.Case{Name: "empty minutes setting falls back to the default", Who: testkit.Admin, Method: "POST",
			Prepare: withWaiting(3, func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				if _, err := system.SaveSettings(app, inventory.Op{}, []system.Setting{{Key: schema.SettingCharger5A, Value: []byte(`""`)}}); err != nil {
					t.Fatal(err)
				}
				return url, `{"chargerType":"5A","quantity":3}`
			}), Status: 200, Contains: []string{`"success":true`},
			Check: func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				s := session(t, app, body)
				if got := s.EtaAt().Sub(s.StartedAt()); got != 150*time.Minute {
					t.Fatalf("5A ETA after %v, want the 150m default", got)
				}
			}},
	)
	ledgertest.Run(t, cases)
}

func TestCompleteSessionAPI(t *testing.T) {
	url := func(id string) (string, string) { return "/api/admin/charge/" + id + "/complete", "" }
	cases := ledgertest.Matrix("complete", "POST", ledgertest.AdminRoute, withSession(url), 200,
		[]string{`"message":"Charging session completed successfully"`, `"type":"charge_complete"`, `"status":"completed"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 148, Waiting: 12, Charging: 0})
		})
	cases = append(cases,
		ledgertest.Case{Name: "unknown session", Who: testkit.Admin, Method: "POST", Prepare: fixed("/api/admin/charge/nosuchsession1/complete", ""),
			Status: 404, Contains: []string{`"message":"Charging session not found"`}},
		ledgertest.Case{Name: "completed twice", Who: testkit.Master, Method: "POST",
			Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				u, _ := withSession(url)(t, app, c)
				id := u[len("/api/admin/charge/") : len(u)-len("/complete")]
				if _, _, err := charging.Complete(app, inventory.Op{Actor: c.Admin}, id); err != nil {
					t.Fatal(err)
				}
				return u, ""
			}, Status: 409, Contains: []string{`"message":"Charging session is no longer active"`}},
	)
	ledgertest.Run(t, cases)
}

func TestDeleteSessionAPI(t *testing.T) {
	url := func(id string) (string, string) { return "/api/admin/charging-sessions/" + id, "" }
	cases := ledgertest.Matrix("delete session", "DELETE", ledgertest.AdminRoute, withSession(url), 200,
		[]string{`"message":"Charging session deleted successfully"`, `"status":"deleted"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 140, Waiting: 20, Charging: 0})
		})
	cases = append(cases, ledgertest.Case{Name: "unknown session", Who: testkit.Admin, Method: "DELETE",
		Prepare: fixed("/api/admin/charging-sessions/nosuchsession1", ""), Status: 404, Contains: []string{`"message":"Charging session not found"`}})
	ledgertest.Run(t, cases)
}

func TestSessionQuantityAPI(t *testing.T) {
	q := func(body string) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
		return withSession(func(id string) (string, string) { return "/api/admin/charging-sessions/" + id + "/quantity", body })
	}
	cases := ledgertest.Matrix("lower to ready", "PATCH", ledgertest.AdminRoute, q(`{"quantity":5,"destination":"ready"}`), 200,
		[]string{`"message":"Charging session quantity updated successfully"`, `"quantity":5`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 143, Waiting: 12, Charging: 5})
		})
	c := func(name, body string, status int, msg string, want *inventory.Snapshot) ledgertest.Case {
		row := ledgertest.Case{Name: name, Who: testkit.Admin, Method: "PATCH", Prepare: q(body), Status: status, Contains: []string{msg}}
		if want != nil {
			row.Check = func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				expectStats(t, app, *want)
			}
		}
		return row
	}
	cases = append(cases,
		c("lower to waiting", `{"quantity":2,"destination":"waiting"}`, 200, `"quantity":2`, &inventory.Snapshot{Total: 160, Ready: 140, Waiting: 18, Charging: 2}),
		c("raise from waiting", `{"quantity":20,"destination":"ready"}`, 200, `"quantity":20`, &inventory.Snapshot{Total: 160, Ready: 140, Waiting: 0, Charging: 20}),
		c("unchanged is a no-op", `{"quantity":8}`, 200, `"movement":null`, &inventory.Snapshot{Total: 160, Ready: 140, Waiting: 12, Charging: 8}),
		c("raise beyond waiting", `{"quantity":21}`, 409, `"message":"Not enough batteries: only 12 waiting"`, nil),
		c("negative", `{"quantity":-1,"destination":"ready"}`, 400, `"quantity"`, nil),
		c("lower without destination", `{"quantity":1}`, 400, `"message":"Destination must be ready or waiting"`, nil),
	)
	// edited to 0: the batteries go where chosen and the session ends (no active row, no ETA)
	for dest, want := range map[string]inventory.Snapshot{
		"ready":   {Total: 160, Ready: 148, Waiting: 12, Charging: 0},
		"waiting": {Total: 160, Ready: 140, Waiting: 20, Charging: 0},
	} {
		row := c("to 0, batteries to "+dest, `{"quantity":0,"destination":"`+dest+`"}`, 200, `"quantity":0`, nil)
		row.Check = func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectStats(t, app, want)
			if active, err := activity.ActiveSessions(app); err != nil || len(active) != 0 {
				t.Fatalf("active sessions after an edit to 0: %+v (%v)", active, err)
			}
			var n int
			_ = app.DB().NewQuery("SELECT COUNT(*) FROM charging_sessions WHERE status = 'active'").Row(&n)
			if n != 0 {
				t.Fatalf("%d sessions still active", n)
			}
		}
		cases = append(cases, row)
	}
	ledgertest.Run(t, cases)
}
