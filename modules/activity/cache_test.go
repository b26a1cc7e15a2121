package activity_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/events"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/inventory"
)

// TestStateCacheFollowsChanges: the cached /api/state changes after a record save (hook)
// and after an event (a service's raw-SQL write), and is served from cache otherwise.
func TestStateCacheFollowsChanges(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	driver := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	ready, err := inventory.FindAccountByKey(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}

	router, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	var srv *httptest.Server
	err = app.OnServe().Trigger(&core.ServeEvent{App: app, Router: router}, func(e *core.ServeEvent) error {
		mux, err := e.Router.BuildMux()
		srv = httptest.NewServer(mux)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	token := testkit.Token(t, driver)
	state := func() string {
		req, _ := http.NewRequest("GET", srv.URL+"/api/state", nil)
		req.Header.Set("Authorization", token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("status %d: %s", res.StatusCode, body)
		}
		return string(body)
	}

	if s := state(); !strings.Contains(s, `"ready":160`) {
		t.Fatalf("first state: %s", s)
	}
	// a raw write with no notification is not seen (served from cache) ...
	setReady := func(n int) {
		if _, err := app.DB().Update(schema.Accounts, dbx.Params{schema.AccountBalance: n}, dbx.HashExp{"id": ready.Id}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	setReady(90)
	if s := state(); !strings.Contains(s, `"ready":160`) {
		t.Fatalf("expected the cached state, got %s", s)
	}
	// ... until the service announces its commit
	events.For(app).Publish(events.Message{Type: events.InventoryUpdated})
	if s := state(); !strings.Contains(s, `"ready":90`) {
		t.Fatalf("after the event: %s", s)
	}
	// a record saved through PocketBase (a dashboard edit of a setting) is seen once it commits
	col, err := app.FindCollectionByNameOrId(schema.Settings)
	if err != nil {
		t.Fatal(err)
	}
	prompt := core.NewRecord(col)
	prompt.Set(schema.SettingKey, schema.SettingDropoffPrompt)
	prompt.Set(schema.SettingValue, "Count twice")
	if err := app.Save(prompt); err != nil {
		t.Fatal(err)
	}
	if s := state(); !strings.Contains(s, `"dropoff_prompt":"Count twice"`) {
		t.Fatalf("after a record save: %s", s)
	}
	// the pack tracking mode reaches every caller, a driver included (their screens scan by it)
	if s := state(); !strings.Contains(s, `"pack_tracking":"off"`) {
		t.Fatalf("pack tracking unset: %s", s)
	}
	mode := core.NewRecord(col)
	mode.Set(schema.SettingKey, schema.SettingPackTracking)
	mode.Set(schema.SettingValue, schema.PackTrackingRequired)
	if err := app.Save(mode); err != nil {
		t.Fatal(err)
	}
	if s := state(); !strings.Contains(s, `"pack_tracking":"required"`) {
		t.Fatalf("after the mode is set: %s", s)
	}
	// with the cache off every request reads the database
	activity.DisableStateCache.Store(true)
	defer activity.DisableStateCache.Store(false)
	setReady(80)
	if s := state(); !strings.Contains(s, `"ready":80`) {
		t.Fatalf("cache disabled: %s", s)
	}
}
