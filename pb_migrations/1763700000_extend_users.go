package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// Adds SwapBay's profile fields to PocketBase's users collection and closes its record API:
// users are read and changed only through /api routes (DESIGN.md §4), password sign-in goes
// through /api/login, and the password minimum is the spec's 6.
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}
		zero, hundred := 0.0, 100.0
		users.Fields.Add(
			&core.TextField{Name: schema.UserFirstName, Max: schema.MaxNameLength},
			&core.TextField{Name: schema.UserLastName, Max: schema.MaxNameLength},
			&core.SelectField{Name: schema.UserRole, Values: roles.All, MaxSelect: 1, Required: true},
			&core.SelectField{Name: schema.UserIsApproved, Values: roles.ApprovalStates, MaxSelect: 1, Required: true},
			&core.NumberField{Name: schema.UserPayReductionPercentage, Min: &zero, Max: &hundred, OnlyInt: true},
			&core.NumberField{Name: schema.UserAdminPoolWithholdingPct, Min: &zero, Max: &hundred},
			&core.BoolField{Name: schema.UserMustResignTerms},
		)
		if f, ok := users.Fields.GetByName("password").(*core.PasswordField); ok {
			f.Min = schema.MinPasswordLength
		}
		users.ListRule = nil
		users.ViewRule = nil
		users.CreateRule = nil
		users.UpdateRule = nil
		users.DeleteRule = nil
		users.PasswordAuth.Enabled = false
		users.OAuth2.Enabled = false
		users.OTP.Enabled = false
		users.MFA.Enabled = false
		users.AuthToken.Duration = 30 * 24 * 60 * 60
		users.AddIndex("idx_users_role", false, "`role`", "")
		users.AddIndex("idx_users_isApproved", false, "`isApproved`", "")
		return app.Save(users)
	}, nil)
}
