package system_test

import (
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/modules/inventory"
)

// FuzzSystemRoutes fuzzes the bodies of the movement correction, the stat edit, the
// emergency override and the settings.
func FuzzSystemRoutes(f *testing.F) {
	ledgertest.FuzzRoutes(f, testkit.Admin, func(t testing.TB, app *tests.TestApp, c testkit.Callers) []ledgertest.Route {
		mv, err := inventory.Pickup(app, inventory.Op{}, c.Driver.Id, 4)
		if err != nil {
			t.Fatal(err)
		}
		return []ledgertest.Route{
			{Method: "PUT", URL: "/api/admin/movements/" + mv.Id, Seeds: []string{`{"goodBatteries":3,"deadBatteries":0}`, `{"goodBatteries":9223372036854775807}`, `{"goodBatteries":"x","deadBatteries":"y"}`}},
			{Method: "POST", URL: "/api/admin/update-stats", Seeds: []string{`{"stat":"ready","value":150,"from":160}`, `{"stat":"total","value":2147483648,"from":160}`, `{"stat":"waiting","value":1.5,"from":null}`, `{"inField":3}`}},
			{Method: "POST", URL: "/api/admin/emergency-override", Seeds: []string{`{"ready":100,"waiting":10,"charging":0,"total":160}`, `{"ready":9223372036854775807,"waiting":0,"charging":0,"total":1}`}},
			{Method: "POST", URL: "/api/admin/settings", Seeds: []string{`{"settings":[{"key":"total_batteries","value":170}]}`, `{"settings":[{"key":"total_batteries","value":"9223372036854775807"}]}`,
				`{"settings":[{"key":"charger_minutes_4A","value":1e6},{"key":"dropoff_prompt","value":"\u202eok"}]}`}},
		}
	})
}
