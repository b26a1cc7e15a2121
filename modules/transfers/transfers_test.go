package transfers_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
	"swapbay/modules/transfers"
)

// city is one city's app for a test: its handler and its admin.
type city struct {
	app     *tests.TestApp
	h       http.Handler
	c       testkit.Callers
	host    string
	account map[string]string
}

// newCity makes a city whose bay holds ready packs <prefix>-000001…ready and waiting packs after
// them, pack tracking optional, the fleet = ready + waiting.
func newCity(t *testing.T, host, prefix string, ready, waiting int) *city {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, ready, waiting, 0, ready+waiting); err != nil {
		t.Fatal(err)
	}
	x := &city{app: app, h: testkit.Handler(t, app), c: c, host: host, account: map[string]string{}}
	for _, key := range []string{inventory.KeyReady, inventory.KeyWaiting} {
		acc, err := inventory.SystemAccount(app, key)
		if err != nil {
			t.Fatal(err)
		}
		x.account[key] = acc.Id
	}
	col, _ := app.FindCachedCollectionByNameOrId(schema.Packs)
	for i := 1; i <= ready+waiting; i++ {
		rec := core.NewRecord(col)
		rec.Set(schema.PackSerial, fmt.Sprintf("%s-%06d", prefix, i))
		rec.Set(schema.PackModel, "M1")
		rec.Set(schema.PackLot, "L-"+prefix)
		rec.Set(schema.PackManufactured, "2025-03")
		rec.Set(schema.PackNominalWh, 960)
		rec.Set(schema.PackChargeCount, 12)
		rec.Set(schema.PackState, schema.PackStateInService)
		loc := x.account[inventory.KeyReady]
		if i > ready {
			loc = x.account[inventory.KeyWaiting]
		}
		rec.Set(schema.PackLocation, loc)
		if err := app.Save(rec); err != nil {
			t.Fatal(err)
		}
	}
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
	return x
}

// call sends method path body as who (the admin when nil) with key ("" a fresh one).
func (x *city) call(t *testing.T, who *core.Record, method, path, body, key string) (int, map[string]any, http.Header) {
	t.Helper()
	if who == nil {
		who = x.c.Admin
	}
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = x.host
	for k, v := range testkit.Headers(t, who) {
		req.Header.Set(k, v)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	rec := httptest.NewRecorder()
	x.h.ServeHTTP(rec, req)
	var out map[string]any
	if b := rec.Body.Bytes(); len(b) > 0 && b[0] == '{' {
		_ = json.Unmarshal(b, &out)
	} else if len(b) > 0 && b[0] == '[' {
		var list []any
		_ = json.Unmarshal(b, &list)
		out = map[string]any{"list": list}
	}
	return rec.Code, out, rec.Header()
}

func (x *city) pack(t *testing.T, serial string) (state, location string, ok bool) {
	t.Helper()
	rec, err := x.app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial)
	if err != nil {
		return "", "", false
	}
	return rec.GetString(schema.PackState), rec.GetString(schema.PackLocation), true
}

func (x *city) stats(t *testing.T) inventory.Snapshot {
	t.Helper()
	s, err := inventory.Stats(x.app)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// balanced fails t unless the city's ledger is sound and a recalculation corrects nothing.
func (x *city) balanced(t *testing.T, unaccounted int) {
	t.Helper()
	ledgertest.AssertSound(t, x.app)
	r, err := system.Recalculate(x.app)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Corrections) > 0 || len(r.PackCorrections) > 0 {
		t.Fatalf("recalculation corrected %v %v", r.Corrections, r.PackCorrections)
	}
	if r.After.Unaccounted != unaccounted {
		t.Fatalf("unaccounted = %d after a transfer; want %d (%+v)", r.After.Unaccounted, unaccounted, r.After)
	}
}

