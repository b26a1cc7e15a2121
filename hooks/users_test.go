package hooks_test

import (
	"errors"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/users"
)

func TestUserDefaultsOnCreate(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	col, err := app.FindCollectionByNameOrId(schema.Users)
	if err != nil {
		t.Fatal(err)
	}
	bare := core.NewRecord(col)
	bare.SetEmail("bare@example.com")
	bare.SetPassword("secret123")
	if err := app.Save(bare); err != nil {
		t.Fatalf("a user without role/approval must get defaults, got %v", err)
	}
	saved, _ := app.FindRecordById(schema.Users, bare.Id)
	if saved.GetString(schema.UserRole) != roles.Driver || saved.GetString(schema.UserIsApproved) != roles.Pending ||
		saved.GetInt(schema.UserPayReductionPercentage) != schema.DefaultPayReductionPercentage {
		t.Fatalf("defaults: role %q approval %q pay %d", saved.GetString(schema.UserRole),
			saved.GetString(schema.UserIsApproved), saved.GetInt(schema.UserPayReductionPercentage))
	}

	explicit := core.NewRecord(col)
	explicit.SetEmail("explicit@example.com")
	explicit.SetPassword("secret123")
	explicit.Set(schema.UserRole, roles.Admin)
	explicit.Set(schema.UserIsApproved, roles.Approved)
	explicit.Set(schema.UserPayReductionPercentage, 35)
	if err := app.Save(explicit); err != nil {
		t.Fatal(err)
	}
	saved, _ = app.FindRecordById(schema.Users, explicit.Id)
	if saved.GetString(schema.UserRole) != roles.Admin || saved.GetString(schema.UserIsApproved) != roles.Approved ||
		saved.GetInt(schema.UserPayReductionPercentage) != 35 {
		t.Fatal("explicit values were overwritten")
	}
}

func TestLastMasterAdminIsKept(t *testing.T) {
	changes := map[string]func(*core.Record){
		"demote":    func(r *core.Record) { r.Set(schema.UserRole, roles.Admin) },
		"suspend":   func(r *core.Record) { r.Set(schema.UserIsApproved, roles.Suspended) },
		"reject":    func(r *core.Record) { r.Set(schema.UserIsApproved, roles.Rejected) },
		"unapprove": func(r *core.Record) { r.Set(schema.UserIsApproved, roles.Pending) },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			app := testkit.NewApp(t)
			defer app.Cleanup()
			master := testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
			testkit.CreateUser(t, app, roles.MasterAdmin, roles.Suspended) // not approved: does not count

			rec, _ := app.FindRecordById(schema.Users, master.Id)
			change(rec)
			if err := app.Save(rec); !errors.Is(err, users.ErrLastMasterAdmin) {
				t.Fatalf("last master %s: got %v, want ErrLastMasterAdmin", name, err)
			}
			fresh, _ := app.FindRecordById(schema.Users, master.Id)
			if fresh.GetString(schema.UserRole) != roles.MasterAdmin || fresh.GetString(schema.UserIsApproved) != roles.Approved {
				t.Fatal("the refused change was saved")
			}

			// with a second approved master the same change is allowed
			testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
			rec, _ = app.FindRecordById(schema.Users, master.Id)
			change(rec)
			if err := app.Save(rec); err != nil {
				t.Fatalf("with another master: %v", err)
			}
		})
	}

	t.Run("delete", func(t *testing.T) {
		app := testkit.NewApp(t)
		defer app.Cleanup()
		master := testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
		if err := app.Delete(master); !errors.Is(err, users.ErrLastMasterAdmin) {
			t.Fatalf("delete last master: got %v", err)
		}
		if _, err := app.FindRecordById(schema.Users, master.Id); err != nil {
			t.Fatal("the last master was deleted")
		}
		other := testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
		if err := app.Delete(master); err != nil {
			t.Fatalf("delete with another master: %v", err)
		}
		// other is now the last one again
		if err := app.Delete(other); !errors.Is(err, users.ErrLastMasterAdmin) {
			t.Fatalf("delete new last master: got %v", err)
		}
	})

	t.Run("other users unaffected", func(t *testing.T) {
		app := testkit.NewApp(t)
		defer app.Cleanup()
		admin := testkit.CreateUser(t, app, roles.Admin, roles.Approved)
		admin.Set(schema.UserIsApproved, roles.Suspended)
		if err := app.Save(admin); err != nil {
			t.Fatal(err)
		}
		if err := app.Delete(admin); err != nil {
			t.Fatal(err)
		}
	})
}

// TestLastMasterInsideTransaction: the guard also holds when the write is part of a
// service's transaction.
func TestLastMasterInsideTransaction(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	master := testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
	err := app.RunInTransaction(func(txApp core.App) error {
		rec, err := txApp.FindRecordById(schema.Users, master.Id)
		if err != nil {
			return err
		}
		rec.Set(schema.UserRole, roles.Driver)
		return txApp.Save(rec)
	})
	if !errors.Is(err, users.ErrLastMasterAdmin) {
		t.Fatalf("got %v", err)
	}
}
