package packs

import (
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/schema"
	"swapbay/modules/health"
)

// The battery passport (DESIGN.md §14, issue 37): GET /api/packs/{serial}/passport answers the
// attributes of the Battery Pass data model v1.2.0 (batterypass/BatteryPassDataModel, commit
// 4c96de2) that SwapBay's own records hold, in that model's shape, one object per aspect
// (generalProductInformation, materialComposition, performanceAndDurability). What SwapBay
// cannot know — the BMS figures no reading gave (state of charge, remaining capacity,
// throughput), the time spent at extreme temperatures, the manufacturer's data it was never
// given (mass, manufacturing place, warranty, materials) — is absent, never invented. The access rights are the longlist's (docs/1.2 xlsx): the
// public sees identity and product data; the use-phase attributes ("persons with a legitimate
// interest": status, date put into service, full cycles, accidents) are answered to admins
// only. The answer names no person: not the holder, not who reported an incident.
//
// How each attribute is filled, and how the pinned schema's defects are met
// (modules/packs/testdata/batterypass/README.md has the same table for the test's mapping):
//
//	attribute (aspect)                         from                                     access
//	productIdentifier (GPI)                    the serial (ISO/IEC 15459 style)         public
//	batteryPassportIdentifier (GPI)            urn:swapbay:<pack record id>             public
//	batteryCategory (GPI)                      "lmt": every pack a swap bay lends       public
//	manufacturerInformation.contactName (GPI)  the registry's manufacturer (a company)  public
//	manufacturingDate (GPI)                    manufactured, YYYY-MM (1)                public
//	batteryChemistry {shortName, clearName}    chemistry; clearName from a short table  public
//	batteryStatus (GPI)                        state and history (2)                    admins
//	puttingIntoService (GPI)                   inServiceSince, YYYY-MM (1)              admins
//	batteryCondition.numberOfFullCycles        energy ÷ nominal Wh, else completed      admins
//	                                           charges, an upper bound (3)
//	batteryCondition.energyThroughput          readings' and sessions' energy, kWh (4)  admins
//	batteryCondition.capacityFade              100 − state of health, % (4)             admins
//	batteryCondition.remainingCapacity         latest reading's full Wh, else state of  admins
//	                                           health × nominal Wh, kWh (4)
//	batteryCondition.stateOfCharge             the latest reading's socTo, % (4)        admins
//	batteryCondition.negativeEvents            the damage reports, each with the link   admins
//	                                           to its incident PDF ("report"); readings
//	                                           over health.MaxTempC or with fault flags
//
// (1) The regulation and the longlist say Date[YYYY-MM]; the schema says date-time. SwapBay
// answers YYYY-MM (its stricter check) and the schema test maps it to the month's first
// instant. (2) Original; Reused ("re-used" in the regulation, the schema's enum spells it
// "Reused") once a repair is recorded (a pack back in service from maintenance: DIN DKE SPEC
// 99100 puts repairs under re-used); Waste when retired or recycled (the operator discards
// it). Repurposed and Remanufactured are never answered: no SwapBay record says so. (3) A
// number ≥ 0 (the schema leaves it unbounded): with energy, one decimal; else the whole count
// of charges. Its lastUpdate is the time of the charge or reading it comes from (the pack's
// registration when it was never charged), never the request's. (4) Derived by modules/health
// (DESIGN.md §16), absent when unknown; each figure's lastUpdate is the time of the reading or
// charge it comes from, and swapbay.performance says where each came from.

// PassportDataModel names the data model and version the passport answers.
const PassportDataModel = "Battery Pass data model v1.2.0"

// PassportCategory is the battery category of every pack SwapBay tracks: light means of
// transport (e-scooter) batteries.
const PassportCategory = "lmt"

// The battery statuses of the data model's BatteryStatusEnumeration, spelt as its schema does.
const (
	StatusOriginal = "Original"
	StatusReused   = "Reused"
	StatusWaste    = "Waste"
)

