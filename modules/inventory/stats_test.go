package inventory_test

import (
	"strings"
	"testing"

	"github.com/pocketbase/dbx"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// With SQLite statistics from when entries held two rows (PocketBase's PRAGMA optimize after
// its migrations leaves such), the balance queries still seek each account's entries through
// their index: a full scan per account took a restored 1M-movement ledger's recalculation
// past 10 minutes.
func TestBalanceQueriesUseTheEntriesIndexWhateverTheStatistics(t *testing.T) {
	app := testkit.NewApp(t)
	db := app.NonconcurrentDB()
	for _, q := range []string{
		"ANALYZE",
		"DELETE FROM sqlite_stat1 WHERE tbl IN ('entries', 'accounts')",
		"INSERT INTO sqlite_stat1 VALUES ('entries', '" + schema.IdxEntriesAccount + "', '2 1'), ('entries', 'idx_entries_movement', '2 2'), ('entries', 'sqlite_autoindex_entries_1', '2 1'), ('accounts', 'idx_accounts_key', '5 1'), ('accounts', 'sqlite_autoindex_accounts_1', '5 1')",
		"ANALYZE sqlite_schema", // the planner reads the statistics again
	} {
		if _, err := db.NewQuery(q).Execute(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for name, q := range inventory.BalanceQueries {
		var plan []struct {
			Detail string `db:"detail"`
		}
		if err := db.NewQuery("EXPLAIN QUERY PLAN " + q).Bind(dbx.Params{"max": inventory.MaxBalance}).All(&plan); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var lines []string
		for _, p := range plan {
			lines = append(lines, p.Detail)
		}
		text := strings.Join(lines, "\n")
		if strings.Contains(text, "SCAN e") || !strings.Contains(text, schema.IdxEntriesAccount) {
			t.Errorf("%s scans entries instead of seeking them by account:\n%s", name, text)
		}
	}
}
