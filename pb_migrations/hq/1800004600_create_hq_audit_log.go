package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
	"swapbay/modules/hq"
)

// Creates hq_audit_log, head office's audit list (the city's audit_log, issue 43): the raw
// writes made through PocketBase's record API and HQ's /_/ dashboard that hooks/hq.go allowed
// (a city or a user changed, a session ended), with who made them and when. Closed to the
// record API (no rules: superusers only read it there); hooks/hq.go refuses raw writes to it;
// GET /api/hq/audit lists it to an hq_admin.
func init() {
	hq.Migrations.Register(func(app core.App) error {
		_, err := migrate.CreateBase(app, hq.AuditLog, []core.Field{
			&core.TextField{Name: schema.AuditActor, Max: 300},
			&core.TextField{Name: schema.AuditActorId, Max: 100},
			&core.TextField{Name: schema.AuditActorKind, Max: 100},
			&core.SelectField{Name: schema.AuditAction, MaxSelect: 1, Required: true,
				Values: []string{schema.AuditActionCreate, schema.AuditActionUpdate, schema.AuditActionDelete}},
			&core.TextField{Name: schema.AuditCollection, Max: 100, Required: true},
			&core.TextField{Name: schema.AuditRecord, Max: 100},
			&core.JSONField{Name: schema.AuditFields, MaxSize: 20000},
			migrate.Created(),
		}, migrate.Index("idx_hq_audit_log_created", false, "`created`", ""))
		return err
	}, migrate.Drop(hq.AuditLog))
}
