package health_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/idempotency"
	"swapbay/lib/schema"
	"swapbay/modules/health"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

const testModel = "T-36V"

type world struct {
	t   *testing.T
	app core.App
	c   testkit.Callers
	url string
}

// newWorld serves a test app with one user per caller and n packs of testModel (360 Wh)
// waiting in the bay, pack tracking optional.
func newWorld(t *testing.T, n int) *world {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, 0, n, 0, n); err != nil {
		t.Fatal(err)
	}
	waiting, err := inventory.SystemAccount(app, inventory.KeyWaiting)
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.MintPacks(t, app, n, waiting.Id)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
	if _, err := app.DB().NewQuery("UPDATE packs SET model = {:m}, nominalWh = 360").Bind(dbx.Params{"m": testModel}).Execute(); err != nil {
		t.Fatal(err)
	}
	return &world{t: t, app: app, c: c, url: testkit.Serve(t, app).URL}
}

func serial(i int) string { return fmt.Sprintf("SWB-%06d", i) }

// do sends method path with body (JSON) as user (nil: a guest) with extra headers.
func (w *world) do(user *core.Record, method, path string, body any, extra ...string) (int, []byte, http.Header) {
	w.t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, w.url+path, r)
	for k, v := range testkit.Headers(w.t, user) {
		req.Header.Set(k, v)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		req.Header.Set(extra[i], extra[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw, res.Header
}

func decode[T any](t *testing.T, raw []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

func (w *world) count(table string) int {
	w.t.Helper()
	var n int
	if err := w.app.DB().NewQuery("SELECT COUNT(*) FROM " + table).Row(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// packRow reads a pack's derived health columns.
func (w *world) packRow(serial string) (soh float64, source string, worn bool, reason string) {
	w.t.Helper()
	var r struct {
		Soh    float64 `db:"soh"`
		Source string  `db:"sohSource"`
		Worn   bool    `db:"worn"`
		Reason string  `db:"wornReason"`
	}
	if err := w.app.DB().NewQuery("SELECT soh, sohSource, worn, wornReason FROM packs WHERE serial = {:s}").Bind(dbx.Params{"s": serial}).One(&r); err != nil {
		w.t.Fatal(err)
	}
	return r.Soh, r.Source, r.Worn, r.Reason
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Who may call each health route: one row per caller.
func TestHealthRoutesByCaller(t *testing.T) {
	w := newWorld(t, 2)
	csv := "serial,time,source,soh\n" + serial(1) + "," + stamp(clock.Now().Add(-time.Hour)) + ",bms,90\n"
	routes := []struct {
		method, path string
		body         any
		want         map[string]int
	}{
		{"GET", "/api/admin/packs/models", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 200, testkit.Admin: 200, testkit.Master: 200}},
		{"PUT", "/api/admin/packs/models", map[string]any{"model": testModel, "threshold": 80}, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		{"POST", "/api/admin/packs/readings", map[string]any{"csv": csv, "dryRun": true}, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		// a driver reads the health of a pack they hold only, as GET /api/packs/{serial}
		{"GET", "/api/packs/" + serial(1) + "/health", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 404, testkit.Liaison: 200, testkit.Admin: 200, testkit.Master: 200}},
	}
	for _, r := range routes {
		for _, who := range testkit.AllCallers {
			st, raw, _ := w.do(w.c.Pick(who), r.method, r.path, r.body)
			if st != r.want[who] {
				t.Errorf("%s %s as %s: %d %s, want %d", r.method, r.path, who, st, raw, r.want[who])
			}
		}
	}
	if n := w.count(schema.PackReadings); n != 0 {
		t.Fatalf("a dry run wrote %d readings", n)
	}
}

type rowErr struct {
	Line    int    `json:"line"`
	Serial  string `json:"serial"`
	Message string `json:"message"`
}

// The import's hostile rows are refused with the row named, in the preview and on apply, and
// nothing is written.
func TestReadingsImportRefusesHostileRows(t *testing.T) {
	w := newWorld(t, 2)
	now := clock.Now()
	at := stamp(now.Add(-2 * time.Hour))
	good := serial(1) + "," + at + ",bms,,90,,\n"
	header := "serial,time,source,energyWh,soh,fullAh,faults\n"
	hostile := []struct {
		name, row, want string
	}{
		{"NaN", serial(2) + "," + at + ",bms,,NaN,,", "soh must be a number"},
		{"Infinity", serial(2) + "," + at + ",charger,Infinity,,,", "energyWh must be a number"},
		{"1e309", serial(2) + "," + at + ",charger,1e309,,,", "energyWh must be a number"},
		{"negative", serial(2) + "," + at + ",charger,-5,,,", "energyWh must be from 0 to 100000"},
		{"% over 100", serial(2) + "," + at + ",bms,,101,,", "soh must be from 0 to 100"},
		{"zero capacity", serial(2) + "," + at + ",bms,,,0,", "fullAh must be above 0"},
		{"a future time", serial(2) + "," + stamp(now.Add(time.Hour)) + ",bms,,90,,", "is in the future"},
		{"not a time", serial(2) + ",yesterday,bms,,90,,", health.MsgTime},
		{"an unknown serial", "NOPE-1," + at + ",bms,,90,,", "No pack has serial NOPE-1"},
		{"a wrong source", serial(2) + "," + at + ",solar,,90,,", health.MsgSource},
		{"a 100 KB cell", serial(2) + "," + at + ",bms,,90,," + strings.Repeat("x", 100<<10), "A cell is longer than 200 characters"},
		{"a 100 KB serial", strings.Repeat("S", 100<<10) + "," + at + ",bms,,90,,", "A cell is longer than 200 characters"},
		{"no serial", "," + at + ",bms,,90,,", health.MsgSerialMissing},
	}
	for _, h := range hostile {
		csv := header + good + h.row + "\n"
		st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv, "dryRun": true})
		pre := decode[struct {
			Rows, Packs int
			Errors      []rowErr
		}](t, raw)
		if st != 200 || pre.Rows != 2 || len(pre.Errors) != 1 || pre.Errors[0].Line != 3 || !strings.Contains(pre.Errors[0].Message, h.want) {
			t.Errorf("%s: preview %d %.300s; want line 3 named with %q", h.name, st, raw, h.want)
			continue
		}
		st, raw, _ = w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv})
		body := decode[struct {
			Message string
			Data    struct{ Rows []rowErr }
		}](t, raw)
		if st != 400 || len(body.Data.Rows) != 1 || body.Data.Rows[0].Line != 3 || !strings.Contains(body.Message, "Nothing was imported") {
			t.Errorf("%s: apply %d %.300s; want 400 naming line 3", h.name, st, raw)
		}
	}
	// the file as a whole
	for name, c := range map[string]struct {
		csv    string
		status int
		want   string
	}{
		"no header":      {"", 400, health.MsgReadingsEmpty},
		"unknown column": {"serial,time,source,volts\n", 400, `Unknown column "volts"`},
		// the second soh column would have replaced the first's 90 with 10, unsaid
		"a column twice": {"serial,time,source,soh,SOH\n" + serial(1) + "," + at + ",bms,90,10\n", 400, `Column "soh" is named twice`},
		"serial twice":   {"serial,time,source,Serial\n" + serial(1) + "," + at + ",bms," + serial(2) + "\n", 400, `Column "serial" is named twice`},
		"missing source": {"serial,time\n" + serial(1) + "," + at + "\n", 400, health.MsgReadingsHeader},
		"over the limit": {header + strings.Repeat(good, health.MaxReadingsBody/len(good)+10), 413, ""},
		"too many rows":  {header + strings.Repeat(serial(1)+","+at+",bms,,,,\n", health.MaxReadingRows+1), 400, health.MsgReadingsTooMany},
	} {
		st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": c.csv})
		if st != c.status || !strings.Contains(string(raw), strings.ReplaceAll(c.want, `"`, `\"`)) {
			t.Errorf("%s: %d %.300s; want %d %q", name, st, raw, c.status, c.want)
		}
	}
	if n := w.count(schema.PackReadings); n != 0 {
		t.Fatalf("refused imports wrote %d readings", n)
	}
	if soh, _, _, _ := w.packRow(serial(1)); soh != 0 {
		t.Fatalf("refused imports derived a state of health %v", soh)
	}
}

// 10,000 readings are imported in one transaction: all of them, or (one bad row) none.
func TestReadingsImportTenThousandRowsInOneTransaction(t *testing.T) {
	w := newWorld(t, 100)
	now := clock.Now()
	var sb strings.Builder
	sb.WriteString("serial,time,source,soh,energyWh,socFrom,socTo\n")
	for i := range health.MaxReadingRows {
		p := i%100 + 1
		fmt.Fprintf(&sb, "%s,%s,bms,%.1f,300,10,95\n", serial(p), stamp(now.Add(-time.Duration(i+1)*time.Minute)), 99-float64(i%30)/10)
	}
	csv := sb.String()
	bad := strings.Replace(csv, ",bms,", ",solar,", 1) // the first data row, line 2
	bad = bad[:len(bad)-len("\n")]
	st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": bad})
	if st != 400 || w.count(schema.PackReadings) != 0 || !strings.Contains(string(raw), `"line":2`) {
		t.Fatalf("a file with one bad row: %d %.300s, %d readings written; want 400 naming line 2, none", st, raw, w.count(schema.PackReadings))
	}
	start := time.Now()
	st, raw, _ = w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv})
	took := time.Since(start)
	out := decode[health.Imported](t, raw)
	if st != 200 || out.Rows != health.MaxReadingRows || out.Packs != 100 || w.count(schema.PackReadings) != health.MaxReadingRows {
		t.Fatalf("10,000 rows: %d %.300s, %d stored", st, raw, w.count(schema.PackReadings))
	}
	var keys int
	if err := w.app.DB().NewQuery("SELECT COUNT(DISTINCT [[import]]) FROM " + schema.PackReadings).Row(&keys); err != nil || keys != 1 {
		t.Fatalf("the readings carry %d import keys (%v); want the one request's", keys, err)
	}
	if soh, source, _, _ := w.packRow(serial(1)); soh == 0 || source != schema.PackSohSourceReading {
		t.Fatalf("pack 1 after the import: soh %v from %q", soh, source)
	}
	t.Logf("10,000 readings imported in %s (target ≤ 5 s; BENCHMARKS.md measures it)", took)
	if took > 20*time.Second {
		t.Fatalf("10,000 readings took %s", took)
	}
}

