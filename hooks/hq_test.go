package hooks_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/hooks"
	"swapbay/internal/testkit"
	"swapbay/modules/hq"
	"swapbay/modules/hq/recall"
	_ "swapbay/pb_migrations/hq" // head office's own migrations
)

// TestHQRawDataDoor: in head office's own /_/, a superuser's raw create, update and delete of
// HQ's recalls, their sends and the rollups are refused with the app's way and change nothing;
// a session may be ended, not minted; cities and users stay editable; HQ's collections' schema
// and truncate are refused. Every collection HQ's migrations make has a door.
func TestHQRawDataDoor(t *testing.T) {
	app, err := hq.NewApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.ResetBootstrapState() })
	hooks.RegisterHQ(app)

	known := hooks.HQCollections()
	cols, err := app.FindAllCollections()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cols {
		if !c.System && !slices.Contains(known, c.Name) {
			t.Errorf("head office's collection %s has no door in hooks/hq.go", c.Name)
		}
	}

	ids := map[string]string{}
	for _, name := range []string{recall.Recalls, recall.Sends, hq.CityDays, hq.CityWeeks, hq.Sessions, hq.Cities} {
		col, err := app.FindCollectionByNameOrId(name)
		if err != nil {
			t.Fatal(err)
		}
		rec := core.NewRecord(col)
		if name == hq.Cities {
			rec.Load(map[string]any{hq.CityName: "Paris", hq.CityTimeZone: "Europe/Paris", hq.CityCurrency: "EUR",
				hq.CityReplicaURL: "file:///srv/paris", hq.CityAddress: "https://paris.example.com", hq.CityToken: "hq-token"})
		}
		if err := app.SaveNoValidate(rec); err != nil {
			t.Fatalf("seed %s: %v", name, err)
		}
		ids[name] = rec.Id
	}
	sc, err := app.FindCollectionByNameOrId(core.CollectionNameSuperusers)
	if err != nil {
		t.Fatal(err)
	}
	su := core.NewRecord(sc)
	su.SetEmail("root@example.com")
	su.SetPassword("superuser-secret-1")
	if err := app.Save(su); err != nil {
		t.Fatal(err)
	}
	token, err := su.NewAuthToken()
	if err != nil {
		t.Fatal(err)
	}
	router := testkit.Handler(t, app)
	do := func(method, path string, body any) (int, string) {
		var buf bytes.Buffer
		if body != nil {
			_ = json.NewEncoder(&buf).Encode(body)
		}
		req := httptest.NewRequest(method, path, &buf)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", token)
		rec := httptest.NewRecorder()
		router.ServeHTTP(rec, req)
		out := map[string]any{}
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		msg, _ := out["message"].(string)
		return rec.Code, msg
	}
	counts := func() map[string]int {
		out := map[string]int{}
		for name := range ids {
			n, err := app.CountRecords(name)
			if err != nil {
				t.Fatal(err)
			}
			out[name] = int(n)
		}
		return out
	}
	before := counts()

	records := func(c string) string { return "/api/collections/" + c + "/records" }
	type row struct {
		method, path string
		body         any
		status       int
		message      string
	}
	rows := []row{}
	for _, c := range []string{recall.Recalls, recall.Sends} {
		rows = append(rows,
			row{http.MethodPost, records(c), map[string]any{}, 403, hooks.MsgHQRecalls},
			row{http.MethodPatch, records(c) + "/" + ids[c], map[string]any{"attempts": 9, "value": "L9"}, 403, hooks.MsgHQRecalls},
			row{http.MethodDelete, records(c) + "/" + ids[c], nil, 403, hooks.MsgHQRecalls},
			row{http.MethodPatch, "/api/collections/" + c, map[string]any{"listRule": ""}, 403, hooks.MsgSchema},
			row{http.MethodDelete, "/api/collections/" + c + "/truncate", nil, 403, hooks.MsgSchema},
		)
	}
	for _, c := range []string{hq.CityDays, hq.CityWeeks} {
		rows = append(rows,
			row{http.MethodPost, records(c), map[string]any{"swaps": 5}, 403, hooks.MsgHQRollups},
			row{http.MethodPatch, records(c) + "/" + ids[c], map[string]any{"swaps": 999, "payCents": -1}, 403, hooks.MsgHQRollups},
			row{http.MethodDelete, records(c) + "/" + ids[c], nil, 403, hooks.MsgHQRollups},
		)
	}
	rows = append(rows,
		row{http.MethodPost, records(hq.Sessions), map[string]any{}, 403, hooks.MsgAuthSessions},
		row{http.MethodDelete, "/api/collections/" + hq.Cities, nil, 403, hooks.MsgSchema},
	)
	for _, tc := range rows {
		status, msg := do(tc.method, tc.path, tc.body)
		if status != tc.status || msg != tc.message {
			t.Errorf("%s %s = %d %q, want %d %q", tc.method, tc.path, status, msg, tc.status, tc.message)
		}
	}
	if after := counts(); !maps.Equal(before, after) {
		t.Errorf("refused writes changed the rows: %v → %v", before, after)
	}
	var days []struct{ Swaps int }
	if err := app.DB().NewQuery("SELECT swaps FROM " + hq.CityDays).All(&days); err != nil || len(days) != 1 || days[0].Swaps != 0 {
		t.Errorf("city_days after the refused update: %+v, %v", days, err)
	}

	// plain data passes: a city renamed; a session ended
	if status, msg := do(http.MethodPatch, records(hq.Cities)+"/"+ids[hq.Cities], map[string]any{hq.CityName: "Lyon"}); status != 200 {
		t.Errorf("renaming a city = %d %q, want 200", status, msg)
	}
	if status, msg := do(http.MethodDelete, records(hq.Sessions)+"/"+ids[hq.Sessions], nil); status != 204 {
		t.Errorf("ending a session = %d %q, want 204", status, msg)
	}
	if !strings.Contains(hooks.MsgHQRecalls, "Recalls page") {
		t.Error("the recalls' refusal names the app's way")
	}
}
