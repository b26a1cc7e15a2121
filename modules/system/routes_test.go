package system_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

type prep = func(testing.TB, *tests.TestApp, testkit.Callers) (string, string)

func fixed(url, body string) prep {
	return func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) { return url, body }
}

func expectStats(t testing.TB, app core.App, want inventory.Snapshot) {
	t.Helper()
	got, _ := inventory.Stats(app)
	if got != want {
		t.Fatalf("stats: got %+v, want %+v", got, want)
	}
}

var driverX *core.Record

// withDriver creates driverX holding `held` batteries (a pickup) and builds the request from
// the pickup movement.
func withDriver(held int, build func(t testing.TB, app *tests.TestApp, c testkit.Callers, pickup *inventory.Movement) (string, string)) prep {
	return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		var mv *inventory.Movement
		driverX, mv = ledgertest.PickupBy(t, app, held)
		return build(t, app, c, mv)
	}
}

func TestUpdateStatsAPI(t *testing.T) {
	const url = "/api/admin/update-stats"
	cases := ledgertest.Matrix("update stats", "POST", ledgertest.AdminRoute, fixed(url, `{"stat":"ready","value":150,"from":160}`), 200,
		[]string{`"type":"adjustment"`, `"ready":150`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 150, Unaccounted: 10})
		})
	row := func(name string, p prep, status int, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST", Prepare: p, Status: status, Contains: []string{msg}}
	}
	withSessionAndHolder := func(body string) prep {
		return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			ledgertest.Must(system.EditStat(app, inventory.Op{}, "ready", 150, 160))(t)
			ledgertest.Must(system.EditStat(app, inventory.Op{}, "waiting", 10, 0))(t)
			if _, _, err := charging.Start(app, inventory.Op{Actor: c.Admin}, "4A", 8); err != nil {
				t.Fatal(err)
			}
			ledgertest.Must(inventory.Pickup(app, inventory.Op{}, c.Driver.Id, 4))(t)
			return url, body
		}
	}
	unchanged := func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
		if after := ledgertest.Capture(t, app); after != before {
			t.Fatalf("a refused stat edit changed %+v → %+v", before, after)
		}
	}
	cases = append(cases,
		row("total", fixed(url, `{"stat":"total","value":170,"from":160}`), 200, `"total":170`),
		row("negative", fixed(url, `{"stat":"ready","value":-1,"from":160}`), 400, `"message":"Please enter a valid positive number"`),
		row("not a number", fixed(url, `{"stat":"waiting","value":"lots","from":0}`), 400, `"message":"Please enter a valid positive number"`),
		row("no from", fixed(url, `{"stat":"waiting","value":3}`), 400, `"from"`),
		row("unknown stat", fixed(url, `{"stat":"broken","value":3,"from":0}`), 400, `"message":"Stat must be one of total, ready, waiting, charging, inField"`),
		ledgertest.Case{Name: "the old full snapshot", Who: testkit.Admin, Method: "POST",
			Prepare: fixed(url, `{"total":160,"ready":155,"waiting":5,"charging":0,"inField":0}`), Status: 400,
			Contains: []string{`"message":"total is not accepted: send the edited stat as {stat, value, from}"`, `"total"`}, Check: unchanged},
		row("charging below sessions", withSessionAndHolder(`{"stat":"charging","value":2,"from":8}`), 409, `"message":"Charging cannot be set below 8`),
		row("inField below holders", withSessionAndHolder(`{"stat":"inField","value":3,"from":4}`), 409, `"message":"In Field cannot be set below 4`),
		ledgertest.Case{Name: "charging above sessions", Who: testkit.Admin, Method: "POST", Prepare: withSessionAndHolder(`{"stat":"charging","value":11,"from":8}`),
			Status: 200, Contains: []string{`"charging":11`, `"inField":4`}},
		ledgertest.Case{Name: "nothing changes", Who: testkit.Admin, Method: "POST", Prepare: fixed(url, `{"stat":"ready","value":160,"from":160}`),
			Status: 200, Contains: []string{`"movement":null`}},
		// the admin loaded Ready 150 and Waiting 10; a driver dropped off 5 good batteries
		// before the save: the edit of Waiting is refused and nothing moves
		ledgertest.Case{Name: "a dropoff lands between load and save", Who: testkit.Admin, Method: "POST",
			Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				ledgertest.Must(system.EditStat(app, inventory.Op{}, "ready", 150, 160))(t)
				ledgertest.Must(system.EditStat(app, inventory.Op{}, "waiting", 10, 0))(t)
				ledgertest.Must(inventory.Pickup(app, inventory.Op{}, c.Driver.Id, 5))(t)
				// loaded here: ready 145, waiting 10; then the dropoff: 3 good to ready, 2 dead to waiting
				ledgertest.Must(inventory.Dropoff(app, inventory.Op{Notes: "n"}, c.Driver.Id, 3, 2))(t)
				return url, `{"stat":"waiting","value":12,"from":10}`
			}, Status: 409,
			Contains: []string{`"message":"Waiting changed from 10 to 12 while you were editing. Check the new figure and try again."`},
			Check: func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				unchanged(t, app, before, body)
				expectStats(t, app, inventory.Snapshot{Total: 160, Ready: 148, Waiting: 12})
			}},
	)
	ledgertest.Run(t, cases)
}

