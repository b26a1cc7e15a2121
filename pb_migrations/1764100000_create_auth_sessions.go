package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

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
		c := core.NewBaseCollection(schema.AuthSessions)
		c.Fields.Add(
			&core.RelationField{Name: schema.AuthSessionUser, CollectionId: users.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.TextField{Name: schema.AuthSessionIP, Max: 100},
			&core.TextField{Name: schema.AuthSessionUserAgent, Max: 500},
			&core.AutodateField{Name: schema.Created, OnCreate: true},
		)
		c.AddIndex("idx_auth_sessions_user", false, "`"+schema.AuthSessionUser+"`", "")
		return app.Save(c)
	}, func(app core.App) error {
		c, err := app.FindCollectionByNameOrId(schema.AuthSessions)
		if err != nil {
			return nil
		}
		return app.Delete(c)
	})
}
