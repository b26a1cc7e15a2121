package settings_test

import (
	"errors"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/lib/settings"
)

var testKey = settings.Register(settings.Key[int]{
	Name: "test_only_count", Default: 7, Parse: settings.ParseInt,
	Check: func(name, text string) (string, error) {
		if text == "" {
			return "", errors.New("required")
		}
		return text, nil
	},
})

func TestReadAndLoad(t *testing.T) {
	app, err := tests.NewTestApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer app.Cleanup()

	// No settings table: a database error is an error, never the default.
	if v, err := testKey.Read(app); err == nil {
		t.Fatalf("Read without a settings table = %d, nil; want an error", v)
	}
	if _, err := settings.Load(app); err == nil {
		t.Fatal("Load without a settings table: want an error")
	}

	if _, err := app.DB().NewQuery("CREATE TABLE settings (key TEXT, value TEXT)").Execute(); err != nil {
		t.Fatal(err)
	}
	// A missing row reads as the default.
	if v, err := testKey.Read(app); err != nil || v != 7 {
		t.Fatalf("Read with no row = %d, %v; want 7, nil", v, err)
	}
	// A stored value is parsed (trimmed); text Parse refuses reads as the default.
	for stored, want := range map[string]int{" 12 ": 12, "twelve": 7} {
		if _, err := app.DB().NewQuery("DELETE FROM settings").Execute(); err != nil {
			t.Fatal(err)
		}
		if _, err := app.DB().Insert("settings", map[string]any{"key": testKey.Name, "value": stored}).Execute(); err != nil {
			t.Fatal(err)
		}
		if v, err := testKey.Read(app); err != nil || v != want {
			t.Fatalf("Read %q = %d, %v; want %d", stored, v, err, want)
		}
		vals, err := settings.Load(app)
		if err != nil || testKey.Get(vals) != want || vals[testKey.Name] != stored {
			t.Fatalf("Load %q = %v, %v; want Get %d and the stored text", stored, vals, err, want)
		}
	}
}

func TestRegistry(t *testing.T) {
	spec, ok := settings.Lookup(testKey.Name)
	if !ok || spec.Check == nil {
		t.Fatal("registered key not found")
	}
	if _, err := spec.Check(spec.Name, ""); err == nil {
		t.Fatal("Check lost on registration")
	}
	if _, ok := settings.Lookup("never_registered"); ok {
		t.Fatal("unknown key found")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("registering a name twice did not panic")
		}
	}()
	settings.Register(settings.Key[int]{Name: testKey.Name, Parse: settings.ParseInt})
}
