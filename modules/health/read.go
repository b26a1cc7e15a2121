package health

import (
	"sort"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
)

// MsgPackNotFound answers a pack id that is not (or no longer) there.
const MsgPackNotFound = "Pack not found"

// FullCycles is the equivalent full cycles and what they are counted from.
type FullCycles struct {
	Value float64 `json:"value"`
	Basis string  `json:"basis"` // energy | charges (an upper bound)
}

// WeekCharges is one week's completed charges (week: its Monday, YYYY-MM-DD, local).
type WeekCharges struct {
	Week    string `json:"week"`
	Charges int    `json:"charges"`
}

// Series are what the pack page draws (the last 365 days at most).
type Series struct {
	Soh            []Point       `json:"soh"`
	ChargesPerWeek []WeekCharges `json:"chargesPerWeek"`
}

// Report is the answer of GET /api/packs/{serial}/health.
type Report struct {
	Serial             string     `json:"serial"`
	Model              string     `json:"model"`
	Threshold          float64    `json:"threshold"`
	Charges            int        `json:"charges"`
	FullCycles         FullCycles `json:"fullCycles"`
	EnergyThroughputWh *float64   `json:"energyThroughputWh,omitempty"`
	Soh                *Point     `json:"soh,omitempty"`
	Capacity           *Capacity  `json:"capacity,omitempty"`
	Drop30             *float64   `json:"drop30,omitempty"`
	Worn               bool       `json:"worn"`
	WornReason         string     `json:"wornReason"`
	Series             Series     `json:"series"`
	NegativeEvents     []Event    `json:"negativeEvents"`
}

// Of derives the health of the pack packId as of now, with the model it was judged by
// (the read the pack page and the passport share; it writes nothing).
func Of(app core.App, packId string) (Health, Model, error) {
	d, err := loadOne(app, packId)
	if err != nil {
		return Health{}, Model{}, err
	}
	return Compute(d.in), d.model, nil
}

// loadOne reads the facts of the pack packId as of now (a 404 when there is no such pack).
func loadOne(app core.App, packId string) (*packData, error) {
	data, err := load(app, []string{packId}, clock.Now().UTC())
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, apierr.NotFound(MsgPackNotFound)
	}
	return data[0], nil
}

// Read answers the health report of the pack packId (its access was checked by the caller).
func Read(app core.App, packId string) (Report, error) {
	d, err := loadOne(app, packId)
	if err != nil {
		return Report{}, err
	}
	h := Compute(d.in)
	vals, err := settings.Load(app)
	if err != nil {
		return Report{}, err
	}
	loc := clock.LocationFor(vals[schema.SettingTimeZone])
	out := Report{Serial: d.pack.Serial, Model: d.pack.Model, Threshold: d.model.Threshold, Charges: h.Charges,
		FullCycles: FullCycles{Value: h.FullCycles, Basis: h.CyclesBasis}, EnergyThroughputWh: h.EnergyWh,
		Soh: h.Soh, Capacity: h.Capacity, Drop30: h.Drop30, Worn: h.Worn, WornReason: h.WornReason,
		Series: Series{Soh: h.Series, ChargesPerWeek: chargesPerWeek(d.in.ChargeLog, d.in.Now, loc)}, NegativeEvents: h.Negative}
	if out.Threshold <= 0 {
		out.Threshold = schema.DefaultPackThreshold
	}
	if out.Series.Soh == nil {
		out.Series.Soh = []Point{}
	}
	if out.NegativeEvents == nil {
		out.NegativeEvents = []Event{}
	}
	return out, nil
}

// chargesPerWeek counts the charges of the last 365 days by local week (Monday first), the
// weeks without a charge left out.
func chargesPerWeek(log []Charge, now time.Time, loc *time.Location) []WeekCharges {
	cut := now.Add(-SeriesWindow)
	counts := map[string]int{}
	for _, c := range log {
		if c.At.Before(cut) || c.At.After(now) {
			continue
		}
		counts[clock.DateString(clock.WeekStart(c.At, loc, 0))]++
	}
	out := make([]WeekCharges, 0, len(counts))
	for w, n := range counts {
		out = append(out, WeekCharges{Week: w, Charges: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Week < out[j].Week })
	return out
}
