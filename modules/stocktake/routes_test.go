package stocktake_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/idempotency"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
	"swapbay/modules/stocktake"
	"swapbay/modules/system"
)

const url = "/api/admin/stocktake"

func serial(i int) string { return fmt.Sprintf("SWB-%06d", i) }

// account returns system account key's id.
func account(t testing.TB, app core.App, key string) string {
	t.Helper()
	acc, err := inventory.SystemAccount(app, key)
	if err != nil {
		t.Fatal(err)
	}
	return acc.Id
}

// addPack registers pack serial(i) at account location in state.
func addPack(t testing.TB, app core.App, i int, location, state string) {
	t.Helper()
	col, err := app.FindCachedCollectionByNameOrId(schema.Packs)
	if err != nil {
		t.Fatal(err)
	}
	rec := core.NewRecord(col)
	rec.Set(schema.PackSerial, serial(i))
	rec.Set(schema.PackState, state)
	rec.Set(schema.PackLocation, location)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
}

// pack reads pack serial(i): its state and location.
func pack(t testing.TB, app core.App, i int) (state, location string) {
	t.Helper()
	rec, err := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(i))
	if err != nil {
		t.Fatal(err)
	}
	return rec.GetString(schema.PackState), rec.GetString(schema.PackLocation)
}

// shelf seeds the bay of the tests: ready = 10 with packs 1–10, waiting = 1 with pack 11, in
// optional tracking.
func shelf(t testing.TB, app *tests.TestApp, c testkit.Callers) {
	t.Helper()
	if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, 10, 1, 0, 11); err != nil {
		t.Fatal(err)
	}
	ready, waiting := account(t, app, inventory.KeyReady), account(t, app, inventory.KeyWaiting)
	for i := 1; i <= 10; i++ {
		addPack(t, app, i, ready, schema.PackStateInService)
	}
	addPack(t, app, 11, waiting, schema.PackStateInService)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
}

// scanned is a stocktake body for place with packs ids.
func scanned(place string, dryRun bool, ids ...int) string {
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = serial(id)
	}
	raw, _ := json.Marshal(map[string]any{"place": place, "serials": list, "dryRun": dryRun})
	return string(raw)
}

// serialsOf returns the serials of list (an answer's found, missing, …).
func serialsOf(body map[string]any, list string) []string {
	var out []string
	items, _ := body[list].([]any)
	for _, it := range items {
		out = append(out, it.(map[string]any)["serial"].(string))
	}
	return out
}

func expectList(t testing.TB, body map[string]any, list string, ids ...int) {
	t.Helper()
	want := make([]string, len(ids))
	for i, id := range ids {
		want[i] = serial(id)
	}
	if got := serialsOf(body, list); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%s = %v; want %v", list, got, want)
	}
}

