package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates the terms versions and the signed agreements (DESIGN.md §7). Both are
// superuser-only in the record API; the app reads them through /api routes.
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}

		terms, err := migrate.CreateBase(app, schema.TermsVersions, []core.Field{
			&core.TextField{Name: schema.TermsVersion, Required: true, Max: 50},
			&core.TextField{Name: schema.TermsTitle, Required: true, Max: 300},
			&core.TextField{Name: schema.TermsContent, Required: true, Max: 500_000},
			&core.TextField{Name: schema.TermsEffectiveDate, Required: true, Max: 10, Pattern: `^\d{4}-\d{2}-\d{2}$`},
			&core.BoolField{Name: schema.TermsIsActive},
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_terms_version", true, "`version`", ""),
			migrate.Index("idx_terms_single_active", true, "`isActive`", "`isActive` = TRUE"),
		)
		if err != nil {
			return err
		}

		_, err = migrate.CreateBase(app, schema.Agreements, []core.Field{
			&core.RelationField{Name: schema.AgreementUser, CollectionId: users.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.RelationField{Name: schema.AgreementTerms, CollectionId: terms.Id, MaxSelect: 1},
			&core.TextField{Name: schema.AgreementTermsVersion, Max: 50},
			&core.TextField{Name: schema.AgreementTermsHash, Max: 64},
			&core.FileField{Name: schema.AgreementSignature, MaxSelect: 1, MaxSize: 1 << 20, MimeTypes: []string{"image/png"}, Protected: true},
			&core.DateField{Name: schema.AgreementSignedAt, Required: true},
			&core.TextField{Name: schema.AgreementIP, Max: 100},
			&core.TextField{Name: schema.AgreementUserAgent, Max: 500},
			&core.FileField{Name: schema.AgreementPDF, MaxSelect: 1, MaxSize: 20 << 20, MimeTypes: []string{"application/pdf"}, Protected: true},
			&core.SelectField{Name: schema.AgreementPDFStatus, Values: []string{"generating", "available", "failed"}, MaxSelect: 1},
			&core.TextField{Name: schema.AgreementPDFError, Max: 1000},
			&core.NumberField{Name: schema.AgreementPDFAttempts, OnlyInt: true},
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_agreements_user", false, "`user`", ""),
			migrate.Index("idx_agreements_pdfStatus", false, "`pdfStatus`", ""),
		)
		return err
	}, nil)
}
