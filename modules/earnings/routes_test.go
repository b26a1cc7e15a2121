package earnings_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/earnings"
	"swapbay/modules/inventory"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func setZone(t testing.TB, app core.App, zone string) {
	t.Helper()
	rec, err := app.FindFirstRecordByData(schema.Settings, schema.SettingKey, schema.SettingTimeZone)
	if err != nil {
		t.Fatal(err)
	}
	rec.Set(schema.SettingValue, zone)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
}

// snapshot is what an earnings refusal must leave untouched.
func snapshot(t testing.TB, app core.App) string {
	t.Helper()
	var out []string
	for _, q := range []string{
		"SELECT COUNT(*) || ':' || COALESCE(SUM(deadBatteryCents + moveCents + recoverCents), 0) FROM pay_rates",
		"SELECT COUNT(*) || ':' || COALESCE(SUM(adjustedCount), 0) FROM task_adjustments",
		"SELECT COALESCE(group_concat(id || '=' || payReductionPercentage || '/' || adminPoolWithholdingPercentage, ','), '') FROM (SELECT * FROM users ORDER BY id)",
	} {
		var s string
		if err := app.DB().NewQuery(q).Row(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, " | ")
}

type apiCase struct {
	name     string
	who      string
	method   string
	url      string
	body     string
	seed     func(t testing.TB, app *tests.TestApp, c testkit.Callers)
	status   int
	contains []string
	check    func(t testing.TB, app *tests.TestApp, c testkit.Callers, body []byte)
}

// run runs each case as an ApiScenario; a refused request (not 2xx) must change nothing.
func run(t *testing.T, cases []apiCase) {
	t.Helper()
	for _, tc := range cases {
		tc := tc
		var before string
		var callers testkit.Callers
		s := &tests.ApiScenario{Name: tc.name + " as " + tc.who, Method: tc.method, URL: tc.url,
			Body: strings.NewReader(tc.body), ExpectedStatus: tc.status, ExpectedContent: tc.contains}
		if len(tc.contains) == 0 {
			s.NotExpectedContent = []string{"\x00never\x00"}
		}
		factory, headers := testkit.As(tc.who, func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
			callers = c
			if tc.seed != nil {
				tc.seed(t, app, c)
			}
			// the callers' ids are known only now: DRIVER, ADMIN and MASTER stand for them
			ids := strings.NewReplacer("DRIVER", c.Driver.Id, "ADMIN", c.Admin.Id, "MASTER", c.Master.Id)
			s.URL = ids.Replace(tc.url)
			s.Body = strings.NewReader(ids.Replace(tc.body))
		})
		s.Headers = headers
		s.TestAppFactory = func(t testing.TB) *tests.TestApp {
			app := factory(t)
			before = snapshot(t, app)
			return app
		}
		s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
			raw, _ := io.ReadAll(res.Body)
			if res.StatusCode >= 300 {
				if after := snapshot(t, app); after != before {
					t.Fatalf("refused request changed data:\n before %s\n after  %s", before, after)
				}
				return
			}
			if tc.check != nil {
				tc.check(t, app, callers, raw)
			}
		}
		s.Test(t)
	}
}

// roles gives one row per caller: allowed callers get ok, guests 401, pending 403, others 403.
func byRole(name, method, url, body string, allowed []string, seed func(testing.TB, *tests.TestApp, testkit.Callers),
	ok int, contains []string, check func(testing.TB, *tests.TestApp, testkit.Callers, []byte)) []apiCase {
	var out []apiCase
	for _, who := range testkit.AllCallers {
		c := apiCase{name: name, who: who, method: method, url: url, body: body, seed: seed}
		switch {
		case who == testkit.Guest:
			c.status, c.contains = 401, []string{`"status":401`}
		case who == testkit.Pending:
			c.status, c.contains = 403, []string{`Account pending approval`}
		case !slices.Contains(allowed, who):
			c.status, c.contains = 403, []string{`"status":403`}
		default:
			c.status, c.contains, c.check = ok, contains, check
		}
		out = append(out, c)
	}
	return out
}

var admins = []string{testkit.Admin, testkit.Master}

