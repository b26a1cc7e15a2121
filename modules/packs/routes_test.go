package packs_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
)

type server struct {
	t   *testing.T
	url string
}

// start makes a test app with one user per caller and serves it.
func start(t *testing.T) (*tests.TestApp, testkit.Callers, server) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	return app, c, server{t, testkit.Serve(t, app).URL}
}

// do sends method path with body (JSON) as headers h and returns the status and body.
func (s server) do(h map[string]string, method, path string, body any) (int, []byte) {
	s.t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, s.url+path, r)
	for k, v := range h {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

func decode[T any](t *testing.T, raw []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

type errBody struct {
	Message string         `json:"message"`
	Code    string         `json:"code"`
	Data    map[string]any `json:"data"`
}

var mintBody = map[string]any{"count": 3, "model": "S-48V 15Ah", "chemistry": "NMC", "nominalWh": 720,
	"manufacturer": "Voltcell", "lot": "L2026-03", "manufactured": "2026-03"}

// Who may call each pack route: one row per caller (DESIGN.md §4).
func TestPackRoutesByCaller(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	if st, raw := srv.do(testkit.Headers(t, c.Master), "POST", "/api/admin/packs/mint", mintBody); st != 200 {
		t.Fatalf("mint = %d %s", st, raw)
	}
	routes := []struct {
		method, path string
		body         any
		want         map[string]int // caller → status
	}{
		{"POST", "/api/admin/packs/mint", mintBody, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		{"GET", "/api/admin/packs/labels?serials=SWB-000001", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		{"POST", "/api/admin/packs/import", map[string]any{"csv": "serial,model\nOLD-1,X\n", "dryRun": true}, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		{"GET", "/api/packs", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 200, testkit.Liaison: 200, testkit.Admin: 200, testkit.Master: 200}},
		{"GET", "/api/packs/lookup?serials=SWB-000001,NOPE-1", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 200, testkit.Liaison: 200, testkit.Admin: 200, testkit.Master: 200}},
		{"GET", "/api/packs/out-of-use", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 200, testkit.Liaison: 200, testkit.Admin: 200, testkit.Master: 200}},
		// a driver holds no pack: the page is a 404 as for an unknown serial
		{"GET", "/api/packs/SWB-000001", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 404, testkit.Liaison: 200, testkit.Admin: 200, testkit.Master: 200}},
		{"PUT", "/api/admin/packs/SWB-000002/state", map[string]any{"state": "maintenance", "reason": "cell check"}, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 409}},
		// a driver who never held the pack: 404 as its page; the master's report finds it quarantined (200)
		{"POST", "/api/packs/SWB-000001/damage", map[string]any{"note": "swollen"}, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 404, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		{"GET", "/api/admin/packs/recall-preview?by=lot&value=L2026-03", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		// the master's recall of the same lot finds nothing left to quarantine
		{"POST", "/api/admin/packs/recall", map[string]any{"by": "lot", "value": "L2026-03", "reason": "supplier notice"}, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 409}},
		{"GET", "/api/admin/packs/recalls", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 200, testkit.Master: 200}},
		{"GET", "/api/admin/packs/recalls/unknown", nil, map[string]int{testkit.Guest: 401, testkit.Pending: 403, testkit.Driver: 403, testkit.Liaison: 403, testkit.Admin: 404, testkit.Master: 404}},
	}
	for _, r := range routes {
		for _, who := range testkit.AllCallers {
			h := testkit.Headers(t, c.Pick(who))
			if who == testkit.Guest {
				h = map[string]string{"Content-Type": "application/json"}
			}
			st, raw := srv.do(h, r.method, r.path, r.body)
			if st != r.want[who] {
				t.Errorf("%s %s as %s = %d %s; want %d", r.method, r.path, who, st, raw, r.want[who])
			}
		}
	}
	// the master's second change of the same pack found it already in maintenance (since
	// quarantined by the recall: the same refusal)
	st, raw := srv.do(testkit.Headers(t, c.Master), "PUT", "/api/admin/packs/SWB-000002/state", map[string]any{"state": "quarantined", "reason": "x"})
	if e := decode[errBody](t, raw); st != 409 || e.Code != "pack_state" {
		t.Fatalf("same state = %d %s; want 409 pack_state", st, raw)
	}
}

