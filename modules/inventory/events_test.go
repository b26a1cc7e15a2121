package inventory_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/events"
	"swapbay/lib/roles"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// TestEventsFollowCommits: each service announces its realtime messages on the app's bus
// after its transaction commits, and a refused operation announces nothing.
func TestEventsFollowCommits(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	var mu sync.Mutex
	var got []string
	cancel := events.For(app).Subscribe(func(m events.Message) {
		mu.Lock()
		got = append(got, m.Type)
		mu.Unlock()
	})
	defer cancel()
	take := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := got
		got = nil
		slices.Sort(out)
		return out
	}
	d := testkit.CreateUser(t, app, roles.Driver, roles.Approved)

	if _, err := inventory.Pickup(app, inventory.Op{}, d.Id, 500); err == nil {
		t.Fatal("oversized pickup accepted")
	}
	if m := take(); len(m) != 0 {
		t.Fatalf("refused pickup announced %v", m)
	}
	if _, err := inventory.Pickup(app, inventory.Op{}, d.Id, 5); err != nil {
		t.Fatal(err)
	}
	if m := take(); !slices.Equal(m, []string{events.ActivityUpdated, events.InventoryUpdated}) {
		t.Fatalf("pickup announced %v", m)
	}
	if _, err := system.Override(app, inventory.Op{}, 100, 10, 0, 160); err != nil {
		t.Fatal(err)
	}
	if m := take(); !slices.Contains(m, events.EmergencyOverride) {
		t.Fatalf("override announced %v", m)
	}
	if _, _, err := charging.Start(app, inventory.Op{}, "4A", 3); err != nil {
		t.Fatal(err)
	}
	if m := take(); !slices.Contains(m, events.ChargingUpdated) || !slices.Contains(m, events.InventoryUpdated) {
		t.Fatalf("start charging announced %v", m)
	}
	// a service joining a caller's transaction announces only once that one commits
	err := app.RunInTransaction(func(txApp core.App) error {
		if _, err := inventory.Pickup(txApp, inventory.Op{}, d.Id, 1); err != nil {
			return err
		}
		if m := take(); len(m) != 0 {
			t.Errorf("announced before commit: %v", m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := take(); !slices.Contains(m, events.InventoryUpdated) {
		t.Fatalf("joined pickup announced %v after commit", m)
	}
}

// TestHolderCannotBeDeleted: a user who still holds batteries cannot be deleted (the field
// count would keep batteries nobody owns); once their holdings are empty they can.
func TestHolderCannotBeDeleted(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	d := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(app, inventory.Op{}, d.Id, 2); err != nil {
		t.Fatal(err)
	}
	if err := app.Delete(d); err == nil {
		t.Fatal("deleted a user holding 2 batteries")
	}
	if _, err := inventory.Dropoff(app, inventory.Op{}, d.Id, 2, 0); err != nil {
		t.Fatal(err)
	}
	if err := app.Delete(d); err != nil {
		t.Fatalf("user holding nothing: %v", err)
	}
}
