package packs_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
)

// The routes take the packs in their bodies: a keyed replay names no pack twice, refusals carry
// their code and the field, two drivers sending the same pack at once leave it in one place
// with one discrepancy, and the recalculation finds nothing to correct.
func TestPackRoutes(t *testing.T) {
	w := fleet(t, 10, schema.PackTrackingRequired)
	app := w.App
	srv := testkit.Serve(t, app)
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	tokens := map[string]string{dana.Id: testkit.TokenIn(t, app, dana), eve.Id: testkit.TokenIn(t, app, eve), w.admin.Id: testkit.TokenIn(t, app, w.admin)}
	post := func(who, url, key, body string) (int, map[string]any, http.Header) {
		h := map[string]string{}
		if key != "" {
			h["Idempotency-Key"] = key
		}
		status, raw, hdr := ledgertest.Do(t, srv.Client(), http.MethodPost, srv.URL+url, tokens[who], body, h)
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		return status, out, hdr
	}
	pickup := `{"quantity": 2, "notes": "n", "packs": ["%s", "%s"]}`

	// a keyed pickup and its replay: one movement, each pack moved once
	for i := 0; i < 2; i++ {
		status, body, hdr := post(dana.Id, "/api/driver/pickup", "k-dana-1", fmt.Sprintf(pickup, serial(1), serial(2)))
		if status != http.StatusOK {
			t.Fatalf("pickup %d: %d %v", i, status, body)
		}
		if i == 1 && hdr.Get("Idempotent-Replayed") != "true" {
			t.Fatal("the repeat was not a replay")
		}
	}
	if n := eventsOf(t, app, schema.PackEventMoved); n != 2 {
		t.Fatalf("%d moved events after a pickup and its replay; want 2", n)
	}
	if status, body, _ := post(eve.Id, "/api/driver/pickup", "k-eve-1", fmt.Sprintf(pickup, serial(3), serial(4))); status != http.StatusOK {
		t.Fatalf("eve pickup: %d %v", status, body)
	}

	for _, c := range []struct {
		url, body, code, field string
		status                 int
	}{
		{"/api/driver/dropoff-batteries", `{"goodBatteries": 1, "notes": "n", "packs": ["SWB-000001"]}`, apierr.CodeValidationFailed, "packs", 400},
		{"/api/driver/dropoff-batteries", `{"goodBatteries": 1, "notes": "n", "goodPacks": ["SWB-424242"]}`, apierr.CodePackUnknown, "goodPacks", 400},
		{"/api/driver/dropoff-batteries", `{"goodBatteries": 2, "notes": "n", "goodPacks": ["SWB-000001"]}`, apierr.CodePackCount, "goodPacks", 400},
		{"/api/driver/rebalance", `{"quantity": 1, "packs": ["SWB-000001"]}`, apierr.CodeValidationFailed, "packs", 400},
	} {
		before := ledgertest.Capture(t, app)
		status, body, _ := post(dana.Id, c.url, "", c.body)
		data, _ := body["data"].(map[string]any)
		if status != c.status || body["code"] != c.code || data[c.field] == nil {
			t.Fatalf("%s %s: %d %v; want %d %s naming %s", c.url, c.body, status, body, c.status, c.code, c.field)
		}
		ledgertest.AssertUnchanged(t, app, before)
	}

	// Dana and Eve both drop off SWB-000001 at once (Eve's label was misread): one place, one
	// discrepancy, the counts and the records agree
	var wg sync.WaitGroup
	statuses := map[string]int{}
	var mu sync.Mutex
	for _, who := range []string{dana.Id, eve.Id} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _, _ := post(who, "/api/driver/dropoff-batteries", "k-drop-"+who, `{"goodBatteries": 1, "notes": "n", "goodPacks": ["SWB-000001"]}`)
			mu.Lock()
			statuses[who] = status
			mu.Unlock()
		}()
	}
	wg.Wait()
	if statuses[dana.Id] != 200 || statuses[eve.Id] != 200 {
		t.Fatalf("concurrent dropoffs: %v", statuses)
	}
	if l := location(t, app, serial(1)); l != inventory.KeyReady {
		t.Fatalf("SWB-000001 at %s; want ready", l)
	}
	if n := eventsOf(t, app, schema.PackEventDiscrepancy); n != 1 {
		t.Fatalf("%d discrepancies; want 1", n)
	}
	sound(t, app)

	status, body, _ := post(w.admin.Id, "/api/admin/recalculate-inventory", "", `{}`)
	if status != 200 || fmt.Sprint(body["packCorrections"]) != "[]" || fmt.Sprint(body["corrections"]) != "[]" {
		t.Fatalf("recalculate: %d %v", status, body)
	}
}

// A pack's last seen and history name an admin's manual assignment as one (kind
// manual_assignment), though it is recorded as a pickup; a driver's own pickup has no kind.
func TestPackDetailNamesTheAssignment(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOptional)
	app := w.App
	srv := testkit.Serve(t, app)
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	do := func(who *core.Record, url, body string) {
		t.Helper()
		status, raw, _ := ledgertest.Do(t, srv.Client(), http.MethodPost, srv.URL+url, testkit.TokenIn(t, app, who), body, nil)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", url, status, raw)
		}
	}
	do(w.admin, "/api/admin/assignments", fmt.Sprintf(`{"userId": %q, "quantity": 1, "assignmentType": "home_charger", "packs": [%q]}`, dana.Id, serial(1)))
	do(dana, "/api/driver/pickup", fmt.Sprintf(`{"quantity": 1, "notes": "n", "packs": [%q]}`, serial(2)))
	for _, c := range []struct{ serial, kind string }{{serial(1), "manual_assignment"}, {serial(2), ""}} {
		d, err := packs.PackDetail(app, packs.Viewer{UserId: dana.Id, Driver: true}, c.serial)
		if err != nil {
			t.Fatal(err)
		}
		if m := d.LastSeen.Movement; m == nil || m.Type != inventory.TypePickup || m.Kind != c.kind {
			t.Fatalf("%s last seen by %+v; want a pickup of kind %q", c.serial, m, c.kind)
		}
		if len(d.History) == 0 || d.History[0].Movement == nil || d.History[0].Movement.Kind != c.kind || d.History[0].Actor == nil {
			t.Fatalf("%s history %+v; want its move first, of kind %q, with its actor", c.serial, d.History, c.kind)
		}
		if want := map[string]string{"manual_assignment": w.admin.Id, "": dana.Id}[c.kind]; d.History[0].Actor.Id != want {
			t.Fatalf("%s moved by %s; want %s", c.serial, d.History[0].Actor.Id, want)
		}
	}
}
