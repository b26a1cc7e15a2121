package auth_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/httpx"
)

// TestResignTermsBlocksGuardedRoutes: a user flagged mustResignTerms gets 403 "Terms re-signing
// required" on every guarded route (approved-only and role-only alike, /ws included), while the
// auth routes they need to sign again stay open.
func TestResignTermsBlocksGuardedRoutes(t *testing.T) {
	t.Parallel()
	refused := []string{`"status":403`, `"message":"` + httpx.MsgResignTerms + `"`}
	for _, r := range []struct {
		who, method, url, body string
		status                 int
		content                []string
	}{
		{testkit.Driver, http.MethodGet, "/api/state", "", 403, refused},
		{testkit.Driver, http.MethodPost, "/api/driver/pickup", `{"quantity":1,"notes":"x"}`, 403, refused},
		{testkit.Driver, http.MethodGet, "/ws", "", 403, refused},
		{testkit.Liaison, http.MethodGet, "/api/liaison/battery-holders", "", 403, refused},
		{testkit.Admin, http.MethodGet, "/api/admin/users", "", 403, refused},
		{testkit.Master, http.MethodGet, "/api/inventory", "", 403, refused},
		// A pending user keeps their own message: approval comes first.
		{testkit.Pending, http.MethodGet, "/api/state", "", 403, []string{`"message":"Account pending approval"`}},
		// The routes a flagged user needs stay open.
		{testkit.Driver, http.MethodGet, "/api/auth/user", "", 200, []string{`"mustResignTerms":true`}},
		{testkit.Driver, http.MethodGet, "/api/terms-content/active", "", 200, nil},
		{testkit.Driver, http.MethodPost, "/api/change-password", `{"currentPassword":"secret123","newPassword":"secret456"}`, 200, nil},
		{testkit.Driver, http.MethodPost, "/api/logout", "", 200, nil},
	} {
		factory, headers := testkit.As(r.who, forceResign)
		s := tests.ApiScenario{
			Name: r.who + " " + r.method + " " + r.url, Method: r.method, URL: r.url,
			Body: strings.NewReader(r.body), Headers: headers, TestAppFactory: factory,
			ExpectedStatus: r.status, ExpectedContent: r.content,
		}
		if r.content == nil {
			s.ExpectedContent = []string{"{"}
		}
		s.Test(t)
	}
}

// TestResignTermsFlow: an admin forces a re-sign on a driver, who is refused until they sign
// the active terms again, and is let in right after.
func TestResignTermsFlow(t *testing.T) {
	t.Parallel()
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	h := testkit.Handler(t, app)
	do := func(who, method, url, payload string, want int) string {
		t.Helper()
		req := httptest.NewRequest(method, url, strings.NewReader(payload))
		for k, v := range testkit.Headers(t, c.Pick(who)) {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Fatalf("%s %s %s: status %d, want %d: %s", who, method, url, rec.Code, want, rec.Body)
		}
		return rec.Body.String()
	}

	do(testkit.Driver, http.MethodGet, "/api/state", "", 200)
	do(testkit.Admin, http.MethodPost, "/api/admin/force-terms-resigning/"+c.Driver.Id, "", 200)

	if got := do(testkit.Driver, http.MethodGet, "/api/state", "", 403); !strings.Contains(got, httpx.MsgResignTerms) {
		t.Errorf("GET /api/state: %s", got)
	}
	do(testkit.Driver, http.MethodPost, "/api/driver/pickup", `{"quantity":1,"notes":"x"}`, 403)
	do(testkit.Driver, http.MethodGet, "/ws", "", 403)
	// Others are not affected.
	do(testkit.Liaison, http.MethodGet, "/api/state", "", 200)

	sign := `{"acceptedTerms":true,"signatureData":"` + dataURL(signaturePNG(t)) + `"}`
	if got := do(testkit.Driver, http.MethodPost, "/api/terms/sign", sign, 200); !strings.Contains(got, `"mustResignTerms":false`) {
		t.Errorf("POST /api/terms/sign: %s", got)
	}
	do(testkit.Driver, http.MethodGet, "/api/state", "", 200)
	do(testkit.Driver, http.MethodPost, "/api/driver/pickup", `{"quantity":1,"notes":"x"}`, 200)
}
