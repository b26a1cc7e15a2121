package activity_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
)

// Names of what seedLedger creates. Ids exist only once the seed ran, so rows name them
// ("@driverPickup") and the factory fills the row's slices in place before the request.
const (
	mvDriverPickup   = "@driverPickup"
	mvOtherPickup    = "@otherPickup"
	mvChargeComplete = "@chargeComplete"
	mvAdjustment     = "@adjustment"
	mvDriverRebal    = "@driverRebal"
	holderDriver     = "@holderDriver"
	holderOther      = "@holderOther"
	sessionActive    = "@session"

	driverNote = "driver-note-7f3a"
	otherNote  = "other-note-91bc"
)

// must stops a seed on an operation the ledger refused (the seed is wrong, not the code).
func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("seed: %v", err))
	}
	return v
}

// seedLedger writes a small history through the ledger's operation functions and returns
// the ids by name: two drivers' pickups with notes, a dead return, a completed and an active
// charging session, an admin stat edit (ready +1: unaccounted -1) and a rebalance.
// Afterwards: total 160, ready 151, waiting 0, charging 2, inField 8.
func seedLedger(t testing.TB, app *tests.TestApp, c testkit.Callers) map[string]string {
	other := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	now := time.Now()
	op := func(actor *core.Record, ago time.Duration, notes string) inventory.Op {
		return inventory.Op{Actor: actor, At: now.Add(-ago), Notes: notes}
	}
	ids := map[string]string{}
	ids[mvDriverPickup] = must(inventory.Pickup(app, op(c.Driver, 50*time.Minute, driverNote), c.Driver.Id, 5)).Id
	ids[mvOtherPickup] = must(inventory.Pickup(app, op(other, 45*time.Minute, otherNote), other.Id, 6)).Id
	must(inventory.Dropoff(app, op(other, 40*time.Minute, "flat ones"), other.Id, 0, 3))
	sess, _, err := charging.Start(app, op(c.Admin, 35*time.Minute, ""), "4A", 1)
	must(sess, err)
	_, done, err := charging.Complete(app, op(c.Admin, 30*time.Minute, ""), sess.Id)
	ids[mvChargeComplete] = must(done, err).Id
	active, _, err := charging.Start(app, op(c.Admin, 25*time.Minute, ""), "4A", 2)
	ids[sessionActive] = must(active, err).Id
	ready := 151
	err = app.RunInTransaction(func(tx core.App) error {
		mv, err := inventory.Adjust(tx, op(c.Admin, 20*time.Minute, "stat edit"), inventory.Targets{Ready: &ready}, "Stat edit")
		if err == nil {
			ids[mvAdjustment] = mv.Id
		}
		return err
	})
	must(0, err)
	ids[mvDriverRebal] = must(inventory.LogActivity(app, op(c.Driver, time.Second, "moves"), c.Driver.Id, inventory.TypeRebalance, 7)).Id
	ids[holderDriver] = must(inventory.FindAccountByKey(app, inventory.HolderKey(c.Driver.Id, inventory.AssignmentPickup))).Id
	ids[holderOther] = must(inventory.FindAccountByKey(app, inventory.HolderKey(other.Id, inventory.AssignmentPickup))).Id
	return ids
}

// row builds one ApiScenario for caller who on the seeded ledger.
func row(who, method, url string, status int, expected, notExpected []string) tests.ApiScenario {
	expected = append([]string(nil), expected...)
	notExpected = append([]string(nil), notExpected...)
	factory, headers := testkit.As(who, func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
		ids := seedLedger(t, app, c)
		for _, list := range [][]string{expected, notExpected} {
			for i, s := range list {
				if id, ok := ids[s]; ok {
					list[i] = id
				}
			}
		}
	})
	return tests.ApiScenario{
		Name: who + " " + url, Method: method, URL: url, Headers: headers, TestAppFactory: factory,
		ExpectedStatus: status, ExpectedContent: expected, NotExpectedContent: notExpected,
	}
}

var (
	unauthorized = []string{`"status":401`}
	pending      = []string{`"status":403`, `Account pending approval`}
	forbidden    = []string{`"status":403`}
)

