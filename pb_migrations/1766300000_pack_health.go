package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Pack health (DESIGN.md §16, issue 46): pack_models (each model's nominal Wh, rated capacity
// and end-of-life threshold), pack_readings (each imported BMS or charger reading, append-only),
// the derived health kept on each pack (so the packs list filters "worn" by an index and the
// journal reads one column at hand-out), and the energy a charging session's charger reported.
func init() {
	m.Register(func(app core.App) error {
		cols, err := migrate.Find(app, schema.Users, schema.Packs)
		if err != nil {
			return err
		}
		users, packs := cols[0], cols[1]
		zero, hundred, maxWh, maxAh := 0.0, 100.0, 100000.0, 10000.0
		one := 1.0
		if _, err := migrate.CreateBase(app, schema.PackModels, []core.Field{
			&core.TextField{Name: schema.PackModelName, Required: true, Max: schema.MaxPackTextLength},
			&core.NumberField{Name: schema.PackModelNominalWh, Min: &zero, Max: &maxWh},
			&core.NumberField{Name: schema.PackModelRatedAh, Min: &zero, Max: &maxAh},
			&core.NumberField{Name: schema.PackModelThreshold, Required: true, Min: &one, Max: &hundred},
			migrate.Created(),
			migrate.Updated(),
		}, migrate.Index("idx_pack_models_model", true, "`model`", "")); err != nil {
			return err
		}

		if _, err := migrate.CreateBase(app, schema.PackReadings, []core.Field{
			&core.RelationField{Name: schema.PackReadingPack, CollectionId: packs.Id, MaxSelect: 1, Required: true},
			&core.DateField{Name: schema.PackReadingAt, Required: true},
			&core.SelectField{Name: schema.PackReadingSource, MaxSelect: 1, Required: true, Values: schema.PackReadingSources},
			&core.JSONField{Name: schema.PackReadingFigures, MaxSize: 2000},
			&core.TextField{Name: schema.PackReadingFaults, Max: schema.MaxPackReadingFaultsLength},
			&core.TextField{Name: schema.PackReadingImport, Max: 100},
			&core.RelationField{Name: schema.PackReadingActor, CollectionId: users.Id, MaxSelect: 1},
			migrate.Created(),
		}, migrate.Index("idx_pack_readings_pack_at", false, "`pack`, `at`", "")); err != nil {
			return err
		}

		packs.Fields.Add(
			&core.NumberField{Name: schema.PackSoh, Min: &zero, Max: &hundred},
			&core.SelectField{Name: schema.PackSohSource, MaxSelect: 1, Values: schema.PackSohSources},
			&core.DateField{Name: schema.PackSohAt},
			&core.NumberField{Name: schema.PackSohDrop30, Min: &zero, Max: &hundred},
			&core.NumberField{Name: schema.PackEnergyThroughputWh, Min: &zero},
			&core.BoolField{Name: schema.PackWorn},
			&core.TextField{Name: schema.PackWornReason, Max: 200},
		)
		// the packs list's "worn" filter and the attention strip's count: a partial index that
		// costs the other packs nothing
		packs.AddIndex("idx_packs_worn", false, "`worn`", "`worn` = 1")
		if err := app.Save(packs); err != nil {
			return err
		}

		sessions, err := app.FindCollectionByNameOrId(schema.ChargingSessions)
		if err != nil {
			return err
		}
		sessions.Fields.Add(&core.NumberField{Name: schema.SessionEnergyWh, Min: &zero, Max: &maxWh})
		return app.Save(sessions)
	}, func(app core.App) error {
		if sessions, err := app.FindCollectionByNameOrId(schema.ChargingSessions); err == nil {
			sessions.Fields.RemoveByName(schema.SessionEnergyWh)
			if err := app.Save(sessions); err != nil {
				return err
			}
		}
		if packs, err := app.FindCollectionByNameOrId(schema.Packs); err == nil {
			packs.RemoveIndex("idx_packs_worn")
			for _, f := range []string{schema.PackSoh, schema.PackSohSource, schema.PackSohAt, schema.PackSohDrop30,
				schema.PackEnergyThroughputWh, schema.PackWorn, schema.PackWornReason} {
				packs.Fields.RemoveByName(f)
			}
			if err := app.Save(packs); err != nil {
				return err
			}
		}
		return migrate.Drop(schema.PackReadings, schema.PackModels)(app)
	})
}