// Passport is the answer of GET /api/packs/{serial}/passport.
type Passport struct {
	DataModel                 string                    `json:"dataModel"`
	Restricted                bool                      `json:"restricted"` // true: the use-phase attributes are included (admins)
	GeneralProductInformation GeneralProductInformation `json:"generalProductInformation"`
	MaterialComposition       *MaterialComposition      `json:"materialComposition,omitempty"`
	PerformanceAndDurability  *PerformanceAndDurability `json:"performanceAndDurability,omitempty"`
	// SwapBay is the registry's own record of the pack, outside the data model: what the label
	// and the public page show besides the model's attributes.
	SwapBay PassportRegistry `json:"swapbay"`
}

// GeneralProductInformation is the data model's GeneralProductInformation aspect, the
// attributes SwapBay holds.
type GeneralProductInformation struct {
	ProductIdentifier         string                   `json:"productIdentifier"`
	BatteryPassportIdentifier string                   `json:"batteryPassportIdentifier"`
	BatteryCategory           string                   `json:"batteryCategory"`
	ManufacturerInformation   *ManufacturerInformation `json:"manufacturerInformation,omitempty"`
	ManufacturingDate         string                   `json:"manufacturingDate,omitempty"`  // YYYY-MM
	BatteryStatus             string                   `json:"batteryStatus,omitempty"`      // admins
	PuttingIntoService        string                   `json:"puttingIntoService,omitempty"` // admins; YYYY-MM
}

// ManufacturerInformation names the manufacturer (a company, from the registry).
type ManufacturerInformation struct {
	ContactName string `json:"contactName"`
}

// MaterialComposition is the data model's MaterialComposition aspect: the chemistry only.
type MaterialComposition struct {
	BatteryChemistry BatteryChemistry `json:"batteryChemistry"`
}

// BatteryChemistry is the chemistry's short and clear names.
type BatteryChemistry struct {
	ShortName string `json:"shortName"`
	ClearName string `json:"clearName"`
}

// PerformanceAndDurability is the data model's PerformanceAndDurability aspect: the battery
// condition SwapBay's records give (admins).
type PerformanceAndDurability struct {
	BatteryCondition BatteryCondition `json:"batteryCondition"`
}

// BatteryCondition holds the full cycles, the negative events (accidents) and the figures the
// health derivation knows (each absent when unknown).
type BatteryCondition struct {
	EnergyThroughput   *float64        `json:"energyThroughput,omitempty"` // kWh (the schema's plain number: its lastUpdate is in swapbay.performance)
	NumberOfFullCycles FullCycles      `json:"numberOfFullCycles"`
	CapacityFade       *CapacityFade   `json:"capacityFade,omitempty"`
	RemainingCapacity  *RemainingCap   `json:"remainingCapacity,omitempty"`
	StateOfCharge      *StateOfCharge  `json:"stateOfCharge,omitempty"`
	NegativeEvents     []NegativeEvent `json:"negativeEvents"`
}

// FullCycles is the number of full cycles and when it last changed.
type FullCycles struct {
	Value      float64 `json:"numberOfFullCyclesValue"`
	LastUpdate string  `json:"lastUpdate"`
}

// CapacityFade is the capacity lost, % of the rated capacity, and when it was read.
type CapacityFade struct {
	Value      float64 `json:"capacityFadeValue"`
	LastUpdate string  `json:"lastUpdate"`
}

// RemainingCap is the capacity left, kWh, and when it was read.
type RemainingCap struct {
	Value      float64 `json:"remainingCapacityValue"`
	LastUpdate string  `json:"lastUpdate"`
}

// StateOfCharge is the latest reading's state of charge, %, and its time.
type StateOfCharge struct {
	Value      float64 `json:"stateOfChargeValue"`
	LastUpdate string  `json:"lastUpdate"`
}