func TestState(t *testing.T) {
	all := []string{mvDriverPickup, mvOtherPickup, mvChargeComplete, mvAdjustment, mvDriverRebal}
	scenarios := []tests.ApiScenario{
		row(testkit.Guest, "GET", "/api/state", 401, unauthorized, nil),
		row(testkit.Pending, "GET", "/api/state", 403, pending, nil),
		row(testkit.Driver, "GET", "/api/state", 200,
			[]string{mvDriverPickup, mvChargeComplete, mvDriverRebal, driverNote, holderDriver, sessionActive,
				`"rebalanceToday":7`, `"total":160`, `"ready":151`, `"charging":2`, `"inField":8`},
			[]string{mvOtherPickup, mvAdjustment, otherNote, holderOther, "unaccounted"}),
		row(testkit.Liaison, "GET", "/api/state", 200,
			[]string{mvDriverPickup, mvOtherPickup, mvChargeComplete, mvDriverRebal, holderDriver, holderOther, `"notes":""`},
			[]string{mvAdjustment, driverNote, otherNote, "Completed charging session", "unaccounted"}),
		row(testkit.Admin, "GET", "/api/state", 200,
			append([]string{driverNote, otherNote, holderDriver, holderOther, `"unaccounted":-1`}, all...), nil),
		row(testkit.Master, "GET", "/api/state", 200,
			append([]string{driverNote, otherNote, `"unaccounted":-1`}, all...), nil),
	}
	for _, s := range scenarios {
		s.Test(t)
	}
}

func TestDriverRoutes(t *testing.T) {
	var scenarios []tests.ApiScenario
	for _, url := range []string{"/api/driver/recent-movements", "/api/driver/weekly-activity", "/api/driver/dead-battery-stats"} {
		scenarios = append(scenarios,
			row(testkit.Guest, "GET", url, 401, unauthorized, nil),
			row(testkit.Pending, "GET", url, 403, pending, nil))
	}
	scenarios = append(scenarios,
		row(testkit.Driver, "GET", "/api/driver/recent-movements", 200,
			[]string{mvDriverPickup, mvDriverRebal, driverNote}, []string{mvOtherPickup, mvChargeComplete, mvAdjustment}),
		row(testkit.Admin, "GET", "/api/driver/recent-movements", 200,
			[]string{mvChargeComplete, mvAdjustment}, []string{mvDriverPickup, mvOtherPickup}),
		row(testkit.Driver, "GET", "/api/driver/weekly-activity", 200,
			[]string{`"thisWeek"`, `"lastWeek"`, `"rebalanceQty":7`}, nil),
		row(testkit.Liaison, "GET", "/api/driver/weekly-activity", 200, []string{`"thisWeek"`}, []string{`"rebalanceQty":7`}),
		row(testkit.Driver, "GET", "/api/driver/dead-battery-stats", 200, []string{`"daily":0`, `"weekly":0`, `"lastWeek":0`}, nil),
	)
	for _, s := range scenarios {
		s.Test(t)
	}
}

func TestAdminAndLiaisonLists(t *testing.T) {
	type access struct{ liaison, admin bool }
	cases := []struct {
		url      string
		access   access
		expected []string
	}{
		{"/api/admin/weekly-activity", access{true, true}, []string{`"driverBreakdown"`, mvDriverPickup, `"rebalanceTotal":7`}},
		{"/api/liaison/charging-sessions", access{true, true}, []string{sessionActive, `"chargerType":"4A"`}},
		{"/api/admin/charging-sessions", access{false, true}, []string{sessionActive}},
		{"/api/liaison/battery-holders", access{true, true}, []string{holderDriver, holderOther, `"total":5`}},
		{"/api/admin/battery-holders", access{false, true}, []string{holderDriver, holderOther}},
		{"/api/admin/recent-activity", access{false, true}, []string{mvAdjustment, otherNote, `"actor"`}},
		{"/api/admin/weekly-stats", access{false, true}, []string{`"thisWeek"`, `"pickup":{"count":2,"quantity":-11}`}},
		{"/api/admin/active-pickups", access{false, true}, []string{holderDriver, holderOther}},
		{"/api/inventory", access{false, true}, []string{`"settings"`, `"total_batteries":"160"`, `"ready":151`}},
	}
	for _, tc := range cases {
		for _, who := range testkit.AllCallers {
			var s tests.ApiScenario
			switch {
			case who == testkit.Guest:
				s = row(who, "GET", tc.url, 401, unauthorized, nil)
			case who == testkit.Pending:
				s = row(who, "GET", tc.url, 403, pending, nil)
			case who == testkit.Driver,
				who == testkit.Liaison && !tc.access.liaison:
				s = row(who, "GET", tc.url, 403, forbidden, nil)
			default:
				s = row(who, "GET", tc.url, 200, tc.expected, nil)
			}
			s.Test(t)
		}
	}
}