func body(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func key() string { return uuid.Must(uuid.NewV7()).String() }

// A transfer A → B with two real city apps: the sent packs leave A's counts and are in transit
// there (refused by every route and listed for the scanner), B receives them by scanning label
// URLs in two receives (the second takes the rest; a serial twice is refused), each serial is in
// service in exactly one city, both ledgers balance with nothing unaccounted, and a replayed
// key answers once.
func TestTransferBetweenCities(t *testing.T) {
	paris := newCity(t, "127.0.0.1:8181", "PAR", 3, 1)
	berlin := newCity(t, "127.0.0.1:8182", "BER", 1, 0)

	k := key()
	send := body(map[string]any{"toCity": "Berlin", "toAddress": "https://berlin.example", "fromCity": "Paris",
		"serials": []string{"PAR-000001", "https://paris.example/p/par-000004"}, "notes": "van 2"})
	status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers", send, k)
	if status != http.StatusCreated {
		t.Fatalf("send = %d %v", status, out)
	}
	if out["message"] != "Sent 2 packs to Berlin" {
		t.Fatalf("message = %v", out["message"])
	}
	tr := out["transfer"].(map[string]any)
	manifest := tr["manifest"].(string)
	if !strings.HasPrefix(manifest, transfers.ManifestPrefix) || tr["direction"] != "out" || tr["ref"] != tr["id"] {
		t.Fatalf("transfer = %v", tr)
	}
	// replayed: the same answer, nothing sent twice
	status2, out2, h := paris.call(t, nil, "POST", "/api/admin/packs/transfers", send, k)
	if status2 != http.StatusCreated || h.Get("Idempotent-Replayed") != "true" || out2["transfer"].(map[string]any)["id"] != tr["id"] {
		t.Fatalf("replay = %d %v %v", status2, h, out2)
	}
	if n := ledgertest.MovementsOfType(t, paris.app, inventory.TypeTransferOut); n != 1 {
		t.Fatalf("%d transfer_out movements; want 1", n)
	}
	if s := paris.stats(t); s.Ready != 2 || s.Waiting != 0 || s.Total != 2 || s.Unaccounted != 0 {
		t.Fatalf("Paris after the send: %+v; want ready 2, waiting 0, total 2", s)
	}
	for _, serial := range []string{"PAR-000001", "PAR-000004"} {
		if st, loc, _ := paris.pack(t, serial); st != schema.PackStateInTransit || loc != "" {
			t.Fatalf("%s in Paris: %s at %q; want in transit, nowhere", serial, st, loc)
		}
	}
	var ev int
	_ = paris.app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = 'transferred' AND reason = 'Sent to Berlin'").Row(&ev)
	if ev != 2 {
		t.Fatalf("%d transferred events; want 2", ev)
	}
	paris.balanced(t, 0)

	// in transit: refused by every route here, and by the scanner's list
	driver := paris.c.Driver
	status, out, _ = paris.call(t, driver, "POST", "/api/driver/pickup", body(map[string]any{"quantity": 1, "notes": "x", "packs": []string{"PAR-000001"}}), "")
	if status != http.StatusConflict || out["data"].(map[string]any)["code"] != "pack_in_transit" && !strings.Contains(fmt.Sprint(out), "pack_in_transit") {
		t.Fatalf("pickup of a pack in transit = %d %v", status, out)
	}
	// a dead battery dropped off without a pack, then put on a charger naming the pack in transit
	if status, out, _ = paris.call(t, driver, "POST", "/api/driver/dropoff-batteries", body(map[string]any{"goodBatteries": 0, "deadBatteries": 1, "notes": "x"}), ""); status != 200 {
		t.Fatalf("dropoff = %d %v", status, out)
	}
	status, out, _ = paris.call(t, driver, "POST", "/api/driver/dropoff-batteries", body(map[string]any{"goodBatteries": 0, "deadBatteries": 1, "notes": "x", "deadPacks": []string{"PAR-000001"}}), "")
	if status != http.StatusConflict || !strings.Contains(fmt.Sprint(out), "pack_in_transit") {
		t.Fatalf("dropoff of a pack in transit = %d %v", status, out)
	}
	status, out, _ = paris.call(t, nil, "POST", "/api/start-charging", body(map[string]any{"chargerType": "4A", "quantity": 1, "packs": []string{"PAR-000004"}}), "")
	if status != http.StatusConflict || !strings.Contains(fmt.Sprint(out), "pack_in_transit") {
		t.Fatalf("charging a pack in transit = %d %v", status, out)
	}
	list, err := packs.OutOfUseList(paris.app)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Code != "pack_in_transit" || list[0].Serial != "PAR-000001" {
		t.Fatalf("out-of-use list = %+v", list)
	}
	// sent again: refused, naming it
	status, out, _ = paris.call(t, nil, "POST", "/api/admin/packs/transfers", body(map[string]any{"toCity": "Lisbon", "serials": []string{"PAR-000001"}}), "")
	if status != http.StatusConflict || !strings.Contains(fmt.Sprint(out), "pack_in_transit") {
		t.Fatalf("send of a pack in transit = %d %v", status, out)
	}
	paris.balanced(t, -1) // the dead battery the driver dropped off without holding it (a discrepancy)

	// Berlin receives pack 1 (scanned as Paris's label URL), then the rest, in required mode:
	// its packs stay equal to its counts
	ledgertest.SetPackTracking(t, berlin.app, schema.PackTrackingRequired)
	recv := func(serials []string, to string) (int, map[string]any) {
		status, out, _ := berlin.call(t, nil, "POST", "/api/admin/packs/transfers/receive",
			body(map[string]any{"manifest": manifest, "serials": serials, "to": to}), "")
		return status, out
	}
	status, out = recv([]string{"https://paris.example/p/PAR-000001"}, "ready")
	if status != http.StatusCreated || out["message"] != "Received 1 pack from Paris" {
		t.Fatalf("receive = %d %v", status, out)
	}
	if s := berlin.stats(t); s.Ready != 2 || s.Total != 2 || s.Unaccounted != 0 {
		t.Fatalf("Berlin after the receive: %+v", s)
	}
	rec, _ := berlin.app.FindFirstRecordByData(schema.Packs, schema.PackSerial, "PAR-000001")
	if rec.GetString(schema.PackState) != schema.PackStateInService || rec.GetString(schema.PackLocation) != berlin.account["ready"] ||
		rec.GetString(schema.PackModel) != "M1" || rec.GetString(schema.PackLot) != "L-PAR" || rec.GetInt(schema.PackChargeCount) != 12 {
		t.Fatalf("received pack = %v", rec.FieldsData())
	}
	var reason string
	_ = berlin.app.DB().NewQuery("SELECT reason FROM pack_events WHERE kind = 'received'").Row(&reason)
	if reason != "Received from Paris (history: http://127.0.0.1:8181/p/PAR-000001)" {
		t.Fatalf("received reason = %q", reason)
	}
	status, out = recv([]string{"PAR-000001"}, "ready")
	if status != http.StatusConflict || !strings.Contains(fmt.Sprint(out), "already received") {
		t.Fatalf("a serial received twice = %d %v", status, out)
	}
	status, out = recv([]string{"PAR-000002"}, "ready")
	if status != http.StatusBadRequest || !strings.Contains(fmt.Sprint(out), "not in this transfer") {
		t.Fatalf("a serial not in the manifest = %d %v", status, out)
	}
	k2 := key()
	second := body(map[string]any{"manifest": manifest, "serials": []string{"PAR-000004"}, "to": "waiting"})
	status, out, _ = berlin.call(t, nil, "POST", "/api/admin/packs/transfers/receive", second, k2)
	if status != http.StatusCreated {
		t.Fatalf("second receive = %d %v", status, out)
	}
	// replayed: answered once
	if status, again, h := berlin.call(t, nil, "POST", "/api/admin/packs/transfers/receive", second, k2); status != http.StatusCreated ||
		h.Get("Idempotent-Replayed") != "true" || again["transfer"].(map[string]any)["id"] != out["transfer"].(map[string]any)["id"] {
		t.Fatalf("replayed receive = %d %v %v", status, h, again)
	}
	if n := ledgertest.MovementsOfType(t, berlin.app, inventory.TypeTransferIn); n != 2 {
		t.Fatalf("%d transfer_in movements; want 2", n)
	}
	tin := out["transfer"].(map[string]any)
	if fmt.Sprint(tin["received"]) != "[PAR-000001 PAR-000004]" || tin["ref"] != tr["id"] || tin["direction"] != "in" {
		t.Fatalf("in transfer = %v", tin)
	}
	if s := berlin.stats(t); s.Ready != 2 || s.Waiting != 1 || s.Total != 3 {
		t.Fatalf("Berlin after both receives: %+v", s)
	}
	// Paris's own manifest is not received in Paris
	status, out, _ = paris.call(t, nil, "POST", "/api/admin/packs/transfers/receive", body(map[string]any{"manifest": manifest, "serials": []string{"PAR-000001"}, "to": "ready"}), "")
	if status != http.StatusConflict {
		t.Fatalf("own manifest = %d %v", status, out)
	}
	// a received pack cannot be un-received by deleting its movement
	status, out, _ = berlin.call(t, nil, "DELETE", "/api/admin/movements/"+tin["movement"].(string), "", "")
	if status != http.StatusConflict {
		t.Fatalf("delete of a receive = %d %v", status, out)
	}

	// every serial in service in exactly one city
	for i := 1; i <= 4; i++ {
		serial := fmt.Sprintf("PAR-%06d", i)
		n := 0
		for _, x := range []*city{paris, berlin} {
			if st, _, ok := x.pack(t, serial); ok && st == schema.PackStateInService {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%s in service in %d cities", serial, n)
		}
	}
	paris.balanced(t, -1)
	berlin.balanced(t, 0)
	if v, err := ledgertest.PackViolations(berlin.app); err != nil || len(v) > 0 {
		t.Fatalf("Berlin's packs and counts differ: %v %v", v, err)
	}

	// the lists
	status, out, _ = berlin.call(t, nil, "GET", "/api/admin/packs/transfers", "", "")
	if status != 200 || len(out["list"].([]any)) != 2 {
		t.Fatalf("Berlin's list = %d %v", status, out)
	}
	status, _, _ = paris.call(t, nil, "GET", "/api/admin/packs/transfers/"+tr["id"].(string)+"/qr", "", "")
	if status != 200 {
		t.Fatalf("qr = %d", status)
	}
	status, _, _ = paris.call(t, driver, "GET", "/api/admin/packs/transfers", "", "")
	if status != http.StatusForbidden {
		t.Fatalf("a driver's list = %d", status)
	}
}

// Deleting the send's movement on the Activity page brings the packs back in service where they
// were, with their batteries and the fleet, and removes the send's row.
func TestTransferDeleteReturnsThePacks(t *testing.T) {
	for _, mode := range []string{schema.PackTrackingOptional, schema.PackTrackingRequired} {
		t.Run(mode, func(t *testing.T) {
			paris := newCity(t, "127.0.0.1:8181", "PAR", 3, 1)
			ledgertest.SetPackTracking(t, paris.app, mode)
			status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers",
				body(map[string]any{"toCity": "Berlin", "serials": []string{"PAR-000002", "PAR-000004"}}), "")
			if status != http.StatusCreated {
				t.Fatalf("send = %d %v", status, out)
			}
			mv := out["transfer"].(map[string]any)["movement"].(string)
			status, out, _ = paris.call(t, nil, "DELETE", "/api/admin/movements/"+mv, "", "")
			if status != http.StatusOK {
				t.Fatalf("delete = %d %v", status, out)
			}
			if s := paris.stats(t); s.Ready != 3 || s.Waiting != 1 || s.Total != 4 || s.Unaccounted != 0 {
				t.Fatalf("after the delete: %+v", s)
			}
			if st, loc, _ := paris.pack(t, "PAR-000002"); st != schema.PackStateInService || loc != paris.account["ready"] {
				t.Fatalf("pack 2: %s at %q", st, loc)
			}
			if st, loc, _ := paris.pack(t, "PAR-000004"); st != schema.PackStateInService || loc != paris.account["waiting"] {
				t.Fatalf("pack 4: %s at %q", st, loc)
			}
			var rows int
			_ = paris.app.DB().NewQuery("SELECT COUNT(*) FROM pack_transfers").Row(&rows)
			if rows != 0 {
				t.Fatalf("%d transfer rows after the delete; want 0", rows)
			}
			paris.balanced(t, 0)
		})
	}
}

// manifestOf encodes v as a manifest (whatever it holds).
func manifestOf(v any) string {
	b, _ := json.Marshal(v)
	return transfers.ManifestPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// Hostile sends and receives: each a 4xx with a message naming the field, nothing changed.
func TestTransferRefusals(t *testing.T) {
	paris := newCity(t, "127.0.0.1:8181", "PAR", 3, 1)
	berlin := newCity(t, "127.0.0.1:8182", "BER", 2, 0)
	// a quarantined pack and one with a driver
	if _, err := packs.SetState(paris.app, "PAR-000003", schema.PackStateQuarantined, "doubt", paris.c.Admin.Id, time.Now()); err != nil {
		t.Fatal(err)
	}
	pack := func(serial string) map[string]any {
		return map[string]any{"serial": serial, "model": "M1", "chemistry": "NMC", "nominalWh": 960, "manufacturer": "Acme", "lot": "L1",
			"manufactured": "2025-03", "inServiceSince": "2025-04-01T00:00:00Z", "chargeCount": 3}
	}
	good := map[string]any{"v": 1, "ref": "abc123", "from": map[string]any{"name": "Paris", "address": "https://paris.example"}, "to": "Berlin",
		"at": "2026-11-28T10:00:00Z", "packs": []any{pack("PAR-000009")}}
	with := func(k string, v any) string {
		m := map[string]any{}
		for a, b := range good {
			m[a] = b
		}
		m[k] = v
		return manifestOf(m)
	}
	many := make([]any, 201)
	for i := range many {
		many[i] = pack(fmt.Sprintf("PAR-%06d", 100+i))
	}
	manySerials := make([]string, 201)
	for i := range manySerials {
		manySerials[i] = fmt.Sprintf("PAR-%06d", 100+i)
	}
	badPack := func(k string, v any) string {
		p := pack("PAR-000009")
		p[k] = v
		return with("packs", []any{p})
	}
	receive := func(manifest string, serials []string, to string) string {
		return body(map[string]any{"manifest": manifest, "serials": serials, "to": to})
	}
	one := []string{"PAR-000009"}
	cases := []struct {
		name   string
		x      *city
		path   string
		body   string
		status int
		want   string
	}{
		{"send: no city", paris, "", `{"toCity": " ", "serials": ["PAR-000001"]}`, 400, "City is required"},
		{"send: city too long", paris, "", body(map[string]any{"toCity": strings.Repeat("B", 101), "serials": []string{"PAR-000001"}}), 400, "at most 100"},
		{"send: city with a control character", paris, "", `{"toCity": "Ber\u0000lin", "serials": ["PAR-000001"]}`, 400, "toCity"},
		{"send: address not https", paris, "", `{"toCity": "Berlin", "toAddress": "ftp://berlin.example", "serials": ["PAR-000001"]}`, 400, "https"},
		{"send: address javascript", paris, "", `{"toCity": "Berlin", "toAddress": "javascript:alert(1)", "serials": ["PAR-000001"]}`, 400, "https"},
		{"send: no packs", paris, "", `{"toCity": "Berlin", "serials": []}`, 400, "Scan at least one pack"},
		{"send: 201 packs", paris, "", body(map[string]any{"toCity": "Berlin", "serials": manySerials}), 400, "At most 200"},
		{"send: unknown pack", paris, "", `{"toCity": "Berlin", "serials": ["PAR-000001", "NOPE-1"]}`, 400, "pack_unknown"},
		{"send: a pack twice", paris, "", `{"toCity": "Berlin", "serials": ["PAR-000001", "https://x.example/p/par-000001"]}`, 400, "named twice"},
		{"send: quarantined", paris, "", `{"toCity": "Berlin", "serials": ["PAR-000003"]}`, 409, "pack_quarantined"},
		{"send: wrong types", paris, "", `{"toCity": 5, "serials": "PAR-000001"}`, 400, ""},
		{"send: serial huge", paris, "", body(map[string]any{"toCity": "Berlin", "serials": []string{strings.Repeat("A", 5000)}}), 400, "pack_unknown"},
		{"receive: not base64", berlin, "/receive", receive("SWBT1.!!!not base64!!!", one, "ready"), 400, "not a SwapBay transfer manifest"},
		{"receive: not a manifest", berlin, "/receive", receive("hello", one, "ready"), 400, "not a SwapBay transfer manifest"},
		{"receive: empty", berlin, "/receive", receive("", one, "ready"), 400, "Paste the manifest"},
		{"receive: huge", berlin, "/receive", receive("SWBT1."+strings.Repeat("A", 200_000), one, "ready"), 400, ""},
		{"receive: wrong version", berlin, "/receive", receive(with("v", 2), one, "ready"), 400, "newer SwapBay"},
		{"receive: version 0", berlin, "/receive", receive(with("v", 0), one, "ready"), 400, "not a SwapBay"},
		{"receive: 201 packs", berlin, "/receive", receive(with("packs", many), one, "ready"), 400, "1 to 200 packs"},
		{"receive: no packs", berlin, "/receive", receive(with("packs", []any{}), one, "ready"), 400, "1 to 200 packs"},
		{"receive: bad serial", berlin, "/receive", receive(with("packs", []any{pack("par 9<script>")}), one, "ready"), 400, "not valid"},
		{"receive: duplicates", berlin, "/receive", receive(with("packs", []any{pack("PAR-000009"), pack("PAR-000009")}), one, "ready"), 400, "twice"},
		{"receive: nominalWh 1e309", berlin, "/receive", receive(transfers.ManifestPrefix+base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"ref":"abc","from":{"name":"Paris"},"packs":[{"serial":"PAR-1","model":"M","nominalWh":1e309}]}`)), one, "ready"), 400, "not a SwapBay"},
		{"receive: negative Wh", berlin, "/receive", receive(badPack("nominalWh", -5), one, "ready"), 400, "Nominal Wh"},
		{"receive: charge count fractional", berlin, "/receive", receive(badPack("chargeCount", 1.5), one, "ready"), 400, ""},
		{"receive: bad month", berlin, "/receive", receive(badPack("manufactured", "2025-13"), one, "ready"), 400, "YYYY-MM"},
		{"receive: sender address not https", berlin, "/receive", receive(with("from", map[string]any{"name": "Paris", "address": "javascript:x"}), one, "ready"), 400, ""},
		{"receive: bad ref", berlin, "/receive", receive(with("ref", "../x"), one, "ready"), 400, ""},
		{"receive: serial not in manifest", berlin, "/receive", receive(with("v", 1), []string{"PAR-000001"}, "ready"), 400, "not in this transfer"},
		{"receive: scanned twice", berlin, "/receive", receive(with("v", 1), []string{"PAR-000009", "PAR-000009"}, "ready"), 400, "named twice"},
		{"receive: to charging", berlin, "/receive", receive(with("v", 1), one, "charging"), 400, "Ready or Waiting"},
		{"receive: no scans", berlin, "/receive", receive(with("v", 1), []string{}, "ready"), 400, "Scan at least one pack"},
		{"receive: in service here", berlin, "/receive", receive(with("packs", []any{pack("BER-000001")}), []string{"BER-000001"}, "ready"), 409, "already registered here"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := ledgertest.Capture(t, tc.x.app)
			status, out, _ := tc.x.call(t, nil, "POST", "/api/admin/packs/transfers"+tc.path, tc.body, "")
			if status != tc.status || !strings.Contains(fmt.Sprint(out), tc.want) {
				t.Fatalf("= %d %v; want %d with %q", status, out, tc.status, tc.want)
			}
			if msg, _ := out["message"].(string); msg == "" {
				t.Fatalf("no message: %v", out)
			}
			ledgertest.AssertUnchanged(t, tc.x.app, before)
			var rows int
			_ = tc.x.app.DB().NewQuery("SELECT COUNT(*) FROM pack_transfers").Row(&rows)
			if rows != 0 {
				t.Fatal("a refusal left a transfer row")
			}
		})
	}
	// pack tracking off: refused
	ledgertest.SetPackTracking(t, paris.app, schema.PackTrackingOff)
	status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers", `{"toCity": "Berlin", "serials": ["PAR-000001"]}`, "")
	if status != http.StatusConflict {
		t.Fatalf("tracking off = %d %v", status, out)
	}
}

// A head-office recall while packs are on the way (DESIGN.md §14–15): the sender passes them
// over (in transit), and the receiving city, which had none of the lot, is refused a plain
// recall (404) but records a standing one (head office sends standing: true). The packs then
// arrive quarantined: their batteries on the quarantine shelf, each with a state event naming
// the recall, the transfer's states saying so; the ledger balances. A pack of a lot no recall
// names arrives in service, and an older recall of a pack gives way to the newest.
func TestTransferRecallReachesArrivals(t *testing.T) {
	paris := newCity(t, "127.0.0.1:8181", "PAR", 4, 0)
	berlin := newCity(t, "127.0.0.1:8182", "BER", 1, 0)
	// PAR-000004 is of another lot, which no recall names
	if _, err := paris.app.DB().NewQuery("UPDATE packs SET lot = 'L-OTHER' WHERE serial = 'PAR-000004'").Execute(); err != nil {
		t.Fatal(err)
	}
	status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers",
		body(map[string]any{"toCity": "Berlin", "fromCity": "Paris", "serials": []string{"PAR-000001", "PAR-000002", "PAR-000004"}}), "")
	if status != http.StatusCreated {
		t.Fatalf("send = %d %v", status, out)
	}
	manifest := out["transfer"].(map[string]any)["manifest"].(string)

	recall := func(x *city, form map[string]any) (int, map[string]any) {
		status, out, _ := x.call(t, nil, "POST", "/api/admin/packs/recall", body(form), "")
		return status, out
	}
	// Paris: only the pack still here is quarantined
	status, out = recall(paris, map[string]any{"by": "lot", "value": "L-PAR", "reason": "Cells may overheat", "standing": true})
	if status != http.StatusOK || out["recall"].(map[string]any)["packCount"] != float64(1) {
		t.Fatalf("Paris's recall = %d %v", status, out)
	}
	if st, _, _ := paris.pack(t, "PAR-000001"); st != schema.PackStateInTransit {
		t.Fatalf("PAR-000001 in Paris after its recall: %s; want in transit", st)
	}
	// Berlin: none of the lot; a plain recall is refused and writes nothing, a standing one stands
	// (its model recall quarantines its own BER-000001, model M1)
	status, out = recall(berlin, map[string]any{"by": "model", "value": "M1", "reason": "An older notice"})
	if status != http.StatusOK {
		t.Fatalf("Berlin's model recall = %d %v", status, out)
	}
	status, out = recall(berlin, map[string]any{"by": "lot", "value": "L-PAR", "reason": "Cells may overheat"})
	if status != http.StatusNotFound || out["message"] != "No pack has lot L-PAR" {
		t.Fatalf("a plain recall of a lot Berlin has none of = %d %v", status, out)
	}
	status, out = recall(berlin, map[string]any{"by": "lot", "value": "L-PAR", "reason": "Cells may overheat", "standing": true})
	if status != http.StatusOK || out["recall"].(map[string]any)["packCount"] != float64(0) ||
		out["message"] != "No pack with lot L-PAR is in use here now: the recall stands for the packs that arrive" {
		t.Fatalf("Berlin's standing recall = %d %v", status, out)
	}
	lotRecall := out["recall"].(map[string]any)["id"].(string)
	// the model recall is older: make it so to the second
	if _, err := berlin.app.DB().NewQuery("UPDATE pack_recalls SET at = '2025-01-01 00:00:00.000Z' WHERE by = 'model'").Execute(); err != nil {
		t.Fatal(err)
	}
	before := berlin.stats(t)

	status, out, _ = berlin.call(t, nil, "POST", "/api/admin/packs/transfers/receive",
		body(map[string]any{"manifest": manifest, "serials": []string{"PAR-000001", "PAR-000002", "PAR-000004"}, "to": "ready"}), "")
	if status != http.StatusCreated || out["message"] != "Received 3 packs from Paris" {
		t.Fatalf("receive = %d %v", status, out)
	}
	quarantine, err := inventory.SystemAccount(berlin.app, inventory.KeyQuarantine)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"PAR-000001", "PAR-000002"} {
		if st, loc, _ := berlin.pack(t, s); st != schema.PackStateQuarantined || loc != quarantine.Id {
			t.Fatalf("%s in Berlin: %s at %q; want quarantined on the quarantine shelf", s, st, loc)
		}
		var recallId, reason string
		_ = berlin.app.DB().NewQuery("SELECT e.recall, e.reason FROM pack_events e JOIN packs p ON p.id = e.pack WHERE p.serial = {:s} AND e.kind = 'state'").
			Bind(map[string]any{"s": s}).Row(&recallId, &reason)
		if recallId != lotRecall || reason != "Recall of lot L-PAR: Cells may overheat" {
			t.Fatalf("%s's state event: recall %q reason %q; want the lot recall %q", s, recallId, reason, lotRecall)
		}
	}
	if st, loc, _ := berlin.pack(t, "PAR-000004"); st != schema.PackStateQuarantined || loc != quarantine.Id {
		// PAR-000004 is model M1: the older model recall still reaches it
		t.Fatalf("PAR-000004 in Berlin: %s at %q; want quarantined by the model recall", st, loc)
	}
	after := berlin.stats(t)
	if after.Ready != before.Ready || after.Quarantined != before.Quarantined+3 || after.Total != before.Total+3 || after.Unaccounted != 0 {
		t.Fatalf("Berlin: %+v → %+v; want 3 more on the quarantine shelf, ready unchanged", before, after)
	}
	var counts []int
	_ = berlin.app.DB().NewQuery("SELECT packCount FROM pack_recalls ORDER BY by").Column(&counts)
	if len(counts) != 2 || counts[0] != 2 || counts[1] != 2 { // lot: 0 + 2 on arrival; model: its own pack + PAR-000004
		t.Fatalf("Berlin's recalls' packCount (lot, model) = %v; want [2 2]", counts)
	}
	id := out["transfer"].(map[string]any)["id"].(string)
	status, out, _ = berlin.call(t, nil, "GET", "/api/admin/packs/transfers/"+id, "", "")
	states, _ := out["states"].(map[string]any)
	if status != http.StatusOK || states["PAR-000001"] != "quarantined" || len(states) != 3 {
		t.Fatalf("the transfer's states = %d %v", status, out)
	}
	berlin.balanced(t, 0)
	paris.balanced(t, 0)
}

// A pack of a lot no recall names arrives in service, and a city without recalls is unchanged:
// RecallArrivals quarantines nothing.
func TestRecallArrivalsLeavesOthers(t *testing.T) {
	berlin := newCity(t, "127.0.0.1:8182", "BER", 2, 0)
	changes, err := packs.RecallArrivals(berlin.app, []string{"BER-000001", "BER-000002", "NOPE-1"}, "", time.Now())
	if err != nil || len(changes) != 0 {
		t.Fatalf("no recall: %v %v", changes, err)
	}
	if st, _, _ := berlin.pack(t, "BER-000001"); st != schema.PackStateInService {
		t.Fatalf("BER-000001: %s", st)
	}
}

// A pack of a lot this city recalled, received while pack tracking is required: it lands
// quarantined on the quarantine shelf (the receive names exactly its packs, the shelving moves
// them with their batteries), ready is unchanged, and the ledger and the packs agree. Both
// shelves: received to ready and to waiting.
func TestTransferRecallReachesArrivalsRequired(t *testing.T) {
	for _, to := range []string{inventory.KeyReady, inventory.KeyWaiting} {
		t.Run(to, func(t *testing.T) {
			paris := newCity(t, "127.0.0.1:8181", "PAR", 3, 0)
			berlin := newCity(t, "127.0.0.1:8182", "BER", 1, 1)
			if _, err := paris.app.DB().NewQuery("UPDATE packs SET lot = 'L-OTHER' WHERE serial = 'PAR-000003'").Execute(); err != nil {
				t.Fatal(err)
			}
			status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers",
				body(map[string]any{"toCity": "Berlin", "fromCity": "Paris", "serials": []string{"PAR-000001", "PAR-000002", "PAR-000003"}}), "")
			if status != http.StatusCreated {
				t.Fatalf("send = %d %v", status, out)
			}
			manifest := out["transfer"].(map[string]any)["manifest"].(string)
			ledgertest.SetPackTracking(t, berlin.app, schema.PackTrackingRequired)
			status, out, _ = berlin.call(t, nil, "POST", "/api/admin/packs/recall",
				body(map[string]any{"by": "lot", "value": "L-PAR", "reason": "Cells may overheat", "standing": true}), "")
			if status != http.StatusOK {
				t.Fatalf("Berlin's standing recall = %d %v", status, out)
			}
			before := berlin.stats(t)
			k := key()
			recv := body(map[string]any{"manifest": manifest, "serials": []string{"PAR-000001", "PAR-000002", "PAR-000003"}, "to": to})
			status, out, _ = berlin.call(t, nil, "POST", "/api/admin/packs/transfers/receive", recv, k)
			if status != http.StatusCreated || out["message"] != "Received 3 packs from Paris" {
				t.Fatalf("required-mode receive = %d %v", status, out)
			}
			// the replay answers once and moves nothing more
			if status, _, h := berlin.call(t, nil, "POST", "/api/admin/packs/transfers/receive", recv, k); status != http.StatusCreated || h.Get("Idempotent-Replayed") != "true" {
				t.Fatalf("replayed receive = %d %v", status, h)
			}
			quarantine, err := inventory.SystemAccount(berlin.app, inventory.KeyQuarantine)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"PAR-000001", "PAR-000002"} {
				if st, loc, _ := berlin.pack(t, s); st != schema.PackStateQuarantined || loc != quarantine.Id {
					t.Fatalf("%s in Berlin: %s at %q; want quarantined on the quarantine shelf", s, st, loc)
				}
			}
			if st, loc, _ := berlin.pack(t, "PAR-000003"); st != schema.PackStateInService || loc != berlin.account[to] {
				t.Fatalf("PAR-000003 in Berlin: %s at %q; want in service on %s", st, loc, to)
			}
			after := berlin.stats(t)
			want := before
			want.Quarantined += 2
			want.Total += 3
			if to == inventory.KeyReady {
				want.Ready++
			} else {
				want.Waiting++
			}
			if after.Ready != want.Ready || after.Waiting != want.Waiting || after.Quarantined != want.Quarantined || after.Total != want.Total || after.Unaccounted != 0 {
				t.Fatalf("Berlin: %+v → %+v; want %+v", before, after, want)
			}
			var count int
			_ = berlin.app.DB().NewQuery("SELECT packCount FROM pack_recalls").Row(&count)
			if count != 2 {
				t.Fatalf("the recall's packCount = %d; want 2", count)
			}
			berlin.balanced(t, 0)
			if v, err := ledgertest.PackViolations(berlin.app); err != nil || len(v) > 0 {
				t.Fatalf("Berlin's packs and counts differ: %v %v", v, err)
			}
		})
	}
}

// A lot recalled while some of its packs are on their way to another city passes those over
// (they are in use nowhere here); when the send's movement is then deleted on the Activity page,
// the packs come back to this city, and the recall, which stands for the packs that come after
// it, reaches them: they land quarantined on the quarantine shelf, the recall counts them, and
// the ledger is sound — in optional and required mode. A pack of another lot comes back in
// service.
func TestTransferDeletedAfterARecallQuarantinesTheReturned(t *testing.T) {
	for _, mode := range []string{schema.PackTrackingOptional, schema.PackTrackingRequired} {
		t.Run(mode, func(t *testing.T) {
			paris := newCity(t, "127.0.0.1:8181", "PAR", 3, 1)
			ledgertest.SetPackTracking(t, paris.app, mode)
			if _, err := paris.app.DB().NewQuery("UPDATE packs SET lot = 'L-OTHER' WHERE serial = 'PAR-000003'").Execute(); err != nil {
				t.Fatal(err)
			}
			status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers",
				body(map[string]any{"toCity": "Berlin", "serials": []string{"PAR-000002", "PAR-000003", "PAR-000004"}}), "")
			if status != http.StatusCreated {
				t.Fatalf("send = %d %v", status, out)
			}
			mv := out["transfer"].(map[string]any)["movement"].(string)
			status, out, _ = paris.call(t, nil, "POST", "/api/admin/packs/recall",
				body(map[string]any{"by": "lot", "value": "L-PAR", "reason": "Cells may overheat"}), "")
			if status != http.StatusOK || out["recall"].(map[string]any)["packCount"] != float64(1) {
				t.Fatalf("recall = %d %v; want PAR-000001 only (the others are on their way)", status, out)
			}
			before := paris.stats(t)
			status, out, _ = paris.call(t, nil, "DELETE", "/api/admin/movements/"+mv, "", "")
			if status != http.StatusOK {
				t.Fatalf("delete = %d %v", status, out)
			}
			quarantine, err := inventory.SystemAccount(paris.app, inventory.KeyQuarantine)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"PAR-000002", "PAR-000004"} {
				if st, loc, _ := paris.pack(t, s); st != schema.PackStateQuarantined || loc != quarantine.Id {
					t.Fatalf("%s back after the recall: %s at %q; want quarantined on the quarantine shelf", s, st, loc)
				}
			}
			if st, loc, _ := paris.pack(t, "PAR-000003"); st != schema.PackStateInService || loc != paris.account["ready"] {
				t.Fatalf("PAR-000003 (another lot): %s at %q; want in service on ready", st, loc)
			}
			after := paris.stats(t)
			if after.Quarantined != before.Quarantined+2 || after.Ready != before.Ready+1 || after.Waiting != before.Waiting || after.Total != before.Total+3 {
				t.Fatalf("Paris: %+v → %+v; want 2 more quarantined, 1 more ready, 3 more in the fleet", before, after)
			}
			var count int
			_ = paris.app.DB().NewQuery("SELECT packCount FROM pack_recalls").Row(&count)
			if count != 3 {
				t.Fatalf("the recall's packCount = %d; want 3", count)
			}
			paris.balanced(t, 0)
			if mode == schema.PackTrackingRequired {
				if v, err := ledgertest.PackViolations(paris.app); err != nil || len(v) > 0 {
					t.Fatalf("packs and counts differ: %v %v", v, err)
				}
			}
		})
	}
}

// A pack reported damaged while it was on its way (the report leaves its state to its transfer:
// "already in transit") whose send is then deleted (it never left) comes back quarantined, on
// the quarantine shelf, with the report's note as its reason — not in service on the ready
// shelf, where the next pickup would hand the damaged pack out. Its travel companion comes back
// in service; the ledger is sound, in optional and required mode. Was: both back in service.
func TestTransferDeletedAfterADamageReportQuarantinesTheReturned(t *testing.T) {
	for _, mode := range []string{schema.PackTrackingOptional, schema.PackTrackingRequired} {
		t.Run(mode, func(t *testing.T) {
			paris := newCity(t, "127.0.0.1:8181", "PAR", 3, 1)
			ledgertest.SetPackTracking(t, paris.app, mode)
			status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers",
				body(map[string]any{"toCity": "Berlin", "serials": []string{"PAR-000002", "PAR-000003"}}), "")
			if status != http.StatusCreated {
				t.Fatalf("send = %d %v", status, out)
			}
			mv := out["transfer"].(map[string]any)["movement"].(string)
			status, out, _ = paris.call(t, nil, "POST", "/api/packs/PAR-000002/damage", body(map[string]any{"note": "Dropped in the van"}), "")
			if status != http.StatusOK || !strings.Contains(fmt.Sprint(out["message"]), "already in transit") {
				t.Fatalf("damage report on the way = %d %v", status, out)
			}
			before := paris.stats(t)
			status, out, _ = paris.call(t, nil, "DELETE", "/api/admin/movements/"+mv, "", "")
			if status != http.StatusOK {
				t.Fatalf("delete = %d %v", status, out)
			}
			quarantine, err := inventory.SystemAccount(paris.app, inventory.KeyQuarantine)
			if err != nil {
				t.Fatal(err)
			}
			if st, loc, _ := paris.pack(t, "PAR-000002"); st != schema.PackStateQuarantined || loc != quarantine.Id {
				t.Fatalf("the damaged pack back: %s at %q; want quarantined on the quarantine shelf", st, loc)
			}
			var reason string
			_ = paris.app.DB().NewQuery("SELECT e.reason FROM pack_events e JOIN packs p ON p.id = e.pack WHERE p.serial = 'PAR-000002' AND e.kind = 'state' AND e.toState = 'quarantined' ORDER BY e.rowid DESC LIMIT 1").Row(&reason)
			if reason != packs.ReasonDamagePrefix+"Dropped in the van" {
				t.Errorf("its quarantine's reason = %q; want the report's", reason)
			}
			if st, loc, _ := paris.pack(t, "PAR-000003"); st != schema.PackStateInService || loc != paris.account["ready"] {
				t.Fatalf("PAR-000003 (not damaged): %s at %q; want in service on ready", st, loc)
			}
			after := paris.stats(t)
			if after.Quarantined != before.Quarantined+1 || after.Ready != before.Ready+1 || after.Total != before.Total+2 {
				t.Fatalf("Paris: %+v → %+v; want 1 more quarantined, 1 more ready, 2 more in the fleet", before, after)
			}
			paris.balanced(t, 0)
			if mode == schema.PackTrackingRequired {
				if v, err := ledgertest.PackViolations(paris.app); err != nil || len(v) > 0 {
					t.Fatalf("packs and counts differ: %v %v", v, err)
				}
			}
		})
	}
}

// A pack reported damaged in Paris while it was away in Berlin, then sent back and received in
// Paris, arrives quarantined on Paris's quarantine shelf (as the send's undo brings it back),
// not in service on the shelf it was received to; its companion arrives in service. Was: both in
// service, the damaged one ready to be handed out.
func TestTransferReceivedBackAfterADamageReportArrivesQuarantined(t *testing.T) {
	paris := newCity(t, "127.0.0.1:8181", "PAR", 3, 0)
	berlin := newCity(t, "127.0.0.1:8182", "BER", 1, 0)
	status, out, _ := paris.call(t, nil, "POST", "/api/admin/packs/transfers",
		body(map[string]any{"toCity": "Berlin", "fromCity": "Paris", "serials": []string{"PAR-000001", "PAR-000002"}}), "")
	if status != http.StatusCreated {
		t.Fatalf("send = %d %v", status, out)
	}
	manifest := out["transfer"].(map[string]any)["manifest"].(string)
	status, out, _ = paris.call(t, nil, "POST", "/api/packs/PAR-000001/damage", body(map[string]any{"note": "Berlin says the case is cracked"}), "")
	if status != http.StatusOK {
		t.Fatalf("damage report in Paris on the way = %d %v", status, out)
	}
	status, out, _ = berlin.call(t, nil, "POST", "/api/admin/packs/transfers/receive",
		body(map[string]any{"manifest": manifest, "serials": []string{"PAR-000001", "PAR-000002"}, "to": "ready"}), "")
	if status != http.StatusCreated {
		t.Fatalf("Berlin's receive = %d %v", status, out)
	}
	status, out, _ = berlin.call(t, nil, "POST", "/api/admin/packs/transfers",
		body(map[string]any{"toCity": "Paris", "fromCity": "Berlin", "serials": []string{"PAR-000001", "PAR-000002"}}), "")
	if status != http.StatusCreated {
		t.Fatalf("Berlin's send back = %d %v", status, out)
	}
	back := out["transfer"].(map[string]any)["manifest"].(string)
	before := paris.stats(t)
	status, out, _ = paris.call(t, nil, "POST", "/api/admin/packs/transfers/receive",
		body(map[string]any{"manifest": back, "serials": []string{"PAR-000001", "PAR-000002"}, "to": "ready"}), "")
	if status != http.StatusCreated {
		t.Fatalf("Paris's receive back = %d %v", status, out)
	}
	quarantine, err := inventory.SystemAccount(paris.app, inventory.KeyQuarantine)
	if err != nil {
		t.Fatal(err)
	}
	if st, loc, _ := paris.pack(t, "PAR-000001"); st != schema.PackStateQuarantined || loc != quarantine.Id {
		t.Fatalf("the damaged pack back in Paris: %s at %q; want quarantined on the quarantine shelf", st, loc)
	}
	if st, loc, _ := paris.pack(t, "PAR-000002"); st != schema.PackStateInService || loc != paris.account["ready"] {
		t.Fatalf("PAR-000002: %s at %q; want in service on ready", st, loc)
	}
	after := paris.stats(t)
	if after.Quarantined != before.Quarantined+1 || after.Ready != before.Ready+1 {
		t.Fatalf("Paris: %+v → %+v; want 1 more quarantined, 1 more ready", before, after)
	}
	paris.balanced(t, 0)
}
