package packs_test

import (
	"testing"

	"github.com/pocketbase/dbx"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
)

// lastMovementOfKind returns the id of the latest movement whose meta kind is kind.
func lastMovementOfKind(t *testing.T, w *testkitApp, kind string) string {
	t.Helper()
	var id string
	err := w.App.DB().NewQuery("SELECT id FROM movements WHERE json_extract(meta, '$.kind') = {:k} ORDER BY rowid DESC LIMIT 1").
		Bind(dbx.Params{"k": kind}).Row(&id)
	if err != nil || id == "" {
		t.Fatalf("no %s movement: %v", kind, err)
	}
	return id
}

// An out-of-use pack moves only toward quarantine "by any route" (DESIGN.md §14), whatever the
// tracking mode: with tracking switched off after the pack was recalled, deleting the movement
// that took it (and its battery) to quarantine, or a dropoff that returned it there, must not
// put it back on the ready shelf or in the driver's hands. Refused pack_quarantined, nothing
// changed.
func TestFieldSeamsOffModeDeleteKeepsOutOfUsePackInQuarantine(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, w *testkitApp) (movement string)
	}{
		{"the quarantine movement of a pack recalled in ready", func(t *testing.T, w *testkitApp) string {
			if _, err := packs.SetState(w.App, serial(1), schema.PackStateQuarantined, "recalled by the maker", w.admin.Id, clock.Now()); err != nil {
				t.Fatal(err)
			}
			return lastMovementOfKind(t, w, "quarantine")
		}},
		{"a dropoff that took a recalled pack to quarantine", func(t *testing.T, w *testkitApp) string {
			dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
			if _, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, dana.Id, 1); err != nil {
				t.Fatal(err)
			}
			if _, err := packs.SetState(w.App, serial(1), schema.PackStateQuarantined, "recalled by the maker", w.admin.Id, clock.Now()); err != nil {
				t.Fatal(err)
			}
			drop, err := inventory.Dropoff(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{GoodPacks: []string{serial(1)}}}, dana.Id, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			return drop.Id
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := fleet(t, 4, schema.PackTrackingOptional)
			mv := c.setup(t, w)
			if l := location(t, w.App, serial(1)); l != inventory.KeyQuarantine {
				t.Fatalf("recalled pack at %q before the delete; want quarantine", l)
			}
			ledgertest.SetPackTracking(t, w.App, schema.PackTrackingOff)
			before := ledgertest.Capture(t, w.App)
			err := inventory.DeleteMovement(w.App, inventory.Op{Actor: w.admin}, mv)
			if code(err) != apierr.CodePackQuarantined {
				t.Errorf("delete with tracking off: %v; want pack_quarantined", err)
			}
			ledgertest.AssertUnchanged(t, w.App, before)
			if l := location(t, w.App, serial(1)); l != inventory.KeyQuarantine {
				t.Errorf("recalled pack at %q after the delete; want quarantine", l)
			}
			sound(t, w.App)
		})
	}
}
