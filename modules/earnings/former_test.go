package earnings_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/earnings"
	"swapbay/modules/inventory"
	"swapbay/modules/users"
)

// formerWeeks seeds two weeks of work by a driver (pay reduction 10 %, a task adjustment last
// week) and an admin (pool withholding 50 %), and returns them with the two weeks.
func formerWeeks(t testing.TB, app core.App, c testkit.Callers, now time.Time) (driver, admin *core.Record, this, last earnings.Week) {
	t.Helper()
	this = earnings.WeekOf(now, time.UTC)
	last = earnings.Week{Start: this.Start.AddDate(0, 0, -7), End: this.Start}
	must(earnings.SetRates(app, c.Admin, earnings.Rates{DeadBattery: 100, Move: 50}, last.Start.Add(-time.Hour)))
	driver = must(users.Create(app, users.NewUser{Email: "dana@gone.test", Password: "secret1", FirstName: "Dana",
		LastName: "Gone", Role: roles.Driver, Approval: roles.Approved}))
	admin = must(users.Create(app, users.NewUser{Email: "ada@gone.test", Password: "secret1", FirstName: "Ada",
		LastName: "Gone", Role: roles.Admin, Approval: roles.Approved}))
	ten := 10
	must(users.Update(app, c.Master, driver.Id, users.Changes{PayReductionPercentage: &ten}))
	must(users.SetPoolWithholding(app, c.Master, admin.Id, 500))
	for _, at := range []time.Time{last.Start.Add(time.Hour), this.Start.Add(time.Second)} {
		for _, u := range []*core.Record{driver, admin} {
			must(inventory.Dropoff(app, inventory.Op{Actor: u, At: at}, u.Id, 0, 5))
		}
	}
	must(earnings.Adjust(app, c.Admin, earnings.AdjustmentInput{UserId: driver.Id, WeekStart: last.StartDate(),
		TaskType: schema.AdjustmentTaskMoves, AdjustedCount: reqx.Int{Present: true, Valid: true, V: 4}, Reason: "paper log"}, now, time.UTC))
	return driver, admin, this, last
}

func rowsByEmail(rep earnings.Report) map[string]earnings.Row {
	out := map[string]earnings.Row{}
	for _, r := range rep.Rows {
		out[r.Email] = r
	}
	return out
}

// A deleted user's pay stays in every week they worked: this week and last week keep their
// row (marked former, at the pay reduction they had, their task adjustment still applying),
// and each week's Total (what head office sums) is unchanged. A deleted admin's pay is theirs
// alone, outside the pool, which stays the approved core team's. Was: deleting the account
// took the user's pay, past weeks included, off the earnings page, the payroll CSV and head
// office's totals (the counts read the cleared user link; the adjustment went with the user).
func TestDeletedUserStillPaid(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	now := time.Now().UTC()
	driver, admin, this, last := formerWeeks(t, app, c, now)
	var totals []earnings.Cents
	for _, w := range []earnings.Week{this, last} {
		totals = append(totals, must(earnings.Total(context.Background(), app.DB(), w.Start, w.End, now, true)))
	}
	for _, u := range []*core.Record{driver, admin} {
		if err := users.Delete(app, c.Master, u.Id); err != nil {
			t.Fatal(err)
		}
	}
	for i, w := range []earnings.Week{this, last} {
		rep := must(earnings.Compute(app, w, now))
		rows := rowsByEmail(rep)
		d, a := rows["dana@gone.test"], rows["ada@gone.test"]
		wantDriver := earnings.Cents(450) // 5 × 1.00 less 10 %
		if i == 1 {
			wantDriver = 630 // and 4 moves × 0.50 (the adjustment)
		}
		if !d.Former || d.FirstName != "Dana" || d.PayReductionPercentage != 10 || d.TotalEarnings != wantDriver {
			t.Errorf("week %s: the deleted driver's row %+v, want former, 10 %%, %v", w.StartDate(), d, wantDriver)
		}
		if !a.Former || a.Role != roles.Admin || a.TotalEarnings != 400 || a.PoolContribution != 0 {
			t.Errorf("week %s: the deleted admin's row %+v, want former, 4.00 outside the pool", w.StartDate(), a)
		}
		if rep.Pool.AdminCount != 2 {
			t.Errorf("week %s: pool of %d, want the 2 approved admins", w.StartDate(), rep.Pool.AdminCount)
		}
		if got := must(earnings.Total(context.Background(), app.DB(), w.Start, w.End, now, true)); got != totals[i] {
			t.Errorf("week %s: total %v after the deletions, %v before", w.StartDate(), got, totals[i])
		}
	}
	// two weeks before: nothing done, no row
	if rows := rowsByEmail(must(earnings.Compute(app, earnings.Week{Start: last.Start.AddDate(0, 0, -7), End: last.Start}, now))); len(rows) != 3 {
		t.Errorf("a week without their work lists %d rows, want the 3 approved earners", len(rows))
	}
}

