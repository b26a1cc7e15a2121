package packs_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/pocketbase/pocketbase/core"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/packs"
)

// The passport's schema test: the answer, mapped as testdata/batterypass/README.md says,
// validates against the Battery Pass v1.2.0 schemas pinned at commit 4c96de2.

// loadSchema reads a pinned schema file, converting a UTF-16LE file with a BOM (how the
// consortium's generator wrote most of them) to UTF-8, and decodes it keeping numbers exact.
func loadSchema(t *testing.T, name string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "batterypass", name))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(raw, []byte{0xFF, 0xFE}) {
		units := make([]uint16, (len(raw)-2)/2)
		if err := binary.Read(bytes.NewReader(raw[2:]), binary.LittleEndian, units); err != nil {
			t.Fatal(err)
		}
		raw = []byte(string(utf16.Decode(units)))
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc.(map[string]any)
}

// relaxed drops names from the required list of the schema at path (a JSON pointer's parts)
// in doc: the attributes SwapBay does not hold. A name the list does not have fails the
// test, so the mapping table cannot drift from the pinned schema.
func relaxed(t *testing.T, doc map[string]any, path []string, names ...string) {
	t.Helper()
	node := doc
	for _, p := range path {
		next, ok := node[p].(map[string]any)
		if !ok {
			t.Fatalf("schema has no %s", strings.Join(path, "/"))
		}
		node = next
	}
	req, _ := node["required"].([]any)
	for _, n := range names {
		i := slices.Index(req, any(n))
		if i < 0 {
			t.Fatalf("%s/required has no %q: the pinned schema changed", strings.Join(path, "/"), n)
		}
		req = slices.Delete(req, i, i+1)
	}
	node["required"] = req
}

// gpiVariant is which optional GPI attributes an answer holds (what is absent must not be required).
type gpiVariant struct{ manufacturer, manufactured, status, inService bool }

// passportSchemas compiles the pinned schemas with the documented mapping.
type passportSchemas struct {
	t      *testing.T
	mu     sync.Mutex
	gpi    map[gpiVariant]*jsonschema.Schema
	mc, pd *jsonschema.Schema
}

var conditionRequired = []string{"energyThroughput", "capacityThroughput", "stateOfCertifiedEnergy", "capacityFade",
	"remainingEnergy", "remainingCapacity", "temperatureInformation", "remainingPowerCapability", "powerFade",
	"roundTripEfficiencyFade", "evolutionOfSelfDischarge", "currentSelfDischargingRate", "internalResistanceIncrease",
	"roundTripEfficiencyat50PerCentCycleLife", "remainingRoundTripEnergyEfficiency", "stateOfCharge"}

func compileSchema(t *testing.T, url string, doc map[string]any) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", url, err)
	}
	return s
}

func newPassportSchemas(t *testing.T) *passportSchemas {
	mc := loadSchema(t, "MaterialComposition-schema.json")
	relaxed(t, mc, nil, "batteryMaterials", "hazardousSubstances")
	pd := loadSchema(t, "PerformanceAndDurability-schema.json")
	relaxed(t, pd, nil, "batteryTechicalProperties")
	relaxed(t, pd, []string{"components", "schemas", "BatteryConditionEntity"}, conditionRequired...)
	return &passportSchemas{t: t, gpi: map[gpiVariant]*jsonschema.Schema{},
		mc: compileSchema(t, "https://swapbay.test/MaterialComposition-schema.json", mc),
		pd: compileSchema(t, "https://swapbay.test/PerformanceAndDurability-schema.json", pd)}
}

// gpiSchema is the GPI schema for an answer holding v (compiled once per variant).
func (s *passportSchemas) gpiSchema(v gpiVariant) *jsonschema.Schema {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.gpi[v]; c != nil {
		return c
	}
	doc := loadSchema(s.t, "GeneralProductInformation-schema.json")
	drop := []string{"batteryMass", "manufacturingPlace", "operatorInformation", "warrentyPeriod"} // not held
	for name, held := range map[string]bool{"manufacturerInformation": v.manufacturer, "manufacturingDate": v.manufactured,
		"batteryStatus": v.status, "puttingIntoService": v.inService} {
		if !held {
			drop = append(drop, name)
		}
	}
	relaxed(s.t, doc, nil, drop...)
	relaxed(s.t, doc, []string{"components", "schemas", "ContactInformationEntity"}, "postalAddress", "identifier")
	c := compileSchema(s.t, fmt.Sprintf("https://swapbay.test/GeneralProductInformation-%t-%t-%t-%t.json", v.manufacturer, v.manufactured, v.status, v.inService), doc)
	s.gpi[v] = c
	return c
}

