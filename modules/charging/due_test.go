package charging_test

import (
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/events"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
)

func dueSession(t *testing.T, app core.App, eta time.Time, status string) *core.Record {
	t.Helper()
	col, err := app.FindCollectionByNameOrId(schema.ChargingSessions)
	if err != nil {
		t.Fatal(err)
	}
	rec := core.NewRecord(col)
	rec.Set(schema.SessionQuantity, 3)
	rec.Set(schema.SessionChargerType, "5A")
	rec.Set(schema.SessionStartedAt, eta.Add(-150*time.Minute).UTC())
	rec.Set(schema.SessionEtaAt, eta.UTC())
	rec.Set(schema.SessionStatus, status)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestDueSessionAnnouncedExactlyOnce(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	now := time.Now()
	due := dueSession(t, app, now.Add(-time.Minute), schema.SessionStatusActive)
	later := dueSession(t, app, now.Add(time.Hour), schema.SessionStatusActive)
	done := dueSession(t, app, now.Add(-time.Hour), schema.SessionStatusCompleted)

	var got []string
	cancel := events.For(app).Subscribe(func(m events.Message) { got = append(got, m.Type) })
	defer cancel()

	for run := 1; run <= 2; run++ {
		n, err := charging.AnnounceDue(app, now)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[int]int{1: 1, 2: 0}[run]; n != want {
			t.Fatalf("run %d announced %d, want %d", run, n, want)
		}
	}
	if len(got) != 1 || got[0] != events.ChargingUpdated {
		t.Fatalf("published %v, want one %s", got, events.ChargingUpdated)
	}
	for rec, want := range map[*core.Record]bool{due: true, later: false, done: false} {
		fresh, err := app.FindRecordById(schema.ChargingSessions, rec.Id)
		if err != nil {
			t.Fatal(err)
		}
		if fresh.GetBool(schema.SessionDueAnnounced) != want {
			t.Fatalf("session eta %s: dueAnnounced %v, want %v", rec.GetString(schema.SessionEtaAt), !want, want)
		}
	}

	// The later session becomes due an hour on.
	if n, _ := charging.AnnounceDue(app, now.Add(61*time.Minute)); n != 1 || len(got) != 2 {
		t.Fatalf("later run announced %d, published %v", n, got)
	}
}
