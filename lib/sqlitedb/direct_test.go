package sqlitedb

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/pocketbase/dbx"
)

// positional rewrites parameters as dbx does: each occurrence a ?, in order, and anything that
// is not a parameter kept as written.
func TestPositional(t *testing.T) {
	p := dbx.Params{"a": 1, "b_2": "x", "c": nil}
	for _, tc := range []struct {
		query, want string
		args        []any
	}{
		{"SELECT 1", "SELECT 1", nil},
		{"SELECT {:a}", "SELECT ?", []any{1}},
		{"SELECT {:a}, {:b_2}, {:a}, {:c}", "SELECT ?, ?, ?, ?", []any{1, "x", 1, nil}},
		{"SELECT '{:' || {:a}", "SELECT '{:' || ?", []any{1}},
		{"SELECT {:a-b}, {:}, {:a", "SELECT {:a-b}, {:}, {:a", nil},
		{"SELECT {:}{:a}x", "SELECT {:}?x", []any{1}},
	} {
		got, args, err := positional(tc.query, p)
		if err != nil || got != tc.want || !reflect.DeepEqual(args, tc.args) {
			t.Errorf("%q: got %q %v %v, want %q %v", tc.query, got, args, err, tc.want, tc.args)
		}
	}
	if _, _, err := positional("SELECT {:missing}", p); err == nil || err.Error() != "Named parameter not found: missing" {
		t.Errorf("a missing parameter: %v", err)
	}
	for _, q := range []string{"SELECT [[name]] FROM items", "SELECT name FROM {{items}}"} {
		if _, _, err := positional(q, p); !errors.Is(err, ErrQuotedNames) {
			t.Errorf("%q: %v, want ErrQuotedNames", q, err)
		}
	}
}

// In a transaction Exec and Query run on its own connection (the writes are the transaction's:
// rolled back with it) and reuse the connection's cached statements; outside one they go
// through dbx.
func TestExecAndQueryInATransaction(t *testing.T) {
	db := open(t)
	names := func(b dbx.Builder) []string {
		var out []string
		err := Query(b, "SELECT name FROM items WHERE n >= {:min} ORDER BY n", dbx.Params{"min": 0}, func(scan func(...any) error) error {
			var s string
			if err := scan(&s); err != nil {
				return err
			}
			out = append(out, s)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fail := errors.New("rolled back")
	before := prepares.Load()
	err := db.Transactional(func(tx *dbx.Tx) error {
		if _, ok := executor(tx); !ok {
			t.Fatal("a transaction's builder has no executor")
		}
		for i := range 50 {
			if err := Exec(tx, "INSERT INTO items (name, n) VALUES ({:name}, {:n})", dbx.Params{"name": fmt.Sprint("item", i), "n": i}); err != nil {
				return err
			}
		}
		if got := names(tx); len(got) != 50 || got[49] != "item49" {
			t.Fatalf("inside the transaction: %v", got)
		}
		return fail
	})
	if !errors.Is(err, fail) {
		t.Fatal(err)
	}
	if got := prepares.Load() - before; got != 2 {
		t.Fatalf("50 inserts and a query prepared %d statements, want 2", got)
	}
	if n := count(t, db); n != 0 {
		t.Fatalf("after the rollback: %d rows, want 0", n)
	}

	if err := db.Transactional(func(tx *dbx.Tx) error {
		return Exec(tx, "INSERT INTO items (name, n) VALUES ({:name}, {:n})", dbx.Params{"name": "kept", "n": 1})
	}); err != nil {
		t.Fatal(err)
	}
	// outside a transaction: dbx's path, same results
	if err := Exec(db, "INSERT INTO items (name, n) VALUES ({:name}, {:n})", dbx.Params{"name": "outside", "n": 2}); err != nil {
		t.Fatal(err)
	}
	if got := names(db); !reflect.DeepEqual(got, []string{"kept", "outside"}) {
		t.Fatalf("after commit: %v", got)
	}

	// refusals change nothing: a missing parameter, a constraint, an error from scan
	err = db.Transactional(func(tx *dbx.Tx) error {
		return Exec(tx, "INSERT INTO items (name, n) VALUES ({:name}, {:n})", dbx.Params{"name": "x"})
	})
	if err == nil || err.Error() != "Named parameter not found: n" {
		t.Fatalf("missing parameter: %v", err)
	}
	err = db.Transactional(func(tx *dbx.Tx) error {
		return Exec(tx, "INSERT INTO items (name, n) VALUES ({:name}, {:n})", dbx.Params{"name": "kept", "n": 3})
	})
	if err == nil {
		t.Fatal("a duplicate name was inserted")
	}
	stop := errors.New("stop")
	if err := Query(db, "SELECT name FROM items", nil, func(func(...any) error) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("scan error: %v", err)
	}
	if got := names(db); !reflect.DeepEqual(got, []string{"kept", "outside"}) {
		t.Fatalf("after the refusals: %v", got)
	}
}
