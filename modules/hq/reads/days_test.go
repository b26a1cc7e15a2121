package reads_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/modules/earnings"
	"swapbay/modules/hq/reads"
	"swapbay/modules/inventory"
	"swapbay/modules/users"
)

// Head office's figures of a city keep a deleted driver's pay: the day's pay (the rollups'
// city_days) and the week's (Pay) read from the city's copy are what they were before the
// account went. Was: both dropped the deleted driver's work.
func TestDeletedDriverStillInHeadOfficeFigures(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	now := time.Now().UTC()
	day := time.Date(now.Year(), now.Month(), now.Day()-1, 0, 0, 0, 0, time.UTC)
	if _, err := earnings.SetRates(app, c.Admin, earnings.Rates{DeadBattery: 100}, day.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	driver := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := inventory.Dropoff(app, inventory.Op{Actor: driver, At: day.Add(time.Hour)}, driver.Id, 0, 5); err != nil {
		t.Fatal(err)
	}
	figures := func(name string) (int64, int64) {
		t.Helper()
		path := filepath.Join(t.TempDir(), name)
		if _, err := app.DB().NewQuery("VACUUM INTO '" + strings.ReplaceAll(path, "'", "''") + "'").Execute(); err != nil {
			t.Fatal(err)
		}
		db, err := reads.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		days, err := db.Days(context.Background(), day, 1, now)
		if err != nil || len(days) != 1 {
			t.Fatalf("days %v %v", days, err)
		}
		pay, err := db.Pay(context.Background(), day, day.AddDate(0, 0, 1), now)
		if err != nil {
			t.Fatal(err)
		}
		return days[0].PayCents, pay
	}
	dayBefore, payBefore := figures("before.db")
	if dayBefore != 400 || payBefore != 400 {
		t.Fatalf("before: day %d, pay %d; want 400 (5 × 1.00 less 20 %%)", dayBefore, payBefore)
	}
	if err := users.Delete(app, c.Master, driver.Id); err != nil {
		t.Fatal(err)
	}
	if dayAfter, payAfter := figures("after.db"); dayAfter != dayBefore || payAfter != payBefore {
		t.Fatalf("after the deletion: day %d, pay %d; want %d, %d", dayAfter, payAfter, dayBefore, payBefore)
	}
}
