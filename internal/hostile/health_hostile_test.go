package hostile_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"swapbay/internal/ledgertest"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/health"
)

// healthSnapshot is the pack world's snapshot and every reading, model and pack's derived health.
type healthSnapshot struct {
	packSnapshot
	readings, models int
	derived          string
}

func (w *packWorld) healthSnapshot(t *testing.T) healthSnapshot {
	t.Helper()
	var n struct{ R, M int }
	if err := w.app.DB().NewQuery("SELECT (SELECT COUNT(*) FROM " + schema.PackReadings + ") AS r, (SELECT COUNT(*) FROM " + schema.PackModels + ") AS m").One(&n); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Serial, SohSource, WornReason string
		Soh, SohDrop30, Energy        float64
		Worn                          bool
	}
	if err := w.app.DB().NewQuery("SELECT serial, sohSource, wornReason, soh, sohDrop30, energyThroughputWh AS energy, worn FROM " + schema.Packs + " ORDER BY serial").All(&rows); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(rows)
	return healthSnapshot{packSnapshot: w.snapshot(t), readings: n.R, models: n.M, derived: string(raw)}
}

// TestPackHealthHostile (issue 46): hostile numbers on the models route and the charger's
// energy, and hostile CSV rows on the readings import — NaN, negative, 1e309, a future time, an
// unknown serial, a 100 KB cell, a wrong source, a % over 100, a body over MaxReadingsBody —
// each a 4xx JSON answer with its message (a bad row named by its line) that writes nothing:
// no reading, no model, no pack's health, the ledger sound.
func TestPackHealthHostile(t *testing.T) {
	w := newPackWorld(t, schema.PackTrackingOptional)
	before := w.healthSnapshot(t)
	var out []refusal
	add := func(r refusal) { out = append(out, r) }
	for _, v := range hostile {
		if v.raw != "1.5" { // a threshold of 1.5 % is a threshold
			add(refusal{name: "models threshold " + v.raw, tok: w.admin, method: "PUT", url: "/api/admin/packs/models",
				body: `{"model":"S-48V 15Ah","threshold":` + v.raw + `}`, status: 400, field: "threshold"})
		}
		if v.raw != "1.5" && v.raw != "null" { // 1.5 Wh or Ah is a figure; null is "not given"
			add(refusal{name: "models nominalWh " + v.raw, tok: w.admin, method: "PUT", url: "/api/admin/packs/models",
				body: `{"model":"S-48V 15Ah","threshold":80,"nominalWh":` + v.raw + `}`, status: 400, field: "nominalWh"})
			add(refusal{name: "models ratedAh " + v.raw, tok: w.admin, method: "PUT", url: "/api/admin/packs/models",
				body: `{"model":"S-48V 15Ah","threshold":80,"ratedAh":` + v.raw + `}`, status: 400, field: "ratedAh"})
		}
		if v.raw != "1.5" && v.raw != "null" { // 1.5 Wh is an energy; null is "not reported"
			add(refusal{name: "charge complete energyWh " + v.raw, tok: w.admin, method: "POST", url: "/api/admin/charge/nosuchsession00/complete",
				body: `{"energyWh":` + v.raw + `}`, status: 400, field: "energyWh"})
		}
	}
	add(refusal{name: "charge complete energyWh 1e309", tok: w.admin, method: "POST", url: "/api/admin/charge/nosuchsession00/complete",
		body: `{"energyWh":1e309}`, status: 400, field: "energyWh"})
	add(refusal{name: "models 1e309", tok: w.admin, method: "PUT", url: "/api/admin/packs/models",
		body: `{"model":"S-48V 15Ah","threshold":1e309}`, status: 400, field: "threshold"})
	add(refusal{name: "models threshold by a driver", tok: w.driverTok, method: "PUT", url: "/api/admin/packs/models",
		body: `{"model":"S-48V 15Ah","threshold":90}`, status: 403})

	at := clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	future := clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	good := w.bay + "," + at + ",bms,,90,,\n"
	rows := map[string]struct{ row, msg string }{
		"NaN":               {w.bay + "," + at + ",bms,,NaN,,", "soh must be a number"},
		"negative":          {w.bay + "," + at + ",charger,-1,,,", "energyWh must be from 0"},
		"1e309":             {w.bay + "," + at + ",charger,1e309,,,", "energyWh must be a number"},
		"a future time":     {w.bay + "," + future + ",bms,,90,,", "Time " + future + " is in the future"},
		"an unknown serial": {"NOPE-1," + at + ",bms,,90,,", "No pack has serial NOPE-1"},
		"a 100 KB cell":     {w.bay + "," + at + ",bms,,90,," + strings.Repeat("x", 100<<10), "A cell is longer than"},
		"a wrong source":    {w.bay + "," + at + ",solar,,90,,", health.MsgSource},
		"% over 100":        {w.bay + "," + at + ",bms,,100.5,,", "soh must be from 0 to 100"},
		"socFrom over 100":  {w.bay + "," + at + ",charger,10,,,101", "socFrom must be from 0 to 100"},
	}
	for name, r := range rows {
		csv := "serial,time,source,energyWh,soh,fullAh,socFrom\n" + good + r.row + "\n"
		body, _ := json.Marshal(map[string]any{"csv": csv})
		add(refusal{name: "readings: " + name, tok: w.admin, method: "POST", url: "/api/admin/packs/readings", body: string(body),
			status: 400, msg: "Nothing was imported: 1 of 2 rows have problems (line 3: " + r.msg})
	}
	big, _ := json.Marshal(map[string]any{"csv": "serial,time,source,soh\n" + strings.Repeat(good, health.MaxReadingsBody/len(good)+1)})
	add(refusal{name: "readings: a body over MaxReadingsBody", tok: w.admin, method: "POST", url: "/api/admin/packs/readings", body: string(big), status: 413})
	add(refusal{name: "readings: not CSV", tok: w.admin, method: "POST", url: "/api/admin/packs/readings", body: `{"csv":"\"unclosed,quote\n"}`, status: 400})
	add(refusal{name: "readings: csv as a number", tok: w.admin, method: "POST", url: "/api/admin/packs/readings", body: `{"csv":12}`, status: 400})
	add(refusal{name: "readings by a driver", tok: w.driverTok, method: "POST", url: "/api/admin/packs/readings", body: `{"csv":"serial,time,source\n"}`, status: 403})

	for _, r := range out {
		w.refuse(t, before.packSnapshot, r)
		if after := w.healthSnapshot(t); after != before {
			t.Fatalf("%s changed the health state:\n%+v\n%+v", r.name, before, after)
		}
	}
	ledgertest.AssertSound(t, w.app)
	w.assertReadable(t)
	if status, body := w.do("GET", "/api/packs/"+w.bay+"/health", w.admin, ""); status != 200 {
		t.Fatalf("health after the refusals: %d %s", status, body)
	}
	// the refused world still imports and saves
	csv, _ := json.Marshal(map[string]any{"csv": "serial,time,source,soh\n" + w.bay + "," + at + ",bms,72\n"})
	if status, body := w.do("POST", "/api/admin/packs/readings", w.admin, string(csv)); status != 200 || !strings.Contains(body, w.bay) {
		t.Fatalf("import after the refusals: %d %s", status, body)
	}
	if status, body := w.do("PUT", "/api/admin/packs/models", w.admin, `{"model":"S-48V 15Ah","threshold":70}`); status != 200 || !strings.Contains(body, `"worn":0`) {
		t.Fatalf("models after the refusals: %d %s", status, body)
	}
	t.Logf("%d hostile health requests refused (charging.MaxEnergyWh %d, health.MaxReadingsBody %d)", len(out), charging.MaxEnergyWh, health.MaxReadingsBody)
}