func TestLiaisonWeeklyActivityHasNoNotes(t *testing.T) {
	s := row(testkit.Liaison, "GET", "/api/admin/weekly-activity", 200, []string{mvDriverPickup, mvOtherPickup}, []string{driverNote, otherNote})
	s.Test(t)
	a := row(testkit.Admin, "GET", "/api/admin/weekly-activity", 200, []string{driverNote, otherNote}, nil)
	a.Test(t)
	bad := row(testkit.Admin, "GET", "/api/admin/weekly-activity?weekOffset=1", 400, []string{"weekOffset"}, nil)
	bad.Test(t)
}

// TestAdminWeekSummaryAndOneUser: ?activities=none keeps the totals and leaves every activity
// list out; ?user=<id> keeps that user's row with their activities (and nobody else's); a
// user without activity that week gets no row; bad values are refused.
func TestAdminWeekSummaryAndOneUser(t *testing.T) {
	summary := row(testkit.Admin, "GET", "/api/admin/weekly-activity?activities=none", 200,
		[]string{`"driverBreakdown":[{`, `"rebalanceTotal":7`, `"totalActivities":2`, `"deadBatteriesTotal":3`},
		[]string{`"activities"`, mvDriverPickup, mvOtherPickup, driverNote, otherNote})
	summary.Test(t)

	// the user's id is known once the callers are seeded: the factory writes it into the URL
	oneUser := func(who, query string, pick func(c testkit.Callers) string, expected, notExpected []string) {
		s := row(who, "GET", "", 200, expected, notExpected)
		factory, headers := testkit.As(who, func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
			ids := seedLedger(t, app, c)
			for _, list := range [][]string{s.ExpectedContent, s.NotExpectedContent} {
				for i, v := range list {
					if id, ok := ids[v]; ok {
						list[i] = id
					}
				}
			}
			s.URL = "/api/admin/weekly-activity?" + query + "&user=" + pick(c)
		})
		s.Name, s.TestAppFactory, s.Headers = who+" "+query+" one user", factory, headers
		s.Test(t)
	}
	driver := func(c testkit.Callers) string { return c.Driver.Id }
	oneUser(testkit.Admin, "weekOffset=0", driver,
		[]string{`"driverBreakdown":[{"user":{`, `"activities":[{`, mvDriverPickup, mvDriverRebal, driverNote, `"totalActivities":2`},
		[]string{mvOtherPickup, otherNote, `"deadBatteriesTotal":3`})
	oneUser(testkit.Liaison, "activities=all", driver,
		[]string{mvDriverPickup, `"activities":[{`}, []string{mvOtherPickup, driverNote})
	oneUser(testkit.Admin, "activities=none", driver,
		[]string{`"totalActivities":2`}, []string{`"activities"`, mvDriverPickup, `"deadBatteriesTotal":3`})
	// the master admin had no activity: no row (the week's totals are still there)
	oneUser(testkit.Admin, "weekOffset=0", func(c testkit.Callers) string { return c.Master.Id },
		[]string{`"driverBreakdown":[]`, `"rebalanceTotal":7`}, []string{mvDriverPickup})
	oneUser(testkit.Admin, "weekOffset=-1", driver, []string{`"driverBreakdown":[]`}, []string{mvDriverPickup})

	for _, tc := range []struct{ query, field, msg string }{
		{"weekOffset=1", "weekOffset", activity.MsgWeekOffset},
		{"activities=some", "activities", activity.MsgActivities},
		{"user=", "user", activity.MsgWeekUser},
		{"user=abc%27%20OR%201%3D1", "user", activity.MsgWeekUser},
		{"user=" + strings.Repeat("a", 65), "user", activity.MsgWeekUser},
	} {
		bad := row(testkit.Admin, "GET", "/api/admin/weekly-activity?"+tc.query, 400, []string{`"` + tc.field + `"`, tc.msg}, nil)
		bad.Test(t)
	}
	driverAsks := row(testkit.Driver, "GET", "/api/admin/weekly-activity?activities=none", 403, forbidden, nil)
	driverAsks.Test(t)
}

