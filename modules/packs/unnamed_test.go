package packs_test

import (
	"testing"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/stocktake"
	"swapbay/modules/system"
)

// Switched to required, a bay whose batteries are not all named packs is told to count the
// bay (the System page's hint reads attention's unnamedInBay): 4 packs on a ready shelf of 6
// and 3 waiting with none leave 5 unnamed; the batteries with a driver are not the bay's; in
// optional mode nothing is asked; a stocktake of the whole bay leaves none.
func TestUnnamedInBayAfterTheSwitchToRequired(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOff)
	app := w.App
	if _, err := system.Override(app, inventory.Op{Actor: w.admin}, 6, 3, 0, 12); err != nil {
		t.Fatal(err)
	}
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n"}, dana.Id, 1); err != nil {
		t.Fatal(err)
	}
	unnamed := func() int {
		t.Helper()
		a, err := packs.CountAttention(app, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		return a.UnnamedInBay
	}
	if n := unnamed(); n != 0 {
		t.Fatalf("tracking off: unnamedInBay %d; want 0 (nothing asked)", n)
	}
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
	if n := unnamed(); n != 0 {
		t.Fatalf("optional: unnamedInBay %d; want 0", n)
	}
	ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
	// the pickup took a battery, perhaps a pack, from ready: 5 ready (4 or 3 packs) and 3 waiting
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	var onShelf int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM packs WHERE location = {:r}").Bind(map[string]any{"r": ready.Id}).Row(&onShelf); err != nil {
		t.Fatal(err)
	}
	if want := 5 - onShelf + 3; unnamed() != want {
		t.Fatalf("required: unnamedInBay %d; want %d (5 ready with %d packs, 3 waiting with none)", unnamed(), want, onShelf)
	}
	var inBay []string
	if err := app.DB().NewQuery("SELECT serial FROM packs WHERE location = {:r}").Bind(map[string]any{"r": ready.Id}).Column(&inBay); err != nil {
		t.Fatal(err)
	}
	if _, err := stocktake.Apply(app, inventory.Op{Actor: w.admin}, stocktake.Input{Place: stocktake.PlaceBay, Serials: inBay}); err != nil {
		t.Fatal(err)
	}
	if n := unnamed(); n != 0 {
		t.Fatalf("after a stocktake of the whole bay: unnamedInBay %d; want 0", n)
	}
}