func TestEmergencyOverrideAPI(t *testing.T) {
	for _, url := range []string{"/api/admin/emergency-override", "/api/admin/emergency-inventory-override"} {
		cases := ledgertest.Matrix("override", "POST", ledgertest.AdminRoute, fixed(url, `{"ready":100,"waiting":20,"charging":10,"total":150}`), 200,
			[]string{`"message":"Emergency override applied successfully!"`},
			func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
				expectStats(t, app, inventory.Snapshot{Total: 150, Ready: 100, Waiting: 20, Charging: 10, Unaccounted: 20})
			})
		row := func(name, body, msg string) ledgertest.Case {
			return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST", Prepare: fixed(url, body), Status: 400, Contains: []string{msg}}
		}
		cases = append(cases,
			row("no ready", `{"waiting":1,"charging":1,"total":5}`, `"message":"Ready count is required"`),
			row("no waiting", `{"ready":1,"charging":1,"total":5}`, `"message":"Waiting count is required"`),
			row("no charging", `{"ready":1,"waiting":1,"total":5}`, `"message":"Charging count is required"`),
			row("no total", `{"ready":1,"waiting":1,"charging":1}`, `"message":"Total count is required"`),
			row("blank ready", `{"ready":"","waiting":1,"charging":1,"total":5}`, `"message":"Ready count is required"`),
			row("zero total", `{"ready":1,"waiting":1,"charging":1,"total":0}`, `"total"`),
			row("negative waiting", `{"ready":1,"waiting":-2,"charging":1,"total":5}`, `"waiting"`),
		)
		ledgertest.Run(t, cases)
	}
}

