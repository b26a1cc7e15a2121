package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Pack health (DESIGN.md §16, issue 46): a charging session's energy is split over the packs
// it names (its "charged" pack events), so the derivation counts a session's packs by session;
// the partial index holds only the charges and costs the other events nothing.
func init() {
	m.Register(func(app core.App) error {
		events, err := app.FindCollectionByNameOrId(schema.PackEvents)
		if err != nil {
			return err
		}
		events.AddIndex("idx_pack_events_charged_session", false, "`session`", "`kind` = '"+schema.PackEventCharged+"'")
		return app.Save(events)
	}, func(app core.App) error {
		events, err := app.FindCollectionByNameOrId(schema.PackEvents)
		if err != nil {
			return err
		}
		events.RemoveIndex("idx_pack_events_charged_session")
		return app.Save(events)
	})
}