// The payroll CSV of last week still has the deleted driver's row, marked, at their pay.
func TestDeletedUserInPayrollCSV(t *testing.T) {
	now := time.Now().UTC()
	last := earnings.WeekOf(now, time.UTC).Start.AddDate(0, 0, -7).Format(time.DateOnly)
	factory, headers := testkit.As(testkit.Admin, func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
		driver, _, _, _ := formerWeeks(t, app, c, now)
		if err := users.Delete(app, c.Master, driver.Id); err != nil {
			t.Fatal(err)
		}
	})
	(&tests.ApiScenario{Name: "csv", Method: http.MethodGet, URL: "/api/admin/earnings.csv?weekStart=" + last,
		Headers: headers, TestAppFactory: factory, ExpectedStatus: 200,
		ExpectedContent: []string{"Dana,Gone (deleted),dana@gone.test,driver,5,4,0,7.00,10,,,,6.30"}}).Test(t)
}

// Movements of users deleted before their id and pay were kept name only their name and role:
// they still count, grouped by name and role, at the default pay reduction.
func TestUserDeletedBeforeKeptPayStillPaid(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	now := time.Now().UTC()
	driver, _, this, _ := formerWeeks(t, app, c, now)
	if err := users.Delete(app, c.Master, driver.Id); err != nil {
		t.Fatal(err)
	}
	if _, err := app.DB().NewQuery("UPDATE movements SET meta = json_remove(meta, '$.formerUser.id', '$.formerUser.email'," +
		" '$.formerUser.payReductionPercentage', '$.formerUser.withholding') WHERE meta LIKE '%formerUser%'").Execute(); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range must(earnings.Compute(app, this, now)).Rows {
		if r.FirstName == "Dana" {
			found = true
			if !r.Former || r.PayReductionPercentage != 20 || r.TotalEarnings != 400 {
				t.Errorf("row %+v, want former, the default 20 %%, 4.00", r)
			}
		}
	}
	if !found {
		t.Error("no row for the driver deleted before their pay was kept")
	}
}

// A user deleted from the /_/ dashboard (PocketBase's record API, as a superuser) keeps their
// history and their pay as one deleted through the app does. Was: the dashboard's delete
// skipped inventory.KeepFormerUser, so their movements named nobody and their weeks were paid
// to nobody.
func TestUserDeletedFromTheDashboardStillPaid(t *testing.T) {
	now := time.Now().UTC()
	this := earnings.WeekOf(now, time.UTC)
	var driverId string
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	driver, _, _, _ := formerWeeks(t, app, c, now)
	driverId = driver.Id
	token := testkit.SuperuserToken(t, app, "root@earnings.test")
	(&tests.ApiScenario{Name: "dashboard delete", Method: http.MethodDelete, URL: "/api/collections/users/records/" + driverId,
		Headers: map[string]string{"Authorization": token}, TestAppFactory: func(testing.TB) *tests.TestApp { return app },
		ExpectedStatus: 204, DisableTestAppCleanup: true}).Test(t)
	defer app.Cleanup()
	var found bool
	for _, r := range must(earnings.Compute(app, this, now)).Rows {
		if r.Email == "dana@gone.test" {
			found = true
			if !r.Former || r.TotalEarnings != 450 {
				t.Errorf("row %+v, want former, 4.50", r)
			}
		}
	}
	if !found {
		t.Error("the driver deleted from the dashboard has no row this week")
	}
}

