package pb_migrations

import (
	"time"

	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Creates the ledger's system accounts (ready, waiting, outside, untracked, unassigned) and
// the opening checkpoint: the default fleet of 160 moves from outside into ready, so a fresh
// install reads total 160 = ready 160 and every balance equals the sum of its entries.
func init() {
	m.Register(func(app core.App) error {
		accounts, err := app.FindCollectionByNameOrId(schema.Accounts)
		if err != nil {
			return err
		}
		ids := map[string]string{}
		for _, kind := range []string{
			schema.AccountKindReady, schema.AccountKindWaiting, schema.AccountKindOutside,
			schema.AccountKindUntracked, schema.AccountKindUnassigned,
		} {
			rec := core.NewRecord(accounts)
			rec.Set(schema.AccountKey, kind)
			rec.Set(schema.AccountKind, kind)
			rec.Set(schema.AccountBalance, 0)
			if err := app.Save(rec); err != nil {
				return err
			}
			ids[kind] = rec.Id
		}

		const opening = 160
		movements, err := app.FindCollectionByNameOrId(schema.Movements)
		if err != nil {
			return err
		}
		mv := core.NewRecord(movements)
		mv.Set(schema.MovementType, "adjustment")
		mv.Set(schema.MovementQuantity, opening)
		mv.Set(schema.MovementNotes, "Opening balance: 160 batteries ready")
		mv.Set(schema.MovementCheckpoint, true)
		mv.Set(schema.MovementOccurredAt, time.Now().UTC())
		if err := app.Save(mv); err != nil {
			return err
		}
		entries, err := app.FindCollectionByNameOrId(schema.Entries)
		if err != nil {
			return err
		}
		for kind, delta := range map[string]int{schema.AccountKindOutside: -opening, schema.AccountKindReady: opening} {
			e := core.NewRecord(entries)
			e.Set(schema.EntryMovement, mv.Id)
			e.Set(schema.EntryAccount, ids[kind])
			e.Set(schema.EntryDelta, delta)
			if err := app.Save(e); err != nil {
				return err
			}
			_, err := app.DB().NewQuery("UPDATE accounts SET balance = {:b} WHERE id = {:id}").
				Bind(map[string]any{"b": delta, "id": ids[kind]}).Execute()
			if err != nil {
				return err
			}
		}
		return nil
	}, nil)
}