// A replayed Idempotency-Key answers the same and imports nothing twice.
func TestReadingsReplayedKeyAnswersTheSame(t *testing.T) {
	w := newWorld(t, 2)
	csv := "serial,time,source,soh\n" + serial(1) + "," + stamp(clock.Now().Add(-time.Hour)) + ",bms,75\n" +
		serial(2) + "," + stamp(clock.Now().Add(-time.Hour)) + ",bms,95\n"
	key := "replay-readings-1"
	st1, raw1, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv}, idempotency.Header, key)
	st2, raw2, h2 := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv}, idempotency.Header, key)
	if st1 != 200 || st2 != 200 || !bytes.Equal(raw1, raw2) || h2.Get(idempotency.ReplayedHeader) == "" {
		t.Fatalf("replay: %d %s / %d %s (replayed %q)", st1, raw1, st2, raw2, h2.Get(idempotency.ReplayedHeader))
	}
	out := decode[health.Imported](t, raw1)
	if out.Rows != 2 || len(out.Worn) != 1 || out.Worn[0] != serial(1) || w.count(schema.PackReadings) != 2 {
		t.Fatalf("import %+v, %d readings stored; want 2, %s worn", out, w.count(schema.PackReadings), serial(1))
	}
}

// PUT models stores the model's figures and re-derives its packs: a higher threshold wears a
// pack, the default clears it again.
func TestModelsPutRederivesWorn(t *testing.T) {
	w := newWorld(t, 3)
	csv := "serial,time,source,soh\n" + serial(1) + "," + stamp(clock.Now().Add(-time.Hour)) + ",bms,82\n"
	if st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv}); st != 200 {
		t.Fatalf("import: %d %s", st, raw)
	}
	if _, _, worn, _ := w.packRow(serial(1)); worn {
		t.Fatal("82% worn under the default 80")
	}
	type modelAnswer struct {
		Success bool
		Message string
		Model   health.ModelRow
	}
	st, raw, _ := w.do(w.c.Admin, "PUT", "/api/admin/packs/models", map[string]any{"model": testModel, "nominalWh": 360, "ratedAh": 10, "threshold": 85})
	ans := decode[modelAnswer](t, raw)
	if st != 200 || !ans.Model.Configured || ans.Model.Threshold != 85 || ans.Model.Packs != 3 || ans.Model.Worn != 1 {
		t.Fatalf("PUT threshold 85: %d %s", st, raw)
	}
	if _, _, worn, reason := w.packRow(serial(1)); !worn || reason != "State of health 82% is under the model's 85%" {
		t.Fatalf("after threshold 85: worn %v %q", worn, reason)
	}
	st, raw, _ = w.do(w.c.Liaison, "GET", "/api/admin/packs/models", nil)
	list := decode[struct{ Models []health.ModelRow }](t, raw)
	if st != 200 || len(list.Models) != 1 || list.Models[0].Model.Model != testModel || list.Models[0].Worn != 1 || list.Models[0].NominalWh != 360 {
		t.Fatalf("models: %d %s", st, raw)
	}
	if st, raw, _ := w.do(w.c.Admin, "PUT", "/api/admin/packs/models", map[string]any{"model": testModel, "threshold": 80}); st != 200 {
		t.Fatalf("PUT threshold 80: %d %s", st, raw)
	}
	if _, _, worn, reason := w.packRow(serial(1)); worn || reason != "" {
		t.Fatalf("after threshold 80: worn %v %q", worn, reason)
	}
	for name, body := range map[string]string{
		"threshold 0":       `{"model":"T-36V","threshold":0}`,
		"threshold 101":     `{"model":"T-36V","threshold":101}`,
		"threshold missing": `{"model":"T-36V"}`,
		"threshold as text": `{"model":"T-36V","threshold":"85"}`,
		"1e309":             `{"model":"T-36V","threshold":80,"nominalWh":1e309}`,
		"negative Wh":       `{"model":"T-36V","threshold":80,"nominalWh":-1}`,
		"no model":          `{"model":"  ","threshold":80}`,
		"a 101-rune model":  `{"model":"` + strings.Repeat("ü", 101) + `","threshold":80}`,
	} {
		st, raw, _ := w.do(w.c.Admin, "PUT", "/api/admin/packs/models", json.RawMessage(body))
		if st != 400 {
			t.Errorf("%s: %d %.200s; want 400", name, st, raw)
		}
	}
	if st, raw, _ := w.do(w.c.Admin, "PUT", "/api/admin/packs/models", json.RawMessage(`{"model":"`+strings.Repeat("m", 100<<10)+`","threshold":80}`)); st != 413 {
		t.Errorf("a 100 KB model: %d %.200s; want 413", st, raw)
	}
	var threshold float64
	_ = w.app.DB().NewQuery("SELECT threshold FROM pack_models").Row(&threshold)
	if threshold != 80 || w.count(schema.PackModels) != 1 {
		t.Fatalf("refused PUTs changed the model: threshold %v, %d rows", threshold, w.count(schema.PackModels))
	}
}