// The ready shelf counted with packs 9 and 10 gone and pack 11 (waiting) on it: a preview
// writes nothing; Apply writes one stocktake movement that leaves ready = 9 (the packs counted),
// waiting = 0 (pack 11's battery came with it), packs 9 and 10 lost with their battery gone, 11
// moved to ready as a discrepancy. One row per caller: admins only.
func TestStocktakeAPI(t *testing.T) {
	prepare := func(dryRun bool) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
		return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			shelf(t, app, c)
			return url, scanned(stocktake.PlaceReady, dryRun, 1, 2, 3, 4, 5, 6, 7, 8, 11)
		}
	}
	cases := ledgertest.Matrix("stocktake preview", "POST", ledgertest.AdminRoute, prepare(true), 200,
		[]string{`"applied":false`, `"movement":null`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			expectList(t, body, "missing", 9, 10)
			expectList(t, body, "unexpected", 11)
			expectList(t, body, "found", 1, 2, 3, 4, 5, 6, 7, 8)
			if after := ledgertest.Capture(t, app); after != before {
				t.Fatalf("a preview changed the ledger: %+v → %+v", before, after)
			}
			if st, _ := pack(t, app, 9); st != schema.PackStateInService {
				t.Fatalf("a preview changed pack 9: %s", st)
			}
			counts := body["counts"].(map[string]any)
			if counts["before"] != 10.0 || counts["after"] != 9.0 || counts["expected"] != 10.0 || counts["scanned"] != 9.0 {
				t.Fatalf("counts = %v", counts)
			}
			unexpected := body["unexpected"].([]any)[0].(map[string]any)
			if from, _ := unexpected["from"].(map[string]any); from["kind"] != schema.AccountKindWaiting {
				t.Fatalf("pack 11 came from %v; want waiting", unexpected["from"])
			}
		})
	cases = append(cases, ledgertest.Matrix("stocktake apply", "POST", ledgertest.AdminRoute, prepare(false), 200,
		[]string{`"applied":true`, `"type":"stocktake"`, `"message":"Stocktake applied: 8 found, 2 missing, 1 unexpected"`},
		func(t testing.TB, app *tests.TestApp, before ledgertest.State, body map[string]any) {
			s, _ := inventory.Stats(app)
			if s.Ready != 9 || s.Waiting != 0 {
				t.Fatalf("stats after = %+v; want ready 9, waiting 0", s)
			}
			if got := ledgertest.MovementsOfType(t, app, inventory.TypeStocktake); got != 1 {
				t.Fatalf("%d stocktake movements; want 1", got)
			}
			ready := account(t, app, inventory.KeyReady)
			for _, i := range []int{9, 10} {
				if st, loc := pack(t, app, i); st != schema.PackStateLost || loc != "" {
					t.Fatalf("missing pack %d: %s at %q; want lost, nowhere", i, st, loc)
				}
			}
			if st, loc := pack(t, app, 11); st != schema.PackStateInService || loc != ready {
				t.Fatalf("pack 11: %s at %q; want in service at ready", st, loc)
			}
			var disc int
			_ = app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = 'discrepancy'").Row(&disc)
			if disc != 1 {
				t.Fatalf("%d discrepancies; want 1 (pack 11)", disc)
			}
			// counts and packs agree: the bay can turn required on
			ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
			if v, err := ledgertest.PackViolations(app); err != nil || len(v) > 0 {
				t.Fatalf("after the stocktake, required mode finds %v %v", v, err)
			}
		})...)
	ledgertest.Run(t, cases)
}

// Refusals are 4xx with a message and change nothing: unknown serials (each named in
// data.packs), a pack scanned twice, too many serials, a body too large, wrong types, an
// unknown place, an empty list, a stocktake while tracking is off.
func TestStocktakeRefusals(t *testing.T) {
	many := make([]string, stocktake.MaxSerials+1)
	for i := range many {
		many[i] = serial(i + 1)
	}
	tooMany, _ := json.Marshal(map[string]any{"place": "ready", "serials": many})
	huge := `{"place": "ready", "serials": ["` + strings.Repeat("A", 1<<20) + `"]}`
	fixed := func(body string) func(testing.TB, *tests.TestApp, testkit.Callers) (string, string) {
		return func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
			shelf(t, app, c)
			return url, body
		}
	}
	row := func(name, body string, status int, contains ...string) ledgertest.Case {
		return ledgertest.Case{Name: name, Who: testkit.Admin, Method: "POST", Prepare: fixed(body), Status: status, Contains: contains}
	}
	cases := []ledgertest.Case{
		row("unknown serials", `{"place": "ready", "serials": ["SWB-000001", "NOPE-1", "NOPE-2"]}`, 400,
			`"code":"pack_unknown"`, `"message":"2 scanned codes are not packs: NOPE-1, NOPE-2"`, `"serial":"NOPE-1"`, `"serial":"NOPE-2"`),
		row("a pack twice", `{"place": "ready", "serials": ["SWB-000001", "https://bay.example/p/swb-000001"]}`, 400,
			`"code":"pack_count"`, `"message":"Pack SWB-000001 is named twice"`, `"serial":"SWB-000001"`),
		row("too many", string(tooMany), 400, `"message":"A stocktake counts at most 10,000 packs"`),
		row("too large", huge, 413, `"status":413`),
		row("a serial too long", `{"place": "ready", "serials": ["`+strings.Repeat("A", 200)+`"]}`, 400, `"code":"pack_unknown"`),
		row("a blank serial", `{"place": "ready", "serials": ["  "]}`, 400, `"code":"pack_unknown"`),
		row("serials not a list", `{"place": "ready", "serials": "SWB-000001"}`, 400, `"serials"`),
		row("serials not strings", `{"place": "ready", "serials": [1, 2]}`, 400, `"serials.0"`),
		row("place not a string", `{"place": 5, "serials": ["SWB-000001"]}`, 400, `"place"`),
		row("unknown place", `{"place": "roof", "serials": ["SWB-000001"]}`, 400, `"message":"Place must be one of ready, waiting, quarantine, chargers, bay"`),
		row("no scans", `{"place": "ready", "serials": []}`, 400, `"message":"Scan at least one pack, or count the place as empty"`),
		// scans and "empty" contradict each other: neither is dropped for the other (the scans were
		// once ignored and every pack on the shelf declared lost)
		row("scans and empty", `{"place": "ready", "serials": ["SWB-000001"], "empty": true}`, 400,
			`"serials"`, `"message":"A place counted as empty has no scanned packs: send the scans or count it as empty"`),
		row("scans and empty, a preview", `{"place": "ready", "serials": ["SWB-000001"], "empty": true, "dryRun": true}`, 400,
			`"message":"A place counted as empty has no scanned packs: send the scans or count it as empty"`),
		row("not JSON", `{"place": `, 400, `"status":400`),
		{Name: "tracking off", Who: testkit.Admin, Method: "POST", Status: 409, Contains: []string{`"message":"Turn pack tracking on (optional or required) before a stocktake"`},
			Prepare: func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string) {
				shelf(t, app, c)
				ledgertest.SetPackTracking(t, app, schema.PackTrackingOff)
				return url, scanned("ready", false, 1)
			}},
	}
	ledgertest.Run(t, cases)
}