// An admin mints 24 packs; the label sheet is a PDF with 24 serials whose QR codes, rendered
// at 150 dpi, each decode to <site>/p/<serial>. Bad mints are refused naming the field.
func TestMintAndLabelSheet(t *testing.T) {
	for _, tool := range []string{"pdftotext", "pdftoppm", "zbarimg"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: run make tools (apt-get install poppler-utils zbar-tools)", tool)
		}
	}
	app, c, srv := start(t)
	defer app.Cleanup()
	admin := testkit.Headers(t, c.Admin)

	for _, bad := range []struct {
		field string
		body  map[string]any
	}{
		{"count", map[string]any{"count": 0, "model": "M"}},
		{"count", map[string]any{"count": 1001, "model": "M"}},
		{"count", map[string]any{"count": 2.5, "model": "M"}},
		{"model", map[string]any{"count": 2, "model": " "}},
		{"manufactured", map[string]any{"count": 2, "model": "M", "manufactured": "2026-13"}},
		{"nominalWh", map[string]any{"count": 2, "model": "M", "nominalWh": -1}},
	} {
		st, raw := srv.do(admin, "POST", "/api/admin/packs/mint", bad.body)
		e := decode[errBody](t, raw)
		if st != 400 || e.Code != "validation_failed" || e.Data[bad.field] == nil {
			t.Errorf("mint %v = %d %s; want 400 naming %s", bad.body, st, raw, bad.field)
		}
	}
	if n, _ := app.CountRecords(schema.Packs); n != 0 {
		t.Fatalf("refused mints left %d packs", n)
	}

	body := map[string]any{"count": 24, "model": "S-48V 15Ah", "lot": "L7", "manufactured": "2026-02"}
	st, raw := srv.do(admin, "POST", "/api/admin/packs/mint", body)
	if st != 200 {
		t.Fatalf("mint 24 = %d %s", st, raw)
	}
	minted := decode[struct {
		Packs     []struct{ Serial string }
		LabelsURL string `json:"labelsUrl"`
	}](t, raw)
	if len(minted.Packs) != 24 || minted.Packs[0].Serial != "SWB-000001" || minted.Packs[23].Serial != "SWB-000024" {
		t.Fatalf("minted %+v", minted.Packs)
	}
	st, pdf := srv.do(admin, "GET", minted.LabelsURL, nil)
	if st != 200 || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("labels = %d %.100s", st, pdf)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "labels.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	text, err := exec.Command("pdftotext", in, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := 1; i <= 24; i++ {
		s := packs.Serial("SWB", i)
		want = append(want, srv.url+"/p/"+s)
		if !strings.Contains(string(text), s) {
			t.Errorf("the sheet's text lacks %s", s)
		}
	}
	if out, err := exec.Command("pdftoppm", "-r", "150", "-png", in, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "page*.png"))
	if len(pages) != 1 {
		t.Fatalf("24 labels on %d pages; want 1", len(pages))
	}
	out, err := exec.Command("zbarimg", "-q", "--raw", pages[0]).Output() // stderr: zbar's own noise
	if err != nil {
		t.Fatalf("zbarimg: %v", err)
	}
	got := strings.Fields(string(out))
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("decoded %d codes %v; want the 24 URLs %v", len(got), got, want)
	}

	// the sequence goes on after the last number, and the prefix the master admin set is used
	master := testkit.Headers(t, c.Master)
	if st, raw := srv.do(admin, "POST", "/api/admin/settings", map[string]any{"settings": []map[string]any{{"key": "pack_prefix", "value": "NYC"}}}); st != 403 {
		t.Fatalf("admin sets the prefix = %d %s; want 403 (master admin's)", st, raw)
	}
	if st, raw := srv.do(master, "POST", "/api/admin/settings", map[string]any{"settings": []map[string]any{{"key": "pack_prefix", "value": "nyc"}}}); st != 200 {
		t.Fatalf("master sets the prefix = %d %s", st, raw)
	}
	// the days before a pack is missing are the master admin's too, from 1 to 365
	for _, c := range []struct {
		who   map[string]string
		value any
		want  int
	}{{admin, "10", 403}, {master, "0", 400}, {master, "ten", 400}, {master, "10", 200}} {
		if st, raw := srv.do(c.who, "POST", "/api/admin/settings", map[string]any{"settings": []map[string]any{{"key": "pack_missing_days", "value": c.value}}}); st != c.want {
			t.Fatalf("pack_missing_days = %v: %d %s; want %d", c.value, st, raw, c.want)
		}
	}
	st, raw = srv.do(admin, "POST", "/api/admin/packs/mint", map[string]any{"count": 1, "model": "M"})
	if got := decode[struct{ Packs []struct{ Serial string } }](t, raw); st != 200 || got.Packs[0].Serial != "NYC-000025" {
		t.Fatalf("mint after the prefix change = %d %s; want NYC-000025", st, raw)
	}
	for _, q := range []string{"?serials=SWB-000001,NOPE-1", "", "?serials=" + strings.Repeat("A,", 1001)} {
		st, raw := srv.do(admin, "GET", "/api/admin/packs/labels"+q, nil)
		if st != 400 {
			t.Errorf("labels%.40s = %d %s; want 400", q, st, raw)
		}
	}
	if _, raw := srv.do(admin, "GET", "/api/admin/packs/labels?serials=SWB-000001,NOPE-1", nil); decode[errBody](t, raw).Code != "pack_unknown" {
		t.Errorf("an unknown serial's code = %s; want pack_unknown", raw)
	}
}

