package packs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/modules/health"
	"swapbay/modules/packs"
)

// The passport of the demo's worn pack validates against the pinned schema with its
// performance fields, each lastUpdate the time of the reading or charge it comes from (never
// the request's), its source in swapbay.performance; the public answer holds none of them.
func TestPassportOfWornDemoPackValidates(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	schemas := newPassportSchemas(t)
	body := map[string]any{"count": 10, "model": "SB-36V-10", "chemistry": "NMC", "nominalWh": 360, "manufacturer": "Voltera Cells"}
	if st, raw := srv.do(testkit.Headers(t, c.Master), "POST", "/api/admin/packs/mint", body); st != 200 {
		t.Fatalf("mint = %d %s", st, raw)
	}
	serials := make([]string, 10)
	for i := range serials {
		serials[i] = fmt.Sprintf("SWB-%06d", i+1)
	}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	defer clock.Set(func() time.Time { return now })()
	if _, out, err := health.ImportReadings(app, health.DemoReadingsCSV(serials, now.Add(-time.Hour)), false, "test", c.Admin.Id); err != nil || len(out.Worn) != 2 {
		t.Fatalf("demo readings: %+v, %v", out, err)
	}
	worn := serials[4] // health.DemoKind(4) == "worn"
	p, err := packs.PackPassport(app, worn, true, "https://bay.example")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(p)
	if err := schemas.validate(raw); err != nil {
		t.Fatalf("the worn pack's passport does not validate: %v\n%s", err, raw)
	}
	cond := p.PerformanceAndDurability.BatteryCondition
	lastBMS := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)      // DemoReadingsCSV: the BMS reading 2 days before
	lastCharger := time.Date(2026, 11, 25, 18, 0, 0, 0, time.UTC) // and the charger's, 3 days before
	stamp := func(t time.Time) string { return t.Format("2006-01-02T15:04:05Z") }
	if cond.CapacityFade == nil || cond.CapacityFade.Value <= 20 || cond.CapacityFade.LastUpdate != stamp(lastBMS) {
		t.Fatalf("capacityFade %+v, want > 20 %% at %s", cond.CapacityFade, stamp(lastBMS))
	}
	if cond.RemainingCapacity == nil || cond.RemainingCapacity.Value >= 0.288 || cond.RemainingCapacity.LastUpdate != stamp(lastBMS) {
		t.Fatalf("remainingCapacity %+v, want under 80 %% of 0.36 kWh at %s", cond.RemainingCapacity, stamp(lastBMS))
	}
	if cond.EnergyThroughput == nil || *cond.EnergyThroughput <= 0 || cond.NumberOfFullCycles.Value != float64(int(*cond.EnergyThroughput/0.36*10+0.5))/10 ||
		cond.NumberOfFullCycles.LastUpdate != stamp(lastCharger) {
		t.Fatalf("energyThroughput %v kWh, cycles %+v: want energy ÷ 360 Wh at %s", cond.EnergyThroughput, cond.NumberOfFullCycles, stamp(lastCharger))
	}
	if cond.StateOfCharge == nil || cond.StateOfCharge.Value != 95 || cond.StateOfCharge.LastUpdate != stamp(lastCharger) {
		t.Fatalf("stateOfCharge %+v", cond.StateOfCharge)
	}
	for _, k := range []string{"energyThroughput", "numberOfFullCycles", "capacityFade", "remainingCapacity", "stateOfCharge"} {
		s, ok := p.SwapBay.Performance[k]
		if !ok || s.Source == "" || s.LastUpdate == "" || s.LastUpdate == stamp(now) {
			t.Fatalf("swapbay.performance[%s] = %+v", k, s)
		}
	}
	if bytes.Contains(raw, []byte(stamp(now))) {
		t.Fatalf("a lastUpdate is the request's time: %s", raw)
	}

	// the hot pack's over-temperature is a negative event, and still validates
	hot, err := packs.PackPassport(app, serials[2], true, "https://bay.example")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = json.Marshal(hot)
	if err := schemas.validate(raw); err != nil || !bytes.Contains(raw, []byte(`"kind":"over_temperature"`)) {
		t.Fatalf("the hot pack's passport: %v\n%s", err, raw)
	}

	// the public answer: none of the use-phase figures
	pub, err := packs.PackPassport(app, worn, false, "https://bay.example")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = json.Marshal(pub)
	for _, k := range append(restrictedKeys, `"performance"`, `"capacityFade"`, `"remainingCapacity"`, `"stateOfCharge"`, `"energyThroughput"`) {
		if bytes.Contains(raw, []byte(k)) {
			t.Fatalf("the public passport holds %s: %s", k, raw)
		}
	}
}
