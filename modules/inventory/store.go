package inventory

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
)

// The movement store: every write of a movements or entries row goes through the functions
// of this file (insertMovement, updateMovement, releaseUser, deleteMovements, writeEntries,
// replaceEntries), whichever path makes the change (Post, an edit, a swap's pairing, a wipe,
// a clean slate, a user's deletion). They write with plain statements on the transaction's connection, so no
// PocketBase record hook runs for these rows: none may be bound on movements, entries or
// accounts (internal/archtest's hook guard fails if one is), and every service publishes its
// change on the bus (lib/events), which the state cache and /ws listen to. The wrapping of
// the model and record hooks and dbx's query building cost a share of a keyed driver write's
// time in the write lock (BENCHMARKS.md).

// insertMovement stores rec, a new movement (an id is given when it has none), with one
// INSERT of the columns PocketBase's own save writes (Record.DBExport, with the autodates set
// here) on the transaction's connection.
func insertMovement(txApp core.App, rec *core.Record) error {
	if rec.Id == "" {
		rec.Id = ids.New()
	}
	now := types.NowDateTime()
	rec.SetRaw(schema.Created, now)
	rec.SetRaw(schema.Updated, now)
	rec.SetRaw(schema.MovementRecordedAt, now) // the commit; occurredAt is the tap (DESIGN.md §12)
	cols, err := rec.DBExport(txApp)
	if err != nil {
		return err
	}
	cols["id"] = rec.Id
	names := slices.Sorted(maps.Keys(cols)) // the same columns make the same statement text
	quoted, params := make([]string, len(names)), make([]string, len(names))
	for i, name := range names {
		quoted[i], params[i] = "`"+name+"`", "{:"+name+"}"
	}
	sql := "INSERT INTO " + schema.Movements + " (" + strings.Join(quoted, ", ") + ") VALUES (" + strings.Join(params, ", ") + ")"
	if err := sqlitedb.Exec(txApp.DB(), sql, dbx.Params(cols)); err != nil {
		return err
	}
	return rec.PostScan() // stored: not new, and its original data is what was written
}

// updateMovement stores the fields of rec, a stored movement, with one UPDATE of the columns
// PocketBase's own save writes (the id and created stay; updated is now).
func updateMovement(txApp core.App, rec *core.Record) error {
	rec.SetRaw(schema.Updated, types.NowDateTime())
	cols, err := rec.DBExport(txApp)
	if err != nil {
		return err
	}
	delete(cols, "id")
	delete(cols, schema.Created)
	names := slices.Sorted(maps.Keys(cols))
	set := make([]string, len(names))
	for i, name := range names {
		set[i] = "`" + name + "` = {:" + name + "}"
	}
	params := dbx.Params(cols)
	params["_id"] = rec.Id
	n, err := sqlitedb.ExecAffected(txApp.DB(), "UPDATE "+schema.Movements+" SET "+strings.Join(set, ", ")+" WHERE id = {:_id}", params)
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("update movement %s: %d rows", rec.Id, n)
	}
	return rec.PostScan()
}

// releaseUser clears field (the user or the actor) of every movement that names userId and
// keeps who they were as JSON under key in the movement's meta, in one UPDATE (a meta that is
// empty or not an object, from before meta existed, becomes an object). The movement's
// updated time stays: the history was not edited.
func releaseUser(txApp core.App, field, key, who, userId string) error {
	_, err := txApp.DB().NewQuery("UPDATE " + schema.Movements + " SET " +
		"meta = json_set(CASE WHEN json_valid(meta) THEN CASE WHEN json_type(meta) = 'object' THEN meta ELSE '{}' END ELSE '{}' END, " +
		"'$." + key + "', json({:who})), [[" + field + "]] = '' WHERE [[" + field + "]] = {:id}").
		Bind(dbx.Params{"who": who, "id": userId}).Execute()
	return err
}

// deleteMovements deletes the movements matching where (a condition on the movements table
// with params; "" for every movement) and their entries. The caller reverses or folds their
// balances.
func deleteMovements(txApp core.App, where string, params dbx.Params) error {
	if where == "" {
		where = "1 = 1"
	}
	for _, q := range []string{
		"DELETE FROM " + schema.Entries + " WHERE " + schema.EntryMovement + " IN (SELECT id FROM " + schema.Movements + " WHERE " + where + ")",
		"DELETE FROM " + schema.Movements + " WHERE " + where,
	} {
		if err := sqlitedb.Exec(txApp.DB(), q, params); err != nil {
			return fmt.Errorf("delete movements: %w", err)
		}
	}
	return nil
}

// replaceEntries replaces movementId's entries with one per account of deltas (an edit).
func replaceEntries(txApp core.App, movementId string, deltas map[string]int) error {
	if err := sqlitedb.Exec(txApp.DB(), "DELETE FROM "+schema.Entries+" WHERE "+schema.EntryMovement+" = {:m}", dbx.Params{"m": movementId}); err != nil {
		return fmt.Errorf("delete entries: %w", err)
	}
	return writeEntries(txApp, movementId, deltas)
}

// writeEntries stores one entry per account with a non-zero net delta.
func writeEntries(txApp core.App, movementId string, deltas map[string]int) error {
	// one multi-row INSERT: a movement's entries are written in one statement
	var sql strings.Builder
	params := dbx.Params{"m": movementId}
	sql.WriteString("INSERT INTO " + schema.Entries + " (id, movement, account, delta) VALUES ")
	sum, n := 0, 0
	for _, id := range slices.Sorted(maps.Keys(deltas)) {
		d := deltas[id]
		if d == 0 {
			continue
		}
		sum += d
		if n > 0 {
			sql.WriteString(", ")
		}
		k := strconv.Itoa(n)
		fmt.Fprintf(&sql, "({:id%s}, {:m}, {:a%s}, {:d%s})", k, k, k)
		params["id"+k], params["a"+k], params["d"+k] = ids.New(), id, d
		n++
	}
	if sum != 0 {
		return fmt.Errorf("unbalanced movement %s: entries sum to %d", movementId, sum)
	}
	if n == 0 {
		return nil
	}
	if err := sqlitedb.Exec(txApp.DB(), sql.String(), params); err != nil {
		return fmt.Errorf("save entries: %w", err)
	}
	return nil
}
