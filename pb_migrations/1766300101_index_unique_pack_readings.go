package pb_migrations

import (
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Pack health (DESIGN.md §16, issue 46): a reading is one fact — a pack, a time, a source — so
// the same file imported twice (or a charger's export overlapping the last one) adds nothing
// the second time: its energy is not counted twice.
func init() {
	m.Register(migrate.AddIndex(schema.PackReadings, migrate.Index("idx_pack_readings_fact", true, "`pack`, `at`, `source`", "")))
}
