package inventory_test

import (
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/modules/inventory"
)

// FuzzDriverRoutes fuzzes the bodies of pickup, dropoff, rebalance and retrieves-repairs
// (the driver holds 5 batteries first, so dropoffs have holdings to return).
func FuzzDriverRoutes(f *testing.F) {
	ledgertest.FuzzRoutes(f, testkit.Driver, func(t testing.TB, app *tests.TestApp, c testkit.Callers) []ledgertest.Route {
		if _, err := inventory.Pickup(app, inventory.Op{}, c.Driver.Id, 5); err != nil {
			t.Fatal(err)
		}
		return []ledgertest.Route{
			{Method: "POST", URL: "/api/driver/pickup", Seeds: []string{`{"quantity":2,"notes":"n"}`, `{"quantity":9223372036854775807,"notes":"n"}`, `{"quantity":"3","notes":"n"}`}},
			{Method: "POST", URL: "/api/driver/dropoff-batteries", Seeds: []string{`{"goodBatteries":1,"deadBatteries":1,"notes":"n"}`, `{"goodBatteries":9223372036854775807,"deadBatteries":0,"notes":"x"}`}},
			{Method: "POST", URL: "/api/driver/rebalance", Seeds: []string{`{"quantity":3}`, `{"quantity":9223372036854775807}`, `{"quantity":1e6,"notes":"\u202e"}`}},
			{Method: "POST", URL: "/api/driver/retrieves-repairs-dropoff", Seeds: []string{`{"quantity":1}`, `{"quantity":2147483648}`}},
		}
	})
}
