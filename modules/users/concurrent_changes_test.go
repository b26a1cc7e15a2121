package users_test

import (
	"sync"
	"testing"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/users"
)

// Changes to one user made at the same moment all stay: each is saved on a copy read in its
// own transaction, so none writes back what another changed (a save writes every field).
func TestConcurrentChangesToOneUserAllStay(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	target := testkit.CreateUser(t, app, roles.Admin, roles.Approved)
	for round := 0; round < 20; round++ {
		if _, err := app.DB().NewQuery("UPDATE users SET mustResignTerms = FALSE, adminPoolWithholdingPercentage = 0, isApproved = 'approved', firstName = 'Before' WHERE id = {:id}").
			Bind(map[string]any{"id": target.Id}).Execute(); err != nil {
			t.Fatal(err)
		}
		first, state := "After", roles.Suspended
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for _, f := range []func() error{
			func() error { _, err := users.ForceResign(app, c.Master, target.Id); return err },
			func() error { _, err := users.SetPoolWithholding(app, c.Master, target.Id, 250); return err },
			func() error { _, err := users.SetApproval(app, c.Master, target.Id, state); return err },
			func() error {
				_, err := users.Update(app, c.Master, target.Id, users.Changes{FirstName: &first})
				return err
			},
		} {
			wg.Add(1)
			go func() { defer wg.Done(); errs <- f() }()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := users.FindByID(app, target.Id)
		if err != nil {
			t.Fatal(err)
		}
		if !got.GetBool(schema.UserMustResignTerms) || got.GetFloat(schema.UserAdminPoolWithholdingPct) != 25 ||
			got.GetString(schema.UserIsApproved) != state || got.GetString(schema.UserFirstName) != first {
			t.Fatalf("round %d: a change was lost: mustResign %v, withholding %v, approval %q, first name %q", round,
				got.GetBool(schema.UserMustResignTerms), got.GetFloat(schema.UserAdminPoolWithholdingPct),
				got.GetString(schema.UserIsApproved), got.GetString(schema.UserFirstName))
		}
	}
}