func TestRecalculateAPI(t *testing.T) {
	const url = "/api/admin/recalculate-inventory"
	cases := ledgertest.Matrix("recalculate", "POST", ledgertest.AdminRoute, withDriver(3, func(testing.TB, *tests.TestApp, testkit.Callers, *inventory.Movement) (string, string) {
		return url, ""
	}), 200, []string{`"corrections":[]`, `"after":{`, `"ready":157`, `"inField":3`}, nil)
	cases = append(cases, ledgertest.Case{Name: "drifted balance is corrected", Who: testkit.Admin, Method: "POST",
		Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			if _, err := app.DB().NewQuery("UPDATE accounts SET balance = balance + 2 WHERE key = 'ready'").Execute(); err != nil {
				t.Fatal(err)
			}
			return url, ""
		}, Status: 200, Contains: []string{`"corrections":["ready: 162 → 160"]`, `"ready":160`}})
	// an active session's quantity is its account's balance again (charging.SyncQuantities)
	var sess *charging.Session
	cases = append(cases, ledgertest.Case{Name: "drifted session quantity is synced", Who: testkit.Admin, Method: "POST",
		Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			ledgertest.Must(inventory.Pickup(app, inventory.Op{}, c.Driver.Id, 6))(t)
			ledgertest.Must(inventory.Dropoff(app, inventory.Op{}, c.Driver.Id, 0, 6))(t)
			var err error
			if sess, _, err = charging.Start(app, inventory.Op{Actor: c.Admin}, "4A", 4); err != nil {
				t.Fatal(err)
			}
			if _, err := app.DB().NewQuery("UPDATE charging_sessions SET quantity = 9").Execute(); err != nil {
				t.Fatal(err)
			}
			return url, ""
		}, Status: 200, Contains: []string{`"corrections":[]`, `"charging":4`},
		Check: func(t testing.TB, app *tests.TestApp, _ ledgertest.State, _ map[string]any) {
			got, err := charging.FindSession(app, sess.Id)
			if err != nil || got.Quantity() != 4 {
				t.Fatalf("session quantity after recalculation: %v %v, want 4", got.Quantity(), err)
			}
		}})
	ledgertest.Run(t, cases)
}

func TestSettingsAPI(t *testing.T) {
	const url = "/api/admin/settings"
	body := `{"settings":[{"key":"total_batteries","value":"170"},{"key":"charger_minutes_4A","value":200},{"key":"charger_minutes_5A","value":""},{"key":"dropoff_prompt","value":"How was it?"},{"key":"pickup_prompt","value":"  "},{"key":"time_zone","value":"Europe/Berlin"}]}`
	cases := ledgertest.Matrix("settings", "POST", ledgertest.AdminRoute, fixed(url, body), 200,
		[]string{`"message":"Settings saved successfully!"`, `"total_batteries":170`, `"total":170`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			s := ledgertest.Must(system.Load(app))(t)
			if s.ChargerMinutes["4A"] != 200 || s.ChargerMinutes["5A"] != 0 || s.EtaMinutes("5A") != 150 || s.DropoffPrompt != "How was it?" || s.PickupPrompt != "" || s.TimeZone != "Europe/Berlin" {
				t.Fatalf("settings not saved: %+v", s)
			}
		})
	row := func(name, key, value, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST",
			Prepare: fixed(url, fmt.Sprintf(`{"settings":[{"key":%q,"value":%s}]}`, key, value)), Status: 400, Contains: []string{msg}}
	}
	cases = append(cases,
		row("blank total", "total_batteries", `""`, `"message":"Total batteries is required"`),
		row("negative total", "total_batteries", `"-3"`, `"total_batteries"`),
		row("text minutes", "charger_minutes_2_5A", `"soon"`, `"charger_minutes_2_5A"`),
		row("bad zone", "time_zone", `"Mars/Olympus"`, `"message":"Unknown time zone: Mars/Olympus"`),
		row("unknown key", "colour", `"red"`, `"message":"Unknown setting: colour"`),
	)
	ledgertest.Run(t, cases)
}

// TestBlankPromptResets: a prompt saved blank is cleared (issue 32: the System page could not
// remove a prompt: the server kept the old text for a blank).
func TestBlankPromptResets(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	srv := testkit.Serve(t, app)
	token := testkit.Token(t, testkit.CreateUser(t, app, roles.Admin, roles.Approved))
	save := func(dropoff, pickup string) {
		t.Helper()
		body := fmt.Sprintf(`{"settings":[{"key":"dropoff_prompt","value":%q},{"key":"pickup_prompt","value":%q}]}`, dropoff, pickup)
		if s, raw, _ := ledgertest.Do(t, srv.Client(), "POST", srv.URL+"/api/admin/settings", token, body, nil); s != 200 {
			t.Fatalf("save: %d %s", s, raw)
		}
	}
	save("Count the dead ones twice", "Check the locks")
	save("", "  ")
	s := ledgertest.Must(system.Load(app))(t)
	if s.DropoffPrompt != "" || s.PickupPrompt != "" {
		t.Fatalf("prompts after a blank save: %q, %q; want both reset", s.DropoffPrompt, s.PickupPrompt)
	}
}

