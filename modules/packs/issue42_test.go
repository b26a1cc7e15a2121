package packs_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
)

// The reproductions of issue 42's "Why", each a plain call as tried on main.

// asMap is v as its JSON object (fields a later change adds are read by name).
func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// packsData returns the serials and codes named by a refusal's data.packs.
func packsData(body map[string]any) map[string]string {
	out := map[string]string{}
	data, _ := body["data"].(map[string]any)
	list, _ := data["packs"].([]any)
	for _, p := range list {
		m, _ := p.(map[string]any)
		s, _ := m["serial"].(string)
		c, _ := m["code"].(string)
		msg, _ := m["message"].(string)
		if msg == "" {
			c += " (no message)"
		}
		out[s] = c
	}
	return out
}

// A recalled pack set lost is still out of use: a driver's pickup naming it is refused,
// pack_quarantined naming it in data.packs.
func TestIssue42RecalledLostPackIsNotHandedOut(t *testing.T) {
	s := newSafetyWorld(t, 4)
	app := s.App
	setLot(t, app, 1, 1, "L-1", "S48", "Voltcell")
	s.ok(t, s.admin.Id, "POST", "/api/admin/packs/recall", `{"by": "lot", "value": "L-1", "reason": "may overheat when charged"}`)
	if _, err := packs.SetState(app, serial(1), schema.PackStateLost, "not on the shelf", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	before := ledgertest.Capture(t, app)
	status, body := s.call(t, s.dana.Id, "POST", "/api/driver/pickup", "", fmt.Sprintf(`{"quantity": 1, "notes": "n", "packs": [%q]}`, serial(1)))
	defer ledgertest.AssertSound(t, app)
	if status != http.StatusConflict || body["code"] != apierr.CodePackQuarantined {
		t.Fatalf("pickup of a recalled lost pack: %d %v; want 409 pack_quarantined", status, body)
	}
	if got := packsData(body); got[serial(1)] != apierr.CodePackQuarantined {
		t.Fatalf("data.packs = %v; want %s refused pack_quarantined", got, serial(1))
	}
	ledgertest.AssertUnchanged(t, app, before)

	// found at a charger start it is refused there too, with a retired one beside it: each named
	if _, err := packs.SetState(app, serial(2), schema.PackStateRetired, "worn out", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := system.EditStat(app, inventory.Op{Actor: s.admin}, "waiting", 2, 0); err != nil { // two dead batteries to charge
		t.Fatal(err)
	}
	status, body = s.call(t, s.admin.Id, "POST", "/api/start-charging", "", fmt.Sprintf(`{"chargerType": "5A", "quantity": 2, "packs": [%q, %q]}`, serial(1), serial(2)))
	if got := packsData(body); status != http.StatusConflict || got[serial(1)] != apierr.CodePackQuarantined || got[serial(2)] != apierr.CodePackRetired {
		t.Fatalf("charging a recalled and a retired pack: %d %v; want 409 naming both", status, body)
	}
}

// A quarantined pack can neither go on a charger nor be swapped to another driver.
func TestIssue42QuarantinedPackNeitherChargedNorSwapped(t *testing.T) {
	w := fleet(t, 6, schema.PackTrackingOptional)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	// two packs to Dana, then all but two of the rest to waiting by a dropoff of dead ones
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1), serial(2), serial(3), serial(4)}}}, dana.Id, 4); err != nil {
		t.Fatal(err)
	}
	if _, err := inventory.Dropoff(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{DeadPacks: []string{serial(3), serial(4)}}}, dana.Id, 0, 2); err != nil {
		t.Fatal(err)
	}
	// a damaged pack in the driver's hands, and one already returned
	for _, n := range []int{1, 3} {
		if _, err := packs.SetState(app, serial(n), schema.PackStateQuarantined, "smells of smoke", w.admin.Id, clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	before := ledgertest.Capture(t, app)
	_, _, err := charging.Start(app, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{Packs: []string{serial(3)}}}, "5A", 1)
	if code(err) != apierr.CodePackQuarantined {
		t.Fatalf("charging a quarantined pack: %v; want pack_quarantined", err)
	}
	_, err = custody.Swap(app, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{GoodPacks: []string{serial(1)}}},
		custody.SwapRequest{FromUserId: dana.Id, ToUserId: eve.Id, Good: 1})
	if code(err) != apierr.CodePackQuarantined {
		t.Fatalf("swapping a quarantined pack to another driver: %v; want pack_quarantined", err)
	}
	ledgertest.AssertUnchanged(t, app, before)
}

