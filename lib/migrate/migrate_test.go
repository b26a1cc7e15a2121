package migrate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/lib/schema"
)

// TestCreateBaseMakesWhatTheHandWrittenFormMade: a migration that now calls CreateBase must
// store the collection it stored before (same id, fields with their ids, indexes, rules).
func TestCreateBaseMakesWhatTheHandWrittenFormMade(t *testing.T) {
	app, err := tests.NewTestApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer app.Cleanup()

	fields := func() []core.Field {
		return []core.Field{
			&core.TextField{Name: "key", Required: true, Max: 100},
			&core.NumberField{Name: "n", OnlyInt: true},
			Created(),
			Updated(),
		}
	}
	want := core.NewBaseCollection("by_hand")
	want.Fields.Add(fields()...)
	want.AddIndex("idx_by_hand_key", true, "`key`", "")
	want.AddIndex("idx_by_hand_n", false, "`n`", "`n` > 0")
	if err := app.Save(want); err != nil {
		t.Fatal(err)
	}
	got, err := CreateBase(app, "by_helper", fields(),
		Index("idx_by_helper_key", true, "`key`", ""),
		Index("idx_by_helper_n", false, "`n`", "`n` > 0"))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := app.FindCollectionByNameOrId("by_helper")
	if err != nil || stored.Id != got.Id {
		t.Fatalf("CreateBase did not save the collection it returned: %v", err)
	}

	// the same but for the names (and so the ids and index names derived from them)
	norm := func(c *core.Collection, name string) string {
		b, err := json.Marshal(map[string]any{"fields": c.Fields, "rules": []any{c.ListRule, c.ViewRule, c.CreateRule, c.UpdateRule, c.DeleteRule}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + replaceAll(c.Indexes, name)
	}
	if a, b := norm(want, "by_hand"), norm(stored, "by_helper"); a != b {
		t.Errorf("by hand:\n%s\nby CreateBase:\n%s", a, b)
	}
	if f := stored.Fields.GetByName(schema.Created).(*core.AutodateField); !f.OnCreate || f.OnUpdate {
		t.Errorf("created: %+v", f)
	}
	if f := stored.Fields.GetByName(schema.Updated).(*core.AutodateField); !f.OnCreate || !f.OnUpdate {
		t.Errorf("updated: %+v", f)
	}

	if err := Drop("by_helper", "no_such_collection")(app); err != nil {
		t.Fatal(err)
	}
	if _, err := app.FindCollectionByNameOrId("by_helper"); err == nil {
		t.Error("Drop left the collection")
	}
}

func replaceAll(indexes []string, name string) string {
	return strings.ReplaceAll(strings.Join(indexes, "\n"), name, "NAME")
}

// TestAddIndexUpAndDown: the up migration adds the index as AddIndex by hand does; the down
// migration removes it and leaves the others. Find finds collections in order, and fails on a
// missing one.
func TestAddIndexUpAndDown(t *testing.T) {
	app, err := tests.NewTestApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer app.Cleanup()
	if _, err := CreateBase(app, "things", []core.Field{&core.TextField{Name: "key"}, &core.NumberField{Name: "n"}},
		Index("idx_things_key", false, "`key`", "")); err != nil {
		t.Fatal(err)
	}
	hand := core.NewBaseCollection("things")
	hand.AddIndex("idx_things_n", true, "`n`", "`n` > 0")

	up, down := AddIndex("things", Index("idx_things_n", true, "`n`", "`n` > 0"))
	if err := up(app); err != nil {
		t.Fatal(err)
	}
	c, err := app.FindCollectionByNameOrId("things")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.GetIndex("idx_things_n"), hand.GetIndex("idx_things_n"); got != want || got == "" {
		t.Fatalf("after up: %q, want %q", got, want)
	}
	if err := down(app); err != nil {
		t.Fatal(err)
	}
	if c, err = app.FindCollectionByNameOrId("things"); err != nil {
		t.Fatal(err)
	}
	if c.GetIndex("idx_things_n") != "" || c.GetIndex("idx_things_key") == "" {
		t.Fatalf("after down: %v, want idx_things_key only", c.Indexes)
	}
	if cols, err := Find(app, "users", "things"); err != nil || len(cols) != 2 || cols[0].Name != "users" || cols[1].Name != "things" {
		t.Errorf("Find(users, things) = %v, %v", cols, err)
	}
	if _, err := Find(app, "things", "no_such_collection"); err == nil {
		t.Error("Find found a missing collection")
	}
}
