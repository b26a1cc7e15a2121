package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Makes signed agreements outlive their signer's account (they are legal records, DESIGN.md
// §7): the signer's name and email are kept on the agreement, and deleting a user now clears
// the agreement's user link instead of deleting the agreement. Adds the PDF job's next retry
// time (backoff after a failure).
func init() {
	m.Register(func(app core.App) error {
		col, err := app.FindCollectionByNameOrId(schema.Agreements)
		if err != nil {
			return err
		}
		if f, ok := col.Fields.GetByName(schema.AgreementUser).(*core.RelationField); ok {
			f.CascadeDelete = false
			f.Required = false
		}
		col.Fields.Add(
			&core.TextField{Name: schema.AgreementFirstName, Max: 100},
			&core.TextField{Name: schema.AgreementLastName, Max: 100},
			&core.EmailField{Name: schema.AgreementEmail},
			&core.DateField{Name: schema.AgreementPDFNextAt},
		)
		col.AddIndex("idx_agreements_signedAt", false, "`signedAt`", "")
		if err := app.Save(col); err != nil {
			return err
		}
		// the signers of existing agreements, as their accounts read now
		_, err = app.DB().NewQuery("UPDATE " + schema.Agreements + " SET " +
			schema.AgreementFirstName + " = COALESCE((SELECT firstName FROM users WHERE users.id = " + schema.Agreements + ".user), ''), " +
			schema.AgreementLastName + " = COALESCE((SELECT lastName FROM users WHERE users.id = " + schema.Agreements + ".user), ''), " +
			schema.AgreementEmail + " = COALESCE((SELECT email FROM users WHERE users.id = " + schema.Agreements + ".user), '')").Execute()
		return err
	}, nil)
}