var yearMonthRE = regexp.MustCompile(`^[0-9]{4}-(0[1-9]|1[0-2])$`)

// schemaDate maps the answer's YYYY-MM to the schema's date-time (the month's first instant).
func schemaDate(m map[string]any, key string) {
	if s, ok := m[key].(string); ok && yearMonthRE.MatchString(s) {
		m[key] = s + "-01T00:00:00Z"
	}
}

// validate checks raw (a passport answer) against the pinned schemas after the mapping and
// returns what fails.
func (s *passportSchemas) validate(raw []byte) error {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return err
	}
	gpi, _ := doc["generalProductInformation"].(map[string]any)
	if gpi == nil {
		return fmt.Errorf("no generalProductInformation")
	}
	v := gpiVariant{manufacturer: gpi["manufacturerInformation"] != nil, manufactured: gpi["manufacturingDate"] != nil,
		status: gpi["batteryStatus"] != nil, inService: gpi["puttingIntoService"] != nil}
	schemaDate(gpi, "manufacturingDate")
	schemaDate(gpi, "puttingIntoService")
	if err := s.gpiSchema(v).Validate(gpi); err != nil {
		return fmt.Errorf("GeneralProductInformation: %w", err)
	}
	if mc, ok := doc["materialComposition"]; ok {
		if err := s.mc.Validate(mc); err != nil {
			return fmt.Errorf("MaterialComposition: %w", err)
		}
	}
	if pd, ok := doc["performanceAndDurability"]; ok {
		if err := s.pd.Validate(pd); err != nil {
			return fmt.Errorf("PerformanceAndDurability: %w", err)
		}
	}
	return nil
}

// restrictedKeys are the use-phase attributes (legitimate interest only).
var restrictedKeys = []string{`"batteryStatus"`, `"puttingIntoService"`, `"performanceAndDurability"`, `"batteryCondition"`,
	`"numberOfFullCycles"`, `"negativeEvents"`, `"negativeEvent"`}

// randomPack is what the test made for one pack, to check the answer by.
type randomPack struct {
	serial, state string
	damages       []string // event ids
	repaired      bool
	chargeCount   int
	inService     bool
}

// seedRandomPack saves a pack with random registry values and a random history acted by people.
func seedRandomPack(t *testing.T, app core.App, rng *rand.Rand, i int, people []*core.Record) randomPack {
	t.Helper()
	pc, _ := app.FindCollectionByNameOrId(schema.Packs)
	ec, _ := app.FindCollectionByNameOrId(schema.PackEvents)
	pick := func(options ...string) string { return options[rng.Intn(len(options))] }
	rp := randomPack{serial: fmt.Sprintf("RND-%04d", i), state: schema.PackStates[rng.Intn(len(schema.PackStates))],
		chargeCount: rng.Intn(3000), inService: rng.Intn(5) > 0}
	p := packs.NewPack(pc)
	p.Set(schema.PackSerial, rp.serial)
	p.Set(schema.PackModel, pick("S-48V 15Ah", "Scooter pack 2", "Ω-Zelle 36V", "X"))
	p.Set(schema.PackChemistry, pick("NMC", "LFP", "nca", "Na-ion", ""))
	p.Set(schema.PackNominalWh, float64(rng.Intn(2000)))
	p.Set(schema.PackManufacturer, pick("Voltcell GmbH", "北京电池", "Ünal Akü A.Ş.", ""))
	p.Set(schema.PackLot, pick("", fmt.Sprintf("L%d", rng.Intn(99999))))
	if rng.Intn(6) > 0 {
		p.Set(schema.PackManufactured, fmt.Sprintf("%04d-%02d", 2019+rng.Intn(8), 1+rng.Intn(12)))
	}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.Intn(600*24)) * time.Hour)
	if rp.inService {
		p.Set(schema.PackInServiceSince, start)
	}
	p.Set(schema.PackState, rp.state)
	p.Set(schema.PackChargeCount, rp.chargeCount)
	p.Set(schema.PackLastSeenBy, people[rng.Intn(len(people))].Id)
	p.Set(schema.PackLastSeenAt, start)
	if err := app.Save(p); err != nil {
		t.Fatal(err)
	}
	at := start
	for n := rng.Intn(25); n >= 0; n-- {
		at = at.Add(time.Duration(1+rng.Intn(72)) * time.Hour)
		actor := people[rng.Intn(len(people))].Id
		kind := pick(schema.PackEventMoved, schema.PackEventCharged, schema.PackEventDamage, schema.PackEventState, schema.PackEventState, schema.PackEventFound)
		ev := packs.NewEvent(ec, p.Id, kind, actor, at)
		switch kind {
		case schema.PackEventDamage:
			ev.Set(schema.PackEventReason, pick("Swollen casing", "Dropped from the van", "Scorch mark near the connector — smells"))
		case schema.PackEventState, schema.PackEventFound:
			from, to := pick(schema.PackStates...), pick(schema.PackStates...)
			if rng.Intn(3) == 0 {
				from, to = schema.PackStateMaintenance, schema.PackStateInService
			}
			ev.Set(schema.PackEventFromState, from)
			ev.Set(schema.PackEventToState, to)
			ev.Set(schema.PackEventReason, "cell check")
			rp.repaired = rp.repaired || (kind == schema.PackEventState && from == schema.PackStateMaintenance && to == schema.PackStateInService)
		}
		if err := app.Save(ev); err != nil {
			t.Fatal(err)
		}
		if kind == schema.PackEventDamage {
			rp.damages = append(rp.damages, ev.Id)
		}
	}
	return rp
}

