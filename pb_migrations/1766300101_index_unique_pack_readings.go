package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Pack health (DESIGN.md §16, issue 46): a reading is one fact — a pack, a time, a source — so
// the same file imported twice (or a charger's export overlapping the last one) adds nothing
// the second time: its energy is not counted twice.
func init() {
	m.Register(func(app core.App) error {
		readings, err := app.FindCollectionByNameOrId(schema.PackReadings)
		if err != nil {
			return err
		}
		readings.AddIndex("idx_pack_readings_fact", true, "`pack`, `at`, `source`", "")
		return app.Save(readings)
	}, func(app core.App) error {
		readings, err := app.FindCollectionByNameOrId(schema.PackReadings)
		if err != nil {
			return err
		}
		readings.RemoveIndex("idx_pack_readings_fact")
		return app.Save(readings)
	})
}
