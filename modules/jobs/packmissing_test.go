package jobs_test

import (
	"encoding/json"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/jobs"
	"swapbay/modules/system"
)

// The pack-missing job runs at the operation's local midnight and follows a saved time zone.
func TestPackMissingJobRunsAtLocalMidnight(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	save := func(zone string) {
		t.Helper()
		raw, _ := json.Marshal(zone)
		if _, err := system.SaveSettings(app, inventory.Op{Actor: c.Master}, []system.Setting{{Key: schema.SettingTimeZone, Value: raw}}); err != nil {
			t.Fatal(err)
		}
	}
	save("Pacific/Auckland")
	testkit.Serve(t, app)
	next := func(zone string) {
		t.Helper()
		loc, _ := time.LoadLocation(zone)
		deadline := time.Now().Add(5 * time.Second)
		for {
			var got time.Time
			for _, s := range jobs.States(app) {
				if s.Name == "pack-missing" {
					got = s.NextRun
				}
			}
			l := got.In(loc)
			if !got.IsZero() && l.Hour() == 0 && l.Minute() == 0 && l.Second() == 0 && time.Until(got) <= 25*time.Hour && time.Until(got) > 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("pack-missing next run %s (%s in %s); want the next midnight there", got, l, zone)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	next("Pacific/Auckland")
	save("America/New_York")
	next("America/New_York")
}
