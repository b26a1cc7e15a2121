package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
	"swapbay/lib/schema"
)

// Creates the pack registry (DESIGN.md §14): packs, each located at a ledger account, and
// pack_events, each pack's append-only history. No API rules: only SwapBay's routes reach them.
// Relations to movements, sessions and users are optional and never cascade: a pack's history
// outlives a deleted movement or account.
func init() {
	m.Register(func(app core.App) error {
		ids := map[string]string{}
		for _, name := range []string{schema.Users, schema.Accounts, schema.Movements, schema.ChargingSessions} {
			c, err := app.FindCollectionByNameOrId(name)
			if err != nil {
				return err
			}
			ids[name] = c.Id
		}
		zero := 0.0
		maxWh := 100000.0
		packs, err := migrate.CreateBase(app, schema.Packs, []core.Field{
			&core.TextField{Name: schema.PackSerial, Required: true, Max: schema.MaxPackSerialLength},
			&core.TextField{Name: schema.PackModel, Max: schema.MaxPackTextLength},
			&core.TextField{Name: schema.PackChemistry, Max: schema.MaxPackTextLength},
			&core.NumberField{Name: schema.PackNominalWh, Min: &zero, Max: &maxWh},
			&core.TextField{Name: schema.PackManufacturer, Max: schema.MaxPackTextLength},
			&core.TextField{Name: schema.PackLot, Max: schema.MaxPackTextLength},
			&core.TextField{Name: schema.PackManufactured, Max: 7, Pattern: `^\d{4}-(0[1-9]|1[0-2])$`},
			&core.DateField{Name: schema.PackInServiceSince},
			&core.SelectField{Name: schema.PackState, MaxSelect: 1, Required: true, Values: schema.PackStates},
			&core.SelectField{Name: schema.PackStateBefore, MaxSelect: 1, Values: schema.PackStates},
			&core.RelationField{Name: schema.PackLocation, CollectionId: ids[schema.Accounts], MaxSelect: 1},
			&core.DateField{Name: schema.PackLastSeenAt},
			&core.RelationField{Name: schema.PackLastSeenBy, CollectionId: ids[schema.Users], MaxSelect: 1},
			&core.RelationField{Name: schema.PackLastSeenMovement, CollectionId: ids[schema.Movements], MaxSelect: 1},
			&core.NumberField{Name: schema.PackChargeCount, OnlyInt: true, Min: &zero},
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_packs_serial", true, "`serial`", ""),
			// one index for the place and the ledger's stand-in order (location, least recently seen
			// first): a pack's move changes one entry of it, not one in each of two indexes
			migrate.Index("idx_packs_location_lastSeenAt", false, "`location`, `lastSeenAt`", ""),
			migrate.Index("idx_packs_lot", false, "`lot`", ""),
			migrate.Index("idx_packs_state", false, "`state`", ""),
		)
		if err != nil {
			return err
		}

		_, err = migrate.CreateBase(app, schema.PackEvents, []core.Field{
			&core.RelationField{Name: schema.PackEventPack, CollectionId: packs.Id, MaxSelect: 1, Required: true},
			&core.SelectField{Name: schema.PackEventKind, MaxSelect: 1, Required: true, Values: schema.PackEventKinds},
			&core.RelationField{Name: schema.PackEventMovement, CollectionId: ids[schema.Movements], MaxSelect: 1},
			&core.RelationField{Name: schema.PackEventSession, CollectionId: ids[schema.ChargingSessions], MaxSelect: 1},
			&core.RelationField{Name: schema.PackEventFromAccount, CollectionId: ids[schema.Accounts], MaxSelect: 1},
			&core.RelationField{Name: schema.PackEventToAccount, CollectionId: ids[schema.Accounts], MaxSelect: 1},
			&core.RelationField{Name: schema.PackEventExpectedAccount, CollectionId: ids[schema.Accounts], MaxSelect: 1},
			&core.RelationField{Name: schema.PackEventActor, CollectionId: ids[schema.Users], MaxSelect: 1},
			&core.TextField{Name: schema.PackEventReason, Max: schema.MaxNotesLength},
			&core.SelectField{Name: schema.PackEventFromState, MaxSelect: 1, Values: schema.PackStates},
			&core.SelectField{Name: schema.PackEventToState, MaxSelect: 1, Values: schema.PackStates},
			&core.DateField{Name: schema.PackEventAt, Required: true},
			migrate.Created(),
		},
			// every ledger write adds a row per pack, so only the indexes a read uses: a pack's
			// history (pack, at) and the discrepancies (a partial index: the other kinds cost it
			// nothing). A movement's packs are in its meta.packs, so no index on movement.
			migrate.Index("idx_pack_events_pack_at", false, "`pack`, `at`", ""),
			migrate.Index("idx_pack_events_discrepancy_at", false, "`at`", "`kind` = '"+schema.PackEventDiscrepancy+"'"),
		)
		return err
	}, migrate.Drop(schema.PackEvents, schema.Packs))
}
