package inventory_test

import (
	"testing"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/modules/inventory"
)

func TestSmokePickupDropoff(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	s, err := inventory.Stats(app)
	if err != nil || s.Total != 160 || s.Ready != 160 || s.Unaccounted != 0 {
		t.Fatalf("fresh stats %+v %v", s, err)
	}
	d := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	op := inventory.Op{Actor: d, Notes: "Y"}
	if _, err := inventory.Pickup(app, op, d.Id, 10); err != nil {
		t.Fatal(err)
	}
	if _, err := inventory.Dropoff(app, op, d.Id, 3, 9); err != nil {
		t.Fatal(err)
	}
	s, _ = inventory.Stats(app)
	want := inventory.Snapshot{Total: 160, Ready: 153, Waiting: 9, InField: 0, Unaccounted: -2}
	if s != want {
		t.Fatalf("got %+v want %+v", s, want)
	}
}
