package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Pack safety (DESIGN.md §14, issue 37): pack_recalls, one row per recall; on pack_events the
// "damage" kind (a damage report: the note in reason, its photos), the photos of a report and
// the recall a state change belongs to. Relations never cascade: a pack's history outlives a
// deleted photo, recall or account.
func init() {
	m.Register(func(app core.App) error {
		cols, err := migrate.Find(app, schema.Users, schema.Photos)
		if err != nil {
			return err
		}
		users, photos := cols[0], cols[1]
		zero := 0.0
		recalls, err := migrate.CreateBase(app, schema.PackRecalls, []core.Field{
			&core.SelectField{Name: schema.PackRecallBy, MaxSelect: 1, Required: true, Values: schema.PackRecallBys},
			&core.TextField{Name: schema.PackRecallValue, Required: true, Max: schema.MaxPackTextLength},
			&core.TextField{Name: schema.PackRecallReason, Required: true, Max: schema.MaxNotesLength},
			&core.RelationField{Name: schema.PackRecallActor, CollectionId: users.Id, MaxSelect: 1},
			&core.DateField{Name: schema.PackRecallAt, Required: true},
			&core.NumberField{Name: schema.PackRecallPackCount, OnlyInt: true, Min: &zero},
			migrate.Created(),
		}, migrate.Index("idx_pack_recalls_at", false, "`at`", ""))
		if err != nil {
			return err
		}

		events, err := app.FindCollectionByNameOrId(schema.PackEvents)
		if err != nil {
			return err
		}
		kind, _ := events.Fields.GetByName(schema.PackEventKind).(*core.SelectField)
		kind.Values = schema.PackEventKinds
		events.Fields.Add(
			&core.RelationField{Name: schema.PackEventPhotos, CollectionId: photos.Id, MaxSelect: schema.MaxPackEventPhotos},
			&core.RelationField{Name: schema.PackEventRecall, CollectionId: recalls.Id, MaxSelect: 1},
		)
		// the recall page reads a recall's packs; the partial index costs the ledger's rows nothing
		events.AddIndex("idx_pack_events_recall", false, "`recall`", "`recall` != ''")
		// the attention strip and the incident report read the damage reports
		events.AddIndex("idx_pack_events_damage_at", false, "`at`", "`kind` = '"+schema.PackEventDamage+"'")
		return app.Save(events)
	}, func(app core.App) error {
		events, err := app.FindCollectionByNameOrId(schema.PackEvents)
		if err == nil {
			events.RemoveIndex("idx_pack_events_recall")
			events.RemoveIndex("idx_pack_events_damage_at")
			events.Fields.RemoveByName(schema.PackEventPhotos)
			events.Fields.RemoveByName(schema.PackEventRecall)
			if kind, ok := events.Fields.GetByName(schema.PackEventKind).(*core.SelectField); ok {
				kind.Values = []string{schema.PackEventCreated, schema.PackEventImported, schema.PackEventMoved,
					schema.PackEventDiscrepancy, schema.PackEventState, schema.PackEventFound, schema.PackEventCharged}
			}
			if err := app.Save(events); err != nil {
				return err
			}
		}
		recalls, err := app.FindCollectionByNameOrId(schema.PackRecalls)
		if err != nil {
			return nil
		}
		return app.Delete(recalls)
	})
}
