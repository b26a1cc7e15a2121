package users_test

import (
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/roles"
)

// FuzzUserRoutes fuzzes the body of the admin user edit (pay reduction, names).
func FuzzUserRoutes(f *testing.F) {
	ledgertest.FuzzRoutes(f, testkit.Admin, func(t testing.TB, app *tests.TestApp, c testkit.Callers) []ledgertest.Route {
		return []ledgertest.Route{
			{Method: "PUT", URL: "/api/admin/users/" + ledgertest.NewUser(t, app, roles.Driver).Id, Seeds: []string{
				`{"payReductionPercentage":30}`, `{"payReductionPercentage":2147483648}`, `{"firstName":"A\u202eB"}`, `{"lastName":"Lee","payReductionPercentage":"3"}`}},
		}
	})
}
