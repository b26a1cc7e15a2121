package users_test

import (
	"net/http"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

const holderID = "holderdriver001"

// A user who still holds batteries cannot be deleted: the refusal is a 409 with the hook's
// message (not a 500), and the user stays.
func TestDeleteUserHoldingBatteriesIsRefused(t *testing.T) {
	factory, headers := testkit.As(testkit.Admin, func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
		col, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			t.Fatal(err)
		}
		rec := core.NewRecord(col)
		rec.Id = holderID
		rec.SetEmail("holder@example.com")
		rec.SetPassword(testkit.Password)
		rec.Set(schema.UserRole, roles.Driver)
		rec.Set(schema.UserIsApproved, roles.Approved)
		if err := app.Save(rec); err != nil {
			t.Fatal(err)
		}
		if _, err := inventory.Pickup(app, inventory.Op{Actor: rec, Notes: "N"}, rec.Id, 3); err != nil {
			t.Fatal(err)
		}
	})
	s := tests.ApiScenario{
		Method:          http.MethodDelete,
		URL:             "/api/admin/users/" + holderID,
		Headers:         headers,
		TestAppFactory:  factory,
		ExpectedStatus:  409,
		ExpectedContent: []string{`"status":409`},
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			if _, err := app.FindRecordById(schema.Users, holderID); err != nil {
				t.Fatalf("the holder was deleted: %v", err)
			}
		},
	}
	s.Test(t)
}