// Deleting a dropoff does not put a pack quarantined since then back in the driver's hands.
func TestIssue42DeletedDropoffKeepsQuarantinedPackInTheBay(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOptional)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, dana.Id, 1); err != nil {
		t.Fatal(err)
	}
	drop, err := inventory.Dropoff(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{GoodPacks: []string{serial(1)}}}, dana.Id, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := packs.SetState(app, serial(1), schema.PackStateQuarantined, "cracked case", w.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	err = inventory.DeleteMovement(app, inventory.Op{Actor: w.admin}, drop.Id)
	if l := location(t, app, serial(1)); l == inventory.HolderKey(dana.Id, inventory.AssignmentPickup) {
		t.Fatalf("after deleting the dropoff (%v) the quarantined pack is back with the driver", err)
	}
}

// required tracking is not skipped by back-dating: occurredAt alone earns no grace; a key
// minted before the switch does, and the write is marked for admins.
func TestIssue42RequiredNotSkippedByBackDating(t *testing.T) {
	w := fleet(t, 6, schema.PackTrackingOff)
	app := w.App
	srv := testkit.Serve(t, app)
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	token := testkit.TokenIn(t, app, dana)
	early := uuid.Must(uuid.NewV7()).String() // minted before the switch (the tap, offline)
	time.Sleep(5 * time.Millisecond)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
	hourAgo := time.Now().UTC().Add(-time.Hour).Format(time.RFC3339)
	body := fmt.Sprintf(`{"quantity": 1, "notes": "n", "occurredAt": %q}`, hourAgo)

	status, raw, _ := ledgertest.Do(t, srv.Client(), http.MethodPost, srv.URL+"/api/driver/pickup", token, body,
		map[string]string{"Idempotency-Key": uuid.Must(uuid.NewV7()).String()})
	if out := ledgertest.Body(t, raw); status != http.StatusBadRequest || out["code"] != apierr.CodePackCount {
		t.Fatalf("back-dated pickup naming no pack in required mode: %d %v; want 400 pack_count", status, out)
	}
	status, raw, _ = ledgertest.Do(t, srv.Client(), http.MethodPost, srv.URL+"/api/driver/pickup", token, body,
		map[string]string{"Idempotency-Key": early})
	if status != http.StatusOK {
		t.Fatalf("a pickup keyed before the switch: %d %s; want 200", status, raw)
	}
	a, err := packs.CountAttention(app, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got := asMap(t, a)["unnamedBatteries"]; got != 1.0 {
		t.Fatalf("attention: %+v; want 1 battery moved without packs", a)
	}
}

// In required mode a count edit cannot name packs: the stat edit, the override, adjustment
// edits and deletes and the clean slate are refused pack_count, pointing to the stocktake.
func TestIssue42RequiredRefusesCountEdits(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOff)
	app := w.App
	adj, err := system.EditStat(app, inventory.Op{Actor: w.admin}, "waiting", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
	before := ledgertest.Capture(t, app)
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"stat edit", func() error { _, err := system.EditStat(app, inventory.Op{Actor: w.admin}, "ready", 3, 4); return err }},
		{"override", func() error { _, err := system.Override(app, inventory.Op{Actor: w.admin}, 4, 0, 0, 4); return err }},
		{"adjustment edit", func() error {
			_, err := inventory.EditMovement(app, inventory.Op{Actor: w.admin}, adj.Id, 0, 2, "")
			return err
		}},
		{"adjustment delete", func() error { return inventory.DeleteMovement(app, inventory.Op{Actor: w.admin}, adj.Id) }},
		{"clean slate", func() error { _, err := system.CleanSlate(app, inventory.Op{Actor: w.admin}); return err }},
	} {
		name, err := c.name, c.call()
		if code(err) != apierr.CodePackCount {
			t.Errorf("%s in required mode: %v; want pack_count", name, err)
		}
		ledgertest.AssertUnchanged(t, app, before)
	}
}

// A quarantined pack lying in the bay is not ready: the stats show it apart.
func TestIssue42QuarantinedPackIsNotReady(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOptional)
	app := w.App
	if _, err := packs.SetState(app, serial(1), schema.PackStateQuarantined, "dented", w.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	st, err := inventory.Stats(app)
	if err != nil {
		t.Fatal(err)
	}
	if st.Ready != 3 || asMap(t, st)["quarantined"] != 1.0 || st.Unaccounted != 0 {
		t.Fatalf("stats %+v; want ready 3, quarantined 1, unaccounted 0", st)
	}
	if l := location(t, app, serial(1)); l != "quarantine" {
		t.Fatalf("quarantined pack at %s; want quarantine", l)
	}
	sound(t, app)
}