// world is a served app with the shelf and an admin's token.
type world struct {
	app    *tests.TestApp
	c      testkit.Callers
	srv    string
	client *http.Client
}

func newWorld(t *testing.T) *world {
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	shelf(t, app, c)
	srv := testkit.Serve(t, app)
	return &world{app: app, c: c, srv: srv.URL, client: srv.Client()}
}

func (w *world) post(t *testing.T, key, body string) (int, []byte, http.Header) {
	t.Helper()
	h := map[string]string{}
	if key != "" {
		h["Idempotency-Key"] = key
	}
	return ledgertest.Do(t, w.client, "POST", w.srv+url, testkit.TokenIn(t, w.app, w.c.Admin), body, h)
}

// A keyed stocktake sent twice answers the same and applies once: one movement, the packs
// moved once, the replay marked.
func TestStocktakeKeyedReplay(t *testing.T) {
	w := newWorld(t)
	key := uuid.Must(uuid.NewV7()).String()
	body := scanned("ready", false, 1, 2, 3, 4, 5, 6, 7, 8, 11)
	st1, raw1, _ := w.post(t, key, body)
	if st1 != 200 {
		t.Fatalf("first = %d %s", st1, raw1)
	}
	after := ledgertest.Capture(t, w.app)
	var events int
	_ = w.app.DB().NewQuery("SELECT COUNT(*) FROM pack_events").Row(&events)
	st2, raw2, h := w.post(t, key, body)
	if st2 != 200 || string(raw2) != string(raw1) || h.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay = %d %s (replayed %q); want the first answer %s", st2, raw2, h.Get("Idempotent-Replayed"), raw1)
	}
	if again := ledgertest.Capture(t, w.app); again != after {
		t.Fatalf("the replay changed the ledger: %+v → %+v", after, again)
	}
	var events2 int
	_ = w.app.DB().NewQuery("SELECT COUNT(*) FROM pack_events").Row(&events2)
	if events2 != events {
		t.Fatalf("the replay wrote %d pack events", events2-events)
	}
	// the same key with another list is refused (lib/idempotency: not the first answer, which
	// would say a list was counted that was not) and applies nothing
	if st, raw, _ := w.post(t, key, scanned("ready", false, 1)); st != http.StatusConflict || !strings.Contains(string(raw), idempotency.MsgKeyReused) ||
		ledgertest.Capture(t, w.app) != after {
		t.Fatalf("the key reused = %d %s; want 409, nothing applied", st, raw)
	}
	// and a stocktake is not deleted: the place is counted again
	mv := ledgertest.Body(t, raw1)["movement"].(map[string]any)["id"].(string)
	st, raw, _ := ledgertest.Do(t, w.client, "DELETE", w.srv+"/api/admin/movements/"+mv, testkit.TokenIn(t, w.app, w.c.Admin), "", nil)
	if st != http.StatusConflict || !strings.Contains(string(raw), inventory.MsgStocktakeKept) {
		t.Fatalf("delete of a stocktake = %d %s; want 409", st, raw)
	}
}