// TestWeekCutsInOperationTimeZone puts one rebalance a minute after and one a minute before
// local Monday 00:00 in Kiritimati (UTC+14), where the UTC week boundary is 14 hours away:
// cut in UTC, both would land in the same week.
func TestWeekCutsInOperationTimeZone(t *testing.T) {
	loc := clock.LoadLocation("Pacific/Kiritimati")
	now := time.Date(2026, 11, 18, 12, 0, 0, 0, loc) // a Wednesday
	defer clock.Set(func() time.Time { return now })()
	weekStart := clock.WeekStart(now, loc, 0)

	seed := func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
		rec, err := app.FindFirstRecordByData(schema.Settings, schema.SettingKey, schema.SettingTimeZone)
		if err != nil {
			t.Fatal(err)
		}
		rec.Set(schema.SettingValue, "Pacific/Kiritimati")
		if err := app.Save(rec); err != nil {
			t.Fatal(err)
		}
		op := func(at time.Time) inventory.Op { return inventory.Op{Actor: c.Driver, At: at} }
		must(inventory.LogActivity(app, op(weekStart.Add(time.Minute)), c.Driver.Id, inventory.TypeRebalance, 3))
		must(inventory.LogActivity(app, op(weekStart.Add(-time.Minute)), c.Driver.Id, inventory.TypeRebalance, 5))
		must(inventory.Pickup(app, op(now.Add(-2*time.Hour)), c.Driver.Id, 4))
		must(inventory.Dropoff(app, op(now.Add(-time.Hour)), c.Driver.Id, 1, 3))
	}
	decode := func(t testing.TB, res *http.Response, v any) {
		body, _ := io.ReadAll(res.Body)
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("decode %s: %v", body, err)
		}
	}

	factory, headers := testkit.As(testkit.Driver, seed)
	driver := tests.ApiScenario{Name: "driver week", Method: "GET", URL: "/api/driver/weekly-activity",
		Headers: headers, TestAppFactory: factory, ExpectedStatus: 200, ExpectedContent: []string{`"thisWeek"`},
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			var w struct{ ThisWeek, LastWeek activity.WeekActivity }
			decode(t, res, &w)
			if w.ThisWeek.WeekStart != "2026-11-16" || w.ThisWeek.Days[0].Date != "2026-11-16" || w.ThisWeek.WeekEnd != "2026-11-22" {
				t.Fatalf("this week %+v", w.ThisWeek)
			}
			if w.ThisWeek.Days[0].RebalanceQty != 3 || w.ThisWeek.Totals.RebalanceQty != 3 {
				t.Fatalf("this week Monday = %+v, totals %+v", w.ThisWeek.Days[0], w.ThisWeek.Totals)
			}
			if w.LastWeek.Days[6].RebalanceQty != 5 || w.LastWeek.Days[6].Date != "2026-11-15" {
				t.Fatalf("last week Sunday = %+v", w.LastWeek.Days[6])
			}
			if w.ThisWeek.Days[2].Batteries != 3 || w.ThisWeek.Totals.Batteries != 3 {
				t.Fatalf("dead batteries on Wednesday = %+v", w.ThisWeek.Days[2])
			}
		}}
	driver.Test(t)

	factory, headers = testkit.As(testkit.Driver, seed)
	dead := tests.ApiScenario{Name: "dead stats", Method: "GET", URL: "/api/driver/dead-battery-stats",
		Headers: headers, TestAppFactory: factory, ExpectedStatus: 200,
		ExpectedContent: []string{`"daily":3`, `"weekly":3`, `"lastWeek":0`}}
	dead.Test(t)

	factory, headers = testkit.As(testkit.Admin, seed)
	admin := tests.ApiScenario{Name: "admin last week", Method: "GET", URL: "/api/admin/weekly-activity?weekOffset=-1",
		Headers: headers, TestAppFactory: factory, ExpectedStatus: 200,
		ExpectedContent: []string{`"weekStart":"2026-11-09"`, `"weekEnd":"2026-11-15"`, `"rebalanceTotal":5`},
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			var w activity.AdminWeek
			decode(t, res, &w)
			if w.Days[6].RebalanceQty != 5 || len(w.DriverBreakdown) != 1 || w.DriverBreakdown[0].RebalanceTotal != 5 {
				t.Fatalf("last week = %+v", w)
			}
		}}
	admin.Test(t)

	factory, headers = testkit.As(testkit.Driver, seed)
	state := tests.ApiScenario{Name: "state weeks", Method: "GET", URL: "/api/state",
		Headers: headers, TestAppFactory: factory, ExpectedStatus: 200,
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			var st activity.State
			decode(t, res, &st)
			if st.DriverWeeklyActivity.Totals.RebalanceQty != 3 || st.DriverLastWeekActivity.Totals.RebalanceQty != 5 {
				t.Fatalf("state weeks %+v / %+v", st.DriverWeeklyActivity.Totals, st.DriverLastWeekActivity.Totals)
			}
			if st.DriverDailyActivity.RebalanceToday != 0 {
				t.Fatalf("today = %+v", st.DriverDailyActivity)
			}
			if !strings.HasPrefix(st.DriverWeeklyActivity.WeekStart, "2026-11-16") {
				t.Fatalf("week start %s", st.DriverWeeklyActivity.WeekStart)
			}
		}}
	state.ExpectedContent = []string{`"driverWeeklyActivity"`}
	state.Test(t)
}

