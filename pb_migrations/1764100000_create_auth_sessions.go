package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates auth_sessions, one row per signed-in device (DESIGN.md §5): superuser-only in the
// record API; a user's rows go with the user (cascade delete).
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}
		_, err = migrate.CreateBase(app, schema.AuthSessions, []core.Field{
			&core.RelationField{Name: schema.AuthSessionUser, CollectionId: users.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.TextField{Name: schema.AuthSessionIP, Max: 100},
			&core.TextField{Name: schema.AuthSessionUserAgent, Max: 500},
			migrate.Created(),
		}, migrate.Index("idx_auth_sessions_user", false, "`"+schema.AuthSessionUser+"`", ""))
		return err
	}, migrate.Drop(schema.AuthSessions))
}
