package headoffice_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/headoffice"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

const tokensURL = "/api/admin/head-office/tokens"

// world is a city with 6 packs in the bay (lot L1: packs 1–4), its callers and a server.
type world struct {
	app    core.App
	srv    string
	client *http.Client
	c      testkit.Callers
	tokens map[string]string // user id → session token
}

func newWorld(t *testing.T) *world {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, 6, 0, 0, 6); err != nil {
		t.Fatal(err)
	}
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.MintPacks(t, app, 6, ready.Id)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
	if _, err := app.DB().NewQuery("UPDATE packs SET lot = 'L1' WHERE serial <= 'SWB-000004'").Execute(); err != nil {
		t.Fatal(err)
	}
	srv := testkit.Serve(t, app)
	w := &world{app: app, srv: srv.URL, client: srv.Client(), c: c, tokens: map[string]string{}}
	for _, u := range []*core.Record{c.Driver, c.Liaison, c.Admin, c.Master} {
		w.tokens[u.Id] = testkit.TokenIn(t, app, u)
	}
	return w
}

// call sends method url with the Authorization header auth (a session or head-office token)
// and an optional Idempotency-Key; it answers the status, the decoded body and the headers.
func (w *world) call(t *testing.T, auth, method, url, key, body string) (int, map[string]any, http.Header) {
	t.Helper()
	h := map[string]string{}
	if key != "" {
		h["Idempotency-Key"] = key
	}
	status, raw, header := ledgertest.Do(t, w.client, method, w.srv+url, auth, body, h)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return status, out, header
}

// issue has the master admin issue a token named name and returns it.
func (w *world) issue(t *testing.T, name string) string {
	t.Helper()
	status, out, _ := w.call(t, w.tokens[w.c.Master.Id], http.MethodPost, tokensURL, "issue-"+name, fmt.Sprintf(`{"name":%q}`, name))
	if status != http.StatusOK {
		t.Fatalf("issue %q: %d %v", name, status, out)
	}
	token, _ := out["token"].(string)
	if !strings.HasPrefix(token, headoffice.Prefix) || out["message"] != headoffice.MsgIssued {
		t.Fatalf("issue %q: %v", name, out)
	}
	return token
}

