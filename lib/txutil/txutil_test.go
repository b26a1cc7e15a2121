package txutil_test

import (
	"errors"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/lib/txutil"
)

func TestRequire(t *testing.T) {
	app, err := tests.NewTestApp()
	if err != nil {
		t.Fatal(err)
	}
	defer app.Cleanup()

	if err := txutil.Require(app, "Post"); !errors.Is(err, txutil.ErrNotInTransaction) {
		t.Fatalf("outside a transaction: got %v, want ErrNotInTransaction", err)
	}
	if err := txutil.Require(nil, "Post"); !errors.Is(err, txutil.ErrNotInTransaction) {
		t.Fatalf("nil app: got %v, want ErrNotInTransaction", err)
	}
	err = app.RunInTransaction(func(txApp core.App) error { return txutil.Require(txApp, "Post") })
	if err != nil {
		t.Fatalf("inside a transaction: got %v, want nil", err)
	}
}