// A charging session's completion keeps the charger's energy and derives its packs' throughput
// (the energy split over the packs it names); a bad energy is refused and changes nothing.
func TestChargingCompletionEnergy(t *testing.T) {
	w := newWorld(t, 2)
	st, raw, _ := w.do(w.c.Admin, "POST", "/api/start-charging", map[string]any{"chargerType": "5A", "quantity": 2, "packs": []string{serial(1), serial(2)}})
	if st != 200 {
		t.Fatalf("start: %d %s", st, raw)
	}
	id := decode[struct{ Session struct{ Id string } }](t, raw).Session.Id
	for name, body := range map[string]string{
		"negative": `{"energyWh": -1}`,
		"zero":     `{"energyWh": 0}`,
		"too much": `{"energyWh": 100001}`,
		"1e309":    `{"energyWh": 1e309}`,
		"text":     `{"energyWh": "300"}`,
	} {
		st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/charge/"+id+"/complete", json.RawMessage(body))
		if st != 400 {
			t.Errorf("%s: %d %.200s; want 400", name, st, raw)
		}
	}
	var status string
	_ = w.app.DB().NewQuery("SELECT status FROM charging_sessions WHERE id = {:id}").Bind(dbx.Params{"id": id}).Row(&status)
	if status != schema.SessionStatusActive {
		t.Fatalf("refused completions left the session %s", status)
	}
	st, raw, _ = w.do(w.c.Admin, "POST", "/api/admin/charge/"+id+"/complete", map[string]any{"energyWh": 300})
	if st != 200 || !strings.Contains(string(raw), "Charging session completed successfully") || !strings.Contains(string(raw), `"energyWh":300`) {
		t.Fatalf("complete: %d %s", st, raw)
	}
	st, raw, _ = w.do(w.c.Admin, "GET", "/api/packs/"+serial(1)+"/health", nil)
	rep := decode[health.Report](t, raw)
	if st != 200 || rep.Charges != 1 || rep.EnergyThroughputWh == nil || *rep.EnergyThroughputWh != 150 ||
		rep.FullCycles.Basis != health.BasisEnergy || rep.FullCycles.Value != 0.4 || len(rep.Series.ChargesPerWeek) != 1 {
		t.Fatalf("health after a 300 Wh charge of two packs: %d %s", st, raw)
	}
	var energy float64
	_ = w.app.DB().NewQuery("SELECT energyThroughputWh FROM packs WHERE serial = {:s}").Bind(dbx.Params{"s": serial(2)}).Row(&energy)
	if energy != 150 {
		t.Fatalf("pack 2's stored throughput %v, want 150", energy)
	}
}

