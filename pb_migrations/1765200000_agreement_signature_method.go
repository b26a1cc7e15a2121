package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Records how each agreement was signed: signatureMethod "drawn" (the signature pad) or
// "typed" (the signer's typed name rendered in a handwriting font, the single-pointer
// alternative WCAG 2.2 SC 2.5.7 asks for), and signatureText, the typed name. Agreements
// signed before this change were all drawn.
func init() {
	m.Register(func(app core.App) error {
		col, err := app.FindCollectionByNameOrId(schema.Agreements)
		if err != nil {
			return err
		}
		col.Fields.Add(
			&core.SelectField{Name: schema.AgreementSignatureMethod, Values: []string{"drawn", "typed"}, MaxSelect: 1},
			&core.TextField{Name: schema.AgreementSignatureText, Max: 100},
		)
		if err := app.Save(col); err != nil {
			return err
		}
		_, err = app.DB().NewQuery("UPDATE " + schema.Agreements + " SET " + schema.AgreementSignatureMethod + " = 'drawn' WHERE " +
			schema.AgreementSignatureMethod + " = ''").Execute()
		return err
	}, func(app core.App) error {
		col, err := app.FindCollectionByNameOrId(schema.Agreements)
		if err != nil {
			return err
		}
		col.Fields.RemoveByName(schema.AgreementSignatureMethod)
		col.Fields.RemoveByName(schema.AgreementSignatureText)
		return app.Save(col)
	})
}
