package inventory_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/txutil"
	"swapbay/modules/inventory"
)

// TestWritersRefuseOutsideTransaction: the functions that write part of a change refuse an app
// that is not inside a transaction, and write nothing.
func TestWritersRefuseOutsideTransaction(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	ready := 1
	before, _ := app.CountRecords("movements")
	calls := map[string]func(core.App) error{
		"Post": func(a core.App) error {
			_, err := inventory.Post(a, inventory.Posting{Type: inventory.TypeAdjustment})
			return err
		},
		"ApplyDeltas":    func(a core.App) error { return inventory.ApplyDeltas(a, map[string]int{}) },
		"SessionAccount": func(a core.App) error { _, err := inventory.SessionAccount(a, "s1"); return err },
		"HolderAccount": func(a core.App) error {
			_, err := inventory.HolderAccount(a, "u1", inventory.AssignmentPickup)
			return err
		},
		"Adjust": func(a core.App) error {
			_, err := inventory.Adjust(a, inventory.Op{}, inventory.Targets{Ready: &ready}, "test")
			return err
		},
		"Wipe": func(a core.App) error { _, err := inventory.Wipe(a, inventory.Op{}, time.Now(), "test"); return err },
		"TakeFromHoldings": func(a core.App) error {
			_, err := inventory.TakeFromHoldings(a, "u1", 1, nil)
			return err
		},
		"PostSwap": func(a core.App) error {
			_, err := inventory.PostSwap(a, inventory.Op{}, nil, nil, 1, 0, inventory.SwapKindSwap)
			return err
		},
		"PostAssignment": func(a core.App) error {
			_, err := inventory.PostAssignment(a, inventory.Op{}, nil, 1, inventory.AssignmentPickup)
			return err
		},
		"CleanSlate": func(a core.App) error { _, err := inventory.CleanSlate(a, inventory.Op{}, 1); return err },
	}
	for name, call := range calls {
		if err := call(app); !errors.Is(err, txutil.ErrNotInTransaction) {
			t.Errorf("%s outside a transaction: got %v, want ErrNotInTransaction", name, err)
		}
	}
	if n, _ := app.CountRecords("movements"); n != before {
		t.Fatalf("refused calls wrote %d movements", n-before)
	}
	// Inside a transaction the same call goes through.
	err := app.RunInTransaction(func(txApp core.App) error {
		_, err := inventory.Adjust(txApp, inventory.Op{}, inventory.Targets{Ready: &ready}, "test")
		return err
	})
	if err != nil {
		t.Fatalf("Adjust inside a transaction: %v", err)
	}
}
