package pb_migrations

import (
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Pack health (DESIGN.md §16, issue 46): a charging session's energy is split over the packs
// it names (its "charged" pack events), so the derivation counts a session's packs by session;
// the partial index holds only the charges and costs the other events nothing.
func init() {
	m.Register(migrate.AddIndex(schema.PackEvents, migrate.Index("idx_pack_events_charged_session", false, "`session`", "`kind` = '"+schema.PackEventCharged+"'")))
}
