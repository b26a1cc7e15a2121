package setup_test

import (
	"encoding/json"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/idempotency"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
)

// A dropoff tapped Sunday 23:50 in New York and sent Monday 08:00 (DESIGN.md §12) is Sunday's:
// the movement keeps the tap as occurredAt and the commit as recordedAt, the driver's weekly
// activity and the week's earnings count it in the week that ended, the admin feed carries
// both times, and a second send with the same Idempotency-Key and another occurredAt records
// nothing new.
func TestLateDropoffCountsInTheWeekOfItsTap(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	rec, err := app.FindFirstRecordByData(schema.Settings, schema.SettingKey, schema.SettingTimeZone)
	if err != nil {
		t.Fatal(err)
	}
	rec.Set(schema.SettingValue, "America/New_York")
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
	ny := clock.LoadLocation("America/New_York")
	sent := time.Date(2026, 11, 23, 8, 0, 0, 0, ny) // Monday
	defer clock.Set(func() time.Time { return sent })()
	srv := testkit.Serve(t, app)
	driver, admin := testkit.Headers(t, c.Driver), testkit.Headers(t, c.Admin)

	send := func(occurredAt string) (string, string) {
		res, raw := call(t, srv.URL, "POST", "/api/driver/dropoff-batteries",
			map[string]any{"goodBatteries": 0, "deadBatteries": 3, "notes": "bay 3", "occurredAt": occurredAt},
			with(driver, idempotency.Header, "late-dropoff-1"))
		if res.StatusCode != 200 {
			t.Fatalf("dropoff: %d %s", res.StatusCode, raw)
		}
		var body struct {
			Movement struct{ Id, OccurredAt, RecordedAt string }
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		if body.Movement.OccurredAt != "2026-11-23 04:50:00.000Z" || body.Movement.RecordedAt == "" || body.Movement.RecordedAt == body.Movement.OccurredAt {
			t.Fatalf("movement times: %s", raw)
		}
		return body.Movement.Id, res.Header.Get(idempotency.ReplayedHeader)
	}
	first, _ := send("2026-11-22T23:50:00-05:00")
	again, replayed := send("2026-11-23T07:59:00-05:00")
	if again != first || replayed != "true" {
		t.Fatalf("second send with the same key: movement %s (first %s), replayed %q", again, first, replayed)
	}
	var n int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM movements WHERE type = 'dropoff'").Row(&n); err != nil || n != 1 {
		t.Fatalf("dropoffs recorded: %d (%v), want 1", n, err)
	}

	// the driver's weekly activity: Sunday of last week, nothing this week
	res, raw := call(t, srv.URL, "GET", "/api/driver/weekly-activity", nil, driver)
	var weeks struct{ ThisWeek, LastWeek activity.WeekActivity }
	if err := json.Unmarshal(raw, &weeks); err != nil || res.StatusCode != 200 {
		t.Fatalf("weekly activity: %d %s", res.StatusCode, raw)
	}
	if weeks.ThisWeek.WeekStart != "2026-11-23" || weeks.ThisWeek.Totals.Batteries != 0 {
		t.Errorf("this week: %+v", weeks.ThisWeek)
	}
	if sun := weeks.LastWeek.Days[6]; sun.Date != "2026-11-22" || sun.Batteries != 3 || weeks.LastWeek.Totals.Batteries != 3 {
		t.Errorf("last week: %+v", weeks.LastWeek)
	}

	// earnings: three dead batteries in the week of 16 November, none in the week of the 23rd
	dead := func(week string) int {
		res, raw := call(t, srv.URL, "GET", "/api/admin/all-earnings?weekStart="+week, nil, admin)
		var rep struct {
			Rows []struct {
				UserId        string
				DeadBatteries int
			} `json:"earnings"`
		}
		if err := json.Unmarshal(raw, &rep); err != nil || res.StatusCode != 200 {
			t.Fatalf("earnings %s: %d %s", week, res.StatusCode, raw)
		}
		for _, r := range rep.Rows {
			if r.UserId == c.Driver.Id {
				return r.DeadBatteries
			}
		}
		return 0
	}
	if got := dead("2026-11-16"); got != 3 {
		t.Errorf("earnings week of 16 Nov: %d dead batteries, want 3", got)
	}
	if got := dead("2026-11-23"); got != 0 {
		t.Errorf("earnings week of 23 Nov: %d dead batteries, want 0", got)
	}

	// the admin feed carries the tap and the commit
	res, raw = call(t, srv.URL, "GET", "/api/admin/recent-activity", nil, admin)
	var feed []struct{ Id, CreatedAt, RecordedAt string }
	if err := json.Unmarshal(raw, &feed); err != nil || res.StatusCode != 200 {
		t.Fatalf("recent activity: %d %s", res.StatusCode, raw)
	}
	found := false
	for _, m := range feed {
		if m.Id == first {
			found = true
			if m.CreatedAt != "2026-11-23T04:50:00.000Z" || m.RecordedAt == "" || m.RecordedAt == m.CreatedAt {
				t.Errorf("feed row: %+v", m)
			}
		}
	}
	if !found {
		t.Errorf("the dropoff is not in the admin feed: %s", raw)
	}
}
