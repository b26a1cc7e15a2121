package activity_test

import (
	"testing"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/modules/activity"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
)

// Movements carry their structured detail (issue 9): the notes as typed, the assignment
// type, the counts and a swap's two drivers, so no client parses the notes' markers.
func TestMovementsCarryStructuredMeta(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	other := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	must(inventory.Pickup(app, inventory.Op{Actor: c.Driver, Notes: "Y"}, c.Driver.Id, 4))
	if _, _, err := custody.Assign(app, inventory.Op{Actor: c.Admin, Notes: "weekend"}, other.Id, 2, "home_charger"); err != nil {
		t.Fatal(err)
	}
	if _, err := custody.Swap(app, inventory.Op{Actor: c.Admin, Notes: "covered the park"}, custody.SwapRequest{FromUserId: c.Driver.Id, ToUserId: other.Id, Good: 1}); err != nil {
		t.Fatal(err)
	}

	feed, err := activity.AdminRecentActivity(app, 20)
	if err != nil {
		t.Fatal(err)
	}
	var sawAssign, sawSwap bool
	for _, m := range feed {
		switch {
		case m.Meta.AssignmentType == "home_charger":
			sawAssign = true
			if m.Meta.UserNotes != "weekend" || m.Notes == "weekend" {
				t.Errorf("assignment notes %q, userNotes %q: want the marker kept in notes only", m.Notes, m.Meta.UserNotes)
			}
		case m.Meta.From != nil:
			sawSwap = true
			if m.Meta.From.Id != c.Driver.Id || m.Meta.To == nil || m.Meta.To.Id != other.Id || m.Meta.UserNotes != "covered the park" {
				t.Errorf("swap meta %+v (from %+v to %+v)", m.Meta, m.Meta.From, m.Meta.To)
			}
		}
	}
	if !sawAssign || !sawSwap {
		t.Fatalf("assignment meta seen %v, swap meta seen %v in %+v", sawAssign, sawSwap, feed)
	}

	liaison, err := activity.RecentMovements(app, activity.Caller{Id: c.Liaison.Id, Role: roles.Liaison}, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range liaison {
		if m.Meta.UserNotes != "" || m.Notes != "" {
			t.Errorf("the liaison got notes: %+v", m)
		}
	}
}
