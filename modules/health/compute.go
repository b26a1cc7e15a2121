package health

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"swapbay/lib/schema"
)

// The derivation's constants (DESIGN.md §16). Each is a judgement, named so it can be found.
const (
	// MaxTempC is the temperature a reading may report before it counts as a negative event
	// (over_temperature): lithium-ion cells age fast and risk damage above 60 °C.
	MaxTempC = 60.0
	// EstimateMinSwing is how many points of state of charge a charge must cover to estimate
	// the capacity from it (energy ÷ the change in state of charge, Depotcharge's method):
	// a "dead-to-full" charge; a short top-up's figures are too noisy to scale up.
	EstimateMinSwing = 60.0
	// DropWindow is the window of the state-of-health trend (3 points in 30 days is worn).
	DropWindow = 30 * 24 * time.Hour
	// SeriesWindow bounds the series the pack page draws.
	SeriesWindow = 365 * 24 * time.Hour
)

// Sources of a state of health and bases of the full cycles, as the API names them.
const (
	SourceReading  = schema.PackSohSourceReading
	SourceEstimate = schema.PackSohSourceEstimate
	BasisEnergy    = "energy"  // energy throughput ÷ nominal Wh
	BasisCharges   = "charges" // completed charges: an upper bound of the full cycles

	EventDamage          = "damage"
	EventOverTemperature = "over_temperature"
	EventFault           = "fault"
)

// Reading is one imported reading as the derivation reads it: only the figures it had.
type Reading struct {
	At      time.Time
	Source  string
	Figures map[string]float64
	Faults  string
}

// Charge is one completed charging session that named the pack, with the pack's share of the
// energy the charger reported (0: not reported).
type Charge struct {
	At       time.Time
	EnergyWh float64
}

// Damage is a damage report (a pack_events row of kind damage).
type Damage struct {
	At   time.Time
	Text string
}

// Input is everything the derivation of one pack reads.
type Input struct {
	Now       time.Time
	NominalWh float64 // the model's, else the pack's own (0: unknown)
	Threshold float64 // the model's end-of-life threshold, % (DefaultPackThreshold when not configured)
	Charges   int     // the pack's completed charges (its chargeCount, kept by the journal)
	ChargeLog []Charge
	Readings  []Reading
	Damages   []Damage
}

// Point is one state-of-health figure: from a reading, or estimated from a charge.
type Point struct {
	At     time.Time `json:"at"`
	Value  float64   `json:"value"`
	Source string    `json:"source"`
}

// Capacity is the latest reading's capacity figures (each absent when the reading had none).
type Capacity struct {
	FullAh   *float64  `json:"fullAh,omitempty"`
	DesignAh *float64  `json:"designAh,omitempty"`
	FullWh   *float64  `json:"fullWh,omitempty"`
	DesignWh *float64  `json:"designWh,omitempty"`
	At       time.Time `json:"at"`
}

// Event is a negative event: a damage report, an over-temperature reading, a fault.
type Event struct {
	At   time.Time `json:"at"`
	Kind string    `json:"kind"`
	Text string    `json:"text"`
}

// Health is one pack's derived health. Figures SwapBay cannot know are nil or zero-timed.
type Health struct {
	Charges      int
	LastChargeAt time.Time // zero: never charged (as far as the ledger knows)

	FullCycles  float64
	CyclesBasis string
	CyclesAt    time.Time // the charge or reading the figure comes from

	EnergyWh *float64 // energy throughput (readings' energyWh + the sessions' shares)
	EnergyAt time.Time

	Soh      *Point
	Capacity *Capacity
	Drop30   *float64 // nil: no figure in the last 30 days
	SoC      *Point   // the latest reading's state of charge (socTo)

	Worn       bool
	WornReason string

	Series   []Point // the chosen source's points (readings win), oldest first
	Negative []Event // oldest first
}

// round1 rounds to one decimal, the precision every derived figure is kept at.
func round1(v float64) float64 { return math.Round(v*10) / 10 }

// num is a figure in words: 72, 72.5.
func num(v float64) string { return strconv.FormatFloat(round1(v), 'f', -1, 64) }

// readingSoh is the state of health a reading states: soh %, else full ÷ design capacity
// (Ah, else Wh). ok is false when it states none.
func readingSoh(r Reading) (float64, bool) {
	f := r.Figures
	if v, ok := f[schema.PackReadingFigureSoh]; ok {
		return v, true
	}
	if full, ok := f[schema.PackReadingFigureFullAh]; ok {
		if design, ok := f[schema.PackReadingFigureDesignAh]; ok && design > 0 {
			return min(100, full/design*100), true
		}
	}
	if full, ok := f[schema.PackReadingFigureFullWh]; ok {
		if design, ok := f[schema.PackReadingFigureDesignWh]; ok && design > 0 {
			return min(100, full/design*100), true
		}
	}
	return 0, false
}

// estimateSoh is the state of health a dead-to-full charge with its energy suggests: the
// energy ÷ the change in state of charge is the capacity, against the nominal Wh. The
// charger's energy includes its losses, so the estimate leans high: it is labelled so.
func estimateSoh(r Reading, nominalWh float64) (float64, bool) {
	f := r.Figures
	e, ok1 := f[schema.PackReadingFigureEnergyWh]
	from, ok2 := f[schema.PackReadingFigureSocFrom]
	to, ok3 := f[schema.PackReadingFigureSocTo]
	if !ok1 || !ok2 || !ok3 || nominalWh <= 0 || e <= 0 || to-from < EstimateMinSwing {
		return 0, false
	}
	return min(100, e/((to-from)/100)/nominalWh*100), true
}

