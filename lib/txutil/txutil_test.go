package txutil_test

import (
	"errors"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/lib/txutil"
)

func TestRequire(t *testing.T) {
	app, err := tests.NewTestApp(t.TempDir())
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

// Modify saves what edit set on the copy it read in its transaction, saves nothing when edit
// says so, and leaves the record as it was when edit fails.
func TestModify(t *testing.T) {
	app, err := tests.NewTestApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer app.Cleanup()
	col := core.NewBaseCollection("modify_items")
	col.Fields.Add(&core.TextField{Name: "name"}, &core.NumberField{Name: "n"})
	if err := app.Save(col); err != nil {
		t.Fatal(err)
	}
	rec := core.NewRecord(col)
	rec.Set("name", "first")
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
	find := func(txApp core.App) (*core.Record, error) { return txApp.FindRecordById(col, rec.Id) }
	stored := func() *core.Record {
		got, err := app.FindRecordById(col, rec.Id)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	// another change saved after rec was read stays: Modify edits a fresh copy
	if _, err := app.DB().NewQuery("UPDATE modify_items SET n = 7").Execute(); err != nil {
		t.Fatal(err)
	}
	got, err := txutil.Modify(app, find, func(_ core.App, r *core.Record) (bool, error) {
		r.Set("name", "second")
		return true, nil
	})
	if err != nil || got.GetString("name") != "second" {
		t.Fatalf("Modify: %v, %v", got, err)
	}
	if s := stored(); s.GetString("name") != "second" || s.GetInt("n") != 7 {
		t.Fatalf("stored: name %q, n %d", s.GetString("name"), s.GetInt("n"))
	}

	if _, err := txutil.Modify(app, find, func(_ core.App, r *core.Record) (bool, error) {
		r.Set("name", "unsaved")
		return false, nil
	}); err != nil || stored().GetString("name") != "second" {
		t.Fatalf("edit saying no save: %v, name %q", err, stored().GetString("name"))
	}

	refused := errors.New("refused")
	if _, err := txutil.Modify(app, find, func(txApp core.App, r *core.Record) (bool, error) {
		if _, err := txApp.DB().NewQuery("UPDATE modify_items SET n = 8").Execute(); err != nil {
			return false, err
		}
		return false, refused
	}); !errors.Is(err, refused) || stored().GetInt("n") != 7 {
		t.Fatalf("failing edit: %v, n %d", err, stored().GetInt("n"))
	}
}
