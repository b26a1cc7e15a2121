package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Head-office tokens (DESIGN.md §15, issue 45): head_office_tokens, one row per token a master
// admin issued (its hash, never the token), and "read" among the audit list's actions (what
// head office read with a token).
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}
		if _, err := migrate.CreateBase(app, schema.HeadOfficeTokens, []core.Field{
			&core.TextField{Name: schema.HeadOfficeTokenName, Required: true, Max: schema.MaxHeadOfficeTokenName},
			&core.TextField{Name: schema.HeadOfficeTokenHash, Required: true, Max: 64},
			&core.TextField{Name: schema.HeadOfficeTokenHint, Max: 8},
			&core.RelationField{Name: schema.HeadOfficeTokenIssuedBy, CollectionId: users.Id, MaxSelect: 1, Required: true},
			&core.DateField{Name: schema.HeadOfficeTokenRevokedAt},
			&core.RelationField{Name: schema.HeadOfficeTokenRevokedBy, CollectionId: users.Id, MaxSelect: 1},
			&core.DateField{Name: schema.HeadOfficeTokenLastUsedAt},
			migrate.Created(),
		}, migrate.Index("idx_head_office_tokens_hash", true, "`hash`", "")); err != nil {
			return err
		}
		return setAuditActions(app, []string{schema.AuditActionCreate, schema.AuditActionUpdate, schema.AuditActionDelete, schema.AuditActionRead})
	}, func(app core.App) error {
		if err := setAuditActions(app, []string{schema.AuditActionCreate, schema.AuditActionUpdate, schema.AuditActionDelete}); err != nil {
			return err
		}
		return migrate.Drop(schema.HeadOfficeTokens)(app)
	})
}

// setAuditActions sets the values the audit list's action may take.
func setAuditActions(app core.App, values []string) error {
	audit, err := app.FindCollectionByNameOrId(schema.AuditLog)
	if err != nil {
		return err
	}
	if action, ok := audit.Fields.GetByName(schema.AuditAction).(*core.SelectField); ok {
		action.Values = values
	}
	return app.Save(audit)
}