// PerformanceSource says where a performance figure came from (SwapBay's extension).
type PerformanceSource struct {
	Source     string `json:"source"`
	LastUpdate string `json:"lastUpdate"`
}

// NegativeEvent is one accident: a damage report, its note, when, and the link to its
// incident PDF (Report: SwapBay's addition, the longlist's "representation to document").
type NegativeEvent struct {
	NegativeEvent string `json:"negativeEvent"`
	LastUpdate    string `json:"lastUpdate"`
	Report        string `json:"report,omitempty"` // damage reports only
	Kind          string `json:"kind"`             // damage | over_temperature | fault (SwapBay's addition)
	at            time.Time
}

// PassportRegistry is the pack as SwapBay's registry records it (public: no person, no place).
type PassportRegistry struct {
	Serial          string  `json:"serial"`
	Model           string  `json:"model"`
	Chemistry       string  `json:"chemistry"`
	NominalEnergyWh float64 `json:"nominalEnergyWh"`
	Manufacturer    string  `json:"manufacturer"`
	Lot             string  `json:"lot"`
	Manufactured    string  `json:"manufactured"` // YYYY-MM or ""
	State           string  `json:"state"`
	StateLabel      string  `json:"stateLabel"` // the state in words: "In service"
	// Performance says where each performance figure came from and when (admins only, like
	// the figures): energyThroughput, numberOfFullCycles, capacityFade, remainingCapacity,
	// stateOfCharge, each present when the figure is.
	Performance map[string]PerformanceSource `json:"performance,omitempty"`
}

// chemistryNames are the clear names of the common cell chemistries' short names; any other
// chemistry's clear name is the registry's text as given.
var chemistryNames = map[string]string{
	"NMC":  "Lithium nickel manganese cobalt oxide",
	"NCM":  "Lithium nickel cobalt manganese oxide",
	"NCA":  "Lithium nickel cobalt aluminium oxide",
	"LFP":  "Lithium iron phosphate",
	"LMO":  "Lithium manganese oxide",
	"LCO":  "Lithium cobalt oxide",
	"LTO":  "Lithium titanate",
	"NIMH": "Nickel-metal hydride",
}

// passportTime is how the data model's Timestamp reads (UTC, seconds).
const passportTime = "2006-01-02T15:04:05Z"

