package health

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"swapbay/lib/schema"
)

// The derivation, on hand-worked cases (issue 46's proof): every figure below was worked out
// by hand from the inputs, not read back from the code.
func TestComputeHandWorked(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	ago := func(days int) time.Time { return now.AddDate(0, 0, -days) }
	bms := func(days int, figures map[string]float64) Reading {
		return Reading{At: ago(days), Source: schema.PackReadingSourceBMS, Figures: figures}
	}
	charger := func(days int, energy, from, to float64) Reading {
		return Reading{At: ago(days), Source: schema.PackReadingSourceCharger,
			Figures: map[string]float64{"energyWh": energy, "socFrom": from, "socTo": to}}
	}
	f := func(v float64) *float64 { return &v }
	type want struct {
		cycles     float64
		basis      string
		cyclesAt   time.Time
		energy     *float64
		soh        *Point
		drop       *float64
		worn       bool
		wornReason string
	}
	cases := []struct {
		name string
		in   Input
		want want
	}{
		{"nothing known", Input{Now: now, NominalWh: 360},
			want{basis: BasisCharges}},
		{"charges without energy: an upper bound", Input{Now: now, NominalWh: 360, Charges: 3,
			ChargeLog: []Charge{{At: ago(9)}, {At: ago(5)}, {At: ago(2)}}},
			want{cycles: 3, basis: BasisCharges, cyclesAt: ago(2)}},
		{"two half charges with energy are one full cycle", Input{Now: now, NominalWh: 360, Charges: 2,
			ChargeLog: []Charge{{At: ago(4), EnergyWh: 180}, {At: ago(1), EnergyWh: 180}}},
			want{cycles: 1, basis: BasisEnergy, cyclesAt: ago(1), energy: f(360)}},
		{"sessions' shares and a reading's energy add up", Input{Now: now, NominalWh: 360, Charges: 2,
			ChargeLog: []Charge{{At: ago(6), EnergyWh: 90}, {At: ago(3), EnergyWh: 0}},
			Readings:  []Reading{charger(5, 450, 10, 40)}},
			want{cycles: 1.5, basis: BasisEnergy, cyclesAt: ago(5), energy: f(540)}},
		{"energy without a nominal Wh: still the charges", Input{Now: now, Charges: 4,
			ChargeLog: []Charge{{At: ago(3), EnergyWh: 200}}},
			want{cycles: 4, basis: BasisCharges, cyclesAt: ago(3), energy: f(200)}},
		{"a dead-to-full charge estimates: 216 Wh over 80 points is 270 Wh, 75% of 360", Input{Now: now, NominalWh: 360,
			Readings: []Reading{charger(3, 216, 10, 90)}},
			want{cycles: 0.6, basis: BasisEnergy, cyclesAt: ago(3), energy: f(216),
				soh: &Point{At: ago(3), Value: 75, Source: SourceEstimate}, drop: f(0), worn: true,
				wornReason: "State of health 75% is under the model's 80%"}},
		{"a top-up of 30 points estimates nothing", Input{Now: now, NominalWh: 360,
			Readings: []Reading{charger(3, 60, 50, 80)}},
			want{basis: BasisEnergy, cycles: 0.2, cyclesAt: ago(3), energy: f(60)}},
		{"a BMS reading and an estimate disagree: the reading wins", Input{Now: now, NominalWh: 360,
			Readings: []Reading{bms(10, map[string]float64{"soh": 85}), charger(1, 201.6, 10, 90)}},
			// the estimate: 201.6 Wh ÷ 0.8 = 252 Wh, 70% — later, but only an estimate
			want{cycles: 0.6, basis: BasisEnergy, cyclesAt: ago(1), energy: f(201.6),
				soh: &Point{At: ago(10), Value: 85, Source: SourceReading}, drop: f(0)}},
		{"full ÷ design capacity: 7.2 Ah of 10 is 72%", Input{Now: now,
			Readings: []Reading{bms(2, map[string]float64{"fullAh": 7.2, "designAh": 10})}},
			want{basis: BasisCharges, soh: &Point{At: ago(2), Value: 72, Source: SourceReading}, drop: f(0), worn: true,
				wornReason: "State of health 72% is under the model's 80%"}},
		{"lost 4.5 points in 30 days: the window opens at 95", Input{Now: now,
			Readings: []Reading{bms(40, map[string]float64{"soh": 95}), bms(20, map[string]float64{"soh": 94}), bms(1, map[string]float64{"soh": 90.5})}},
			want{basis: BasisCharges, soh: &Point{At: ago(1), Value: 90.5, Source: SourceReading}, drop: f(4.5), worn: true,
				wornReason: "Lost 4.5 points of state of health in 30 days"}},
		{"lost 2.9 points in 30 days: not worn", Input{Now: now,
			Readings: []Reading{bms(25, map[string]float64{"soh": 93.4}), bms(1, map[string]float64{"soh": 90.5})}},
			want{basis: BasisCharges, soh: &Point{At: ago(1), Value: 90.5, Source: SourceReading}, drop: f(2.9)}},
		{"the last reading older than 30 days: no trend", Input{Now: now,
			Readings: []Reading{bms(70, map[string]float64{"soh": 96}), bms(40, map[string]float64{"soh": 90})}},
			want{basis: BasisCharges, soh: &Point{At: ago(40), Value: 90, Source: SourceReading}}},
		{"the model's threshold 85: 82% is worn", Input{Now: now, Threshold: 85,
			Readings: []Reading{bms(3, map[string]float64{"soh": 82})}},
			want{basis: BasisCharges, soh: &Point{At: ago(3), Value: 82, Source: SourceReading}, drop: f(0), worn: true,
				wornReason: "State of health 82% is under the model's 85%"}},
		{"no threshold configured: the default 80", Input{Now: now,
			Readings: []Reading{bms(3, map[string]float64{"soh": 79.9})}},
			want{basis: BasisCharges, soh: &Point{At: ago(3), Value: 79.9, Source: SourceReading}, drop: f(0), worn: true,
				wornReason: "State of health 79.9% is under the model's 80%"}},
		{"exactly at the threshold: not worn", Input{Now: now, Threshold: 80,
			Readings: []Reading{bms(3, map[string]float64{"soh": 80})}},
			want{basis: BasisCharges, soh: &Point{At: ago(3), Value: 80, Source: SourceReading}, drop: f(0)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := Compute(c.in)
			got := want{cycles: h.FullCycles, basis: h.CyclesBasis, cyclesAt: h.CyclesAt, energy: h.EnergyWh, soh: h.Soh,
				drop: h.Drop30, worn: h.Worn, wornReason: h.WornReason}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %s\nwant %s", show(got.cycles, got.basis, got.cyclesAt, got.energy, got.soh, got.drop, got.worn, got.wornReason),
					show(c.want.cycles, c.want.basis, c.want.cyclesAt, c.want.energy, c.want.soh, c.want.drop, c.want.worn, c.want.wornReason))
			}
		})
	}
}

