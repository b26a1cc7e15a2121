package packs_test

import (
	"sort"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
)

func setSetting(t *testing.T, app core.App, key, value string) {
	t.Helper()
	col, err := app.FindCachedCollectionByNameOrId(schema.Settings)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := app.FindFirstRecordByData(schema.Settings, schema.SettingKey, key)
	if err != nil {
		rec = core.NewRecord(col)
		rec.Set(schema.SettingKey, key)
	}
	rec.Set(schema.SettingValue, value)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
}

func missingSerials(t *testing.T, app core.App) []string {
	t.Helper()
	l, err := packs.ListPacks(app, packs.Viewer{}, packs.Filter{Missing: true})
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, p := range l.Packs {
		out = append(out, p.Serial)
	}
	sort.Strings(out)
	return out
}

// The missing list moves at the operation's local midnight, not UTC's: in Auckland (UTC+13 in
// November) a pack last seen on the 20th at noon, local, is not missing on the 27th at 23:59
// and is missing a minute later — though both instants fall on the same UTC day. The job counts
// what the list shows; a pack seen again leaves the list by itself; a quarantined or lost pack
// is never missing; a missing pack names its last holder.
func TestMissingAcrossLocalMidnight(t *testing.T) {
	w := fleet(t, 5, schema.PackTrackingOptional)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	setSetting(t, app, schema.SettingTimeZone, "Pacific/Auckland")
	nz, _ := time.LoadLocation("Pacific/Auckland")

	// SWB-000003 was with Dana on the 1st and back in the bay the same day (last holder: Dana)
	restore := clock.Set(func() time.Time { return time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC) })
	op := func(names inventory.PackNames) inventory.Op {
		return inventory.Op{Actor: dana, Notes: "n", Packs: names}
	}
	if _, err := inventory.Pickup(app, op(inventory.PackNames{Packs: []string{serial(3)}}), dana.Id, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := inventory.Dropoff(app, op(inventory.PackNames{GoodPacks: []string{serial(3)}}), dana.Id, 1, 0); err != nil {
		t.Fatal(err)
	}
	restore()
	seen := map[string]time.Time{
		serial(1): time.Date(2026, 11, 20, 12, 0, 0, 0, nz), // 19th 23:00 UTC
		serial(2): time.Date(2026, 11, 21, 1, 0, 0, 0, nz),  // 20th 12:00 UTC
		serial(4): time.Date(2026, 11, 1, 12, 0, 0, 0, nz),  // long ago, but quarantined
		serial(5): time.Date(2026, 11, 1, 12, 0, 0, 0, nz),  // long ago, but lost
	}
	for s, at := range seen {
		if _, err := app.DB().NewQuery("UPDATE packs SET lastSeenAt = {:at} WHERE serial = {:s}").
			Bind(map[string]any{"at": at.UTC().Format("2006-01-02 15:04:05.000Z"), "s": s}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := app.DB().NewQuery("UPDATE packs SET state = 'quarantined' WHERE serial = {:a}").Bind(map[string]any{"a": serial(4)}).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := app.DB().NewQuery("UPDATE packs SET state = 'lost' WHERE serial = {:a}").Bind(map[string]any{"a": serial(5)}).Execute(); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		now  time.Time
		want []string
	}{
		{time.Date(2026, 11, 27, 23, 59, 0, 0, nz), []string{serial(3)}},
		{time.Date(2026, 11, 28, 0, 1, 0, 0, nz), []string{serial(1), serial(3)}},
		{time.Date(2026, 11, 29, 0, 1, 0, 0, nz), []string{serial(1), serial(2), serial(3)}},
	} {
		restore := clock.Set(func() time.Time { return c.now })
		got := missingSerials(t, app)
		n, err := packs.RunMissing(app, c.now)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if !equal(got, c.want) || n != len(c.want) {
			t.Fatalf("at %s (%s UTC): missing %v, the job counted %d; want %v", c.now, c.now.UTC(), got, n, c.want)
		}
	}

	restore = clock.Set(func() time.Time { return time.Date(2026, 11, 28, 0, 1, 0, 0, nz) })
	defer restore()
	l, err := packs.ListPacks(app, packs.Viewer{}, packs.Filter{Missing: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range l.Packs {
		if want := p.Serial == serial(3); want != (p.LastHolder != nil && p.LastHolder.Id == dana.Id) {
			t.Fatalf("%s last holder = %+v", p.Serial, p.LastHolder)
		}
		if p.Location == nil || p.Location.Label != "Ready" || !p.Missing {
			t.Fatalf("%s place = %+v", p.Serial, p.Location)
		}
	}
	// SWB-000001 is scanned at a pickup: it leaves the list with the movement
	if _, err := inventory.Pickup(app, op(inventory.PackNames{Packs: []string{serial(1)}}), dana.Id, 1); err != nil {
		t.Fatal(err)
	}
	if got := missingSerials(t, app); !equal(got, []string{serial(3)}) {
		t.Fatalf("after a sighting: missing %v", got)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// MissingCutoff is local midnight days days back, across a daylight-saving change too.
func TestMissingCutoff(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	// 2026-10-25: the clocks go back in Paris; 7 local days before Nov 1st 10:00 is Oct 25th 00:00 CEST
	got := packs.MissingCutoff(time.Date(2026, 11, 1, 10, 0, 0, 0, paris), paris, 7)
	if want := time.Date(2026, 10, 25, 0, 0, 0, 0, paris); !got.Equal(want) || got.UTC().Hour() != 22 {
		t.Fatalf("cutoff = %s (%s UTC); want %s", got, got.UTC(), want)
	}
}