// Compute computes one pack's health from in (pure: the hand-worked table tests it).
func Compute(in Input) Health {
	h := Health{Charges: max(in.Charges, 0), CyclesBasis: BasisCharges}
	threshold := in.Threshold
	if threshold <= 0 {
		threshold = schema.DefaultPackThreshold
	}
	readings := append([]Reading(nil), in.Readings...)
	sort.SliceStable(readings, func(i, j int) bool { return readings[i].At.Before(readings[j].At) })

	// energy throughput: the readings' energy and each session's share
	var energy float64
	known := false
	for _, c := range in.ChargeLog {
		if c.At.After(h.LastChargeAt) {
			h.LastChargeAt = c.At
		}
		if c.EnergyWh > 0 {
			energy, known = energy+c.EnergyWh, true
			if c.At.After(h.EnergyAt) {
				h.EnergyAt = c.At
			}
		}
	}
	var readingPts, estimatePts []Point
	for _, r := range readings {
		if e, ok := r.Figures[schema.PackReadingFigureEnergyWh]; ok && e > 0 {
			energy, known = energy+e, true
			if r.At.After(h.EnergyAt) {
				h.EnergyAt = r.At
			}
		}
		if v, ok := readingSoh(r); ok {
			readingPts = append(readingPts, Point{At: r.At, Value: round1(v), Source: SourceReading})
		} else if v, ok := estimateSoh(r, in.NominalWh); ok {
			estimatePts = append(estimatePts, Point{At: r.At, Value: round1(v), Source: SourceEstimate})
		}
		if soc, ok := r.Figures[schema.PackReadingFigureSocTo]; ok {
			h.SoC = &Point{At: r.At, Value: round1(soc), Source: r.Source}
		}
		f := r.Figures
		_, a := f[schema.PackReadingFigureFullAh]
		_, b := f[schema.PackReadingFigureDesignAh]
		_, c := f[schema.PackReadingFigureFullWh]
		_, d := f[schema.PackReadingFigureDesignWh]
		if a || b || c || d {
			h.Capacity = &Capacity{FullAh: figure(f, schema.PackReadingFigureFullAh), DesignAh: figure(f, schema.PackReadingFigureDesignAh),
				FullWh: figure(f, schema.PackReadingFigureFullWh), DesignWh: figure(f, schema.PackReadingFigureDesignWh), At: r.At}
		}
		if t, ok := f[schema.PackReadingFigureMaxTempC]; ok && t > MaxTempC {
			h.Negative = append(h.Negative, Event{At: r.At, Kind: EventOverTemperature,
				Text: fmt.Sprintf("Reached %s °C (limit %s °C)", num(t), num(MaxTempC))})
		}
		if s := strings.TrimSpace(r.Faults); s != "" {
			h.Negative = append(h.Negative, Event{At: r.At, Kind: EventFault, Text: "Fault flags: " + s})
		}
	}
	for _, d := range in.Damages {
		text := "Damage reported"
		if s := strings.TrimSpace(d.Text); s != "" {
			text += ": " + s
		}
		h.Negative = append(h.Negative, Event{At: d.At, Kind: EventDamage, Text: text})
	}
	sort.SliceStable(h.Negative, func(i, j int) bool { return h.Negative[i].At.Before(h.Negative[j].At) })
	if known {
		e := round1(energy)
		h.EnergyWh = &e
	}

	// full cycles: energy ÷ nominal Wh when both are known, else the charges (an upper bound)
	h.FullCycles, h.CyclesAt = float64(h.Charges), h.LastChargeAt
	if known && in.NominalWh > 0 {
		h.FullCycles, h.CyclesBasis, h.CyclesAt = round1(energy/in.NominalWh), BasisEnergy, h.EnergyAt
	}

	// state of health: the latest reading wins over any estimate
	h.Series = readingPts
	if len(h.Series) == 0 {
		h.Series = estimatePts
	}
	if n := len(h.Series); n > 0 {
		last := h.Series[n-1]
		h.Soh = &last
		if drop, ok := drop30(h.Series, in.Now); ok {
			h.Drop30 = &drop
		}
	}

	switch {
	case h.Soh != nil && h.Soh.Value < threshold:
		h.Worn = true
		h.WornReason = fmt.Sprintf("State of health %s%% is under the model's %s%%", num(h.Soh.Value), num(threshold))
	case h.Drop30 != nil && *h.Drop30 >= schema.PackWornDropPoints:
		h.Worn = true
		h.WornReason = fmt.Sprintf("Lost %s points of state of health in 30 days", num(*h.Drop30))
	}
	cut := in.Now.Add(-SeriesWindow)
	for len(h.Series) > 0 && h.Series[0].At.Before(cut) {
		h.Series = h.Series[1:]
	}
	return h
}

// drop30 is how many points the state of health fell in the 30 days before now: the highest
// figure in the window (or the last one before it, the value the window opened with) less the
// latest. ok is false when the latest figure is older than the window.
func drop30(pts []Point, now time.Time) (float64, bool) {
	start := now.Add(-DropWindow)
	last := pts[len(pts)-1]
	if last.At.Before(start) {
		return 0, false
	}
	high := last.Value
	for i, p := range pts {
		inWindow := !p.At.Before(start)
		opening := p.At.Before(start) && (i+1 < len(pts) && !pts[i+1].At.Before(start))
		if (inWindow || opening) && p.Value > high {
			high = p.Value
		}
	}
	return round1(max(0, high-last.Value)), true
}

func figure(f map[string]float64, key string) *float64 {
	if v, ok := f[key]; ok {
		return &v
	}
	return nil
}