// The health read of a worn demo pack: its state of health from readings, the series, the
// reason in words, the negative events.
func TestHealthReadOfDemoPacks(t *testing.T) {
	w := newWorld(t, 10)
	serials := make([]string, 10)
	for i := range serials {
		serials[i] = serial(i + 1)
	}
	st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": health.DemoReadingsCSV(serials, clock.Now())})
	out := decode[health.Imported](t, raw)
	if st != 200 || len(out.Worn) != 2 { // index 1 (fast) and index 4 (worn)
		t.Fatalf("demo import: %d %s", st, raw)
	}
	fast, worn := serials[1], serials[4]
	if out.Worn[0] != fast || out.Worn[1] != worn {
		t.Fatalf("worn %v, want %s and %s", out.Worn, fast, worn)
	}
	_, raw, _ = w.do(w.c.Admin, "GET", "/api/packs/"+fast+"/health", nil)
	rep := decode[health.Report](t, raw)
	if !rep.Worn || !strings.HasPrefix(rep.WornReason, "Lost ") || rep.Drop30 == nil || *rep.Drop30 < 3 || rep.Soh == nil || rep.Soh.Value < 80 {
		t.Fatalf("the fast pack: %s", raw)
	}
	_, raw, _ = w.do(w.c.Admin, "GET", "/api/packs/"+worn+"/health", nil)
	rep = decode[health.Report](t, raw)
	if !rep.Worn || rep.Soh == nil || rep.Soh.Source != health.SourceReading || rep.Soh.Value >= 80 || len(rep.Series.Soh) != 7 ||
		rep.Capacity == nil || rep.Capacity.DesignAh == nil || rep.Threshold != 80 || rep.FullCycles.Basis != health.BasisEnergy {
		t.Fatalf("the worn pack: %s", raw)
	}
	_, raw, _ = w.do(w.c.Admin, "GET", "/api/packs/"+serials[2]+"/health", nil)
	if !strings.Contains(string(raw), `"kind":"over_temperature"`) {
		t.Fatalf("the hot pack has no over-temperature event: %s", raw)
	}
	_, raw, _ = w.do(w.c.Admin, "GET", "/api/packs/"+serials[0]+"/health", nil)
	if rep := decode[health.Report](t, raw); rep.Worn || rep.WornReason != "" || rep.Soh == nil || strings.Contains(string(raw), "drop30\":null") {
		t.Fatalf("a healthy pack: %s", raw)
	}
	// the nightly job re-derives the same
	n, err := health.RederiveAll(w.app)
	if err != nil || n != 10 {
		t.Fatalf("RederiveAll: %d, %v", n, err)
	}
	if _, _, isWorn, _ := w.packRow(worn); !isWorn {
		t.Fatal("the nightly re-derivation cleared a worn pack")
	}
}

