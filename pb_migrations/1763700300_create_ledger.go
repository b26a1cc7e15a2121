package pb_migrations

import (
	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/migrate"
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

		sessions, err := migrate.CreateBase(app, schema.ChargingSessions, []core.Field{
			&core.NumberField{Name: schema.SessionQuantity, OnlyInt: true, Min: &zero},
			&core.SelectField{Name: schema.SessionChargerType, Values: []string{"2.5A", "4A", "5A"}, MaxSelect: 1, Required: true},
			&core.DateField{Name: schema.SessionStartedAt, Required: true},
			&core.DateField{Name: schema.SessionEtaAt},
			&core.SelectField{Name: schema.SessionStatus, Values: []string{schema.SessionStatusActive, schema.SessionStatusCompleted, schema.SessionStatusDeleted}, MaxSelect: 1, Required: true},
			&core.DateField{Name: schema.SessionEndedAt},
			&core.BoolField{Name: schema.SessionDueAnnounced},
			&core.RelationField{Name: schema.SessionStartedBy, CollectionId: users.Id, MaxSelect: 1},
			migrate.Created(),
			migrate.Updated(),
		}, migrate.Index("idx_sessions_status_eta", false, "`status`, `etaAt`", ""))
		if err != nil {
			return err
		}

		accounts, err := migrate.CreateBase(app, schema.Accounts, []core.Field{
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
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_accounts_key", true, "`key`", ""),
			migrate.Index("idx_accounts_kind_balance", false, "`kind`, `balance`", ""),
			migrate.Index("idx_accounts_user", false, "`user`", ""),
		)
		if err != nil {
			return err
		}

		movements, err := migrate.CreateBase(app, schema.Movements, []core.Field{
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
			migrate.Created(),
			migrate.Updated(),
		},
			migrate.Index("idx_movements_occurredAt", false, "`occurredAt`", ""),
			migrate.Index("idx_movements_user_occurredAt", false, "`user`, `occurredAt`", ""),
			migrate.Index("idx_movements_type_occurredAt", false, "`type`, `occurredAt`", ""),
		)
		if err != nil {
			return err
		}

		_, err = migrate.CreateBase(app, schema.Entries, []core.Field{
			&core.RelationField{Name: schema.EntryMovement, CollectionId: movements.Id, MaxSelect: 1, Required: true, CascadeDelete: true},
			&core.RelationField{Name: schema.EntryAccount, CollectionId: accounts.Id, MaxSelect: 1, Required: true},
			&core.NumberField{Name: schema.EntryDelta, OnlyInt: true},
		},
			migrate.Index("idx_entries_movement", false, "`movement`", ""),
			migrate.Index("idx_entries_account", false, "`account`", ""),
		)
		if err != nil {
			return err
		}

		return migrate.CreateIdempotencyKeys(app, users.Id)
	}, nil)
}