// The CSV import: the preview names each bad row and writes nothing; a confirm with a bad row
// writes nothing; a clean confirm writes every row with its event, in one transaction.
func TestImport(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	admin := testkit.Headers(t, c.Admin)
	if st, raw := srv.do(admin, "POST", "/api/admin/packs/mint", map[string]any{"count": 1, "model": "M"}); st != 200 {
		t.Fatalf("mint = %d %s", st, raw)
	}
	csv := "Serial,Model,nominalWh,manufactured,inServiceSince,state,lot\n" +
		"old-1,Nova 48,720,2024-05,2024-06-01,in service,A\n" + // line 2: fine (serial upper-cased)
		"OLD-2,,abc,2024-13,,broken,A\n" + // line 3: model, Wh, month, state
		"SWB-000001,Nova 48,,,,,A\n" + // line 4: already registered
		"OLD-1,Nova 48,,,,,A\n" + // line 5: twice in the file
		"bad serial!,Nova 48,,,,,A\n" + // line 6
		"OLD-3,Nova 48,,,06/01/2024,,A\n" // line 7: date
	st, raw := srv.do(admin, "POST", "/api/admin/packs/import", map[string]any{"csv": csv, "dryRun": true})
	if st != 200 {
		t.Fatalf("preview = %d %s", st, raw)
	}
	res := decode[packs.ImportResult](t, raw)
	bad := map[int]int{}
	for _, r := range res.Rows {
		bad[r.Line] = len(r.Errors)
	}
	if want := map[int]int{2: 0, 3: 4, 4: 1, 5: 1, 6: 1, 7: 1}; fmt.Sprint(bad) != fmt.Sprint(want) || res.Valid != 1 || res.Invalid != 5 {
		t.Fatalf("preview errors per line %v (valid %d, invalid %d); want %v\n%s", bad, res.Valid, res.Invalid, want, raw)
	}
	if n, _ := app.CountRecords(schema.Packs); n != 1 {
		t.Fatalf("the preview wrote: %d packs", n)
	}
	st, raw = srv.do(admin, "POST", "/api/admin/packs/import", map[string]any{"csv": csv})
	if e := decode[errBody](t, raw); st != 409 || e.Code != "pack_duplicate" || !strings.Contains(e.Message, "line 3") {
		t.Fatalf("confirm with bad rows = %d %s; want 409 pack_duplicate naming line 3", st, raw)
	}
	if n, _ := app.CountRecords(schema.Packs); n != 1 {
		t.Fatalf("a refused import wrote: %d packs", n)
	}
	good := "serial,model,lot,state\nOLD-1,Nova 48,A,in_service\nOLD-2,Nova 48,A,maintenance\n"
	st, raw = srv.do(admin, "POST", "/api/admin/packs/import", map[string]any{"csv": good})
	if res := decode[packs.ImportResult](t, raw); st != 200 || res.Imported != 2 {
		t.Fatalf("import = %d %s", st, raw)
	}
	p, err := packs.FindBySerial(app, "old-2")
	if err != nil || p.State() != schema.PackStateMaintenance || p.Lot() != "A" {
		t.Fatalf("imported OLD-2 = %v %v", p, err)
	}
	if n, _ := app.CountRecords(schema.PackEvents); n != 3 {
		t.Fatalf("%d events; want 3 (1 created, 2 imported)", n)
	}
	for _, body := range []map[string]any{{"csv": ""}, {"csv": "model\nX\n"}, {"csv": "serial,model\n"}} {
		if st, raw := srv.do(admin, "POST", "/api/admin/packs/import", body); st != 400 {
			t.Errorf("import %v = %d %s; want 400", body, st, raw)
		}
	}
}

