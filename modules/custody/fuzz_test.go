package custody_test

import (
	"fmt"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/modules/inventory"
)

// FuzzCustodyRoutes fuzzes the bodies of assignments, driver swaps and dead-battery
// transfers between the caller's driver (6 batteries) and a second driver (2).
func FuzzCustodyRoutes(f *testing.F) {
	ledgertest.FuzzRoutes(f, testkit.Admin, func(t testing.TB, app *tests.TestApp, c testkit.Callers) []ledgertest.Route {
		other := ledgertest.NewUser(t, app, roles.Driver)
		for id, n := range map[string]int{c.Driver.Id: 6, other.Id: 2} {
			if _, err := inventory.Pickup(app, inventory.Op{}, id, n); err != nil {
				t.Fatal(err)
			}
		}
		pair := func(format string) string { return fmt.Sprintf(format, c.Driver.Id, other.Id) }
		return []ledgertest.Route{
			{Method: "POST", URL: "/api/admin/assignments", Seeds: []string{
				pair(`{"userId":%[1]q,"quantity":2,"assignmentType":"pickup"}`),
				pair(`{"userId":%[2]q,"quantity":9223372036854775807,"assignmentType":"repair"}`)}},
			{Method: "POST", URL: "/api/admin/driver-swap", Seeds: []string{
				pair(`{"fromUserId":%[1]q,"toUserId":%[2]q,"goodBatteries":1,"deadBatteries":1}`),
				pair(`{"fromUserId":%[1]q,"toUserId":%[2]q,"goodBatteries":2,"isExchange":true,"returnGoodBatteries":1}`),
				pair(`{"fromUserId":%[1]q,"toUserId":%[2]q,"goodBatteries":1,"returnDeadBatteries":9223372036854775807,"isExchange":true}`)}},
			{Method: "POST", URL: "/api/admin/dead-battery-transfer", Seeds: []string{
				pair(`{"fromUserId":%[1]q,"toUserId":%[2]q,"deadBatteries":1}`),
				pair(`{"fromUserId":%[1]q,"toUserId":%[2]q,"deadBatteries":1.5}`)}},
		}
	})
}
