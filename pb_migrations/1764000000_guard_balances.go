package pb_migrations

import (
	"fmt"
	"strings"

	"github.com/pocketbase/pocketbase/core"
	m "github.com/pocketbase/pocketbase/migrations"

	"swapbay/lib/schema"
)

// Guards the ledger's figures in SQL (DESIGN.md §5 "Numbers are bounded"). SQLite cannot add
// a CHECK constraint to an existing table, so triggers refuse what a CHECK would: a balance
// or entry delta that is not an integer within ±inventory.MaxBalance, a charging session's
// quantity outside 0–inventory.MaxBalance, and a total_batteries setting that is not a
// whole number from 0 to reqx.MaxFleet. (SQLite turns an overflowing integer sum into a
// float; these triggers make such a write fail instead of being stored.) The Go checks in
// inventory.ApplyDeltas and the services refuse first, with the user's message; the triggers
// are the last line. Existing damaged values are left for recalculation to repair.
func init() {
	// inventory.MaxBalance and reqx.MaxFleet as of this migration, written out so that the
	// migration stays what it was if those ever change (a later migration would move them)
	const maxBalance, maxFleet = 1_000_000_000, 1_000_000
	guards := []struct{ name, table, when string }{
		{"guard_accounts_balance", schema.Accounts,
			fmt.Sprintf("typeof(NEW.balance) != 'integer' OR NEW.balance NOT BETWEEN -%d AND %d", maxBalance, maxBalance)},
		{"guard_entries_delta", schema.Entries,
			fmt.Sprintf("typeof(NEW.delta) != 'integer' OR NEW.delta NOT BETWEEN -%d AND %d", maxBalance, maxBalance)},
		{"guard_sessions_quantity", schema.ChargingSessions,
			fmt.Sprintf("typeof(NEW.quantity) != 'integer' OR NEW.quantity NOT BETWEEN 0 AND %d", maxBalance)},
		{"guard_settings_total", schema.Settings,
			fmt.Sprintf("NEW.key = '%s' AND (NEW.value = '' OR NEW.value GLOB '*[^0-9]*' OR length(NEW.value) > 7 OR CAST(NEW.value AS INTEGER) > %d)",
				schema.SettingTotalBatteries, maxFleet)},
	}
	m.Register(func(app core.App) error {
		for _, g := range guards {
			for _, event := range []string{"INSERT", "UPDATE"} {
				q := fmt.Sprintf("CREATE TRIGGER IF NOT EXISTS %s_%s BEFORE %s ON %s WHEN %s BEGIN SELECT RAISE(ABORT, '%s: value out of range'); END",
					g.name, strings.ToLower(event), event, g.table, g.when, g.table)
				if _, err := app.DB().NewQuery(q).Execute(); err != nil {
					return fmt.Errorf("%s: %w", g.name, err)
				}
			}
		}
		return nil
	}, func(app core.App) error {
		for _, g := range guards {
			for _, event := range []string{"insert", "update"} {
				if _, err := app.DB().NewQuery(fmt.Sprintf("DROP TRIGGER IF EXISTS %s_%s", g.name, event)).Execute(); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
