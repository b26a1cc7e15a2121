package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates audit_log, the System page's audit list (issue 43): the raw writes made through
// PocketBase's record API and its /_/ dashboard that the guards in hooks/ allowed, with who
// made them and when. No rules (superuser-only reads); hooks/ refuses raw writes to it.
func init() {
	m.Register(func(app core.App) error {
		_, err := migrate.CreateBase(app, schema.AuditLog, []core.Field{
			&core.TextField{Name: schema.AuditActor, Max: 300},
			&core.TextField{Name: schema.AuditActorId, Max: 100},
			&core.TextField{Name: schema.AuditActorKind, Max: 100},
			&core.SelectField{Name: schema.AuditAction, MaxSelect: 1, Required: true,
				Values: []string{schema.AuditActionCreate, schema.AuditActionUpdate, schema.AuditActionDelete}},
			&core.TextField{Name: schema.AuditCollection, Max: 100, Required: true},
			&core.TextField{Name: schema.AuditRecord, Max: 100},
			&core.JSONField{Name: schema.AuditFields, MaxSize: 20000},
			migrate.Created(),
		}, migrate.Index("idx_audit_log_created", false, "`created`", ""))
		return err
	}, migrate.Drop(schema.AuditLog))
}
