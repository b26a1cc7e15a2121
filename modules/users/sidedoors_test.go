package users_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// PocketBase's own record API must not be a side door around SwapBay's routes (DESIGN.md §4):
// these rows try it as every non-superuser caller and check nothing leaks or changes.

func TestNativeRecordAPIIsClosed(t *testing.T) {
	t.Parallel()
	rows := []struct {
		name, method, url, body string
		status                  int
	}{
		{"list users", http.MethodGet, "/api/collections/users/records", "", 403},
		{"view a user", http.MethodGet, "/api/collections/users/records/" + pendingID, "", 403},
		{"list agreements", http.MethodGet, "/api/collections/agreements/records", "", 403},
		{"view an agreement", http.MethodGet, "/api/collections/agreements/records?filter=user='" + signedID + "'", "", 403},
		{"list terms versions", http.MethodGet, "/api/collections/terms_versions/records", "", 403},
		{"sign up around /api/register", http.MethodPost, "/api/collections/users/records",
			`{"email":"side@example.com","password":"secret123","passwordConfirm":"secret123","role":"master_admin","isApproved":"approved","firstName":"a","lastName":"b"}`, 403},
		{"password auth", http.MethodPost, "/api/collections/users/auth-with-password",
			`{"identity":"pending.target@example.com","password":"` + testkit.Password + `"}`, 403},
		{"edit another user", http.MethodPatch, "/api/collections/users/records/" + pendingID,
			`{"role":"master_admin","isApproved":"approved"}`, 403},
		{"delete another user", http.MethodDelete, "/api/collections/users/records/" + pendingID, "", 403},
	}
	for _, who := range testkit.AllCallers {
		// the rows change nothing (that is what they check), so one app serves them all
		factory, headers := as(who)
		app := factory(t)
		mux := testkit.Handler(t, app)
		for _, r := range rows {
			req := httptest.NewRequest(r.method, r.url, strings.NewReader(r.body))
			for k, v := range headers {
				req.Header.Set(k, v)
			}
			res := httptest.NewRecorder()
			mux.ServeHTTP(res, req)
			body := res.Body.String()
			if res.Code != r.status {
				t.Errorf("%s as %s: got %d, want %d: %s", r.name, who, res.Code, r.status, body)
			}
			if strings.Contains(body, `"email":"`) || strings.Contains(body, `"token"`) || strings.Contains(body, `"items"`) {
				t.Errorf("%s as %s leaked data: %s", r.name, who, body)
			}
		}
		u := find(t, app, pendingID)
		if u.GetString(schema.UserRole) != roles.Driver || u.GetString(schema.UserIsApproved) != roles.Pending {
			t.Errorf("as %s: the target user was changed", who)
		}
		if _, err := app.FindAuthRecordByEmail(schema.Users, "side@example.com"); err == nil {
			t.Errorf("as %s: a user was created through the record API", who)
		}
		app.Cleanup()
	}
}

// TestOwnRecordPatchRefused: a signed-in user cannot raise their own role or approval
// through PATCH /api/collections/users/records/{ownId}.
func TestOwnRecordPatchRefused(t *testing.T) {
	t.Parallel()
	for _, who := range testkit.AllCallers[1:] {
		headers := map[string]string{}
		var ownID, role, approval string
		app := testkit.NewApp(t)
		c := testkit.SeedCallers(t, app)
		me := c.Pick(who)
		ownID, role, approval = me.Id, me.GetString(schema.UserRole), me.GetString(schema.UserIsApproved)
		headers["Authorization"] = testkit.TokenIn(t, app, me)
		s := tests.ApiScenario{
			Name: "as " + who, Method: http.MethodPatch, URL: "/api/collections/users/records/" + ownID,
			Body:    strings.NewReader(`{"role":"master_admin","isApproved":"approved","payReductionPercentage":0}`),
			Headers: headers, TestAppFactory: func(testing.TB) *tests.TestApp { return app },
			ExpectedStatus: 403, ExpectedContent: []string{`"status":403`},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				u := find(t, app, ownID)
				if u.GetString(schema.UserRole) != role || u.GetString(schema.UserIsApproved) != approval || u.GetInt(schema.UserPayReductionPercentage) != 20 {
					t.Error("the caller changed their own record")
				}
			},
		}
		s.Test(t)
	}
}

// TestSignatureFileIsProtected: the signature PNG of an agreement cannot be fetched without
// a superuser file token, with or without a user's own file token.
func TestSignatureFileIsProtected(t *testing.T) {
	t.Parallel()
	for _, who := range testkit.AllCallers {
		for _, withToken := range []bool{false, true} {
			if who == testkit.Guest && withToken {
				continue
			}
			app := testkit.NewApp(t)
			c := testkit.SeedCallers(t, app)
			seed(t, app, c)
			ag, err := app.FindFirstRecordByData(schema.Agreements, schema.AgreementUser, signedID)
			if err != nil {
				t.Fatal(err)
			}
			url := "/api/files/agreements/" + ag.Id + "/" + ag.GetString(schema.AgreementSignature)
			if withToken {
				token, err := c.Pick(who).NewFileToken()
				if err != nil {
					t.Fatal(err)
				}
				url += "?token=" + token
			}
			s := tests.ApiScenario{
				Name: who + " token " + map[bool]string{true: "yes", false: "no"}[withToken], Method: http.MethodGet, URL: url,
				Headers: testkit.Headers(t, c.Pick(who)), TestAppFactory: func(testing.TB) *tests.TestApp { return app },
				ExpectedStatus: 404, ExpectedContent: []string{`"status":404`},
			}
			s.Test(t)
		}
	}
}
