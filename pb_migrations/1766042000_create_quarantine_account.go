package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// The quarantine account (DESIGN.md §14, issue 42): a system account of its own kind for the
// batteries of out-of-use packs, counted apart from ready and waiting ("Quarantined N"). It
// opens empty: the packs quarantined before it stay where they are until they move (a
// stocktake, a dropoff, a state change).
func init() {
	m.Register(func(app core.App) error {
		accounts, err := app.FindCollectionByNameOrId(schema.Accounts)
		if err != nil {
			return err
		}
		kind, _ := accounts.Fields.GetByName(schema.AccountKind).(*core.SelectField)
		kind.Values = append(kind.Values, schema.AccountKindQuarantine)
		if err := app.Save(accounts); err != nil {
			return err
		}
		rec := core.NewRecord(accounts)
		rec.Set(schema.AccountKey, schema.AccountKindQuarantine)
		rec.Set(schema.AccountKind, schema.AccountKindQuarantine)
		rec.Set(schema.AccountBalance, 0)
		return app.Save(rec)
	}, func(app core.App) error {
		if _, err := app.DB().NewQuery("DELETE FROM " + schema.Accounts + " WHERE key = {:k} AND balance = 0").
			Bind(map[string]any{"k": schema.AccountKindQuarantine}).Execute(); err != nil {
			return err
		}
		accounts, err := app.FindCollectionByNameOrId(schema.Accounts)
		if err != nil {
			return err
		}
		kind, _ := accounts.Fields.GetByName(schema.AccountKind).(*core.SelectField)
		kind.Values = kind.Values[:len(kind.Values)-1]
		return app.Save(accounts)
	})
}