// A driver suspended after last week's work still has last week's row, and its count can be
// corrected; a liaison with nothing that week is still refused. Was: the suspended driver's
// row was paid but every correction of it was refused ("Only approved drivers…").
func TestAdjustASuspendedDriversPaidWeek(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	now := time.Now().UTC()
	driver, _, _, last := formerWeeks(t, app, c, now)
	must(users.SetApproval(app, c.Master, driver.Id, roles.Suspended))
	in := earnings.AdjustmentInput{UserId: driver.Id, WeekStart: last.StartDate(), TaskType: schema.AdjustmentTaskBattery,
		AdjustedCount: reqx.Int{Present: true, Valid: true, V: 3}, Reason: "two were not dead"}
	if _, err := earnings.Adjust(app, c.Admin, in, now, time.UTC); err != nil {
		t.Fatalf("adjusting the suspended driver's paid week: %v", err)
	}
	for _, r := range must(earnings.Compute(app, last, now)).Rows {
		if r.UserId == driver.Id && (r.DeadBatteries != 3 || r.TotalEarnings != 450) { // (3 × 1.00 + 4 × 0.50) less 10 %
			t.Errorf("row %+v, want 3 dead batteries, 4.50", r)
		}
	}
	in.UserId = c.Liaison.Id
	before := snapshot(t, app)
	if _, err := earnings.Adjust(app, c.Admin, in, now, time.UTC); err == nil || !strings.Contains(err.Error(), earnings.MsgNotEarner) {
		t.Fatalf("adjusting a liaison with nothing that week: %v", err)
	}
	if after := snapshot(t, app); after != before {
		t.Fatalf("the refusal changed data")
	}
}

// A master admin's counts are adjusted by a master admin only, as their pay reduction is
// changed (DESIGN.md §4): an admin gets 403 with the users module's words and nothing changes
// (a driver's counts they still adjust). Was: an admin could not change a
// master's pay reduction, yet rewrote their week's counts.
func TestOnlyAMasterAdjustsAMastersCounts(t *testing.T) {
	week := time.Now().UTC()
	ws := earnings.WeekOf(week, time.UTC).StartDate()
	body := `{"userId":"MASTER","weekStart":"` + ws + `","taskType":"moves","adjustedCount":7,"adjustmentReason":"x"}`
	run(t, []apiCase{
		{name: "admin adjusts a master", who: testkit.Admin, method: "POST", url: "/api/admin/task-adjustments", body: body,
			status: 403, contains: []string{"Only Master Admins can change a Master Admin account"}},
		{name: "a master adjusts a master (here their own)", who: testkit.Master, method: "POST", url: "/api/admin/task-adjustments",
			body: body, status: 200, contains: []string{"Task adjustment saved successfully"}},
		{name: "admin adjusts a driver", who: testkit.Admin, method: "POST", url: "/api/admin/task-adjustments",
			body: strings.Replace(body, "MASTER", "DRIVER", 1), status: 200, contains: []string{"Task adjustment saved successfully"}},
	})
}

// Head office reads every city's copy whatever binary the city runs: a copy from before
// task_adjustments.earner (migration 1766600000) still gives its weeks, adjustments applied
// by their user. Was: the week's read failed on the missing column.
func TestAdjustmentsOfACopyWithoutTheEarnerColumn(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	now := time.Now().UTC()
	driver, _, _, last := formerWeeks(t, app, c, now)
	want := must(earnings.Compute(app, last, now))
	for _, q := range []string{"DROP INDEX idx_task_adjustments_week_earner",
		"ALTER TABLE " + schema.TaskAdjustments + " DROP COLUMN " + schema.AdjustmentEarner} {
		if _, err := app.DB().NewQuery(q).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	got := must(earnings.Compute(app, last, now))
	if w, g := rowsByEmail(want)[driver.GetString("email")], rowsByEmail(got)[driver.GetString("email")]; g.TotalEarnings != w.TotalEarnings || g.Moves != 4 {
		t.Fatalf("older copy: driver's week %+v, want total %v and 4 moves (adjusted)", g, w.TotalEarnings)
	}
}