func decode[T any](t testing.TB, raw []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// seedWeek gives the driver 2 dead batteries and 6 moves this week at 1.00 and 0.50.
func seedWeek(t testing.TB, app *tests.TestApp, c testkit.Callers) {
	must(earnings.SetRates(app, c.Admin, earnings.Rates{DeadBattery: 100, Move: 50, Recover: 300}, time.Now().Add(-time.Hour)))
	op := inventory.Op{Actor: c.Driver, At: time.Now().Add(-time.Minute)}
	must(inventory.Dropoff(app, op, c.Driver.Id, 1, 2))
	must(inventory.LogActivity(app, op, c.Driver.Id, inventory.TypeRebalance, 6))
}

func TestEarningsReadsByRole(t *testing.T) {
	var cases []apiCase
	cases = append(cases, byRole("all earnings", "GET", "/api/admin/all-earnings", "", admins, seedWeek, 200,
		[]string{`"weekStart"`, `"weekEnd"`, `"earnings"`}, func(t testing.TB, app *tests.TestApp, c testkit.Callers, raw []byte) {
			rep := decode[struct {
				Earnings []struct {
					UserId                      string
					DeadBatteries, Moves        int
					BaseEarnings, TotalEarnings float64
					PayReductionPercentage      int
				}
			}](t, raw)
			found := false
			for _, r := range rep.Earnings {
				if r.UserId == c.Driver.Id {
					found = true
					// 2 × 1.00 + 6 × 0.50 = 5.00; −20% → 4.00
					if r.DeadBatteries != 2 || r.Moves != 6 || r.BaseEarnings != 5 || r.TotalEarnings != 4 || r.PayReductionPercentage != 20 {
						t.Fatalf("driver row %+v", r)
					}
				}
			}
			// approved drivers, admins and masters, nobody else
			if !found || len(rep.Earnings) != 3 {
				t.Fatalf("%d rows, driver found %v: %s", len(rep.Earnings), found, raw)
			}
		})...)
	cases = append(cases, byRole("core team", "GET", "/api/admin/core-team-earnings", "", admins, seedWeek, 200,
		[]string{`"totalPooledEarnings"`, `"adminCount":2`, `"adminBreakdown"`, `"from"`, `"to"`}, nil)...)
	cases = append(cases, byRole("pay rates", "GET", "/api/admin/pay-rates", "", admins, seedWeek, 200,
		[]string{`"deadBattery":1.00`, `"move":0.50`, `"recover":3.00`}, nil)...)
	cases = append(cases, byRole("pay estimate", "GET", "/api/driver/pay-estimate", "",
		[]string{testkit.Driver, testkit.Admin, testkit.Master}, seedWeek, 200, []string{`"weekStart"`, `"totalEarnings"`},
		func(t testing.TB, app *tests.TestApp, c testkit.Callers, raw []byte) {
			est := decode[map[string]any](t, raw)
			if est["totalEarnings"] == nil {
				t.Fatalf("estimate %s", raw)
			}
		})...)
	cases = append(cases, byRole("csv", "GET", "/api/admin/earnings.csv", "", admins, seedWeek, 200,
		[]string{"Week Start,Week End,First Name", ",driver,2,6,0,5.00,20,,,,4.00"}, nil)...)
	// the driver's own estimate
	cases = append(cases, apiCase{name: "own estimate", who: testkit.Driver, method: "GET", url: "/api/driver/pay-estimate",
		seed: seedWeek, status: 200, contains: []string{`"totalEarnings":4.00`, `"deadBatteries":2`, `"moves":6`, `"baseEarnings":5.00`}})
	// a week that is not a Monday, or in the future
	for _, q := range []string{"?weekStart=2026-11-17", "?weekStart=2026-13-01", "?weekStart=next", "?weekStart=2099-01-05"} {
		cases = append(cases, apiCase{name: "bad week " + q, who: testkit.Admin, method: "GET", url: "/api/admin/all-earnings" + q,
			status: 400, contains: []string{`"weekStart"`}})
	}
	run(t, cases)
}

func TestEarningsWritesByRole(t *testing.T) {
	var cases []apiCase
	cases = append(cases, byRole("set rates", "POST", "/api/admin/pay-rates", `{"deadBattery":1.5,"move":0.25,"recover":0}`, admins, nil, 200,
		[]string{`"message":"Pay rates updated successfully"`, `"deadBattery":1.50`}, func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ []byte) {
			r := must(earnings.RatesAt(app, time.Now()))
			if r.DeadBattery != 150 || r.Move != 25 || r.Recover != 0 {
				t.Fatalf("rates %+v", r)
			}
		})...)
	for _, body := range []string{`{"deadBattery":-1,"move":0,"recover":0}`, `{"deadBattery":1.255,"move":0,"recover":0}`,
		`{"deadBattery":"1","move":0,"recover":0}`, `{"move":0,"recover":0}`, `{"deadBattery":1e9,"move":0,"recover":0}`, `[]`} {
		cases = append(cases, apiCase{name: "bad rates " + body, who: testkit.Admin, method: "POST", url: "/api/admin/pay-rates",
			body: body, status: 400})
	}

	week := earnings.WeekOf(time.Now(), time.UTC).StartDate()
	body := `{"userId":"DRIVER","weekStart":"` + week + `","taskType":"moves","originalCount":6,"adjustedCount":10,"adjustmentReason":"GPS lost"}`
	cases = append(cases, byRole("adjust", "POST", "/api/admin/task-adjustments", body, admins, seedWeek, 200,
		[]string{`"message":"Task adjustment saved successfully"`, `"originalCount":6`, `"adjustedCount":10`},
		func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ []byte) {
			est := must(earnings.EstimateFor(app, c.Driver.Id, earnings.WeekOf(time.Now(), time.UTC), time.Now()))
			// 2 × 1.00 + 10 × 0.50 = 7.00; −20% → 5.60
			if est.Moves != 10 || est.TotalEarnings != 560 {
				t.Fatalf("after adjustment %+v", est)
			}
			rec := must(app.FindFirstRecordByData(schema.TaskAdjustments, schema.AdjustmentUser, c.Driver.Id))
			if rec.GetString(schema.AdjustmentCreatedBy) == "" || rec.GetString(schema.AdjustmentReason) != "GPS lost" || rec.GetDateTime(schema.Created).IsZero() {
				t.Fatalf("audit record %v", rec.PublicExport())
			}
		})...)
	for _, bad := range []struct {
		body, msg string
		status    int
	}{
		{strings.Replace(body, `"adjustedCount":10`, `"adjustedCount":-1`, 1), "Please enter a valid number", 400},
		{strings.Replace(body, `"adjustedCount":10`, `"adjustedCount":2.5`, 1), "Please enter a valid number", 400},
		{strings.Replace(body, `"adjustedCount":10`, `"adjustedCount":"10"`, 1), "Please enter a valid number", 400},
		{strings.Replace(body, `"taskType":"moves"`, `"taskType":"naps"`, 1), "Task type must be batteries, moves or recovers", 400},
		{strings.Replace(body, week, "2026-11-17", 1), "weekStart must be a Monday", 400},
		{strings.Replace(body, "DRIVER", "nosuchuser00000", 1), "User not found", 404},
		// a master admin earns too, but only a master admin changes their pay (TestOnlyAMasterAdjustsAMastersCounts)
		{strings.Replace(body, "DRIVER", "MASTER", 1), "Only Master Admins can change a Master Admin account", 403},
	} {
		cases = append(cases, apiCase{name: "adjustment " + bad.msg, who: testkit.Admin, method: "POST",
			url: "/api/admin/task-adjustments", body: bad.body, seed: seedWeek, status: bad.status, contains: []string{bad.msg}})
	}

	cases = append(cases, byRole("withholding", "POST", "/api/admin/users/ADMIN/pool-withholding", `{"withholding":12.5}`,
		admins, nil, 200, []string{`"message":"Pool withholding updated successfully"`, `"adminPoolWithholdingPercentage":12.5`}, nil)...)
	for _, bad := range []struct {
		url, body, msg string
		status         int
	}{
		{"/api/admin/users/ADMIN/pool-withholding", `{"withholding":100.1}`, "Please enter a number between 0 and 100", 400},
		{"/api/admin/users/ADMIN/pool-withholding", `{"withholding":-1}`, "Please enter a number between 0 and 100", 400},
		{"/api/admin/users/ADMIN/pool-withholding", `{"withholding":12.55}`, "Please enter a number between 0 and 100", 400},
		{"/api/admin/users/ADMIN/pool-withholding", `{"withholding":"5"}`, "Please enter a number between 0 and 100", 400},
		{"/api/admin/users/DRIVER/pool-withholding", `{"withholding":5}`, "Pool withholding applies to admins and master admins only", 400},
		{"/api/admin/users/MASTER/pool-withholding", `{"withholding":5}`, "Only Master Admins can change a Master Admin account", 403},
		{"/api/admin/users/nosuchuser00000/pool-withholding", `{"withholding":5}`, "User not found", 404},
	} {
		cases = append(cases, apiCase{name: "withholding " + bad.body + " " + bad.msg, who: testkit.Admin, method: "POST",
			url: bad.url, body: bad.body, status: bad.status, contains: []string{bad.msg}})
	}
	// pay reduction through the users route
	cases = append(cases, apiCase{name: "pay reduction", who: testkit.Admin, method: "PUT", url: "/api/admin/users/DRIVER",
		body: `{"payReductionPercentage":101}`, status: 400, contains: []string{"Please enter a number between 0 and 100"}})
	cases = append(cases, apiCase{name: "pay reduction", who: testkit.Admin, method: "PUT", url: "/api/admin/users/DRIVER",
		body: `{"payReductionPercentage":0}`, seed: seedWeek, status: 200, contains: []string{`"payReductionPercentage":0`},
		check: func(t testing.TB, app *tests.TestApp, c testkit.Callers, _ []byte) {
			est := must(earnings.EstimateFor(app, c.Driver.Id, earnings.WeekOf(time.Now(), time.UTC), time.Now()))
			if est.TotalEarnings != 500 {
				t.Fatalf("no reduction: total %v, want 5.00", est.TotalEarnings)
			}
		}})
	run(t, cases)
}
