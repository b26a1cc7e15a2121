package hooks_test

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/hooks"
	"swapbay/internal/testkit"
	"swapbay/lib/audit"
	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
	"swapbay/modules/hq/recall"
	_ "swapbay/pb_migrations/hq" // head office's own migrations
)

// TestHQRawDataDoor: in head office's own /_/, a superuser's raw create, update and delete of
// HQ's recalls, their sends and the rollups are refused with the app's way and change nothing;
// a session may be ended, not minted; cities and users stay editable; HQ's collections' schema
// and truncate are refused (its audit list's too). Every collection HQ's migrations make has a
// door.
func TestHQRawDataDoor(t *testing.T) {
	h := newHQRaw(t, false)
	app := h.app

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
		ids[name] = h.seed(t, name)
	}
	do := func(method, path string, body any) (int, string) {
		status, out := h.do(t, h.root, method, path, body)
		msg, _ := out["message"].(string)
		return status, msg
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
		// the audit list's rows (TestHQAuditList) and its schema: a truncate runs no record hook
		row{http.MethodDelete, "/api/collections/" + hq.AuditLog + "/truncate", nil, 403, hooks.MsgSchema},
		row{http.MethodPatch, "/api/collections/" + hq.AuditLog, map[string]any{"listRule": ""}, 403, hooks.MsgSchema},
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

// hqRaw is head office's app with its door (and, served, its routes) and a superuser.
type hqRaw struct {
	app    *hq.App
	router http.Handler
	root   string // the superuser's token
	email  string // the superuser's
}

// newHQRaw opens head office's app in a fresh dir with its door bound (hooks.RegisterHQ) and,
// with routes, its own routes (hq.Register; no city is followed: none exists at serve).
func newHQRaw(t *testing.T, routes bool) *hqRaw {
	t.Helper()
	app, err := hq.NewApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.ResetBootstrapState() })
	hooks.RegisterHQ(app)
	if routes {
		rollups := hq.RollupsEnabled
		hq.RollupsEnabled = false // no copy to roll up
		t.Cleanup(func() { hq.RollupsEnabled = rollups })
		set := hq.NewSet(t.Context(), app, follow.DefaultOptions())
		t.Cleanup(set.Close)
		hq.Register(app, set)
	}
	h := &hqRaw{app: app, email: "root@example.com"}
	h.root = testkit.SuperuserToken(t, app, h.email)
	h.router = testkit.Handler(t, app)
	return h
}

// seed saves a row of collection name as the app's services would leave it (raw rows are
// enough for the door; a city has its required fields) and returns its id.
func (h *hqRaw) seed(t *testing.T, name string) string {
	t.Helper()
	col, err := h.app.FindCollectionByNameOrId(name)
	if err != nil {
		t.Fatal(err)
	}
	rec := core.NewRecord(col)
	if name == hq.Cities {
		rec.Load(map[string]any{hq.CityName: "Paris", hq.CityTimeZone: "Europe/Paris", hq.CityCurrency: "EUR",
			hq.CityReplicaURL: "file:///srv/paris", hq.CityAddress: "https://paris.example.com", hq.CityToken: "hq-token"})
	}
	if err := h.app.SaveNoValidate(rec); err != nil {
		t.Fatalf("seed %s: %v", name, err)
	}
	return rec.Id
}

// do sends method path body with token ("" = a guest) and answers the status and the JSON body.
func (h *hqRaw) do(t *testing.T, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	return sendJSON(t, h.router, token, method, path, body)
}

func records(c string) string { return "/api/collections/" + c + "/records" }

