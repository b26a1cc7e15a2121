package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates the operator settings table with the spec's defaults (part 2 §3, §9).
func init() {
	m.Register(func(app core.App) error {
		settings, err := migrate.CreateBase(app, schema.Settings, []core.Field{
			&core.TextField{Name: schema.SettingKey, Required: true, Max: 100},
			&core.TextField{Name: schema.SettingValue, Max: 2000},
			migrate.Updated(),
		}, migrate.Index("idx_settings_key", true, "`key`", ""))
		if err != nil {
			return err
		}
		defaults := map[string]string{
			schema.SettingTotalBatteries: "160",
			schema.SettingCharger2_5A:    "240",
			schema.SettingCharger4A:      "180",
			schema.SettingCharger5A:      "150",
			schema.SettingTimeZone:       "UTC",
		}
		for k, v := range defaults {
			rec := core.NewRecord(settings)
			rec.Set(schema.SettingKey, k)
			rec.Set(schema.SettingValue, v)
			if err := app.Save(rec); err != nil {
				return err
			}
		}
		return nil
	}, nil)
}
