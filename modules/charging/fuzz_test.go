package charging_test

import (
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/modules/charging"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// FuzzChargingRoutes fuzzes the bodies of start-charging and the session quantity change
// (20 batteries waiting, one session of 2 on the chargers).
func FuzzChargingRoutes(f *testing.F) {
	ledgertest.FuzzRoutes(f, testkit.Admin, func(t testing.TB, app *tests.TestApp, c testkit.Callers) []ledgertest.Route {
		if _, err := system.Override(app, inventory.Op{}, 140, 20, 0, 160); err != nil {
			t.Fatal(err)
		}
		s, _, err := charging.Start(app, inventory.Op{}, "4A", 2)
		if err != nil {
			t.Fatal(err)
		}
		return []ledgertest.Route{
			{Method: "POST", URL: "/api/start-charging", Seeds: []string{`{"chargerType":"4A","quantity":1}`, `{"chargerType":"4A","quantity":2147483648}`, `{"chargerType":"5A","quantity":1.5}`}},
			{Method: "PATCH", URL: "/api/admin/charging-sessions/" + s.Id + "/quantity", Seeds: []string{`{"quantity":1,"destination":"ready"}`, `{"quantity":3}`, `{"quantity":9223372036854775807}`, `{"quantity":-1,"destination":"waiting"}`}},
		}
	})
}
