package hooks_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/hooks"
	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/earnings"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
	"swapbay/modules/packs"
	"swapbay/modules/system"
	"swapbay/modules/users"
)

// rawApp is a test app holding at least one row of every SwapBay collection, made by the app's
// own services where they exist (a pickup, a charging session, minted packs and a recall, pay
// rates, a photo), plus a superuser and the router /_/ would talk to.
type rawApp struct {
	app     *tests.TestApp
	router  http.Handler
	token   string // the superuser's
	email   string
	master  *core.Record
	driver  *core.Record // holds batteries
	pending *core.Record
}

func newRawApp(t *testing.T) *rawApp {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	r := &rawApp{app: app, email: "root@example.com"}
	c := testkit.SeedCallers(t, app)
	r.master, r.pending = c.Master, c.Pending
	if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, 20, 6, 0, 26); err != nil {
		t.Fatal(err)
	}
	r.driver, _ = ledgertest.PickupBy(t, app, 3)
	if _, _, err := charging.Start(app, inventory.Op{Actor: c.Admin}, "4A", 2); err != nil {
		t.Fatal(err)
	}
	now := clock.Now()
	if _, err := packs.Mint(app, 3, packs.Specs{Model: "Nova", Lot: "L1", Manufacturer: "Voltcell"}, c.Admin.Id, now); err != nil {
		t.Fatal(err)
	}
	if _, err := packs.Recall(app, packs.RecallForm{By: "lot", Value: "L1", Reason: "supplier notice"}, c.Admin.Id, now); err != nil {
		t.Fatal(err)
	}
	if _, err := earnings.SetRates(app, c.Admin, earnings.Rates{DeadBattery: 125, Move: 50, Recover: 75}, now); err != nil {
		t.Fatal(err)
	}
	testkit.ClaimedPhoto(t, app, c.Driver.Id)
	testkit.Token(t, c.Driver) // an auth session
	// the rest as the services leave them: raw rows are enough for the door
	for _, name := range []string{schema.Agreements, schema.IdempotencyKeys, schema.TaskAdjustments, schema.ReplicationSettings, schema.AuditLog, schema.PackTransfers} {
		if n, _ := app.CountRecords(name); n > 0 {
			continue
		}
		col, err := app.FindCollectionByNameOrId(name)
		if err != nil {
			t.Fatal(err)
		}
		rec := core.NewRecord(col)
		if name == schema.AuditLog {
			rec.Set(schema.AuditAction, schema.AuditActionCreate)
			rec.Set(schema.AuditCollection, schema.Users)
		}
		if err := app.SaveNoValidate(rec); err != nil {
			t.Fatalf("seed %s: %v", name, err)
		}
	}
	r.token = testkit.SuperuserToken(t, app, r.email)
	r.router = testkit.Handler(t, app)
	return r
}

// do sends a record API request as the superuser, without an Idempotency-Key (as /_/ does).
func (r *rawApp) do(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	return sendJSON(t, r.router, r.token, method, path, body)
}