// State changes follow the table; lost keeps the state before and a find returns to it; the
// history shows each change with who and why (the liaison sees no reason).
func TestStateAndHistory(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	admin := testkit.Headers(t, c.Admin)
	srv.do(admin, "POST", "/api/admin/packs/mint", map[string]any{"count": 2, "model": "M"})
	steps := []struct {
		state  string
		status int
		code   string
	}{
		{"maintenance", 200, ""},
		{"lost", 200, ""},
		{"maintenance", 200, ""}, // found: back to what it was
		{"recycled", 409, "pack_state"},
		{"quarantined", 200, ""},
		{"recycled", 409, "pack_state"}, // retired first (issue 37)
		{"retired", 200, ""},
		{"recycled", 200, ""},
		{"in_service", 409, "pack_state"},
		{"broken", 400, "validation_failed"},
	}
	for _, s := range steps {
		st, raw := srv.do(admin, "PUT", "/api/admin/packs/SWB-000001/state", map[string]any{"state": s.state, "reason": "because " + s.state})
		if e := decode[errBody](t, raw); st != s.status || (s.code != "" && e.Code != s.code) {
			t.Fatalf("→ %s = %d %s; want %d %s", s.state, st, raw, s.status, s.code)
		}
	}
	if st, raw := srv.do(admin, "PUT", "/api/admin/packs/SWB-000002/state", map[string]any{"state": "lost"}); st != 400 {
		t.Fatalf("no reason = %d %s; want 400", st, raw)
	}
	if st, _ := srv.do(admin, "PUT", "/api/admin/packs/NOPE/state", map[string]any{"state": "lost", "reason": "x"}); st != 404 {
		t.Fatalf("unknown serial = %d; want 404", st)
	}
	_, raw := srv.do(admin, "GET", "/api/packs/swb-000001", nil)
	d := decode[packs.Detail](t, raw)
	var kinds []string
	for _, h := range d.History {
		kinds = append(kinds, h.Kind+":"+h.ToState)
	}
	if d.State != "recycled" || strings.Join(kinds, " ") != "state:recycled state:retired state:quarantined found:maintenance state:lost state:maintenance created:" ||
		d.History[0].Reason != "because recycled" || d.History[0].Actor == nil || d.History[0].Actor.Id != c.Admin.Id {
		t.Fatalf("detail %s %v %+v", d.State, kinds, d.History[0])
	}
	_, raw = srv.do(testkit.Headers(t, c.Liaison), "GET", "/api/packs/SWB-000001", nil)
	if d := decode[packs.Detail](t, raw); d.History[0].Reason != "" {
		t.Fatalf("the liaison sees the reason %q", d.History[0].Reason)
	}
}

