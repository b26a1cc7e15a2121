package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Creates the inventory ledger (DESIGN.md §3): charging sessions, accounts with cached
// balances, movements and their balanced entries, plus the idempotency cache. All are
// superuser-only in the record API; the inventory module is their only writer.
func init() {
	m.Register(func(app core.App) error {
		users, err := app.FindCollectionByNameOrId(schema.Users)
		if err != nil {
			return err
		}
		zero := 0.0

		sessions := core.NewBaseCollection(schema.ChargingSessions)
		sessions.Fields.Add(
			&core.NumberField{Name: schema.SessionQuantity, OnlyInt: true, Min: &zero},
			&core.SelectField{Name: schema.SessionChargerType, Values: []string{"2.5A", "4A", "5A"}, MaxSelect: 1, Required: true},
			&core.DateField{Name: schema.SessionStartedAt, Required: true},
			&core.DateField{Name: schema.SessionEtaAt},
			&core.SelectField{Name: schema.SessionStatus, Values: []string{schema.SessionStatusActive, schema.SessionStatusCompleted, schema.SessionStatusDeleted}, MaxSelect: 1, Required: true},
			&core.DateField{Name: schema.SessionEndedAt},
			&core.BoolField{Name: schema.SessionDueAnnounced},
			&core.RelationField{Name: schema.SessionStartedBy, CollectionId: users.Id, MaxSelect: 1},
			&core.AutodateField{Name: schema.Created, OnCreate: true},
			&core.AutodateField{Name: schema.Updated, OnCreate: true, OnUpdate: true},
		)
		sessions.AddIndex("idx_sessions_status_eta", false, "`status`, `etaAt`", "")
		if err := app.Save(sessions); err != nil {
			return err
		}

		accounts := core.NewBaseCollection(schema.Accounts)
		accounts.Fields.Add(
			&core.TextField{Name: schema.AccountKey, Required: true, Max: 200},
			&core.SelectField{Name: schema.AccountKind, MaxSelect: 1, Required: true, Values: []string{
				schema.AccountKindReady, schema.AccountKindWaiting, schema.AccountKindSession,
				schema.AccountKindUntracked, schema.AccountKindHolder, schema.AccountKindUnassigned,
				schema.AccountKindOutside,
			}},
			&core.RelationField{Name: schema.AccountUser, CollectionId: users.Id, MaxSelect: 1},
			&core.TextField{Name: schema.AccountAssignmentType, Max: 50},
			&core.RelationField{Name: schema.AccountSession, CollectionId: sessions.Id, MaxSelect: 1},
			&core.NumberField{Name: schema.AccountBalance, OnlyInt: true},
			&core.AutodateField{Name: schema.Created, OnCreate: true},
			&core.AutodateField{Name: schema.Updated, OnCreate: true, OnUpdate: true},
		)
		accounts.AddIndex("idx_accounts_key", true, "`key`", "")
		accounts.AddIndex("idx_accounts_kind_balance", false, "`kind`, `balance`", "")
		accounts.AddIndex("idx_accounts_user", false, "`user`", "")
		if err := app.Save(accounts); err != nil {
			return err
		}

		movements := core.NewBaseCollection(schema.Movements)
		movements.Fields.Add(
			&core.TextField{Name: schema.MovementType, Required: true, Max: 50},
			&core.NumberField{Name: schema.MovementQuantity, OnlyInt: true},
			&core.TextField{Name: schema.MovementNotes, Max: 4000},
			&core.RelationField{Name: schema.MovementUser, CollectionId: users.Id, MaxSelect: 1},
			&core.RelationField{Name: schema.MovementActor, CollectionId: users.Id, MaxSelect: 1},
			&core.NumberField{Name: schema.MovementGood, OnlyInt: true},
			&core.NumberField{Name: schema.MovementDead, OnlyInt: true},
			&core.BoolField{Name: schema.MovementDiscrepancy},
			&core.RelationField{Name: schema.MovementSession, CollectionId: sessions.Id, MaxSelect: 1},
			&core.JSONField{Name: schema.MovementMeta, MaxSize: 16 << 10},
			&core.BoolField{Name: schema.MovementCheckpoint},
			&core.DateField{Name: schema.MovementOccurredAt, Required: true},
			&core.AutodateField{Name: schema.Created, OnCreate: true},
			&core.AutodateField{Name: schema.Updated, OnCreate: true, OnUpdate: true},
		)
		movements.AddIndex("idx_movements_occurredAt", false, "`occurredAt`", "")
		movements.AddIndex("idx_movements_user_occurredAt", false, "`user`, `occurredAt`", "")
		movements.AddIndex("idx_movements_type_occurredAt", false, "`type`, `occurredAt`", "")
		if err := app.Save(movements); err != nil {
			return err
		}

		entries := core.NewBaseCollection(schema.Entries)
		entries.Fields.Add(
			&core.RelationField{Name: schema.EntryMovement, CollectionId: movements.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.RelationField{Name: schema.EntryAccount, CollectionId: accounts.Id, MaxSelect: 1, Required: true},
			&core.NumberField{Name: schema.EntryDelta, OnlyInt: true},
		)
		entries.AddIndex("idx_entries_movement", false, "`movement`", "")
		entries.AddIndex("idx_entries_account", false, "`account`", "")
		if err := app.Save(entries); err != nil {
			return err
		}

		idem := core.NewBaseCollection(schema.IdempotencyKeys)
		idem.Fields.Add(
			&core.TextField{Name: schema.IdemKey, Required: true, Max: 200},
			&core.RelationField{Name: schema.IdemUser, CollectionId: users.Id, MaxSelect: 1, CascadeDelete: true},
			&core.TextField{Name: schema.IdemMethod, Max: 10},
			&core.TextField{Name: schema.IdemPath, Max: 500},
			&core.NumberField{Name: schema.IdemStatus, OnlyInt: true},
			&core.TextField{Name: schema.IdemBody, Max: 2 << 20},
			&core.AutodateField{Name: schema.Created, OnCreate: true},
		)
		idem.AddIndex("idx_idem_user_key", true, "`user`, `key`", "")
		idem.AddIndex("idx_idem_created", false, "`created`", "")
		return app.Save(idem)
	}, nil)
}
