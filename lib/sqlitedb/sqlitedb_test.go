package sqlitedb

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketbase/dbx"
)

func open(t *testing.T) *dbx.DB {
	t.Helper()
	db, err := Connect(filepath.Join(t.TempDir(), "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.DB().SetMaxOpenConns(1) // one connection: every query below meets the same cache
	t.Cleanup(func() { db.Close() })
	exec(t, db, "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER NOT NULL)")
	return db
}

func exec(t *testing.T, db dbx.Builder, q string, params ...dbx.Params) {
	t.Helper()
	query := db.NewQuery(q)
	if len(params) > 0 {
		query.Bind(params[0])
	}
	if _, err := query.Execute(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func count(t *testing.T, db dbx.Builder) int {
	t.Helper()
	var n int
	if err := db.NewQuery("SELECT COUNT(*) FROM items").Row(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestReusesStatements(t *testing.T) {
	db := open(t)
	before := prepares.Load()
	for i := range 100 {
		exec(t, db, "INSERT INTO items (name, n) VALUES ({:name}, {:n})", dbx.Params{"name": fmt.Sprint("item", i), "n": i})
		var n int
		if err := db.NewQuery("SELECT n FROM items WHERE name = {:name}").Bind(dbx.Params{"name": fmt.Sprint("item", i)}).Row(&n); err != nil || n != i {
			t.Fatalf("read back item%d: %d, %v", i, n, err)
		}
	}
	if got := prepares.Load() - before; got != 2 {
		t.Fatalf("200 runs of 2 statements prepared %d statements, want 2", got)
	}
	if n := count(t, db); n != 100 {
		t.Fatalf("count %d, want 100", n)
	}
}

func TestSameQueryWhileItsRowsAreOpen(t *testing.T) {
	db := open(t)
	for i := range 3 {
		exec(t, db, "INSERT INTO items (name, n) VALUES ({:name}, {:n})", dbx.Params{"name": fmt.Sprint("item", i), "n": i})
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = "SELECT name FROM items ORDER BY n"
	outer, err := tx.NewQuery(q).Rows()
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for outer.Next() {
		var name string
		if err := outer.Scan(&name); err != nil {
			t.Fatal(err)
		}
		// the same text again on the same connection while the outer rows are open
		var inner []string
		if err := tx.NewQuery(q).Column(&inner); err != nil {
			t.Fatal(err)
		}
		if strings.Join(inner, ",") != "item0,item1,item2" {
			t.Fatalf("inner read %v", inner)
		}
		seen = append(seen, name)
	}
	outer.Close()
	if strings.Join(seen, ",") != "item0,item1,item2" {
		t.Fatalf("outer read %v", seen)
	}
}

func TestEvictedWhileOpen(t *testing.T) {
	db := open(t)
	exec(t, db, "INSERT INTO items (name, n) VALUES ('a', 1), ('b', 2)")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	rows, err := tx.NewQuery("SELECT name FROM items ORDER BY n").Rows()
	if err != nil {
		t.Fatal(err)
	}
	// push the open statement out of the cache
	for i := range MaxStatements + 10 {
		var n int
		if err := tx.NewQuery(fmt.Sprintf("SELECT %d", i)).Row(&n); err != nil || n != i {
			t.Fatalf("SELECT %d: %d %v", i, n, err)
		}
	}
	var names []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		names = append(names, name)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "a,b" {
		t.Fatalf("rows of an evicted statement: %v", names)
	}
	var again []string
	if err := tx.NewQuery("SELECT name FROM items ORDER BY n").Column(&again); err != nil || len(again) != 2 {
		t.Fatalf("the text again: %v %v", again, err)
	}
}

func TestErrorsLeaveTheStatementUsable(t *testing.T) {
	db := open(t)
	const ins = "INSERT INTO items (name, n) VALUES ({:name}, {:n})"
	exec(t, db, ins, dbx.Params{"name": "a", "n": 1})
	if _, err := db.NewQuery(ins).Bind(dbx.Params{"name": "a", "n": 2}).Execute(); err == nil || !strings.Contains(err.Error(), "UNIQUE") {
		t.Fatalf("duplicate name: %v, want a UNIQUE error", err)
	}
	exec(t, db, ins, dbx.Params{"name": "b", "n": 2})
	if n := count(t, db); n != 2 {
		t.Fatalf("count %d, want 2", n)
	}
}

func TestRollbackUndoesCachedWrites(t *testing.T) {
	db := open(t)
	const ins = "INSERT INTO items (name, n) VALUES ({:name}, {:n})"
	exec(t, db, ins, dbx.Params{"name": "kept", "n": 1})
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	exec(t, tx, ins, dbx.Params{"name": "undone", "n": 2})
	if n := count(t, tx); n != 2 {
		t.Fatalf("inside the transaction: %d rows, want 2", n)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db); n != 1 {
		t.Fatalf("after the rollback: %d rows, want 1", n)
	}
}

func TestSchemaChangeRecompiles(t *testing.T) {
	db := open(t)
	exec(t, db, "INSERT INTO items (name, n) VALUES ('a', 1)")
	const q = "SELECT * FROM items"
	row := dbx.NullStringMap{}
	if err := db.NewQuery(q).One(row); err != nil || len(row) != 3 {
		t.Fatalf("before: %v %v", row, err)
	}
	exec(t, db, "ALTER TABLE items ADD COLUMN note TEXT NOT NULL DEFAULT 'x'")
	row = dbx.NullStringMap{}
	if err := db.NewQuery(q).One(row); err != nil || len(row) != 4 || row["note"].String != "x" {
		t.Fatalf("after adding a column: %v %v", row, err)
	}
}

func TestScriptsRunWhole(t *testing.T) {
	db := open(t)
	const script = "INSERT INTO items (name, n) VALUES ('s1', 1); INSERT INTO items (name, n) VALUES ('s2', 2);"
	exec(t, db, script)
	exec(t, db, "DELETE FROM items")
	exec(t, db, script)
	if n := count(t, db); n != 2 {
		t.Fatalf("count %d, want 2", n)
	}
}

func TestCanceledContext(t *testing.T) {
	db := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.NewQuery("SELECT 1").WithContext(ctx).Execute(); err == nil {
		t.Fatal("a canceled context ran the query")
	}
	var n int
	if err := db.NewQuery("SELECT 1").Row(&n); err != nil || n != 1 {
		t.Fatalf("after a canceled run: %d %v", n, err)
	}
}

// TestCheckpoint: a connection checkpoints on its own only past AutoCheckpointPages, and
// Checkpoint, on another connection, copies the whole WAL back while the writer goes on.
func TestCheckpoint(t *testing.T) {
	db, err := Connect(filepath.Join(t.TempDir(), "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var auto int
	if err := db.NewQuery("PRAGMA wal_autocheckpoint").Row(&auto); err != nil {
		t.Fatal(err)
	}
	if auto != AutoCheckpointPages {
		t.Fatalf("wal_autocheckpoint %d, want AutoCheckpointPages %d", auto, AutoCheckpointPages)
	}
	exec(t, db, "CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
	for i := range 50 {
		exec(t, db, "INSERT INTO items (body) VALUES ({:b})", dbx.Params{"b": strings.Repeat(fmt.Sprint(i), 3000)})
	}
	pages, copied, err := Checkpoint(db)
	if err != nil {
		t.Fatal(err)
	}
	if pages < 50 || copied != pages {
		t.Fatalf("Checkpoint: %d WAL pages, %d copied; want at least 50, all copied", pages, copied)
	}
	if n := count(t, db); n != 50 {
		t.Fatalf("%d items after the checkpoint, want 50", n)
	}
}
