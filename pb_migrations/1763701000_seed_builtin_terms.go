package pb_migrations

import (
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
	"swapbay/modules/terms"
)

// Installs the built-in contractor agreement (spec part 2 §3) as the active terms version, so
// a fresh system can take registrations. It is active only if no other version is.
func init() {
	m.Register(func(app core.App) error {
		tpl := terms.BuiltInTemplate()
		exists, err := app.CountRecords(schema.TermsVersions, dbx.HashExp{schema.TermsVersion: tpl.Version})
		if err != nil || exists > 0 {
			return err
		}
		active, err := app.CountRecords(schema.TermsVersions, dbx.HashExp{schema.TermsIsActive: true})
		if err != nil {
			return err
		}
		col, err := app.FindCollectionByNameOrId(schema.TermsVersions)
		if err != nil {
			return err
		}
		rec := core.NewRecord(col)
		rec.Set(schema.TermsVersion, tpl.Version)
		rec.Set(schema.TermsTitle, tpl.Title)
		rec.Set(schema.TermsEffectiveDate, tpl.EffectiveDate)
		rec.Set(schema.TermsContent, tpl.Content)
		rec.Set(schema.TermsIsActive, active == 0)
		return app.Save(rec)
	}, nil)
}
