package ledgertest_test

import (
	"fmt"
	"slices"
	"testing"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
)

// TestViolationsNameADriftedBalance: the checker the property tests lean on finds a cached
// balance that no longer equals its entries (the one-pass sum reads every account, the ones
// without entries included).
func TestViolationsNameADriftedBalance(t *testing.T) {
	app := testkit.NewApp(t)
	ledgertest.AssertSound(t, app)
	var ready int
	if err := app.DB().NewQuery("SELECT balance FROM accounts WHERE key = 'ready'").Row(&ready); err != nil {
		t.Fatal(err)
	}
	if _, err := app.DB().NewQuery("UPDATE accounts SET balance = balance + 2 WHERE key = 'ready'").Execute(); err != nil {
		t.Fatal(err)
	}
	v, err := ledgertest.Violations(app)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("balance ready = %d but entries sum to %d", ready+2, ready); !slices.Contains(v, want) {
		t.Fatalf("the drifted balance is not named: %q", v)
	}
}
