package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates replication_settings, the replica a master admin sets on the System page (DESIGN.md
// §13): one row, superuser-only in the record API (no rules), the secret a hidden field.
func init() {
	m.Register(func(app core.App) error {
		_, err := migrate.CreateBase(app, schema.ReplicationSettings, []core.Field{
			&core.BoolField{Name: schema.ReplicationEnabled},
			&core.TextField{Name: schema.ReplicationURL, Max: 2000},
			&core.TextField{Name: schema.ReplicationAccessKeyID, Max: 500, Hidden: true},
			&core.TextField{Name: schema.ReplicationSecretKey, Max: 500, Hidden: true},
			&core.TextField{Name: schema.ReplicationUpdatedBy, Max: 100},
			migrate.Updated(),
		})
		return err
	}, migrate.Drop(schema.ReplicationSettings))
}
