package inventory_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// TestInsertMovementStoresWhatSaveStores: the ledger's own INSERT of a movement writes the
// same row as PocketBase's SaveNoValidate of the same record (every column but the id and the
// autodates), leaves the record as a save does (not new, its JSON the same), and a posting
// without meta stores NULL as the save does.
func TestInsertMovementStoresWhatSaveStores(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	at := time.Date(2026, 11, 24, 9, 30, 15, 123_000_000, time.UTC)
	postings := map[string]inventory.Posting{
		"full": {Type: inventory.TypeDropoff, Quantity: 7, Notes: "5 good, 2 dead — “quoted” ✓", UserId: "u1", ActorId: "a1",
			Good: 5, Dead: 2, Discrepancy: true, SessionId: "s1", At: at,
			Meta: map[string]any{inventory.MetaUserNotes: "line\nbreak", inventory.MetaExcess: 2, "nested": map[string]any{"x": []int{1, 2}}}},
		"bare":       {Type: inventory.TypeAdjustment, Quantity: -3, At: at, Checkpoint: true},
		"empty meta": {Type: inventory.TypePickup, Quantity: 1, At: at, Meta: map[string]any{}},
	}
	col, err := app.FindCachedCollectionByNameOrId(schema.Movements)
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range postings {
		saved, inserted := core.NewRecord(col), core.NewRecord(col)
		saved.Id, inserted.Id = ids.New(), ids.New()
		inventory.SetMovementFields(saved, p)
		inventory.SetMovementFields(inserted, p)
		err := app.RunInTransaction(func(txApp core.App) error {
			if err := txApp.SaveNoValidate(saved); err != nil {
				return err
			}
			return inventory.InsertMovement(txApp, inserted)
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, got := storedRow(t, app, saved.Id), storedRow(t, app, inserted.Id)
		for _, k := range []string{"id", schema.Created, schema.Updated, schema.MovementRecordedAt} {
			if got[k] == nil || got[k] == "" {
				t.Errorf("%s: inserted row has no %s", name, k)
			}
			delete(want, k)
			delete(got, k)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: inserted row\n%v\nsaved row\n%v", name, got, want)
		}
		if inserted.IsNew() {
			t.Errorf("%s: the inserted record still counts as new", name)
		}
		if inserted.GetDateTime(schema.Created).IsZero() {
			t.Errorf("%s: the inserted record has no created date", name)
		}
		wantJSON, gotJSON := exported(t, saved), exported(t, inserted)
		if !reflect.DeepEqual(gotJSON, wantJSON) {
			t.Errorf("%s: inserted record's JSON\n%v\nsaved record's JSON\n%v", name, gotJSON, wantJSON)
		}
		// a Movement writes its own JSON, the same as its record's
		for _, rec := range []*core.Record{saved, inserted} {
			own, err := json.Marshal(&inventory.Movement{Record: rec})
			if err != nil {
				t.Fatal(err)
			}
			byRecord, _ := json.Marshal(rec)
			if !sameJSON(t, own, byRecord) {
				t.Errorf("%s: Movement JSON\n%s\nrecord JSON\n%s", name, own, byRecord)
			}
		}
	}
}

// TestMovementJSONCoversEveryField: the movements collection has exactly the fields
// Movement.MarshalJSON writes itself, so its fast path is the one taken (a new field would
// send it back to the record's own export: this test then says to add it).
func TestMovementJSONCoversEveryField(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	col, err := app.FindCachedCollectionByNameOrId(schema.Movements)
	if err != nil {
		t.Fatal(err)
	}
	if got := col.Fields.FieldNames(); !reflect.DeepEqual(got, inventory.MovementJSONFields) {
		t.Fatalf("movements fields %v, Movement.MarshalJSON writes %v", got, inventory.MovementJSONFields)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// storedRow reads every column of movement id as SQLite stores it (typeof beside the value, so
// 1 and 1.0 or ” and NULL differ).
func storedRow(t *testing.T, app core.App, id string) map[string]any {
	t.Helper()
	rows, err := app.DB().NewQuery("SELECT * FROM movements WHERE id = {:id}").Bind(dbx.Params{"id": id}).Rows()
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := dbx.NullStringMap{}
	if !rows.Next() {
		t.Fatalf("movement %s not stored", id)
	}
	if err := rows.ScanMap(out); err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	for k, v := range out {
		var typ string
		if err := app.DB().NewQuery("SELECT typeof(`" + k + "`) FROM movements WHERE id = {:id}").Bind(dbx.Params{"id": id}).Row(&typ); err != nil {
			t.Fatal(err)
		}
		m[k] = typ + ":" + v.String
	}
	return m
}

// exported is the record's JSON with the id and the autodates left out.
func exported(t *testing.T, rec *core.Record) map[string]any {
	t.Helper()
	raw, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "id")
	delete(m, schema.Created)
	delete(m, schema.Updated)
	delete(m, schema.MovementRecordedAt)
	return m
}

// A movements field marked Hidden (PocketBase's dashboard) is left out of a Movement's JSON,
// as the record's own export leaves it out.
func TestMovementJSONHonoursHiddenFields(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	col, err := app.FindCollectionByNameOrId(schema.Movements)
	if err != nil {
		t.Fatal(err)
	}
	col.Fields.GetByName(schema.MovementNotes).SetHidden(true)
	if err := app.Save(col); err != nil {
		t.Fatal(err)
	}
	col, err = app.FindCachedCollectionByNameOrId(schema.Movements)
	if err != nil {
		t.Fatal(err)
	}
	rec := core.NewRecord(col)
	rec.Id = "hiddennotes0001"
	rec.Set(schema.MovementType, inventory.TypeRebalance)
	rec.Set(schema.MovementNotes, "secret")
	own, err := json.Marshal(&inventory.Movement{Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(own, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got[schema.MovementNotes]; ok {
		t.Fatalf("the hidden notes field is in the movement's JSON: %s", own)
	}
	if got[schema.MovementType] != inventory.TypeRebalance {
		t.Fatalf("the visible fields are missing: %s", own)
	}
}