func show(vals ...any) string {
	out := ""
	for _, v := range vals {
		switch x := v.(type) {
		case *float64:
			if x == nil {
				out += "nil "
			} else {
				out += num(*x) + " "
			}
		case *Point:
			if x == nil {
				out += "nil "
			} else {
				out += "{" + x.At.Format(time.RFC3339) + " " + num(x.Value) + " " + x.Source + "} "
			}
		case time.Time:
			out += x.Format(time.RFC3339) + " "
		default:
			out += fmt.Sprint(v) + " "
		}
	}
	return out
}

// Negative events: damage reports, readings over MaxTempC, fault flags — oldest first.
func TestComputeNegativeEvents(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	h := Compute(Input{Now: now,
		Readings: []Reading{
			{At: now.Add(-72 * time.Hour), Source: "charger", Figures: map[string]float64{"maxTempC": 60}},
			{At: now.Add(-48 * time.Hour), Source: "charger", Figures: map[string]float64{"maxTempC": 64.5}},
			{At: now.Add(-24 * time.Hour), Source: "bms", Figures: map[string]float64{}, Faults: "cell overvoltage"},
		},
		Damages: []Damage{{At: now.Add(-60 * time.Hour), Text: "Dropped"}},
	})
	want := []Event{
		{At: now.Add(-60 * time.Hour), Kind: EventDamage, Text: "Damage reported: Dropped"},
		{At: now.Add(-48 * time.Hour), Kind: EventOverTemperature, Text: "Reached 64.5 °C (limit 60 °C)"},
		{At: now.Add(-24 * time.Hour), Kind: EventFault, Text: "Fault flags: cell overvoltage"},
	}
	if !reflect.DeepEqual(h.Negative, want) {
		t.Fatalf("negative events %+v, want %+v", h.Negative, want)
	}
}
