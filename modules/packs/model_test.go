package packs_test

import (
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/journal"
	"swapbay/modules/packs"
)

// The packs schema: a pack saves through its proxy, a serial is unique, an event keeps its
// pack, and the settings read their defaults.
func TestPacksSchema(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()

	col, err := app.FindCollectionByNameOrId(schema.Packs)
	if err != nil {
		t.Fatal(err)
	}
	p := packs.NewPack(col)
	p.Set(schema.PackSerial, packs.Serial(packs.DefaultPrefix, 123))
	p.Set(schema.PackManufactured, "2026-03")
	if err := app.Save(p); err != nil {
		t.Fatal(err)
	}
	if p.Serial() != "SWB-000123" || p.State() != schema.PackStateInService {
		t.Fatalf("saved pack = %q %q", p.Serial(), p.State())
	}
	dup := packs.NewPack(col)
	dup.Set(schema.PackSerial, p.Serial())
	if err := app.Save(dup); err == nil {
		t.Fatal("a second pack with the same serial saved; want the unique index to refuse it")
	}
	bad := packs.NewPack(col)
	bad.Set(schema.PackSerial, "SWB-000124")
	bad.Set(schema.PackManufactured, "2026-13")
	if err := app.Save(bad); err == nil {
		t.Fatal("manufactured 2026-13 saved; want YYYY-MM only")
	}

	evCol, err := app.FindCollectionByNameOrId(schema.PackEvents)
	if err != nil {
		t.Fatal(err)
	}
	ev := packs.NewEvent(evCol, p.Id, schema.PackEventCreated, "", time.Now())
	if err := app.Save(ev); err != nil {
		t.Fatal(err)
	}
	if ev.Pack() != p.Id || ev.Kind() != schema.PackEventCreated {
		t.Fatalf("event = %q %q", ev.Pack(), ev.Kind())
	}

	vals, err := settings.Load(app)
	if err != nil {
		t.Fatal(err)
	}
	if m, pre := packs.Tracking.Get(vals), packs.Prefix.Get(vals); m != schema.PackTrackingOff || pre != packs.DefaultPrefix {
		t.Fatalf("defaults = %q %q; want off, SWB", m, pre)
	}
	spec, _ := settings.Lookup(schema.SettingPackPrefix)
	if _, err := spec.Check(spec.Name, "ab-1"); err == nil {
		t.Fatal(`prefix "ab-1" accepted`)
	}
	if got, err := spec.Check(spec.Name, "nyc2"); err != nil || got != "NYC2" {
		t.Fatalf(`prefix "nyc2" = %q, %v; want NYC2`, got, err)
	}
}

// A pack_count refusal reads as words: one pack for one battery, not "1 packs for 1 batteries".
func TestPackCountMessage(t *testing.T) {
	for _, c := range []struct {
		format   string
		count, n int
		want     string
	}{
		{journal.MsgPackCountExact, 3, 2, "Name exactly 3 packs for 3 batteries (2 named)"},
		{journal.MsgPackCountAtMost, 1, 2, "Name at most 1 pack for 1 battery (2 named)"},
		{journal.MsgPackCountExact, 1, 0, "Name exactly 1 pack for 1 battery (0 named)"},
	} {
		if got := journal.PackCountMessage(c.format, c.count, c.n); got != c.want {
			t.Errorf("PackCountMessage(%q, %d, %d) = %q, want %q", c.format, c.count, c.n, got, c.want)
		}
	}
}