// In required mode a bay whose counts and packs parted (an emergency, a pack put on the shelf
// behind the records' back) is brought together by a stocktake of the whole bay: a quarantined
// pack on the ready shelf goes to quarantine with its battery (wrong place), a pack on a charger
// that was not there is lost and the session's quantity follows, an unknown one found in the
// bay waits; afterwards every account's packs equal its count.
func TestStocktakeRequiredModeBringsCountsAndPacksTogether(t *testing.T) {
	w := newWorld(t)
	app := w.app
	// a charging session of 2 with packs 12 and 13
	if _, err := system.Override(app, inventory.Op{Actor: w.c.Admin}, 10, 3, 0, 13); err != nil {
		t.Fatal(err)
	}
	waiting := account(t, app, inventory.KeyWaiting)
	addPack(t, app, 12, waiting, schema.PackStateInService)
	addPack(t, app, 13, waiting, schema.PackStateInService)
	sess, _, err := charging.Start(app, inventory.Op{Actor: w.c.Admin, Packs: inventory.PackNames{Packs: []string{serial(12), serial(13)}}}, "4A", 2)
	if err != nil {
		t.Fatal(err)
	}
	// behind the records: pack 3 quarantined where it lies, a pack never placed, ready counted 12
	rec, _ := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(3))
	rec.Set(schema.PackState, schema.PackStateQuarantined)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
	addPack(t, app, 14, "", schema.PackStateInService)
	if _, err := system.Override(app, inventory.Op{Actor: w.c.Admin}, 12, 1, 2, 15); err != nil {
		t.Fatal(err)
	}
	ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
	if v, _ := ledgertest.PackViolations(app); len(v) == 0 {
		t.Fatal("the test bay should start with counts and packs apart")
	}

	// the whole bay: ready 1–10 (3 quarantined), waiting 11, pack 12 on the charger (13 gone), 14 found
	st, raw, _ := w.post(t, uuid.Must(uuid.NewV7()).String(), scanned("bay", false, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14))
	if st != 200 {
		t.Fatalf("stocktake = %d %s", st, raw)
	}
	body := ledgertest.Body(t, raw)
	expectList(t, body, "wrongPlace", 3)
	expectList(t, body, "missing", 13)
	expectList(t, body, "unexpected", 14)
	if v, err := ledgertest.PackViolations(app); err != nil || len(v) > 0 {
		t.Fatalf("after the stocktake: %v %v", v, err)
	}
	ledgertest.AssertSound(t, app)
	s, _ := inventory.Stats(app)
	if s.Ready != 9 || s.Waiting != 2 || s.Charging != 1 || s.Quarantined != 1 {
		t.Fatalf("stats = %+v; want ready 9, waiting 2 (11, 14), charging 1, quarantined 1", s)
	}
	got, err := charging.FindSession(app, sess.Id)
	if err != nil || got.Quantity() != 1 {
		t.Fatalf("session quantity = %d %v; want 1", got.Quantity(), err)
	}
	if st, loc := pack(t, app, 3); st != schema.PackStateQuarantined || loc != account(t, app, inventory.KeyQuarantine) {
		t.Fatalf("pack 3: %s at %q; want quarantined in quarantine", st, loc)
	}
	if st, _ := pack(t, app, 13); st != schema.PackStateLost {
		t.Fatalf("pack 13: %s; want lost", st)
	}
	// a count edit is still refused in required mode: the stocktake is the way
	if _, err := system.Override(app, inventory.Op{Actor: w.c.Admin}, 1, 1, 1, 15); err == nil {
		t.Fatal("override in required mode passed")
	}
	// counted again, the place holds what was scanned: nothing changes
	before := ledgertest.Capture(t, app)
	st, raw, _ = w.post(t, "", scanned("ready", true, 1, 2, 4, 5, 6, 7, 8, 9, 10))
	if st != 200 || ledgertest.Capture(t, app) != before {
		t.Fatalf("preview = %d %s", st, raw)
	}
	b := ledgertest.Body(t, raw)
	if c := b["counts"].(map[string]any); c["missing"] != 0.0 || c["unexpected"] != 0.0 || c["before"] != c["after"] {
		t.Fatalf("a recount finds %v", c)
	}
	// a lost pack scanned again is found (its state returns) and comes back with its battery
	st, raw, _ = w.post(t, uuid.Must(uuid.NewV7()).String(), scanned("waiting", false, 11, 14, 13))
	if st != 200 {
		t.Fatalf("stocktake of waiting = %d %s", st, raw)
	}
	if st, loc := pack(t, app, 13); st != schema.PackStateInService || loc != waiting {
		t.Fatalf("pack 13: %s at %q; want found in waiting", st, loc)
	}
	if v, err := ledgertest.PackViolations(app); err != nil || len(v) > 0 {
		t.Fatalf("after the second stocktake: %v %v", v, err)
	}
	if code := ledgertest.Body(t, raw)["unexpected"].([]any)[0].(map[string]any)["state"]; code != schema.PackStateLost {
		t.Fatalf("pack 13 answered as %v; want its state as scanned (lost)", code)
	}
}

