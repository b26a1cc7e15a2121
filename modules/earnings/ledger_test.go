package earnings_test

import (
	"context"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/modules/earnings"
	"swapbay/modules/inventory"
	"swapbay/modules/users"
)

// A dropoff one second before local Monday 00:00 in New York (the Sunday after the clocks
// went forward) is paid in the week that ends there; one 30 minutes after it, in the next —
// although 04:30 UTC is still before 05:00 UTC, where the boundary would be without DST.
func TestWeekCutInOperationZoneAcrossDST(t *testing.T) {
	app := testkit.NewApp(t)
	setZone(t, app, "America/New_York")
	ny := clock.LoadLocation("America/New_York")
	driver := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	lastSecond := time.Date(2026, 3, 8, 23, 59, 59, 0, ny) // 03:59:59 UTC on the 9th
	nextWeek := time.Date(2026, 3, 9, 0, 30, 0, 0, ny)     // 04:30 UTC
	must(inventory.Dropoff(app, inventory.Op{At: lastSecond}, driver.Id, 0, 2))
	must(inventory.Dropoff(app, inventory.Op{At: nextWeek}, driver.Id, 0, 5))
	must(inventory.LogActivity(app, inventory.Op{At: time.Date(2026, 3, 2, 0, 0, 0, 0, ny)}, driver.Id, inventory.TypeRetrievesRepairs, 1))
	must(inventory.LogActivity(app, inventory.Op{At: time.Date(2026, 3, 1, 23, 59, 0, 0, ny)}, driver.Id, inventory.TypeRebalance, 9))

	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for week, want := range map[string]earnings.Counts{
		"2026-03-02": {DeadBatteries: 2, Recovers: 1},
		"2026-03-09": {DeadBatteries: 5},
		"2026-02-23": {Moves: 9},
	} {
		w := must(earnings.ParseWeek(week, now, ny))
		est := must(earnings.EstimateFor(app, driver.Id, w, now))
		if got := (earnings.Counts{DeadBatteries: est.DeadBatteries, Moves: est.Moves, Recovers: est.Recovers}); got != want {
			t.Errorf("week %s: %+v, want %+v", week, got, want)
		}
	}
}

// Rates are versioned: a past week keeps the rates in force at its end; the current week is
// paid at today's. 3 dead batteries a week: 3 × 1.00 before the change, 3 × 2.00 after.
func TestRateChangeKeepsPastWeeks(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	now := time.Now().UTC()
	this := earnings.WeekOf(now, time.UTC)
	last := earnings.Week{Start: this.Start.AddDate(0, 0, -7), End: this.Start}
	must(earnings.SetRates(app, c.Admin, earnings.Rates{DeadBattery: 100}, last.Start.Add(-24*time.Hour)))
	must(inventory.Dropoff(app, inventory.Op{At: last.Start.Add(time.Hour)}, c.Driver.Id, 0, 3))
	must(inventory.Dropoff(app, inventory.Op{At: this.Start.Add(time.Minute)}, c.Driver.Id, 0, 3))
	// the change lands after last week ended
	must(earnings.SetRates(app, c.Admin, earnings.Rates{DeadBattery: 200}, this.Start.Add(2*time.Minute)))

	if e := must(earnings.EstimateFor(app, c.Driver.Id, last, now)); e.BaseEarnings != 300 || e.Rates.DeadBattery != 100 {
		t.Fatalf("last week %+v, want base 3.00 at 1.00", e)
	}
	if e := must(earnings.EstimateFor(app, c.Driver.Id, this, now)); e.BaseEarnings != 600 || e.TotalEarnings != 480 {
		t.Fatalf("this week %+v, want base 6.00, total 4.80", e)
	}
}

// Every approved earner has a row, also with nothing this week; the liaison, pending,
// rejected and suspended users do not.
func TestEveryApprovedEarnerHasARow(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	testkit.CreateUser(t, app, roles.Driver, roles.Suspended)
	rep := must(earnings.Compute(app, earnings.WeekOf(time.Now(), time.UTC), time.Now()))
	got := map[string]bool{}
	for _, r := range rep.Rows {
		got[r.UserId] = true
		if r.TotalEarnings != 0 {
			t.Fatalf("nothing done, yet %+v", r)
		}
	}
	if len(got) != 3 || !got[c.Driver.Id] || !got[c.Admin.Id] || !got[c.Master.Id] {
		t.Fatalf("rows for %v", got)
	}
	if rep.Pool.AdminCount != 2 {
		t.Fatalf("admin count %d", rep.Pool.AdminCount)
	}
}

// A week's pay stays the pay of the work done in it: a driver suspended, and another made a
// liaison, after last week's dropoffs still have last week's row (and the week's Total, which
// head office sums, still counts them); a suspended admin's pay is theirs alone, outside the
// pool, which stays the approved core team's. Users with nothing that week have no row unless
// approved earners. Was: suspending or re-roling a driver took the week's earned pay off the
// earnings page, the payroll CSV and head office's totals.
func TestSuspendedAfterTheWeekStillPaid(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	now := time.Now().UTC()
	this := earnings.WeekOf(now, time.UTC)
	last := earnings.Week{Start: this.Start.AddDate(0, 0, -7), End: this.Start}
	must(earnings.SetRates(app, c.Admin, earnings.Rates{DeadBattery: 100}, last.Start.Add(-24*time.Hour)))
	suspended := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	liaison := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	admin := testkit.CreateUser(t, app, roles.Admin, roles.Approved)
	testkit.CreateUser(t, app, roles.Driver, roles.Pending)
	for _, u := range []string{suspended.Id, liaison.Id, admin.Id} {
		must(inventory.Dropoff(app, inventory.Op{At: last.Start.Add(time.Hour)}, u, 0, 5))
	}
	before := must(earnings.Total(context.Background(), app.DB(), last.Start, last.End, now, true))
	if _, err := users.SetApproval(app, c.Master, suspended.Id, roles.Suspended); err != nil {
		t.Fatal(err)
	}
	if _, err := users.SetApproval(app, c.Master, admin.Id, roles.Suspended); err != nil {
		t.Fatal(err)
	}
	role := roles.Liaison
	if _, err := users.Update(app, c.Master, liaison.Id, users.Changes{Role: &role}); err != nil {
		t.Fatal(err)
	}
	rep := must(earnings.Compute(app, last, now))
	rows := map[string]earnings.Row{}
	for _, r := range rep.Rows {
		rows[r.UserId] = r
	}
	for _, u := range []string{suspended.Id, liaison.Id, admin.Id} {
		if r, ok := rows[u]; !ok || r.DeadBatteries != 5 || r.TotalEarnings != 400 {
			t.Errorf("%s: row %+v (listed %v), want 5 dead batteries, 4.00", u, r, ok)
		}
	}
	if len(rows) != 6 { // the 3 approved earners with nothing, and the 3 who worked
		t.Errorf("%d rows, want 6", len(rows))
	}
	if rep.Pool.AdminCount != 2 || rows[admin.Id].PoolContribution != 0 {
		t.Errorf("pool %+v, the suspended admin's row %+v", rep.Pool, rows[admin.Id])
	}
	if after := must(earnings.Total(context.Background(), app.DB(), last.Start, last.End, now, true)); after != before || after != 1200 {
		t.Errorf("the week's total %v after, %v before, want 12.00", after, before)
	}
}
