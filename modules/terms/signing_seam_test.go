package terms_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
)

// Terms that change while someone is signing: the signer read one version (its contentHash from
// GET /api/terms-content/active) and an admin activated another, or edited the active one,
// before they signed. The signature names the terms it was given for: a re-sign or a
// registration with a hash other than the active content's is refused 409 in words and records
// nothing (no agreement, the re-sign still due, no account); the hash of what is active now is
// recorded; a client that sends no hash signs the active terms as before.
func TestSignatureOfTermsThatChangedWhileSigning(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	h := testkit.Handler(t, app)
	n := 0
	do := func(who, method, url string, payload any) (int, map[string]any) {
		t.Helper()
		b, _ := json.Marshal(payload)
		req := httptest.NewRequest(method, url, strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
		if who != "" {
			for k, v := range testkit.Headers(t, c.Pick(who)) {
				req.Header.Set(k, v)
			}
		}
		n++
		req.Header.Set("Idempotency-Key", "terms-seam-"+strings.Repeat("k", n))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var out map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		return rec.Code, out
	}
	active := func() string {
		t.Helper()
		status, out := do("", http.MethodGet, "/api/terms-content/active", nil)
		hash, _ := out["contentHash"].(string)
		if status != http.StatusOK || hash != terms.Hash(out["content"].(string)) {
			t.Fatalf("active terms = %d %v; want its contentHash", status, out)
		}
		return hash
	}
	agreements := func() int {
		t.Helper()
		var k int
		if err := app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.Agreements).Row(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}
	sig := "data:image/png;base64," + base64.StdEncoding.EncodeToString(signaturePNG())
	signForm := func(hash string) map[string]any {
		return map[string]any{"acceptedTerms": true, "signatureData": sig, "termsHash": hash}
	}

	if status, out := do(testkit.Admin, http.MethodPost, "/api/admin/force-terms-resigning/"+c.Driver.Id, map[string]any{}); status != http.StatusOK {
		t.Fatalf("force re-sign = %d %v", status, out)
	}
	read := active() // the driver opens the terms

	// meanwhile an admin makes a new version and activates it
	status, out := do(testkit.Admin, http.MethodPost, "/api/admin/terms-content", map[string]any{
		"version": "2099.1", "title": "Contractor agreement", "content": "<p>New pay terms.</p>", "effectiveDate": "2099-01-01"})
	if status != http.StatusOK && status != http.StatusCreated {
		t.Fatalf("new version = %d %v", status, out)
	}
	id, _ := out["id"].(string)
	if id == "" {
		if v, ok := out["version"].(map[string]any); ok {
			id, _ = v["id"].(string)
		}
	}
	if status, out := do(testkit.Admin, http.MethodPost, "/api/admin/terms-content/"+id+"/activate", map[string]any{}); status != http.StatusOK {
		t.Fatalf("activate = %d %v", status, out)
	}
	before := agreements()
	for _, form := range []map[string]any{signForm(read), signForm("0000")} {
		status, out = do(testkit.Driver, http.MethodPost, "/api/terms/sign", form)
		if status != http.StatusConflict || out["message"] != terms.MsgTermsChanged {
			t.Fatalf("a signature of the terms read before the change = %d %v; want 409 %q", status, out, terms.MsgTermsChanged)
		}
	}
	if agreements() != before {
		t.Fatal("a refused signature recorded an agreement")
	}
	if u, _ := app.FindRecordById(schema.Users, c.Driver.Id); !u.GetBool(schema.UserMustResignTerms) {
		t.Fatal("a refused signature cleared the re-sign")
	}
	// a registration over the old terms is refused too, and creates no account
	status, out = do("", http.MethodPost, "/api/register", map[string]any{"email": "late@example.com", "password": "secret123",
		"firstName": "Late", "lastName": "Reader", "acceptedTerms": true, "signatureData": sig, "termsHash": read})
	if status != http.StatusConflict || out["message"] != terms.MsgTermsChanged {
		t.Fatalf("registration over the old terms = %d %v", status, out)
	}
	if _, err := app.FindAuthRecordByEmail(schema.Users, "late@example.com"); err == nil {
		t.Fatal("a refused registration created the account")
	}

	// the active version edited (nobody signed it yet) while the liaison reads it (the sign
	// route allows an account 3 tries in 10 minutes: each part signs as another user)
	if status, out := do(testkit.Admin, http.MethodPost, "/api/admin/force-terms-resigning/"+c.Liaison.Id, map[string]any{}); status != http.StatusOK {
		t.Fatalf("force re-sign = %d %v", status, out)
	}
	read = active()
	if status, out := do(testkit.Admin, http.MethodPut, "/api/admin/terms-content/"+id, map[string]any{
		"version": "2099.1", "title": "Contractor agreement", "content": "<p>New pay terms, amended.</p>", "effectiveDate": "2099-01-01"}); status != http.StatusOK {
		t.Fatalf("edit = %d %v", status, out)
	}
	if status, out = do(testkit.Liaison, http.MethodPost, "/api/terms/sign", signForm(read)); status != http.StatusConflict {
		t.Fatalf("a signature of the active version as it was before its edit = %d %v", status, out)
	}

	// the terms as they are now: recorded with their hash
	read = active()
	if status, out = do(testkit.Liaison, http.MethodPost, "/api/terms/sign", signForm(read)); status != http.StatusOK {
		t.Fatalf("a signature of the active terms = %d %v", status, out)
	}
	var hash, version string
	if err := app.DB().NewQuery("SELECT termsHash, termsVersion FROM "+schema.Agreements+" WHERE user = {:u} ORDER BY signedAt DESC LIMIT 1").
		Bind(map[string]any{"u": c.Liaison.Id}).Row(&hash, &version); err != nil {
		t.Fatal(err)
	}
	if hash != read {
		t.Fatalf("recorded hash %s (%s); want the one read %s", hash, version, read)
	}
	// a client that does not say what it showed signs the active terms
	if status, out := do(testkit.Admin, http.MethodPost, "/api/admin/force-terms-resigning/"+c.Liaison.Id, map[string]any{}); status != http.StatusOK {
		t.Fatalf("force re-sign = %d %v", status, out)
	}
	if status, out = do(testkit.Liaison, http.MethodPost, "/api/terms/sign", map[string]any{"acceptedTerms": true, "signatureData": sig}); status != http.StatusOK {
		t.Fatalf("a signature without termsHash = %d %v", status, out)
	}
	terms.WaitForPDFs(app)
}