// sendJSON sends method path body to router as token ("" = a guest), without an
// Idempotency-Key (as /_/ does), and answers the status and the JSON body.
func sendJSON(t *testing.T, router http.Handler, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	if body != nil {
		_ = json.NewEncoder(&buf).Encode(body)
	}
	req := httptest.NewRequest(method, path, &buf)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	req.Header.Set(testkit.NoKey, "1")
	rec := httptest.NewRecorder()
	router.ServeHTTP(rec, req)
	out := map[string]any{}
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

// ledgerHash hashes what no raw write may change: every row of the ledger's tables and the
// app's evidence, and the packs' serial, state, place and last sighting.
func ledgerHash(t *testing.T, app core.App) string {
	t.Helper()
	h := sha256.New()
	queries := []string{
		"SELECT id, key, kind, balance FROM accounts ORDER BY id",
		"SELECT * FROM entries ORDER BY id",
		"SELECT * FROM movements ORDER BY id",
		"SELECT * FROM charging_sessions ORDER BY id",
		"SELECT id, serial, state, stateBefore, location, lastSeenAt, lastSeenBy, lastSeenMovement, chargeCount, inServiceSince FROM packs ORDER BY id",
		"SELECT * FROM pack_events ORDER BY id",
		"SELECT * FROM pack_recalls ORDER BY id",
		"SELECT * FROM pack_transfers ORDER BY id",
		"SELECT * FROM idempotency_keys ORDER BY id",
		"SELECT * FROM agreements ORDER BY id",
		"SELECT * FROM pay_rates ORDER BY id",
		"SELECT * FROM task_adjustments ORDER BY id",
		"SELECT * FROM replication_settings ORDER BY id",
	}
	for _, q := range queries {
		rows, err := app.DB().NewQuery(q).Rows()
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			m := dbx.NullStringMap{}
			if err := rows.ScanMap(m); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(m)
			h.Write(b)
		}
		rows.Close()
		h.Write([]byte(q))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// firstId answers the id of a row of collection (the test seeds one of each).
func firstId(t *testing.T, app core.App, collection string, where string) string {
	t.Helper()
	var id string
	q := "SELECT id FROM " + collection
	if where != "" {
		q += " WHERE " + where
	}
	if err := app.DB().NewQuery(q + " ORDER BY id LIMIT 1").Row(&id); err != nil {
		t.Fatalf("no %s row (%s): %v", collection, where, err)
	}
	return id
}

// TestRawDataDoor is issue 43's proof: a superuser tries create, update and delete on every
// collection through the record API (the /_/ dashboard's door). Every write to the ledger or
// the app's evidence is refused with its message and changes nothing; every allowed write is
// applied under its collection's invariant hooks and recorded with its actor on the audit list;
// the recalculation then finds 0 corrections.
func TestRawDataDoor(t *testing.T) {
	r := newRawApp(t)
	app := r.app

	// every collection is one the door knows, or PocketBase's own
	cols, err := app.FindAllCollections()
	if err != nil {
		t.Fatal(err)
	}
	known := hooks.Collections()
	for _, c := range cols {
		if !c.System && !strings.HasPrefix(c.Name, "_") && !slices.Contains(known, c.Name) {
			t.Errorf("collection %s is not in hooks' doors: say whether the record API may write it", c.Name)
		}
	}

	// a collection a superuser made in /_/ is theirs: its writes pass, recorded
	scratch := core.NewBaseCollection("scratch_notes")
	scratch.Fields.Add(&core.TextField{Name: "text"})
	if err := app.Save(scratch); err != nil {
		t.Fatal(err)
	}

	before := ledgerHash(t, app)
	packId := firstId(t, app, schema.Packs, "")
	photoId := firstId(t, app, schema.Photos, "")
	sessionId := firstId(t, app, schema.AuthSessions, "")
	sequenceId := firstId(t, app, schema.Settings, "key = 'pack_sequence'")
	activeTerms := firstId(t, app, schema.TermsVersions, "isActive = TRUE")

	type row struct {
		name       string
		method     string
		collection string
		id         string // "" for a create
		body       map[string]any
		status     int
		message    string // the refusal's message ("" when allowed)
		audited    []string
	}
	refused := func(c, msg string) []row {
		id := firstId(t, app, c, "")
		return []row{
			{c + " create", http.MethodPost, c, "", map[string]any{}, 403, msg, nil},
			{c + " update", http.MethodPatch, c, id, map[string]any{"created": "2020-01-01 00:00:00.000Z", "id": id}, 403, msg, nil},
			{c + " delete", http.MethodDelete, c, id, nil, 403, msg, nil},
		}
	}
	var rows []row
	rows = append(rows, refused(schema.Movements, hooks.MsgMovements)...)
	rows = append(rows, refused(schema.Entries, hooks.MsgMovements)...)
	rows = append(rows, refused(schema.Accounts, hooks.MsgAccounts)...)
	rows = append(rows, refused(schema.ChargingSessions, hooks.MsgSessions)...)
	rows = append(rows, refused(schema.PackEvents, hooks.MsgPackEvents)...)
	rows = append(rows, refused(schema.PackRecalls, hooks.MsgRecalls)...)
	rows = append(rows, refused(schema.PackTransfers, hooks.MsgTransfers)...)
	rows = append(rows, refused(schema.IdempotencyKeys, hooks.MsgIdempotency)...)
	rows = append(rows, refused(schema.Agreements, hooks.MsgAgreements)...)
	rows = append(rows, refused(schema.PayRates, hooks.MsgPayRates)...)
	rows = append(rows, refused(schema.TaskAdjustments, hooks.MsgAdjustments)...)
	rows = append(rows, refused(schema.ReplicationSettings, hooks.MsgReplication)...)
	rows = append(rows, refused(schema.AuditLog, hooks.MsgAuditLog)...)
	rows = append(rows,
		// the three: a balance, a movement's quantity, a quarantined pack back in service
		row{"a balance", http.MethodPatch, schema.Accounts, firstId(t, app, schema.Accounts, "key = 'ready'"), map[string]any{"balance": 999}, 403, hooks.MsgAccounts, nil},
		row{"a movement's quantity", http.MethodPatch, schema.Movements, firstId(t, app, schema.Movements, "type = 'pickup'"), map[string]any{"quantity": 9}, 403, hooks.MsgMovements, nil},
		row{"a pack's state", http.MethodPatch, schema.Packs, packId, map[string]any{"state": schema.PackStateInService}, 403, hooks.MsgPackState, nil},
		row{"a pack's place", http.MethodPatch, schema.Packs, packId, map[string]any{"location": firstId(t, app, schema.Accounts, "key = 'ready'")}, 403, hooks.MsgPackState, nil},
		row{"a pack's serial", http.MethodPatch, schema.Packs, packId, map[string]any{"serial": "FAKE-1"}, 403, hooks.MsgPackState, nil},
		row{"a pack created", http.MethodPost, schema.Packs, "", map[string]any{"serial": "FAKE-2"}, 403, hooks.MsgPackCreate, nil},
		row{"a pack deleted", http.MethodDelete, schema.Packs, packId, nil, 403, hooks.MsgPackDelete, nil},
		row{"a pack's lot (descriptive)", http.MethodPatch, schema.Packs, packId, map[string]any{"lot": "L1-typo-fixed", "model": "Nova 48V"}, 200, "", []string{schema.PackLot, schema.PackModel}},
		row{"a photo's file fields", http.MethodPatch, schema.Photos, photoId, map[string]any{"sha256": "00"}, 403, hooks.MsgPhotos, nil},
		row{"a photo deleted", http.MethodDelete, schema.Photos, photoId, nil, 403, hooks.MsgPhotos, nil},
		row{"a photo created", http.MethodPost, schema.Photos, "", map[string]any{}, 403, hooks.MsgPhotos, nil},
		row{"a photo's notes", http.MethodPatch, schema.Photos, photoId, map[string]any{"notes": "front wheel"}, 200, "", []string{schema.PhotoNotes}},
		row{"a session minted", http.MethodPost, schema.AuthSessions, "", map[string]any{"user": r.driver.Id}, 403, hooks.MsgAuthSessions, nil},
		row{"a session ended", http.MethodDelete, schema.AuthSessions, sessionId, nil, 204, "", []string{}},

		row{"a superuser's own collection", http.MethodPost, "scratch_notes", "", map[string]any{"text": "hello"}, 200, "", []string{"text"}},

		// plain data, under its invariant hooks
		row{"a user's first name", http.MethodPatch, schema.Users, r.pending.Id, map[string]any{"firstName": "Renamed"}, 200, "", []string{schema.UserFirstName}},
		row{"a save that changes no field (an unknown one, an equal value)", http.MethodPatch, schema.Users, r.pending.Id, map[string]any{"phone": "+15550001111", "firstName": "Renamed"}, 200, "", nil},
		row{"a role outside the values", http.MethodPatch, schema.Users, r.pending.Id, map[string]any{"role": "owner"}, 400, "", nil},
		row{"the last master demoted", http.MethodPatch, schema.Users, r.master.Id, map[string]any{"role": roles.Admin}, 409, users.ErrLastMasterAdmin.Error(), nil},
		row{"the last master deleted", http.MethodDelete, schema.Users, r.master.Id, nil, 409, users.ErrLastMasterAdmin.Error(), nil},
		row{"a holder deleted", http.MethodDelete, schema.Users, r.driver.Id, nil, 409, inventory.MsgHoldsBatteries, nil},
		row{"a user created", http.MethodPost, schema.Users, "", map[string]any{"email": "raw@example.com", "password": "secret123", "passwordConfirm": "secret123", "firstName": "Raw", "lastName": "User"}, 200, "",
			[]string{"email", "firstName", "isApproved", "lastName", "password", "payReductionPercentage", "role", "tokenKey"}},
		row{"a prompt", http.MethodPost, schema.Settings, "", map[string]any{"key": schema.SettingDropoffPrompt, "value": "Count twice"}, 200, "", []string{schema.SettingKey, schema.SettingValue}},
		row{"an unknown setting", http.MethodPost, schema.Settings, "", map[string]any{"key": "colour", "value": "red"}, 400, system.MsgUnknownSetting + "colour", nil},
		row{"a worn mode neither flag nor refuse", http.MethodPost, schema.Settings, "", map[string]any{"key": schema.SettingPackWornMode, "value": "sometimes"}, 400, journal.MsgWornMode, nil},
		row{"the worn mode refuse", http.MethodPost, schema.Settings, "", map[string]any{"key": schema.SettingPackWornMode, "value": "refuse"}, 200, "", []string{schema.SettingKey, schema.SettingValue}},
		row{"a fleet size that is not a number", http.MethodPatch, schema.Settings, firstId(t, app, schema.Settings, "key = 'total_batteries'"), map[string]any{"value": "lots"}, 400, "", nil},
		row{"the pack sequence", http.MethodPatch, schema.Settings, sequenceId, map[string]any{"value": "1"}, 403, hooks.MsgSettingNotEditable, nil},
		row{"the pack sequence deleted", http.MethodDelete, schema.Settings, sequenceId, nil, 403, hooks.MsgSettingNotEditable, nil},
		row{"a terms draft", http.MethodPost, schema.TermsVersions, "", map[string]any{"version": "raw-1", "title": "Raw", "content": "<p>ok</p><script>alert(1)</script>", "effectiveDate": "2026-01-01"}, 200, "",
			[]string{schema.TermsContent, schema.TermsEffectiveDate, schema.TermsTitle, schema.TermsVersion}},
		row{"a second active terms version", http.MethodPost, schema.TermsVersions, "", map[string]any{"version": "raw-2", "title": "Raw", "content": "<p>x</p>", "effectiveDate": "2026-01-01", "isActive": true}, 409, hooks.MsgTermsActivate, nil},
		row{"the active terms turned off", http.MethodPatch, schema.TermsVersions, activeTerms, map[string]any{"isActive": false}, 409, hooks.MsgTermsActivate, nil},
		row{"the active terms deleted", http.MethodDelete, schema.TermsVersions, activeTerms, nil, 409, hooks.MsgTermsDeleteActive, nil},
	)

	for _, tc := range rows {
		path := "/api/collections/" + tc.collection + "/records"
		if tc.id != "" {
			path += "/" + tc.id
		}
		status, body := r.do(t, tc.method, path, tc.body)
		if status != tc.status {
			t.Errorf("%s: %s %s → %d, want %d: %v", tc.name, tc.method, path, status, tc.status, body)
			continue
		}
		if tc.message != "" && body["message"] != tc.message {
			t.Errorf("%s: message %q, want %q", tc.name, body["message"], tc.message)
		}
		if tc.status == 403 && body["code"] != apierr.CodeRawWriteRefused {
			t.Errorf("%s: code %v, want %s", tc.name, body["code"], apierr.CodeRawWriteRefused)
		}
		if tc.audited == nil {
			continue
		}
		id := tc.id
		if id == "" {
			id, _ = body["id"].(string)
		}
		entries, err := system.ListAudit(app)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) == 0 || entries[0].RecordId != id || entries[0].Collection != tc.collection || entries[0].Actor != r.email ||
			entries[0].ActorKind != core.CollectionNameSuperusers || !slices.Equal(entries[0].Fields, tc.audited) {
			got := system.AuditEntry{}
			if len(entries) > 0 {
				got = entries[0]
			}
			t.Errorf("%s: audit list's newest %+v, want %s %s by %s with fields %v", tc.name, got, tc.collection, id, r.email, tc.audited)
		}
	}

	// a refused write left nothing of itself on the audit list
	entries, _ := system.ListAudit(app)
	mine := 0
	for _, e := range entries {
		if e.Actor == r.email {
			mine++
		}
	}
	if mine != 9 {
		t.Errorf("audit list holds %d rows by the superuser, want the 9 allowed writes that changed something", mine)
	}
	if after := ledgerHash(t, app); after != before {
		t.Error("the ledger's tables, the packs' state and place or the app's evidence changed")
	}
	draft, err := app.FindFirstRecordByData(schema.TermsVersions, schema.TermsVersion, "raw-1")
	if err != nil || strings.Contains(draft.GetString(schema.TermsContent), "script") {
		t.Errorf("a raw terms draft is sanitised: %v %q", err, draft.GetString(schema.TermsContent))
	}
	res, err := system.Recalculate(app)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Corrections) != 0 || len(res.PackCorrections) != 0 {
		t.Fatalf("the recalculation found corrections: %v %v", res.Corrections, res.PackCorrections)
	}
	ledgertest.AssertSound(t, app)
}