// The same readings imported again (another key) add nothing: a reading is a pack, a time and
// a source, so the energy is not counted twice.
func TestReadingsImportedTwiceCountOnce(t *testing.T) {
	w := newWorld(t, 2)
	at := stamp(clock.Now().Add(-time.Hour))
	csv := "serial,time,source,energyWh,socFrom,socTo\n" + serial(1) + "," + at + ",charger,180,10,60\n"
	for i, want := range []string{"1 readings imported for 1 packs", "0 readings imported for 1 packs (1 already imported: the same pack, time and source)"} {
		st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv})
		if out := decode[health.Imported](t, raw); st != 200 || out.Message != want || out.Rows != 1 || out.Added != 1-i {
			t.Fatalf("import %d: %d %s; want %q", i+1, st, raw, want)
		}
	}
	_, raw, _ := w.do(w.c.Admin, "GET", "/api/packs/"+serial(1)+"/health", nil)
	if rep := decode[health.Report](t, raw); rep.EnergyThroughputWh == nil || *rep.EnergyThroughputWh != 180 || w.count(schema.PackReadings) != 1 {
		t.Fatalf("after two imports: %s, %d readings", raw, w.count(schema.PackReadings))
	}
}

// A time without a zone (YYYY-MM-DD HH:MM) is read in the operation's time zone.
func TestReadingsLocalTimeInTheOperationsZone(t *testing.T) {
	w := newWorld(t, 1)
	rec, err := w.app.FindFirstRecordByData(schema.Settings, schema.SettingKey, schema.SettingTimeZone)
	if err != nil {
		t.Fatal(err)
	}
	rec.Set(schema.SettingValue, "Europe/Berlin")
	if err := w.app.Save(rec); err != nil {
		t.Fatal(err)
	}
	csv := "serial,time,source,soh\n" + serial(1) + ",2026-07-01 10:30,bms,91\n"
	if st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv}); st != 200 {
		t.Fatalf("import: %d %s", st, raw)
	}
	var at string
	if err := w.app.DB().NewQuery("SELECT at FROM pack_readings").Row(&at); err != nil || !strings.HasPrefix(at, "2026-07-01 08:30:00") {
		t.Fatalf("stored at %q (%v), want 08:30 UTC (10:30 in Berlin, summer time)", at, err)
	}
}