// The list: counts per state, the filters, the search, and a driver sees only the packs they hold.
func TestList(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	admin := testkit.Headers(t, c.Admin)
	srv.do(admin, "POST", "/api/admin/packs/mint", map[string]any{"count": 5, "model": "M", "lot": "L1"})
	srv.do(admin, "POST", "/api/admin/packs/mint", map[string]any{"count": 2, "model": "M", "lot": "L2"})
	srv.do(admin, "PUT", "/api/admin/packs/SWB-000003/state", map[string]any{"state": "quarantined", "reason": "swollen"})
	// two packs at the driver's pickup holding, one ready (as the ledger's pack moves leave them)
	var holder *inventory.Account
	if err := app.RunInTransaction(func(txApp core.App) error {
		var err error
		holder, err = inventory.HolderAccount(txApp, c.Driver.Id, inventory.AssignmentPickup)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	for serial, acc := range map[string]string{"SWB-000001": holder.Id, "SWB-000002": holder.Id, "SWB-000006": ready.Id} {
		p, err := packs.FindBySerial(app, serial)
		if err != nil {
			t.Fatal(err)
		}
		p.Set(schema.PackLocation, acc)
		if err := app.Save(p); err != nil {
			t.Fatal(err)
		}
	}
	list := func(h map[string]string, q string) packs.List {
		st, raw := srv.do(h, "GET", "/api/packs"+q, nil)
		if st != 200 {
			t.Fatalf("list%s = %d %s", q, st, raw)
		}
		return decode[packs.List](t, raw)
	}
	serials := func(l packs.List) string {
		var s []string
		for _, p := range l.Packs {
			s = append(s, strings.TrimPrefix(p.Serial, "SWB-00000"))
		}
		return strings.Join(s, ",")
	}
	for q, want := range map[string]string{
		"":                          "1,2,3,4,5,6,7",
		"?state=quarantined":        "3",
		"?lot=L2":                   "6,7",
		"?location=ready":           "6",
		"?location=field":           "1,2",
		"?location=unknown":         "3,4,5,7",
		"?q=0007":                   "7",
		"?perPage=2&page=2":         "3,4",
		"?location=" + holder.Key(): "1,2",
	} {
		if got := serials(list(admin, q)); got != want {
			t.Errorf("list%s = %s; want %s", q, got, want)
		}
	}
	l := list(admin, "?lot=L1")
	if l.Counts["in_service"] != 4 || l.Counts["quarantined"] != 1 || l.Total != 5 {
		t.Errorf("counts %v total %d; want 4 in service, 1 quarantined, 5", l.Counts, l.Total)
	}
	if l := list(admin, "?location=field"); l.Packs[0].Location == nil || !strings.Contains(l.Packs[0].Location.Label, c.Driver.GetString(schema.UserFirstName)) {
		t.Errorf("a held pack's place = %+v; want the driver's name", l.Packs[0].Location)
	}
	if got := serials(list(testkit.Headers(t, c.Driver), "")); got != "1,2" {
		t.Errorf("the driver's list = %s; want the 2 they hold", got)
	}
	if st, _ := srv.do(testkit.Headers(t, c.Driver), "GET", "/api/packs/SWB-000001", nil); st != 200 {
		t.Errorf("the driver's own pack = %d; want 200", st)
	}
	for _, q := range []string{"?state=broken", "?missing=maybe", "?page=0", "?perPage=x"} {
		if st, raw := srv.do(admin, "GET", "/api/packs"+q, nil); st != 400 {
			t.Errorf("list%s = %d %s; want 400", q, st, raw)
		}
	}
}

// A driver's pack page holds only their part of the history: what came to or from their
// holdings and what they did, not the admin's registration or other people's moves.
func TestDriverSeesOwnHistory(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	minted, err := packs.Mint(app, 1, packs.Specs{Model: "M"}, c.Admin.Id, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	p := minted[0]
	var holder, other *inventory.Account
	if err := app.RunInTransaction(func(txApp core.App) error {
		var err error
		if holder, err = inventory.HolderAccount(txApp, c.Driver.Id, inventory.AssignmentPickup); err != nil {
			return err
		}
		other, err = inventory.HolderAccount(txApp, c.Admin.Id, inventory.AssignmentPickup)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	events, err := app.FindCollectionByNameOrId(schema.PackEvents)
	if err != nil {
		t.Fatal(err)
	}
	for i, to := range []string{other.Id, holder.Id} { // the admin's holding, then the driver's
		ev := packs.NewEvent(events, p.Id, schema.PackEventMoved, c.Admin.Id, clock.Now().Add(time.Duration(i+1)*time.Minute))
		ev.Set(schema.PackEventToAccount, to)
		if err := app.Save(ev); err != nil {
			t.Fatal(err)
		}
	}
	p.Set(schema.PackLocation, holder.Id)
	if err := app.Save(p); err != nil {
		t.Fatal(err)
	}
	kinds := func(who *core.Record) []string {
		_, raw := srv.do(testkit.Headers(t, who), "GET", "/api/packs/"+p.Serial(), nil)
		var out []string
		for _, h := range decode[packs.Detail](t, raw).History {
			to := ""
			if h.To != nil {
				to = h.To.UserId
			}
			out = append(out, h.Kind+">"+to)
		}
		return out
	}
	if got := kinds(c.Driver); fmt.Sprint(got) != fmt.Sprint([]string{"moved>" + c.Driver.Id}) {
		t.Fatalf("the driver's history %v; want only the move to them", got)
	}
	if got := kinds(c.Admin); len(got) != 3 {
		t.Fatalf("the admin's history %v; want all 3 events", got)
	}
}