// 100 random packs with random histories: the passport, for the public and for admins,
// validates against the pinned schema after the documented mapping; the public answer holds
// none of the restricted attributes; neither names a person; SwapBay's stricter checks hold.
func TestPassportOfRandomPacksValidates(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	schemas := newPassportSchemas(t)
	people := []*core.Record{testkit.CreateUser(t, app, roles.Driver, roles.Approved), testkit.CreateUser(t, app, roles.Admin, roles.Approved),
		testkit.CreateUser(t, app, roles.Liaison, roles.Approved)}
	people[0].Set(schema.UserFirstName, "Amélie")
	people[0].Set(schema.UserLastName, "Zuckerbrot")
	if err := app.Save(people[0]); err != nil {
		t.Fatal(err)
	}
	var personal []string
	for _, u := range people {
		personal = append(personal, u.GetString(schema.UserFirstName), u.GetString(schema.UserLastName), u.Email())
	}
	const site = "https://bay.example"
	rng := rand.New(rand.NewSource(37))
	accidents := 0
	for i := range 100 {
		rp := seedRandomPack(t, app, rng, i, people)
		for _, restricted := range []bool{false, true} {
			p, err := packs.PackPassport(app, rp.serial, restricted, site)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(p)
			if err := schemas.validate(raw); err != nil {
				t.Fatalf("%s (restricted %v) does not validate: %v\n%s", rp.serial, restricted, err, raw)
			}
			for _, name := range personal {
				if bytes.Contains(raw, []byte(name)) {
					t.Fatalf("%s (restricted %v) names a person (%q): %s", rp.serial, restricted, name, raw)
				}
			}
			gpi := p.GeneralProductInformation
			for _, d := range []string{gpi.ManufacturingDate, gpi.PuttingIntoService, p.SwapBay.Manufactured} {
				if d != "" && !yearMonthRE.MatchString(d) {
					t.Fatalf("%s: date %q is not YYYY-MM", rp.serial, d)
				}
			}
			if gpi.ProductIdentifier != rp.serial || p.SwapBay.State != rp.state || p.Restricted != restricted {
				t.Fatalf("%s: identity %+v", rp.serial, p)
			}
			if !restricted {
				for _, k := range restrictedKeys {
					if bytes.Contains(raw, []byte(k)) {
						t.Fatalf("%s: the public answer holds %s: %s", rp.serial, k, raw)
					}
				}
				continue
			}
			want := packs.StatusOriginal
			switch {
			case rp.state == schema.PackStateRetired || rp.state == schema.PackStateRecycled:
				want = packs.StatusWaste
			case rp.repaired:
				want = packs.StatusReused
			}
			if gpi.BatteryStatus != want || (gpi.PuttingIntoService != "") != rp.inService {
				t.Fatalf("%s: status %q (want %q), put into service %q (%v)", rp.serial, gpi.BatteryStatus, want, gpi.PuttingIntoService, rp.inService)
			}
			cond := p.PerformanceAndDurability.BatteryCondition
			if cond.NumberOfFullCycles.Value != float64(rp.chargeCount) || cond.NumberOfFullCycles.Value < 0 || cond.NumberOfFullCycles.LastUpdate == "" {
				t.Fatalf("%s: cycles %+v, want %d", rp.serial, cond.NumberOfFullCycles, rp.chargeCount)
			}
			if len(cond.NegativeEvents) != len(rp.damages) {
				t.Fatalf("%s: %d accidents, want %d", rp.serial, len(cond.NegativeEvents), len(rp.damages))
			}
			for j, a := range cond.NegativeEvents {
				if a.Report != site+"/api/admin/packs/"+rp.serial+"/incidents/"+rp.damages[j]+"/report" || !strings.HasPrefix(a.NegativeEvent, "Damage reported: ") {
					t.Fatalf("%s: accident %+v", rp.serial, a)
				}
			}
			accidents += len(cond.NegativeEvents)
		}
	}
	if accidents == 0 {
		t.Fatal("no random pack had an accident: the test checked no negative event")
	}
	t.Logf("100 packs, %d accidents, %d GPI variants", accidents, len(schemas.gpi))
}