// PassportLabel is how a state reads on the public page: "In service".
func PassportLabel(state string) string {
	s := StateLabel(state)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// yearMonth is d's month as YYYY-MM (UTC), or "" when d is zero.
func yearMonth(d types.DateTime) string {
	if d.IsZero() {
		return ""
	}
	return d.Time().UTC().Format("2006-01")
}

type passportEvent struct {
	Id        string `db:"id"`
	Kind      string `db:"kind"`
	At        string `db:"at"`
	Reason    string `db:"reason"`
	FromState string `db:"fromState"`
	ToState   string `db:"toState"`
}

// PackPassport answers the passport of the pack with serial: the public attributes, and with
// restricted the use-phase ones too (admins). site (scheme and host) makes the incident PDFs'
// links absolute. An unknown serial is a 404.
func PackPassport(app core.App, serial string, restricted bool, site string) (Passport, error) {
	p, err := FindBySerial(app, serial)
	if err != nil {
		return Passport{}, err
	}
	out := Passport{
		DataModel:  PassportDataModel,
		Restricted: restricted,
		GeneralProductInformation: GeneralProductInformation{
			ProductIdentifier:         p.Serial(),
			BatteryPassportIdentifier: "urn:swapbay:" + strings.ToLower(p.Id),
			BatteryCategory:           PassportCategory,
			ManufacturingDate:         p.Manufactured(),
		},
		SwapBay: PassportRegistry{Serial: p.Serial(), Model: p.Model(), Chemistry: p.Chemistry(), NominalEnergyWh: p.NominalWh(),
			Manufacturer: p.Manufacturer(), Lot: p.Lot(), Manufactured: p.Manufactured(), State: p.State(), StateLabel: PassportLabel(p.State())},
	}
	if m := strings.TrimSpace(p.Manufacturer()); m != "" {
		out.GeneralProductInformation.ManufacturerInformation = &ManufacturerInformation{ContactName: m}
	}
	if c := strings.TrimSpace(p.Chemistry()); c != "" {
		clear := chemistryNames[strings.ToUpper(c)]
		if clear == "" {
			clear = c
		}
		out.MaterialComposition = &MaterialComposition{BatteryChemistry: BatteryChemistry{ShortName: c, ClearName: clear}}
	}
	if !restricted {
		return out, nil
	}

	// the use phase: the repairs (status), the damage reports (accidents) and the last charge
	var events []passportEvent
	err = app.DB().Select("id", "kind", "at", "reason", "fromState", "toState").From(schema.PackEvents).
		Where(dbx.HashExp{schema.PackEventPack: p.Id}).
		AndWhere(dbx.Or(
			dbx.HashExp{schema.PackEventKind: schema.PackEventDamage},
			dbx.HashExp{schema.PackEventKind: schema.PackEventState, schema.PackEventFromState: schema.PackStateMaintenance,
				schema.PackEventToState: schema.PackStateInService},
		)).
		OrderBy("at ASC", "created ASC").All(&events)
	if err != nil {
		return Passport{}, err
	}
	h, model, err := health.Of(app, p.Id)
	if err != nil {
		return Passport{}, err
	}

	status, accidents := StatusOriginal, []NegativeEvent{}
	for _, e := range events {
		if e.Kind != schema.PackEventDamage {
			status = StatusReused
			continue
		}
		note := "Damage reported"
		if r := strings.TrimSpace(e.Reason); r != "" {
			note += ": " + r
		}
		at, _ := types.ParseDateTime(e.At)
		accidents = append(accidents, NegativeEvent{NegativeEvent: note, LastUpdate: stamp(e.At),
			Report: IncidentReportURL(site, p.Serial(), e.Id), Kind: health.EventDamage, at: at.Time()})
	}
	for _, n := range h.Negative { // the readings' over-temperatures and faults
		if n.Kind != health.EventDamage {
			accidents = append(accidents, NegativeEvent{NegativeEvent: n.Text, LastUpdate: timestamp(n.At), Kind: n.Kind, at: n.At})
		}
	}
	sort.SliceStable(accidents, func(i, j int) bool { return accidents[i].at.Before(accidents[j].at) })
	if s := p.State(); s == schema.PackStateRetired || s == schema.PackStateRecycled {
		status = StatusWaste
	}
	out.SwapBay.Performance = map[string]PerformanceSource{}
	gpi := &out.GeneralProductInformation
	gpi.BatteryStatus = status
	gpi.PuttingIntoService = yearMonth(p.InServiceSince())
	out.PerformanceAndDurability = &PerformanceAndDurability{BatteryCondition: condition(p, h, model, accidents, out.SwapBay.Performance)}
	return out, nil
}

// Where the performance figures come from (swapbay.performance's sources).
const (
	SourceEnergy           = "Energy charged: imported readings' energyWh and completed charging sessions' reported energy (a session's energy split evenly over the packs it names)"
	SourceCyclesEnergy     = "Energy throughput ÷ nominal energy (%s Wh)"
	SourceCyclesCharges    = "Completed charging sessions naming the pack: an upper bound of the full cycles (no energy known)"
	SourceFadeReading      = "100 − state of health from the latest battery reading"
	SourceFadeEstimate     = "100 − state of health estimated from a dead-to-full charge's energy (an estimate)"
	SourceRemainingReading = "Full capacity (Wh) of the latest battery reading"
	SourceRemainingSoh     = "State of health × nominal energy (%s Wh)"
	SourceStateOfCharge    = "State of charge at the end of the latest reading (socTo)"
)

// condition fills the battery condition from the derived health h of p (judged by model),
// recording each figure's source in sources.
func condition(p *Pack, h health.Health, model health.Model, accidents []NegativeEvent, sources map[string]PerformanceSource) BatteryCondition {
	nominal := model.NominalWh
	if nominal <= 0 {
		nominal = p.NominalWh()
	}
	wh := strconv.FormatFloat(nominal, 'f', -1, 64)
	cyclesAt := timestamp(h.CyclesAt)
	if h.CyclesAt.IsZero() { // never charged: the count has stood since the pack was registered
		cyclesAt = stamp(p.GetDateTime(schema.Created).String())
	}
	c := BatteryCondition{NumberOfFullCycles: FullCycles{Value: max(h.FullCycles, 0), LastUpdate: cyclesAt}, NegativeEvents: accidents}
	if h.CyclesBasis == health.BasisEnergy {
		sources["numberOfFullCycles"] = PerformanceSource{Source: fmt.Sprintf(SourceCyclesEnergy, wh), LastUpdate: cyclesAt}
	} else {
		sources["numberOfFullCycles"] = PerformanceSource{Source: SourceCyclesCharges, LastUpdate: cyclesAt}
	}
	if h.EnergyWh != nil {
		kwh := round3(*h.EnergyWh / 1000)
		c.EnergyThroughput = &kwh
		sources["energyThroughput"] = PerformanceSource{Source: SourceEnergy, LastUpdate: timestamp(h.EnergyAt)}
	}
	if h.Soh != nil {
		at := timestamp(h.Soh.At)
		c.CapacityFade = &CapacityFade{Value: round3(100 - h.Soh.Value), LastUpdate: at}
		src := SourceFadeReading
		if h.Soh.Source == health.SourceEstimate {
			src = SourceFadeEstimate
		}
		sources["capacityFade"] = PerformanceSource{Source: src, LastUpdate: at}
		switch {
		case h.Capacity != nil && h.Capacity.FullWh != nil && !h.Capacity.At.Before(h.Soh.At):
			at := timestamp(h.Capacity.At)
			c.RemainingCapacity = &RemainingCap{Value: round3(*h.Capacity.FullWh / 1000), LastUpdate: at}
			sources["remainingCapacity"] = PerformanceSource{Source: SourceRemainingReading, LastUpdate: at}
		case nominal > 0:
			c.RemainingCapacity = &RemainingCap{Value: round3(h.Soh.Value / 100 * nominal / 1000), LastUpdate: at}
			sources["remainingCapacity"] = PerformanceSource{Source: fmt.Sprintf(SourceRemainingSoh, wh), LastUpdate: at}
		}
	}
	if h.SoC != nil {
		at := timestamp(h.SoC.At)
		c.StateOfCharge = &StateOfCharge{Value: h.SoC.Value, LastUpdate: at}
		sources["stateOfCharge"] = PerformanceSource{Source: SourceStateOfCharge, LastUpdate: at}
	}
	return c
}

// round3 keeps three decimals (Wh precision in kWh).
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// timestamp is t as the data model's Timestamp ("" for the zero time).
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Truncate(time.Second).Format(passportTime)
}

// stamp is a stored time as the data model's Timestamp ("" stays "").
func stamp(stored string) string {
	d, err := types.ParseDateTime(stored)
	if err != nil || d.IsZero() {
		return ""
	}
	return d.Time().UTC().Truncate(time.Second).Format(passportTime)
}

// IncidentReportURL is the address of the incident PDF of the damage report eventId of the
// pack with serial, on site (scheme and host).
func IncidentReportURL(site, serial, eventId string) string {
	return strings.TrimRight(site, "/") + "/api/admin/packs/" + url.PathEscape(serial) + "/incidents/" + url.PathEscape(eventId) + "/report"
}
