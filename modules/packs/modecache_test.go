package packs_test

import (
	"errors"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// The ledger keeps the tracking mode in memory: a change is seen by the next write, and a
// change rolled back is never seen.
func TestTrackingModeCacheFollowsSaves(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOptional)
	driver := testkit.CreateUser(t, w, roles.Driver, roles.Approved)
	pickup := func(packs []string) error {
		_, err := inventory.Pickup(w, inventory.Op{Actor: driver, Notes: "Y", Packs: inventory.PackNames{Packs: packs}}, driver.Id, 1)
		return err
	}
	if err := pickup([]string{}); err != nil { // optional: naming none is fine (and fills the cache)
		t.Fatal(err)
	}
	save := func(mode string) {
		t.Helper()
		if _, err := system.SaveSettings(w, inventory.Op{Actor: w.admin}, []system.Setting{{Key: schema.SettingPackTracking, Value: []byte(`"` + mode + `"`)}}); err != nil {
			t.Fatal(err)
		}
	}
	save(schema.PackTrackingRequired)
	if err := pickup([]string{}); code(err) != apierr.CodePackCount {
		t.Fatalf("required right after the save: %v, want %s", err, apierr.CodePackCount)
	}
	// a save rolled back leaves the mode as it was, in the cache too
	errRollback := errors.New("rollback")
	err := w.RunInTransaction(func(txApp core.App) error {
		ledgertest.SetPackTracking(t, txApp, schema.PackTrackingOff)
		// read inside the transaction: off (this read must not outlive the rollback)
		if _, err := inventory.Pickup(txApp, inventory.Op{Actor: driver, Notes: "Y", Packs: inventory.PackNames{Packs: []string{}}}, driver.Id, 1); err != nil {
			t.Errorf("inside the transaction (off): %v", err)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
	if err := pickup([]string{}); code(err) != apierr.CodePackCount {
		t.Fatalf("after a rolled-back save: %v, want %s (still required)", err, apierr.CodePackCount)
	}
	save(schema.PackTrackingOff)
	if err := pickup([]string{serial(9)}); err != nil { // off: named packs are ignored
		t.Fatalf("off: %v", err)
	}
}
