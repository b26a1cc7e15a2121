package users_test

import (
	"errors"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/users"
)

// A deleted user's history keeps their name: the feeds name them (and not the admin who
// recorded a movement for them), a movement of nobody in particular names its deleted
// actor, nothing else changes, and their movements can no longer be edited (the holdings an
// edit would move went with them).
func TestDeletedUsersKeepTheirNameInTheHistory(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	driver := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	admin := testkit.CreateUser(t, app, roles.Admin, roles.Approved)
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(inventory.Pickup(app, inventory.Op{Actor: driver, Notes: "out"}, driver.Id, 2))
	dropoff, err := inventory.Dropoff(app, inventory.Op{Actor: driver, Notes: "back"}, driver.Id, 2, 0)
	must(dropoff, err)
	mv, _, err := custody.Assign(app, inventory.Op{Actor: c.Admin, Notes: "for the van"}, driver.Id, 1, "moving")
	must(mv, err)
	must(custody.DeleteAssignment(app, inventory.Op{Actor: c.Admin}, driver.Id))
	var adjustment *inventory.Movement
	if err := app.RunInTransaction(func(txApp core.App) error {
		ready := 150
		adjustment, err = inventory.Adjust(txApp, inventory.Op{Actor: admin}, inventory.Targets{Ready: &ready}, "recount")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	before := ledgertest.Capture(t, app)

	for _, u := range []*core.Record{driver, admin} {
		if err := users.Delete(app, c.Master, u.Id); err != nil {
			t.Fatalf("delete %s: %v", u.GetString(schema.UserRole), err)
		}
	}
	ledgertest.AssertUnchanged(t, app, before)
	ledgertest.AssertSound(t, app)

	feed, err := activity.AdminRecentActivity(app, 100)
	if err != nil {
		t.Fatal(err)
	}
	byId := map[string]activity.AdminMovement{}
	for _, m := range feed {
		byId[m.Id] = m
	}
	name := func(u *activity.UserRef) string {
		if u == nil {
			return "nobody"
		}
		return u.FirstName + " " + u.LastName + " (" + u.Role + ")"
	}
	driverName := driver.GetString(schema.UserFirstName) + " " + driver.GetString(schema.UserLastName) + " (driver)"
	adminName := admin.GetString(schema.UserFirstName) + " " + admin.GetString(schema.UserLastName) + " (admin)"
	liveAdmin := c.Admin.GetString(schema.UserFirstName) + " " + c.Admin.GetString(schema.UserLastName) + " (admin)"
	for _, check := range []struct {
		what, id, user, actor string
	}{
		{"the driver's own dropoff", dropoff.Id, driverName, driverName},
		{"an assignment an admin recorded for the driver", mv.Id, driverName, liveAdmin},
		{"an adjustment by the deleted admin", adjustment.Id, adminName, adminName},
	} {
		m, ok := byId[check.id]
		if !ok {
			t.Fatalf("%s is missing from the feed", check.what)
		}
		if got := name(m.User); got != check.user {
			t.Errorf("%s: user %q, want %q", check.what, got, check.user)
		}
		if got := name(m.Actor); got != check.actor {
			t.Errorf("%s: actor %q, want %q", check.what, got, check.actor)
		}
		if m.User != nil && m.User.Email != "" {
			t.Errorf("%s: a deleted user's email is shown", check.what)
		}
	}

	// the liaison's feed names the driver too
	recent, err := activity.RecentMovements(app, activity.Caller{Id: c.Liaison.Id, Role: roles.Liaison}, 50)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range recent {
		if m.Id == dropoff.Id {
			found = true
			if got := name(m.User); got != driverName {
				t.Errorf("liaison feed: dropoff by %q, want %q", got, driverName)
			}
		}
	}
	if !found {
		t.Error("the dropoff is missing from the liaison's feed")
	}

	_, err = inventory.EditMovement(app, inventory.Op{Actor: c.Admin}, dropoff.Id, 1, 0, "")
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Message != inventory.MsgEditFormerUser {
		t.Fatalf("editing the deleted driver's dropoff: %v", err)
	}
	ledgertest.AssertUnchanged(t, app, before)
}
