package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
)

// The demo's pack health (issue 46): most packs healthy, a few worn under 80%, one losing
// capacity fast (≥ 3 points in 30 days), the model configured, and the charges the demo's
// charging sessions made counted.
func TestSeedDemoPackHealth(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	if err := seedDemo(app, time.Now(), &bytes.Buffer{}); err != nil {
		t.Fatalf("seed-demo: %v", err)
	}
	var rows []struct {
		Serial string  `db:"serial"`
		Soh    float64 `db:"soh"`
		Drop   float64 `db:"sohDrop30"`
		Worn   bool    `db:"worn"`
		Reason string  `db:"wornReason"`
	}
	if err := app.DB().NewQuery("SELECT serial, soh, sohDrop30, worn, wornReason FROM " + schema.Packs + " ORDER BY serial").All(&rows); err != nil {
		t.Fatal(err)
	}
	worn, fast, healthy := 0, 0, 0
	for _, r := range rows {
		switch {
		case r.Worn && r.Soh < 80 && strings.HasPrefix(r.Reason, "State of health "):
			worn++
		case r.Worn && r.Drop >= 3 && strings.HasPrefix(r.Reason, "Lost "):
			fast++
		case !r.Worn && r.Soh >= 80:
			healthy++
		default:
			t.Errorf("pack %+v is neither healthy nor worn as the demo means", r)
		}
	}
	if fast != 1 || worn < 3 || worn > len(rows)/5 || healthy < len(rows)*3/4 {
		t.Fatalf("%d packs: %d healthy, %d worn, %d losing fast; want most healthy, a few worn, one fast", len(rows), healthy, worn, fast)
	}
	var model struct {
		NominalWh float64 `db:"nominalWh"`
		Threshold float64 `db:"threshold"`
	}
	if err := app.DB().NewQuery("SELECT nominalWh, threshold FROM " + schema.PackModels + " WHERE model = {:m}").Bind(map[string]any{"m": demoModel}).One(&model); err != nil ||
		model.NominalWh != 360 || model.Threshold != 80 {
		t.Fatalf("demo model %+v, %v", model, err)
	}
	t.Logf("%d packs: %d healthy, %d worn, %d losing fast", len(rows), healthy, worn, fast)
}