func quarantined(t *testing.T, app core.App) int {
	t.Helper()
	var n int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM packs WHERE state = 'quarantined'").Row(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func auditRows(t *testing.T, app core.App, kind string) []system.AuditEntry {
	t.Helper()
	list, err := system.ListAudit(app)
	if err != nil {
		t.Fatal(err)
	}
	var out []system.AuditEntry
	for _, e := range list {
		if e.ActorKind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Only a master admin lists, issues and revokes tokens.
func TestTokenRoutesAreMasterOnly(t *testing.T) {
	w := newWorld(t)
	want := map[string]int{"": 401, w.c.Driver.Id: 403, w.c.Liaison.Id: 403, w.c.Admin.Id: 403, w.c.Master.Id: 200}
	for who, status := range want {
		if got, out, _ := w.call(t, w.tokens[who], http.MethodGet, tokensURL, "", ""); got != status {
			t.Errorf("list as %q: %d %v, want %d", who, got, out, status)
		}
		got, _, _ := w.call(t, w.tokens[who], http.MethodPost, tokensURL, "k-"+who, `{"name":"HQ"}`)
		if got != status {
			t.Errorf("issue as %q: %d, want %d", who, got, status)
		}
	}
}

// A token reads packs and recalls and starts a recall as its issuer, and nothing else; a keyed
// recall sent twice quarantines once; the list never shows a token; a revoked token is refused
// at once; a token whose issuer is no longer a master admin is refused; head office's uses and
// the token's issue and revocation are on the audit list.
func TestTokenOpensOnlyItsScope(t *testing.T) {
	w := newWorld(t)
	token := w.issue(t, "Head office, Berlin")
	bearer := "Bearer " + token

	for _, r := range []struct{ method, url string }{
		{http.MethodGet, "/api/packs"},
		{http.MethodGet, "/api/packs?lot=L1"},
		{http.MethodGet, "/api/packs/lookup?serials=SWB-000001"},
		{http.MethodGet, "/api/packs/SWB-000001"},
		{http.MethodGet, "/api/packs/SWB-000001/passport"},
		{http.MethodGet, "/api/admin/packs/recall-preview?by=lot&value=L1"},
		{http.MethodGet, "/api/admin/packs/recalls"},
	} {
		if status, out, _ := w.call(t, bearer, r.method, r.url, "", ""); status != http.StatusOK {
			t.Errorf("%s %s: %d %v", r.method, r.url, status, out)
		}
	}
	for _, r := range []struct{ method, url, body string }{
		{http.MethodPost, "/api/admin/packs/mint", `{"count":1}`},
		{http.MethodPut, "/api/admin/packs/SWB-000001/state", `{"state":"retired","reason":"x"}`},
		{http.MethodPost, "/api/packs/SWB-000001/damage", `{"note":"x"}`},
		{http.MethodGet, "/api/admin/users", ""},
		{http.MethodGet, "/api/state", ""},
		{http.MethodGet, tokensURL, ""},
		{http.MethodPost, tokensURL, `{"name":"another"}`},
		{http.MethodPost, "/api/admin/emergency-override", `{}`},
		{http.MethodGet, "/api/collections/users/records", ""},
		{http.MethodDelete, "/api/collections/packs/records/x", ""},
	} {
		status, out, _ := w.call(t, bearer, r.method, r.url, "k", r.body)
		if status != http.StatusForbidden || out["message"] != headoffice.MsgOutOfScope {
			t.Errorf("%s %s: %d %v, want 403 %q", r.method, r.url, status, out, headoffice.MsgOutOfScope)
		}
	}

	// a recall keyed by head office, sent twice (a lost answer): one recall, four packs once
	body := `{"by":"lot","value":"L1","reason":"Supplier recall of lot L1 (HQ)"}`
	status, first, _ := w.call(t, bearer, http.MethodPost, "/api/admin/packs/recall", "hq-recall-7-city-2", body)
	if status != http.StatusOK || quarantined(t, w.app) != 4 {
		t.Fatalf("recall: %d %v, %d quarantined", status, first, quarantined(t, w.app))
	}
	status, again, header := w.call(t, bearer, http.MethodPost, "/api/admin/packs/recall", "hq-recall-7-city-2", body)
	if status != http.StatusOK || header.Get("Idempotent-Replayed") == "" || quarantined(t, w.app) != 4 {
		t.Fatalf("replayed recall: %d %v %v, %d quarantined", status, again, header, quarantined(t, w.app))
	}
	var recalls int
	if err := w.app.DB().NewQuery("SELECT COUNT(*) FROM pack_recalls").Row(&recalls); err != nil || recalls != 1 {
		t.Fatalf("recalls: %d %v", recalls, err)
	}

	// the list names the token, never shows it
	status, list, _ := w.call(t, w.tokens[w.c.Master.Id], http.MethodGet, tokensURL, "", "")
	raw, _ := json.Marshal(list)
	if status != http.StatusOK || strings.Contains(string(raw), token) || strings.Contains(string(raw), headoffice.Hash(token)) ||
		!strings.Contains(string(raw), "Head office, Berlin") || !strings.Contains(string(raw), token[len(token)-4:]) {
		t.Fatalf("list: %d %s", status, raw)
	}
	tokens, _ := list["tokens"].([]any)
	info, _ := tokens[0].(map[string]any)
	if info["lastUsedAt"] == nil {
		t.Errorf("lastUsedAt not set after use: %v", info)
	}

	// what head office did is on the audit list: the recall (once), the reads
	ho := auditRows(t, w.app, schema.AuditActorHeadOffice)
	var creates, reads int
	for _, e := range ho {
		switch e.Action {
		case schema.AuditActionCreate:
			creates++
		case schema.AuditActionRead:
			reads++
		}
		if e.Actor != "Head office: Head office, Berlin" {
			t.Errorf("audit actor %q", e.Actor)
		}
	}
	if creates != 1 || reads < 5 {
		t.Errorf("head office audit rows: %d creates, %d reads: %+v", creates, reads, ho)
	}

	// revoked: refused at once, and the list says who revoked it
	id, _ := info["id"].(string)
	status, out, _ := w.call(t, w.tokens[w.c.Master.Id], http.MethodPost, tokensURL+"/"+id+"/revoke", "revoke-1", `{}`)
	if status != http.StatusOK || out["message"] != headoffice.MsgRevoked {
		t.Fatalf("revoke: %d %v", status, out)
	}
	if status, out, _ := w.call(t, bearer, http.MethodGet, "/api/packs", "", ""); status != http.StatusUnauthorized || out["message"] != headoffice.MsgInvalid {
		t.Fatalf("revoked token: %d %v", status, out)
	}
	if status, _, _ := w.call(t, w.tokens[w.c.Master.Id], http.MethodPost, tokensURL+"/"+id+"/revoke", "revoke-2", `{}`); status != http.StatusConflict {
		t.Errorf("revoked twice: %d, want 409", status)
	}
	if status, _, _ := w.call(t, w.tokens[w.c.Master.Id], http.MethodPost, tokensURL+"/nosuchtoken1234/revoke", "revoke-3", `{}`); status != http.StatusNotFound {
		t.Errorf("unknown token revoked: %d, want 404", status)
	}
	var issued, revoked int
	for _, e := range auditRows(t, w.app, schema.Users) {
		if e.Collection == schema.HeadOfficeTokens && e.Action == schema.AuditActionCreate {
			issued++
		}
		if e.Collection == schema.HeadOfficeTokens && e.Action == schema.AuditActionUpdate {
			revoked++
		}
	}
	if issued != 1 || revoked != 1 {
		t.Errorf("token audit rows: %d issued, %d revoked", issued, revoked)
	}

	// a made-up token, a session token's look-alike, and a token whose issuer was demoted
	for _, auth := range []string{"Bearer " + headoffice.Prefix + "nope", "Bearer " + headoffice.Prefix + strings.Repeat("a", 300)} {
		if status, _, _ := w.call(t, auth, http.MethodGet, "/api/packs", "", ""); status != http.StatusUnauthorized {
			t.Errorf("%.30s…: %d, want 401", auth, status)
		}
	}
	other := testkit.CreateUser(t, w.app, roles.MasterAdmin, roles.Approved)
	status, out, _ = w.call(t, testkit.TokenIn(t, w.app, other), http.MethodPost, tokensURL, "issue-other", `{"name":"Head office, spare"}`)
	second, _ := out["token"].(string)
	if status != http.StatusOK || second == "" {
		t.Fatalf("second master issues: %d %v", status, out)
	}
	other.Set(schema.UserRole, roles.Admin)
	if err := w.app.Save(other); err != nil {
		t.Fatal(err)
	}
	if status, out, _ := w.call(t, "Bearer "+second, http.MethodGet, "/api/packs", "", ""); status != http.StatusForbidden || out["message"] != headoffice.MsgIssuerCannot {
		t.Errorf("demoted issuer's token: %d %v", status, out)
	}
}

// Bad names and too many tokens are refused with a message and issue nothing.
func TestIssueRefusals(t *testing.T) {
	w := newWorld(t)
	master := w.tokens[w.c.Master.Id]
	for i, body := range []string{`{}`, `{"name":""}`, `{"name":"   "}`, `{"name":5}`, `{"name":null}`,
		fmt.Sprintf(`{"name":%q}`, strings.Repeat("x", schema.MaxHeadOfficeTokenName+1)), `[1]`, `not json`} {
		status, out, _ := w.call(t, master, http.MethodPost, tokensURL, fmt.Sprintf("bad-%d", i), body)
		if status != http.StatusBadRequest || out["message"] == "" {
			t.Errorf("%s: %d %v, want 400 with a message", body, status, out)
		}
	}
	for i := range headoffice.MaxActive {
		w.issue(t, fmt.Sprintf("HQ %d", i))
	}
	status, out, _ := w.call(t, master, http.MethodPost, tokensURL, "one-too-many", `{"name":"one too many"}`)
	if status != http.StatusConflict || out["message"] != fmt.Sprintf(headoffice.MsgTooManyTokens, headoffice.MaxActive) {
		t.Errorf("one too many: %d %v", status, out)
	}
	var n int
	if err := w.app.DB().NewQuery("SELECT COUNT(*) FROM head_office_tokens").Row(&n); err != nil || n != headoffice.MaxActive {
		t.Errorf("tokens stored: %d %v", n, err)
	}
}
