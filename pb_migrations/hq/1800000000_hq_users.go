package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/migrate"
	"swapbay/modules/hq"
)

// HQ's users: PocketBase's users collection closed to its record API (accounts are made by
// `swapbay hq user create`; a user signs in with PocketBase's auth-with-password), each with a
// head-office role; and the idempotency keys table lib/idempotency answers keyed writes from
// (the city's shape, DESIGN.md §5).
func init() {
	hq.Migrations.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(hq.Users)
		if err != nil {
			return err
		}
		users.ListRule, users.ViewRule, users.CreateRule, users.UpdateRule, users.DeleteRule = nil, nil, nil, nil, nil
		users.Fields.Add(&core.SelectField{Name: hq.UserRole, Required: true, MaxSelect: 1, Values: hq.Roles})
		if err := app.Save(users); err != nil {
			return err
		}
		return migrate.CreateIdempotencyKeys(app, users.Id)
	}, nil)
}