func TestHistoryWipeAPI(t *testing.T) {
	const url = "/api/admin/history/wipe"
	past := func(days int) time.Time { return time.Now().UTC().Add(-time.Duration(days) * 24 * time.Hour) }
	seed := func(body string) prep {
		return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			d := ledgertest.NewUser(t, app, roles.Driver)
			ledgertest.Must(inventory.Pickup(app, inventory.Op{At: past(10)}, d.Id, 6))(t)
			ledgertest.Must(inventory.Dropoff(app, inventory.Op{At: past(9)}, d.Id, 2, 2))(t)
			ledgertest.Must(inventory.LogActivity(app, inventory.Op{At: past(8)}, d.Id, inventory.TypeRebalance, 9))(t)
			ledgertest.Must(inventory.Pickup(app, inventory.Op{At: past(1)}, d.Id, 1))(t)
			return url, body
		}
	}
	cut := past(5).Format("2006-01-02")
	cases := ledgertest.Matrix("wipe", "POST", ledgertest.MasterRoute, seed(`{"targetDate":"`+cut+`","confirmPhrase":"DELETE HISTORY"}`), 200,
		[]string{`"message":"History wiped successfully!"`, `"deleted":3`, `"checkpoint":{`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			after := ledgertest.Capture(t, app)
			if after.Stats != before.Stats || after.Movements != before.Movements-3+1 {
				t.Fatalf("wipe must keep the balances and fold 3 movements into 1: %+v → %+v", before, after)
			}
		})
	row := func(name, body, msg string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Master, Method: "POST", Prepare: seed(body), Status: 400, Contains: []string{msg}}
	}
	cases = append(cases,
		row("no date", `{"confirmPhrase":"DELETE HISTORY"}`, `"message":"Target date is required"`),
		row("no phrase", `{"targetDate":"`+cut+`"}`, `"message":"Confirmation phrase is required"`),
		row("wrong phrase", `{"targetDate":"`+cut+`","confirmPhrase":"delete"}`, `"confirmPhrase"`),
		row("not a date", `{"targetDate":"last week","confirmPhrase":"DELETE HISTORY"}`, `"targetDate"`),
		row("future", `{"targetDate":"`+time.Now().Add(72*time.Hour).Format("2006-01-02")+`","confirmPhrase":"DELETE HISTORY"}`, `"message":"Target date cannot be in the future"`),
	)
	ledgertest.Run(t, cases)
}

// TestWipeCutsDaysInTheConfiguredTimeZone: 03:00 UTC on Jan 10 is still Jan 9 in New York,
// so a New York wipe before Jan 10 takes it and a UTC wipe does not.
func TestWipeCutsDaysInTheConfiguredTimeZone(t *testing.T) {
	for zone, wantDeleted := range map[string]int{"UTC": 0, "America/New_York": 1} {
		app := testkit.NewApp(t)
		ledgertest.Must(system.SaveSettings(app, inventory.Op{}, []system.Setting{{Key: schema.SettingTimeZone, Value: []byte(`"` + zone + `"`)}}))(t)
		d := ledgertest.NewUser(t, app, roles.Driver)
		ledgertest.Must(inventory.Pickup(app, inventory.Op{At: time.Date(2026, 1, 10, 3, 0, 0, 0, time.UTC)}, d.Id, 2))(t)
		res := ledgertest.Must(system.WipeHistory(app, inventory.Op{}, "2026-01-10", system.WipeConfirmPhrase))(t)
		if res.Deleted != wantDeleted {
			t.Errorf("%s: deleted %d, want %d", zone, res.Deleted, wantDeleted)
		}
		ledgertest.AssertSound(t, app)
		app.Cleanup()
	}
}