// The nightly re-derivation slides the 30-day window: a pack that lost 5 points is worn today
// and no longer 40 days later, with no new reading.
func TestRederiveAllSlidesTheWindow(t *testing.T) {
	w := newWorld(t, 2)
	now := clock.Now()
	csv := "serial,time,source,soh\n" + serial(1) + "," + stamp(now.AddDate(0, 0, -20)) + ",bms,95\n" +
		serial(1) + "," + stamp(now.AddDate(0, 0, -1)) + ",bms,90\n"
	if st, raw, _ := w.do(w.c.Admin, "POST", "/api/admin/packs/readings", map[string]any{"csv": csv}); st != 200 {
		t.Fatalf("import: %d %s", st, raw)
	}
	if _, _, worn, reason := w.packRow(serial(1)); !worn || reason != "Lost 5 points of state of health in 30 days" {
		t.Fatalf("today: worn %v %q", worn, reason)
	}
	defer clock.Set(func() time.Time { return now.AddDate(0, 0, 40) })()
	if n, err := health.RederiveAll(w.app); err != nil || n != 1 {
		t.Fatalf("RederiveAll: %d, %v", n, err)
	}
	if soh, _, worn, reason := w.packRow(serial(1)); worn || reason != "" || soh != 90 {
		t.Fatalf("40 days later: soh %v, worn %v %q", soh, worn, reason)
	}
}
