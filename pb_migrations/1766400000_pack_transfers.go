package pb_migrations

import (
	"slices"

	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Packs between cities (DESIGN.md §15, issue 45 item 6; modules/transfers): the pack state
// in_transit, the pack event kinds transferred and received, and pack_transfers — one row per
// send (`out`, ref = its own id) and per receive (`in`, ref = the sender's transfer id).
// The movement types transfer_out and transfer_in need nothing: movements.type is text.
func init() {
	m.Register(func(app core.App) error {
		if err := setPackValues(app, schema.PackStates, schema.PackEventKinds); err != nil {
			return err
		}
		cols, err := migrate.Find(app, schema.Users, schema.Movements)
		if err != nil {
			return err
		}
		users, movements := cols[0], cols[1]
		_, err = migrate.CreateBase(app, schema.PackTransfers, []core.Field{
			&core.SelectField{Name: schema.PackTransferDirection, MaxSelect: 1, Required: true,
				Values: []string{schema.PackTransferDirectionOut, schema.PackTransferDirectionIn}},
			&core.TextField{Name: schema.PackTransferRef, Required: true, Max: 40},
			&core.TextField{Name: schema.PackTransferOtherCity, Required: true, Max: schema.MaxPackTransferCityLength},
			&core.TextField{Name: schema.PackTransferOtherAddress, Max: 300},
			&core.JSONField{Name: schema.PackTransferSerials, MaxSize: 20000},
			&core.RelationField{Name: schema.PackTransferMovement, CollectionId: movements.Id, MaxSelect: 1},
			&core.RelationField{Name: schema.PackTransferActor, CollectionId: users.Id, MaxSelect: 1},
			&core.DateField{Name: schema.PackTransferAt, Required: true},
			&core.TextField{Name: schema.PackTransferManifest, Max: 200000},
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_pack_transfers_at", false, "`at`", ""),
			migrate.Index("idx_pack_transfers_ref", false, "`ref`, `direction`", ""),
		)
		return err
	}, func(app core.App) error {
		if err := migrate.Drop(schema.PackTransfers)(app); err != nil {
			return err
		}
		without := func(list []string, drop ...string) []string {
			return slices.DeleteFunc(slices.Clone(list), func(v string) bool { return slices.Contains(drop, v) })
		}
		return setPackValues(app, without(schema.PackStates, schema.PackStateInTransit),
			without(schema.PackEventKinds, schema.PackEventTransferred, schema.PackEventReceived))
	})
}

// setPackValues sets the values of the packs' state selects and the pack events' kind and
// state selects.
func setPackValues(app core.App, states, kinds []string) error {
	packs, err := app.FindCollectionByNameOrId(schema.Packs)
	if err != nil {
		return err
	}
	for _, name := range []string{schema.PackState, schema.PackStateBefore} {
		if f, ok := packs.Fields.GetByName(name).(*core.SelectField); ok {
			f.Values = states
		}
	}
	if err := app.Save(packs); err != nil {
		return err
	}
	events, err := app.FindCollectionByNameOrId(schema.PackEvents)
	if err != nil {
		return err
	}
	if f, ok := events.Fields.GetByName(schema.PackEventKind).(*core.SelectField); ok {
		f.Values = kinds
	}
	for _, name := range []string{schema.PackEventFromState, schema.PackEventToState} {
		if f, ok := events.Fields.GetByName(name).(*core.SelectField); ok {
			f.Values = states
		}
	}
	return app.Save(events)
}