// The chargers counted: a pack found on a charger that no session names counts as charging
// (untracked), a session's pack not found leaves it (its quantity follows); the quarantine
// counted: an in-service pack found there stays (an admin releases it), an out-of-use one on
// the ready shelf is in the wrong place. Counts equal packs in every counted account.
func TestStocktakeOfChargersAndQuarantine(t *testing.T) {
	w := newWorld(t)
	app := w.app
	op := inventory.Op{Actor: w.c.Admin}
	sess, _, err := charging.Start(app, inventory.Op{Actor: w.c.Admin, Packs: inventory.PackNames{Packs: []string{serial(11)}}}, "4A", 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := stocktake.Apply(app, op, stocktake.Input{Place: stocktake.PlaceChargers, Serials: []string{serial(5)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts.Missing != 1 || res.Counts.Unexpected != 1 || res.Counts.After != 1 {
		t.Fatalf("chargers: %+v; want 11 missing, 5 unexpected, 1 after", res.Counts)
	}
	if got, _ := charging.FindSession(app, sess.Id); got.Quantity() != 0 {
		t.Fatalf("session quantity %d; want 0", got.Quantity())
	}
	// emptied, it ends as a quantity lowered to 0 would: off the table, the ETA list and the due
	// announcements (it once stayed active with 0 batteries, a "Mark Done" of nothing)
	if got, _ := charging.FindSession(app, sess.Id); got.Status() != schema.SessionStatusDeleted || got.GetDateTime(schema.SessionEndedAt).IsZero() {
		t.Fatalf("emptied session %s ended %v; want deleted with its end", got.Status(), got.GetDateTime(schema.SessionEndedAt))
	}
	s, _ := inventory.Stats(app)
	if s.Charging != 1 || s.Ready != 9 {
		t.Fatalf("stats %+v; want charging 1 (untracked), ready 9", s)
	}
	if _, loc := pack(t, app, 5); loc != account(t, app, inventory.KeyUntracked) {
		t.Fatalf("pack 5 at %q; want untracked", loc)
	}

	// pack 2 quarantined on the ready shelf; pack 3 in service in quarantine
	rec, _ := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(2))
	rec.Set(schema.PackState, schema.PackStateQuarantined)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
	res, err = stocktake.Apply(app, op, stocktake.Input{Place: stocktake.PlaceQuarantine, Serials: []string{serial(3)}})
	if err != nil || res.Counts.Unexpected != 1 {
		t.Fatalf("quarantine: %+v %v; want pack 3 unexpected there", res, err)
	}
	res, err = stocktake.Apply(app, op, stocktake.Input{Place: stocktake.PlaceReady, Serials: []string{serial(1), serial(2), serial(4), serial(6), serial(7), serial(8), serial(9), serial(10)}})
	if err != nil || res.Counts.WrongPlace != 1 || res.Counts.Missing != 0 || res.Counts.After != 7 {
		t.Fatalf("ready: %+v %v; want pack 2 in the wrong place, ready 7", res, err)
	}
	if st, loc := pack(t, app, 2); st != schema.PackStateQuarantined || loc != account(t, app, inventory.KeyQuarantine) {
		t.Fatalf("pack 2: %s at %q; want quarantined in quarantine", st, loc)
	}
	s, _ = inventory.Stats(app)
	if s.Ready != 7 || s.Quarantined != 2 {
		t.Fatalf("stats %+v; want ready 7, quarantined 2 (packs 2 and 3)", s)
	}
	ledgertest.AssertSound(t, app)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
	if v, err := ledgertest.PackViolations(app); err != nil || len(v) > 0 {
		t.Fatalf("required mode after the counts: %v %v", v, err)
	}
	// outside a transaction the journal's part refuses to run
	if err := (&journal.Tally{}).Apply(app, journal.Movement{}); err == nil {
		t.Fatal("Tally.Apply ran outside a transaction")
	}
}

// A shelf of 1,000 packs counted through the API with 600 packs of the waiting shelf on it and
// 300 of its own gone: one request, 600 discrepancies written in several INSERTs, the counts and
// the packs together afterwards. The time is logged: the machine's load makes this no benchmark
// (make bench -only stocktake is).
func TestStocktakeOf1000Packs(t *testing.T) {
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, 1000, 600, 0, 1600); err != nil {
		t.Fatal(err)
	}
	ready, waiting := account(t, app, inventory.KeyReady), account(t, app, inventory.KeyWaiting)
	now := types.NowDateTime().String()
	err := app.RunInTransaction(func(tx core.App) error {
		for i := 1; i <= 1600; i++ {
			loc := ready
			if i > 1000 {
				loc = waiting
			}
			if _, err := tx.DB().Insert(schema.Packs, dbx.Params{"id": fmt.Sprintf("pk%013d", i), schema.PackSerial: serial(i),
				schema.PackState: schema.PackStateInService, schema.PackLocation: loc, schema.PackChargeCount: 0,
				schema.Created: now, schema.Updated: now}).Execute(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
	var list []int
	for i := 301; i <= 1600; i++ {
		list = append(list, i)
	}
	srv := testkit.Serve(t, app)
	start := time.Now()
	st, raw, _ := ledgertest.Do(t, srv.Client(), "POST", srv.URL+url, testkit.TokenIn(t, app, c.Admin), scanned("ready", false, list...),
		map[string]string{"Idempotency-Key": uuid.Must(uuid.NewV7()).String()})
	t.Logf("stocktake of 1,300 scanned packs through the API: %s (the machine's load makes this no benchmark)", time.Since(start))
	if st != 200 {
		t.Fatalf("stocktake = %d %.300s", st, raw)
	}
	counts := ledgertest.Body(t, raw)["counts"].(map[string]any)
	if counts["found"] != 700.0 || counts["missing"] != 300.0 || counts["unexpected"] != 600.0 || counts["after"] != 1300.0 {
		t.Fatalf("counts = %v", counts)
	}
	s, _ := inventory.Stats(app)
	if s.Ready != 1300 || s.Waiting != 0 || s.Unaccounted != 300 {
		t.Fatalf("stats = %+v; want ready 1300, waiting 0, 300 unaccounted (lost)", s)
	}
	var disc, lost int
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = 'discrepancy'").Row(&disc)
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM packs WHERE state = 'lost' AND location = ''").Row(&lost)
	if disc != 600 || lost != 300 {
		t.Fatalf("%d discrepancies, %d lost; want 600 and 300", disc, lost)
	}
	ledgertest.AssertSound(t, app)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
	if v, err := ledgertest.PackViolations(app); err != nil || len(v) > 0 {
		t.Fatalf("required mode: %v %v", v, err)
	}
}