// TestPolledReadsRevalidate: through the real router, a poll that finds the state and the
// weekly summary unchanged gets 304 and no body (lib/webui ETagJSON); a change makes the next
// poll a 200 with a new tag; a tag is no way in without a session.
func TestPolledReadsRevalidate(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	seedLedger(t, app, c)
	srv := testkit.Serve(t, app)
	get := func(who *core.Record, path, etag string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if who != nil {
			req.Header.Set("Authorization", testkit.TokenIn(t, app, who))
		}
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusNotModified && len(body) != 0 {
			t.Fatalf("%s: 304 with a body %q", path, body)
		}
		return res
	}
	for _, tc := range []struct {
		who  *core.Record
		path string
	}{{c.Driver, "/api/state"}, {c.Admin, "/api/admin/weekly-activity?activities=none"}, {c.Admin, "/api/admin/recent-activity"}} {
		first := get(tc.who, tc.path, "")
		etag := first.Header.Get("ETag")
		if first.StatusCode != 200 || etag == "" || first.Header.Get("Cache-Control") != "private, no-cache" {
			t.Fatalf("%s: %d %v", tc.path, first.StatusCode, first.Header)
		}
		if again := get(tc.who, tc.path, etag); again.StatusCode != http.StatusNotModified {
			t.Fatalf("%s unchanged: %d", tc.path, again.StatusCode)
		}
		if guest := get(nil, tc.path, etag); guest.StatusCode != http.StatusUnauthorized {
			t.Fatalf("%s without a session: %d", tc.path, guest.StatusCode)
		}
	}
	etag := get(c.Driver, "/api/state", "").Header.Get("ETag")
	must(inventory.LogActivity(app, inventory.Op{Actor: c.Driver}, c.Driver.Id, inventory.TypeRebalance, 2))
	if after := get(c.Driver, "/api/state", etag); after.StatusCode != 200 || after.Header.Get("ETag") == etag {
		t.Fatalf("after a change: %d %s", after.StatusCode, after.Header.Get("ETag"))
	}
}