func TestCleanSlateAPI(t *testing.T) {
	seed := func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
		ledgertest.Must(system.SaveSettings(app, inventory.Op{}, []system.Setting{{Key: schema.SettingTotalBatteries, Value: []byte(`"170"`)}}))(t)
		ledgertest.Must(inventory.Pickup(app, inventory.Op{}, c.Driver.Id, 6))(t)
		ledgertest.Must(inventory.Dropoff(app, inventory.Op{}, c.Driver.Id, 1, 3))(t)
		if _, _, err := charging.Start(app, inventory.Op{Actor: c.Admin}, "5A", 2); err != nil {
			t.Fatal(err)
		}
		return "/api/admin/clean-slate", ""
	}
	cases := ledgertest.Matrix("clean slate", "POST", ledgertest.MasterRoute, seed, 200,
		[]string{`"message":"System reset for production deployment!"`, `"checkpoint":true`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectStats(t, app, inventory.Snapshot{Total: 170, Ready: 170})
			if after := ledgertest.Capture(t, app); after.Movements != 1 || after.Sessions != 0 {
				t.Fatalf("clean slate left %+v", after)
			}
			if n, _ := app.CountRecords(schema.Accounts); n != 6 {
				t.Fatalf("%d accounts left, want the 6 system accounts (quarantine among them)", n)
			}
		})
	ledgertest.Run(t, cases)
}

func TestHistoryCountAPI(t *testing.T) {
	seed := func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
		d := ledgertest.NewUser(t, app, roles.Driver)
		ledgertest.Must(inventory.Pickup(app, inventory.Op{At: time.Now().AddDate(0, 0, -10)}, d.Id, 3))(t)
		ledgertest.Must(inventory.Pickup(app, inventory.Op{At: time.Now().AddDate(0, 0, -2)}, d.Id, 1))(t)
	}
	before := time.Now().AddDate(0, 0, -5).Format("2006-01-02")
	want := map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, seed)
		s := tests.ApiScenario{Name: who, Method: "GET", URL: "/api/admin/history/count?targetDate=" + before,
			Headers: headers, TestAppFactory: factory, ExpectedStatus: want[who], ExpectedContent: []string{`"`}}
		if want[who] == 200 {
			// only the pickup of ten days ago (the install's opening balance is dated now)
			s.ExpectedContent = []string{`"count":1`}
		}
		s.Test(t)
	}
	factory, headers := testkit.As(testkit.Admin, nil)
	(&tests.ApiScenario{Name: "bad date", Method: "GET", URL: "/api/admin/history/count?targetDate=yesterday",
		Headers: headers, TestAppFactory: factory, ExpectedStatus: 400, ExpectedContent: []string{"Target date must be a date (YYYY-MM-DD)"}}).Test(t)
}

// The refusal of a stat that changed while it was edited carries its code (DESIGN.md §5).
func TestStatChangedHasItsCode(t *testing.T) {
	app := testkit.NewApp(t)
	_, err := system.EditStat(app, inventory.Op{}, "ready", 150, 140)
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Code != system.CodeStatChanged || ae.Message != "Ready changed from 140 to 160 while you were editing. Check the new figure and try again." {
		t.Fatalf("EditStat from a stale figure: %v", err)
	}
	if s, _ := inventory.Stats(app); s.Ready != 160 {
		t.Fatalf("ready %d after a refused edit", s.Ready)
	}
}

// The audit list (issue 43) is the administrators' only: a row per caller.
func TestAuditAPI(t *testing.T) {
	want := map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		(&tests.ApiScenario{Name: who, Method: "GET", URL: "/api/admin/audit",
			Headers: headers, TestAppFactory: factory, ExpectedStatus: want[who], ExpectedContent: []string{`"`}}).Test(t)
	}
}