// The mapped schema still refuses what it should: the test can fail.
func TestPassportSchemaRefusesBadAnswers(t *testing.T) {
	schemas := newPassportSchemas(t)
	good := `{"generalProductInformation":{"productIdentifier":"SWB-000001","batteryPassportIdentifier":"urn:swapbay:abc123",` +
		`"batteryCategory":"lmt","manufacturingDate":"2026-03","batteryStatus":"Reused","puttingIntoService":"2026-04"},` +
		`"performanceAndDurability":{"batteryCondition":{"numberOfFullCycles":{"numberOfFullCyclesValue":3,"lastUpdate":"2026-05-01T10:00:00Z"},"negativeEvents":[]}}}`
	if err := schemas.validate([]byte(good)); err != nil {
		t.Fatalf("good answer refused: %v", err)
	}
	for name, bad := range map[string][2]string{
		"status spelt as the regulation": {`"Reused"`, `"re-used"`},
		"unknown category":               {`"lmt"`, `"scooter"`},
		"passport id not a urn":          {`"urn:swapbay:abc123"`, `"SWB-000001"`},
		"a day, not a month":             {`"2026-03"`, `"2026-03-15"`},
		"cycles as text":                 {`3,"lastUpdate"`, `"3","lastUpdate"`},
		"cycles without lastUpdate":      {`,"lastUpdate":"2026-05-01T10:00:00Z"}`, `}`},
	} {
		if err := schemas.validate([]byte(strings.Replace(good, bad[0], bad[1], 1))); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Who asks decides what the passport holds: one row per caller; unknown serial 404.
func TestPassportRouteByCaller(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	if st, raw := srv.do(testkit.Headers(t, c.Master), "POST", "/api/admin/packs/mint", mintBody); st != 200 {
		t.Fatalf("mint = %d %s", st, raw)
	}
	want := map[string]bool{testkit.Guest: false, testkit.Pending: false, testkit.Driver: false, testkit.Liaison: false,
		testkit.Admin: true, testkit.Master: true}
	for _, who := range testkit.AllCallers {
		h := map[string]string{}
		if who != testkit.Guest {
			h = testkit.Headers(t, c.Pick(who))
		}
		st, raw := srv.do(h, "GET", "/api/packs/SWB-000001/passport", nil)
		if st != 200 {
			t.Fatalf("%s: %d %s", who, st, raw)
		}
		p := decode[packs.Passport](t, raw)
		if p.Restricted != want[who] || (p.PerformanceAndDurability != nil) != want[who] || (p.GeneralProductInformation.BatteryStatus != "") != want[who] {
			t.Errorf("%s: restricted %v, %s", who, p.Restricted, raw)
		}
		if p.SwapBay.Model != "S-48V 15Ah" || p.SwapBay.StateLabel != "In service" || p.GeneralProductInformation.ManufacturingDate != "2026-03" {
			t.Errorf("%s: %s", who, raw)
		}
	}
	if st, raw := srv.do(nil, "GET", "/api/packs/SWB-999999/passport", nil); st != 404 {
		t.Fatalf("unknown serial = %d %s", st, raw)
	}
	// a flood from one address is refused (PassportLimit): every caller and the unknown serial
	// asked above, from the same address
	asked, refused := len(testkit.AllCallers)+1, 0
	for range packs.PassportLimit.PerIP.N {
		if st, raw := srv.do(nil, "GET", "/api/packs/SWB-000001/passport", nil); st == 429 {
			if e := decode[errBody](t, raw); e.Code != "too_many_requests" {
				t.Fatalf("429 without its code: %s", raw)
			}
			refused++
		}
	}
	if refused != asked {
		t.Fatalf("%d of %d requests refused, want the %d over %d a minute", refused, packs.PassportLimit.PerIP.N, asked, packs.PassportLimit.PerIP.N)
	}
}