// TestHQAuditList: each raw write head office's door lets through — a city created and
// renamed, a user renamed, a session ended — is a row of HQ's audit list, written in the
// write's own transaction (who, which record, which fields); a refused write (a recall, the
// audit list itself) leaves none. GET /api/hq/audit lists the rows newest first to an
// hq_admin; an hq_viewer is refused 403, a guest 401.
func TestHQAuditList(t *testing.T) {
	h := newHQRaw(t, true)
	user := func(email, role string) (*core.Record, string) {
		rec, err := hq.CreateUser(h.app, hq.NewUser{Email: email, Password: "long-secret-1", Role: role})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := rec.NewAuthToken()
		if err != nil {
			t.Fatal(err)
		}
		return rec, tok
	}
	_, admin := user("admin@hq.example", hq.RoleAdmin)
	viewerRec, viewer := user("viewer@hq.example", hq.RoleViewer)
	other, _ := user("other@hq.example", hq.RoleViewer)
	city, recallId, session := h.seed(t, hq.Cities), h.seed(t, recall.Recalls), h.seed(t, hq.Sessions)
	auditRows := func() []audit.Entry {
		list, err := audit.List(h.app, hq.AuditLog)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}

	type write struct {
		name, method, path string
		body               any
		status             int
		message            string   // a refusal's
		fields             []string // an allowed write's row (nil: none)
	}
	writes := []write{
		{"a city renamed", http.MethodPatch, records(hq.Cities) + "/" + city, map[string]any{hq.CityName: "Lyon", hq.CityCurrency: "EUR"}, 200, "", []string{hq.CityName}},
		{"a city added", http.MethodPost, records(hq.Cities), map[string]any{hq.CityName: "Berlin", hq.CityTimeZone: "Europe/Berlin", hq.CityCurrency: "EUR",
			hq.CityReplicaURL: "file:///srv/berlin", hq.CityAddress: "https://berlin.example.com", hq.CityToken: "hq-token-b"}, 200, "",
			[]string{hq.CityAddress, hq.CityCurrency, hq.CityToken, hq.CityName, hq.CityReplicaURL, hq.CityTimeZone}},
		{"a user renamed and made admin", http.MethodPatch, records(hq.Users) + "/" + other.Id, map[string]any{hq.UserName: "Olga", hq.UserRole: hq.RoleAdmin}, 200, "", []string{hq.UserName, hq.UserRole}},
		{"a save that changes nothing", http.MethodPatch, records(hq.Users) + "/" + viewerRec.Id, map[string]any{hq.UserRole: hq.RoleViewer}, 200, "", nil},
		{"a session ended", http.MethodDelete, records(hq.Sessions) + "/" + session, nil, 204, "", []string{}},
		{"a recall changed", http.MethodPatch, records(recall.Recalls) + "/" + recallId, map[string]any{recall.RecallValue: "L9"}, 403, hooks.MsgHQRecalls, nil},
		{"a recall deleted", http.MethodDelete, records(recall.Recalls) + "/" + recallId, nil, 403, hooks.MsgHQRecalls, nil},
		{"an audit row made", http.MethodPost, records(hq.AuditLog), map[string]any{"action": "update", "collection": hq.Cities}, 403, hooks.MsgAuditLog, nil},
	}
	allowed := 0
	for _, w := range writes {
		before := auditRows()
		status, body := h.do(t, h.root, w.method, w.path, w.body)
		if msg, _ := body["message"].(string); status != w.status || msg != w.message {
			t.Errorf("%s: %s %s = %d %q, want %d %q", w.name, w.method, w.path, status, msg, w.status, w.message)
			continue
		}
		after := auditRows()
		if w.fields == nil {
			if len(after) != len(before) {
				t.Errorf("%s: the audit list went from %d to %d rows, want none added", w.name, len(before), len(after))
			}
			continue
		}
		allowed++
		id, _ := body["id"].(string)
		if id == "" {
			id = w.path[strings.LastIndex(w.path, "/")+1:]
		}
		col := strings.Split(strings.TrimPrefix(w.path, "/api/collections/"), "/")[0]
		action := map[string]string{http.MethodPost: "create", http.MethodPatch: "update", http.MethodDelete: "delete"}[w.method]
		want := slices.Sorted(slices.Values(w.fields))
		if len(after) != len(before)+1 || after[0].RecordId != id || after[0].Collection != col || after[0].Action != action ||
			after[0].Actor != h.email || after[0].ActorKind != core.CollectionNameSuperusers || !slices.Equal(after[0].Fields, want) {
			got := audit.Entry{}
			if len(after) > 0 {
				got = after[0]
			}
			t.Errorf("%s: %d → %d rows, the newest %+v, want %s %s %s by %s with fields %v", w.name, len(before), len(after), got, action, col, id, h.email, want)
		}
	}

	// the audit list's own rows are refused to raw writes, and stay as written
	rows := auditRows()
	if len(rows) != allowed || allowed != 4 {
		t.Fatalf("the audit list holds %d rows, want the 4 allowed writes that changed something (%d)", len(rows), allowed)
	}
	for _, method := range []string{http.MethodPatch, http.MethodDelete} {
		status, body := h.do(t, h.root, method, records(hq.AuditLog)+"/"+rows[0].Id, map[string]any{"actor": "someone@else.example"})
		if status != 403 || body["message"] != hooks.MsgAuditLog {
			t.Errorf("%s of an audit row = %d %v, want 403 %q", method, status, body, hooks.MsgAuditLog)
		}
	}
	if again := auditRows(); !slices.EqualFunc(again, rows, func(a, b audit.Entry) bool { return a.Id == b.Id && a.Actor == b.Actor }) {
		t.Errorf("the audit list changed under refused writes: %+v → %+v", rows, again)
	}

	// the list route by caller: the newest first, for an hq_admin only
	for _, c := range []struct {
		name, token string
		status      int
	}{{"hq_admin", admin, 200}, {"hq_viewer", viewer, 403}, {"guest", "", 401}} {
		status, body := h.do(t, c.token, http.MethodGet, "/api/hq/audit", nil)
		if status != c.status {
			t.Errorf("GET /api/hq/audit as %s = %d %v, want %d", c.name, status, body, c.status)
			continue
		}
		if status != 200 {
			if _, listed := body["entries"]; listed {
				t.Errorf("GET /api/hq/audit as %s answered the entries", c.name)
			}
			continue
		}
		entries, _ := body["entries"].([]any)
		if len(entries) != len(rows) {
			t.Fatalf("GET /api/hq/audit as %s listed %d rows, want %d", c.name, len(entries), len(rows))
		}
		for i, e := range entries {
			m, _ := e.(map[string]any)
			if m["id"] != rows[i].Id || m["actor"] != h.email || m["collection"] != rows[i].Collection || m["recordId"] != rows[i].RecordId {
				t.Errorf("entry %d = %v, want %+v (newest first)", i, m, rows[i])
			}
		}
		if first, _ := entries[0].(map[string]any); first["action"] != "delete" || first["collection"] != hq.Sessions {
			t.Errorf("the newest entry is %v, want the session ended", first)
		}
	}
}