// TestRawCollectionsAndRestore: SwapBay's collections change only through its migrations
// (the dashboard's collection editor, delete, truncate and import are refused), and
// PocketBase's own backup restore is refused with a pointer to `swapbay restore`.
func TestRawCollectionsAndRestore(t *testing.T) {
	r := newRawApp(t)
	before := ledgerHash(t, r.app)
	for _, tc := range []struct {
		name, method, path string
		body               any
		code               string
	}{
		{"a field added", http.MethodPatch, "/api/collections/movements", map[string]any{"listRule": ""}, apierr.CodeRawWriteRefused},
		{"a collection deleted", http.MethodDelete, "/api/collections/pack_events", nil, apierr.CodeRawWriteRefused},
		{"a collection truncated", http.MethodDelete, "/api/collections/entries/truncate", nil, apierr.CodeRawWriteRefused},
		{"an import over the ledger", http.MethodPut, "/api/collections/import", map[string]any{"collections": []any{map[string]any{"name": "accounts", "type": "base"}}}, apierr.CodeRawWriteRefused},
		{"PocketBase's restore", http.MethodPost, "/api/backups/any.zip/restore", nil, apierr.CodeRestoreRefused},
	} {
		status, body := r.do(t, tc.method, tc.path, tc.body)
		if status != http.StatusForbidden || body["code"] != tc.code {
			t.Errorf("%s: %d %v, want 403 %s", tc.name, status, body, tc.code)
		}
	}
	if err := r.app.RestoreBackup(t.Context(), "any.zip"); err == nil || !strings.Contains(err.Error(), "swapbay restore") {
		t.Errorf("app.RestoreBackup: %v, want the refusal naming swapbay restore", err)
	}
	if ledgerHash(t, r.app) != before {
		t.Error("a refused schema write changed the ledger")
	}
}
