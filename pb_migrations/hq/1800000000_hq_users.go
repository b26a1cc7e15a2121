package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
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
		_, err = migrate.CreateBase(app, schema.IdempotencyKeys, []core.Field{
			&core.TextField{Name: schema.IdemKey, Required: true, Max: 200},
			&core.RelationField{Name: schema.IdemUser, CollectionId: users.Id, MaxSelect: 1, CascadeDelete: true},
			&core.TextField{Name: schema.IdemMethod, Max: 10},
			&core.TextField{Name: schema.IdemPath, Max: 500},
			&core.NumberField{Name: schema.IdemStatus, OnlyInt: true},
			&core.TextField{Name: schema.IdemBody, Max: 2 << 20},
			migrate.Created(),
		},
			migrate.Index("idx_idem_user_key", true, "`user`, `key`", ""),
			migrate.Index("idx_idem_created", false, "`created`", ""),
		)
		return err
	}, nil)
}
