package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
	"swapbay/modules/hq"
	"swapbay/modules/hq/recall"
)

// Creates hq_recalls (a recall head office made across its cities: by, value, reason, who,
// when) and hq_recall_sends (one row per recall and city: its way to the city — pending, sent or
// failed, attempts, the last failure in words, the city's recall id). Closed to the record API
// (no rules): modules/hq/recall writes and answers them.
func init() {
	hq.Migrations.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(hq.Users)
		if err != nil {
			return err
		}
		recalls, err := migrate.CreateBase(app, recall.Recalls, []core.Field{
			&core.SelectField{Name: recall.RecallBy, Required: true, MaxSelect: 1, Values: schema.PackRecallBys},
			&core.TextField{Name: recall.RecallValue, Required: true, Max: schema.MaxPackTextLength},
			&core.TextField{Name: recall.RecallReason, Required: true, Max: schema.MaxNotesLength},
			&core.RelationField{Name: recall.RecallActor, CollectionId: users.Id, MaxSelect: 1},
			&core.DateField{Name: recall.RecallAt, Required: true},
			migrate.Created(),
			migrate.Updated(),
		}, migrate.Index("idx_hq_recalls_at", false, "`at`", ""))
		if err != nil {
			return err
		}
		_, err = migrate.CreateBase(app, recall.Sends, []core.Field{
			&core.RelationField{Name: recall.SendRecall, CollectionId: recalls.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.TextField{Name: recall.SendCity, Required: true, Max: 50},
			&core.TextField{Name: recall.SendCityName, Max: 100},
			&core.SelectField{Name: recall.SendState, Required: true, MaxSelect: 1, Values: recall.SendStates},
			&core.NumberField{Name: recall.SendAttempts, OnlyInt: true},
			&core.TextField{Name: recall.SendError, Max: 1000},
			&core.TextField{Name: recall.SendCityRecallID, Max: 50},
			&core.DateField{Name: recall.SendSentAt},
			&core.NumberField{Name: recall.SendStatus, OnlyInt: true},
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_hq_recall_sends_city", true, "`recall`, `city`", ""),
			migrate.Index("idx_hq_recall_sends_state", false, "`send`", ""),
		)
		return err
	}, migrate.Drop(recall.Sends, recall.Recalls))
}
