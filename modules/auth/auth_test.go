package auth_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/bombs"
	"swapbay/internal/testkit"
	"swapbay/lib/httpx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
	"swapbay/modules/terms"
)

// signaturePNG returns a small real PNG.
func signaturePNG(t testing.TB) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 12))
	for x := 0; x < 40; x++ {
		img.Set(x, 6, color.Black)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func dataURL(b []byte) string { return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b) }

func body(v any) io.Reader {
	b, _ := json.Marshal(v)
	return bytes.NewReader(b)
}

func registration(t testing.TB, email string) map[string]any {
	return map[string]any{
		"email": email, "password": "secret123", "firstName": "Reg", "lastName": "Istrant",
		"acceptedTerms": true, "signatureData": dataURL(signaturePNG(t)),
	}
}

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for key, val := range m {
		out[key] = val
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

func count(t testing.TB, app core.App, col string, exprs ...dbx.Expression) int64 {
	t.Helper()
	n, err := app.CountRecords(col, exprs...)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func sessionCookie(t testing.TB, res *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range res.Cookies() {
		if c.Name == httpx.SessionCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie in response", httpx.SessionCookie)
	return nil
}

// wantSession checks the response set a valid HttpOnly, SameSite=Lax session for email.
func wantSession(t testing.TB, app core.App, res *http.Response, email string) {
	t.Helper()
	c := sessionCookie(t, res)
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.MaxAge <= 0 {
		t.Fatalf("cookie flags: %+v", c)
	}
	rec, err := app.FindAuthRecordByToken(c.Value, core.TokenTypeAuth)
	if err != nil {
		t.Fatalf("cookie token is not a valid auth token: %v", err)
	}
	if rec.Email() != email {
		t.Fatalf("cookie is for %s, want %s", rec.Email(), email)
	}
}

func TestCurrentUser(t *testing.T) {
	t.Parallel()
	want := map[string][]string{
		testkit.Pending: {`"isApproved":"pending"`, `"role":"driver"`},
		testkit.Driver:  {`"isApproved":"approved"`, `"role":"driver"`},
		testkit.Liaison: {`"role":"corporate_liason"`},
		testkit.Admin:   {`"role":"admin"`},
		testkit.Master:  {`"role":"master_admin"`},
	}
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		s := tests.ApiScenario{
			Name: "as " + who, Method: http.MethodGet, URL: "/api/auth/user",
			Headers: headers, TestAppFactory: factory,
		}
		if who == testkit.Guest {
			s.ExpectedStatus = 401
			s.ExpectedContent = []string{`"status":401`}
		} else {
			s.ExpectedStatus = 200
			s.ExpectedContent = append([]string{
				`"id":"`, `"email":"`, `"firstName":"First`, `"lastName":"Last`,
				`"payReductionPercentage":20`, `"adminPoolWithholdingPercentage":0`, `"mustResignTerms":false`,
			}, want[who]...)
			s.NotExpectedContent = []string{`"password"`, `"tokenKey"`}
		}
		s.Test(t)
	}
}

func TestCookieSessionAuthenticates(t *testing.T) {
	t.Parallel()
	headers := map[string]string{}
	s := tests.ApiScenario{
		Method: http.MethodGet, URL: "/api/auth/user", Headers: headers,
		TestAppFactory: func(t testing.TB) *tests.TestApp {
			app := testkit.NewApp(t)
			u := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
			headers["Cookie"] = httpx.SessionCookie + "=" + testkit.Token(t, u)
			return app
		},
		ExpectedStatus: 200, ExpectedContent: []string{`"role":"driver"`},
	}
	s.Test(t)
}

// seedLogin creates the account the login rows sign in with.
func seedLogin(approval string) func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
	return func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
		u := testkit.CreateUser(t, app, roles.Driver, approval)
		u.SetEmail("login@example.com")
		if err := app.Save(u); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	var scenarios []tests.ApiScenario
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, seedLogin(roles.Approved))
		scenarios = append(scenarios, tests.ApiScenario{
			Name: "as " + who, Method: http.MethodPost, URL: "/api/login",
			Body:    body(map[string]string{"email": "login@example.com", "password": testkit.Password}),
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus:     200,
			ExpectedContent:    []string{`"email":"login@example.com"`, `"isApproved":"approved"`, `"role":"driver"`},
			NotExpectedContent: []string{`"password"`, `"tokenKey"`},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				wantSession(t, app, res, "login@example.com")
			},
		})
	}
	rows := []struct {
		name     string
		approval string
		form     map[string]string
		status   int
		want     string
	}{
		{"email trimmed and any case", roles.Approved, map[string]string{"email": "  LOGIN@Example.COM ", "password": testkit.Password}, 200, `"email":"login@example.com"`},
		{"pending user may sign in", roles.Pending, map[string]string{"email": "login@example.com", "password": testkit.Password}, 200, `"isApproved":"pending"`},
		{"suspended user may sign in", roles.Suspended, map[string]string{"email": "login@example.com", "password": testkit.Password}, 200, `"isApproved":"suspended"`},
		{"wrong password", roles.Approved, map[string]string{"email": "login@example.com", "password": "wrong-pass"}, 400, `"message":"Invalid email or password`},
		{"unknown email", roles.Approved, map[string]string{"email": "nobody@example.com", "password": testkit.Password}, 400, `"message":"Invalid email or password`},
		{"missing email", roles.Approved, map[string]string{"password": testkit.Password}, 400, `"message":"Email and password are required`},
		{"missing password", roles.Approved, map[string]string{"email": "login@example.com"}, 400, `"message":"Email and password are required`},
	}
	for _, r := range rows {
		factory, headers := testkit.As(testkit.Guest, seedLogin(r.approval))
		s := tests.ApiScenario{
			Name: r.name, Method: http.MethodPost, URL: "/api/login", Body: body(r.form),
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus: r.status, ExpectedContent: []string{r.want},
		}
		if r.status != 200 {
			s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
				for _, c := range res.Cookies() {
					if c.Name == httpx.SessionCookie && c.Value != "" {
						t.Fatal("a refused login set a session cookie")
					}
				}
			}
		}
		scenarios = append(scenarios, s)
	}
	for _, s := range scenarios {
		s.Test(t)
	}
}

func TestCrossSiteRequestsRefused(t *testing.T) {
	t.Parallel()
	for _, url := range []string{"/api/login", "/api/logout", "/api/register", "/api/change-password", "/api/admin/users/x/approval"} {
		factory, headers := testkit.As(testkit.Master, seedLogin(roles.Approved))
		headers["Origin"] = "https://evil.example"
		s := tests.ApiScenario{
			Name: url, Method: http.MethodPost, URL: url,
			Body:    body(map[string]string{"email": "login@example.com", "password": testkit.Password}),
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus: 403, ExpectedContent: []string{`"status":403`},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if len(res.Cookies()) != 0 {
					t.Fatal("a cross-site request changed the session cookie")
				}
			},
		}
		s.Test(t)
	}
	// the same request from the app's own origin passes
	factory, headers := testkit.As(testkit.Guest, seedLogin(roles.Approved))
	headers["Origin"] = "http://example.com"
	s := tests.ApiScenario{
		Name: "same origin", Method: http.MethodPost, URL: "/api/login",
		Body:    body(map[string]string{"email": "login@example.com", "password": testkit.Password}),
		Headers: headers, TestAppFactory: factory,
		ExpectedStatus: 200, ExpectedContent: []string{`"email":"login@example.com"`},
	}
	s.Test(t)
}

func TestLogout(t *testing.T) {
	t.Parallel()
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		s := tests.ApiScenario{
			Name: "as " + who, Method: http.MethodPost, URL: "/api/logout",
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus: 200, ExpectedContent: []string{`{}`},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				c := sessionCookie(t, res)
				if c.Value != "" || c.MaxAge >= 0 {
					t.Fatalf("logout must clear the cookie, got %+v", c)
				}
			},
		}
		s.Test(t)
	}
}

// TestLoginRateLimit sends more sign-ins than the limiter allows from one address through
// the full router (PocketBase's rate-limit middleware included).
func TestLoginRateLimit(t *testing.T) {
	t.Parallel()
	app := testkit.NewApp(t)
	defer app.Cleanup()
	router, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	se := &core.ServeEvent{App: app, Router: router}
	err = app.OnServe().Trigger(se, func(e *core.ServeEvent) error {
		mux, err := e.Router.BuildMux()
		if err != nil {
			return err
		}
		var statuses []int
		for i := 0; i < 25; i++ {
			req := httptest.NewRequest(http.MethodPost, "/api/login", strings.NewReader(`{"email":"a@example.com","password":"wrong-pass"}`))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, req)
			statuses = append(statuses, rec.Code)
		}
		if statuses[0] != 400 {
			t.Errorf("first attempt: got %d, want 400", statuses[0])
		}
		if last := statuses[len(statuses)-1]; last != 429 {
			t.Errorf("after %d attempts: got %d, want 429 (all: %v)", len(statuses), last, statuses)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// wantNothingCreated checks a refused registration left no user and no agreement behind.
func wantNothingCreated(users int64) func(t testing.TB, app *tests.TestApp, res *http.Response) {
	return func(t testing.TB, app *tests.TestApp, res *http.Response) {
		if n := count(t, app, schema.Users); n != users {
			t.Errorf("users: got %d, want %d", n, users)
		}
		if n := count(t, app, schema.Agreements); n != 0 {
			t.Errorf("agreements: got %d, want 0", n)
		}
		for _, c := range res.Cookies() {
			if c.Name == httpx.SessionCookie && c.Value != "" {
				t.Error("a refused registration set a session cookie")
			}
		}
	}
}

func TestRegister(t *testing.T) {
	t.Parallel()
	// every caller may register a new account; with users present it is a pending driver
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		headers["User-Agent"] = "TestBrowser/1.0"
		s := tests.ApiScenario{
			Name: "as " + who, Method: http.MethodPost, URL: "/api/register",
			Body: body(registration(t, " New.Driver@Example.com ")), Headers: headers, TestAppFactory: factory,
			ExpectedStatus:  200,
			ExpectedContent: []string{`"email":"new.driver@example.com"`, `"role":"driver"`, `"isApproved":"pending"`, `"payReductionPercentage":20`, `"firstName":"Reg"`},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				wantSession(t, app, res, "new.driver@example.com")
				u, err := app.FindAuthRecordByEmail(schema.Users, "new.driver@example.com")
				if err != nil {
					t.Fatal(err)
				}
				ag, err := app.FindFirstRecordByData(schema.Agreements, schema.AgreementUser, u.Id)
				if err != nil {
					t.Fatalf("no agreement: %v", err)
				}
				active, err := terms.FindActive(app)
				if err != nil {
					t.Fatal(err)
				}
				checks := map[string]string{
					schema.AgreementTerms:        active.Id,
					schema.AgreementTermsVersion: "2025.1",
					schema.AgreementTermsHash:    terms.Hash(active.Content()),
					schema.AgreementPDFStatus:    terms.PDFGenerating,
					schema.AgreementUserAgent:    "TestBrowser/1.0",
					schema.AgreementIP:           "192.0.2.1",
				}
				for field, want := range checks {
					if got := ag.GetString(field); got != want {
						t.Errorf("agreement %s: got %q, want %q", field, got, want)
					}
				}
				if ag.GetDateTime(schema.AgreementSignedAt).IsZero() {
					t.Error("agreement signedAt is empty")
				}
				file := ag.GetString(schema.AgreementSignature)
				if file == "" {
					t.Fatal("agreement has no signature file")
				}
				fsys, err := app.NewFilesystem()
				if err != nil {
					t.Fatal(err)
				}
				defer fsys.Close()
				r, err := fsys.GetReader(ag.BaseFilesPath() + "/" + file)
				if err != nil {
					t.Fatalf("signature file not stored: %v", err)
				}
				defer r.Close()
				stored, _ := io.ReadAll(r)
				if !bytes.Equal(stored, signaturePNG(t)) {
					t.Error("stored signature differs from the one sent")
				}
			},
		}
		s.Test(t)
	}
}

func TestRegisterFirstUserIsMasterAdmin(t *testing.T) {
	t.Parallel()
	first := tests.ApiScenario{
		Name: "first registrant", Method: http.MethodPost, URL: "/api/register",
		Body: body(registration(t, "first@example.com")), TestAppFactory: testkit.Factory(nil),
		ExpectedStatus:  200,
		ExpectedContent: []string{`"role":"master_admin"`, `"isApproved":"approved"`},
	}
	first.Test(t)

	second := tests.ApiScenario{
		Name: "second registrant", Method: http.MethodPost, URL: "/api/register",
		Body: body(registration(t, "second@example.com")),
		TestAppFactory: testkit.Factory(func(t testing.TB, app *tests.TestApp) {
			testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
		}),
		ExpectedStatus:  200,
		ExpectedContent: []string{`"role":"driver"`, `"isApproved":"pending"`},
	}
	second.Test(t)
}

func TestRegisterValidation(t *testing.T) {
	t.Parallel()
	valid := registration(t, "valid@example.com")
	bigPNG := append(append([]byte{}, signaturePNG(t)...), make([]byte, 520<<10)...)
	notPNG := append([]byte("GIF89a"), make([]byte, 64)...)
	rows := []struct {
		name   string
		form   any
		status int
		want   []string
	}{
		{"no first name", with(valid, "firstName", nil), 400, []string{`"message":"First name and last name are required`, `"firstName":`}},
		{"blank last name", with(valid, "lastName", "   "), 400, []string{`"message":"First name and last name are required`, `"lastName":`}},
		{"name too long", with(valid, "firstName", strings.Repeat("a", 101)), 400, []string{`"message":"First name and last name must be at most 100 characters`}},
		{"no email", with(valid, "email", ""), 400, []string{`"message":"Email and password are required`, `"email":`}},
		{"no password", with(valid, "password", nil), 400, []string{`"message":"Email and password are required`, `"password":`}},
		{"bad email", with(valid, "email", "not-an-email"), 400, []string{`"message":"Please enter a valid email address`}},
		{"short password", with(valid, "password", "12345"), 400, []string{`"message":"Password must be at least 6 characters`}},
		{"terms not accepted", with(valid, "acceptedTerms", false), 400, []string{`"message":"You must accept the Terms and Conditions`, `"acceptedTerms":`}},
		{"no signature", with(valid, "signatureData", ""), 400, []string{`"message":"A signature is required`, `"signatureData":`}},
		{"jpeg data url", with(valid, "signatureData", "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(signaturePNG(t))), 400, []string{`"message":"The signature must be a PNG image`}},
		{"png label, gif bytes", with(valid, "signatureData", dataURL(notPNG)), 400, []string{`"message":"The signature must be a PNG image`}},
		{"not base64", with(valid, "signatureData", "data:image/png;base64,@@@"), 400, []string{`"message":"The signature must be a PNG image`}},
		{"signature over 512 KiB", with(valid, "signatureData", dataURL(bigPNG)), 400, []string{`"message":"The signature image is too large`}},
		{"signature 8000×8000 zero pixels", with(valid, "signatureData", dataURL(bombs.PNG(8000, 8000, 8, bombs.Gray, false))), 400, []string{`"message":"The signature image must be at most 2000`, `"signatureData":`}},
		{"16-bit signature", with(valid, "signatureData", dataURL(bombs.PNG(400, 100, 16, bombs.RGBA, false))), 400, []string{`"message":"The signature image must be at most 2000`}},
		{"body over 1 MiB", with(valid, "firstName", strings.Repeat("a", 1100<<10)), 413, []string{`"status":413`}},
		{"malformed json", "{", 400, []string{`"status":400`}},
		{"duplicate email, other case", with(valid, "email", "TAKEN@example.com"), 400, []string{`"message":"An account with this email already exists`, `"email":`}},
	}
	for _, r := range rows {
		var b io.Reader
		if s, ok := r.form.(string); ok {
			b = strings.NewReader(s)
		} else {
			b = body(r.form)
		}
		s := tests.ApiScenario{
			Name: r.name, Method: http.MethodPost, URL: "/api/register", Body: b,
			TestAppFactory: testkit.Factory(func(t testing.TB, app *tests.TestApp) {
				u := testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
				u.SetEmail("taken@example.com")
				if err := app.Save(u); err != nil {
					t.Fatal(err)
				}
			}),
			ExpectedStatus: r.status, ExpectedContent: r.want,
			AfterTestFunc: wantNothingCreated(1),
		}
		s.Test(t)
	}
}

func TestRegisterTruncatesUserAgent(t *testing.T) {
	t.Parallel()
	s := tests.ApiScenario{
		Method: http.MethodPost, URL: "/api/register", Body: body(registration(t, "ua@example.com")),
		Headers:        map[string]string{"User-Agent": strings.Repeat("x", 800)},
		TestAppFactory: testkit.Factory(nil),
		ExpectedStatus: 200, ExpectedContent: []string{`"email":"ua@example.com"`},
		AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			ag, err := app.FindFirstRecordByFilter(schema.Agreements, "id != ''")
			if err != nil {
				t.Fatal(err)
			}
			if n := len(ag.GetString(schema.AgreementUserAgent)); n != 500 {
				t.Fatalf("stored user agent length %d, want 500", n)
			}
		},
	}
	s.Test(t)
}

func TestRegisterWithoutActiveTerms(t *testing.T) {
	t.Parallel()
	s := tests.ApiScenario{
		Method: http.MethodPost, URL: "/api/register", Body: body(registration(t, "x@example.com")),
		TestAppFactory: testkit.Factory(func(t testing.TB, app *tests.TestApp) {
			if _, err := app.DB().NewQuery("UPDATE terms_versions SET isActive = FALSE").Execute(); err != nil {
				t.Fatal(err)
			}
		}),
		ExpectedStatus: 409, ExpectedContent: []string{`"status":409`},
		AfterTestFunc: wantNothingCreated(0),
	}
	s.Test(t)
}

func TestChangePassword(t *testing.T) {
	t.Parallel()
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, nil)
		s := tests.ApiScenario{
			Name: "as " + who, Method: http.MethodPost, URL: "/api/change-password",
			Body:    body(map[string]string{"currentPassword": testkit.Password, "newPassword": "brand-new-1"}),
			Headers: headers, TestAppFactory: factory,
		}
		if who == testkit.Guest {
			s.ExpectedStatus, s.ExpectedContent = 401, []string{`"status":401`}
		} else {
			s.ExpectedStatus, s.ExpectedContent = 200, []string{`"message":`}
			s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if _, err := app.FindAuthRecordByToken(headers["Authorization"], core.TokenTypeAuth); err == nil {
					t.Error("the old session token still works after a password change")
				}
				c := sessionCookie(t, res)
				u, err := app.FindAuthRecordByToken(c.Value, core.TokenTypeAuth)
				if err != nil {
					t.Fatalf("new cookie token invalid: %v", err)
				}
				if !u.ValidatePassword("brand-new-1") {
					t.Error("new password not saved")
				}
			}
		}
		s.Test(t)
	}
	rows := []struct {
		name string
		form map[string]string
		want string
	}{
		{"no current password", map[string]string{"newPassword": "brand-new-1"}, "Current password is required"},
		{"short new password", map[string]string{"currentPassword": testkit.Password, "newPassword": "12345"}, "New password must be at least 6 characters"},
		{"wrong current password", map[string]string{"currentPassword": "not-it-at-all", "newPassword": "brand-new-1"}, "Current password is incorrect"},
	}
	for _, r := range rows {
		factory, headers := testkit.As(testkit.Driver, nil)
		s := tests.ApiScenario{
			Name: r.name, Method: http.MethodPost, URL: "/api/change-password", Body: body(r.form),
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus: 400, ExpectedContent: []string{`"message":"` + r.want},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				u, err := app.FindAuthRecordByToken(headers["Authorization"], core.TokenTypeAuth)
				if err != nil {
					t.Fatal("a refused change invalidated the session")
				}
				if !u.ValidatePassword(testkit.Password) {
					t.Error("a refused change altered the password")
				}
			},
		}
		s.Test(t)
	}
}

// forceResign marks every seeded caller as having to sign again.
func forceResign(t testing.TB, app *tests.TestApp, c testkit.Callers) {
	for _, u := range []*core.Record{c.Pending, c.Driver, c.Liaison, c.Admin, c.Master} {
		u.Set(schema.UserMustResignTerms, true)
		if err := app.Save(u); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSignTermsAgain(t *testing.T) {
	t.Parallel()
	sign := map[string]any{"acceptedTerms": true, "signatureData": dataURL(signaturePNG(t))}
	for _, who := range testkit.AllCallers {
		factory, headers := testkit.As(who, forceResign)
		s := tests.ApiScenario{
			Name: "as " + who, Method: http.MethodPost, URL: "/api/terms/sign", Body: body(sign),
			Headers: headers, TestAppFactory: factory,
		}
		if who == testkit.Guest {
			s.ExpectedStatus, s.ExpectedContent = 401, []string{`"status":401`}
			s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if n := count(t, app, schema.Agreements); n != 0 {
					t.Errorf("%d agreements created", n)
				}
			}
		} else {
			s.ExpectedStatus, s.ExpectedContent = 200, []string{`"mustResignTerms":false`}
			s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
				me, err := app.FindAuthRecordByToken(headers["Authorization"], core.TokenTypeAuth)
				if err != nil {
					t.Fatal(err)
				}
				if me.GetBool(schema.UserMustResignTerms) {
					t.Error("mustResignTerms still set")
				}
				if n := count(t, app, schema.Agreements, dbx.HashExp{schema.AgreementUser: me.Id}); n != 1 {
					t.Errorf("%d agreements for the signer, want 1", n)
				}
				if n := count(t, app, schema.Agreements); n != 1 {
					t.Errorf("%d agreements in all, want 1", n)
				}
			}
		}
		s.Test(t)
	}
	for _, r := range []struct {
		name string
		form map[string]any
		want string
	}{
		{"terms not accepted", with(sign, "acceptedTerms", false), "You must accept the Terms and Conditions"},
		{"no signature", with(sign, "signatureData", nil), "A signature is required"},
		{"not a png", with(sign, "signatureData", "data:image/png;base64,"+base64.StdEncoding.EncodeToString([]byte("GIF89a........"))), "The signature must be a PNG image"},
	} {
		factory, headers := testkit.As(testkit.Driver, forceResign)
		s := tests.ApiScenario{
			Name: r.name, Method: http.MethodPost, URL: "/api/terms/sign", Body: body(r.form),
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus: 400, ExpectedContent: []string{`"message":"` + r.want},
			AfterTestFunc: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if n := count(t, app, schema.Agreements); n != 0 {
					t.Errorf("%d agreements created", n)
				}
				me, _ := app.FindAuthRecordByToken(headers["Authorization"], core.TokenTypeAuth)
				if !me.GetBool(schema.UserMustResignTerms) {
					t.Error("a refused signature cleared mustResignTerms")
				}
			},
		}
		s.Test(t)
	}
}

// TestSessionAnswersCarryTheOperationTimeZone: the current user, login and register answers
// name the operation's time zone, in which the UI shows every time and "today" (the device's
// own zone may differ); blank, it is $SWAPBAY_TZ, else UTC.
func TestSessionAnswersCarryTheOperationTimeZone(t *testing.T) {
	t.Parallel()
	setZone := func(zone string) func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
		return func(t testing.TB, app *tests.TestApp, c testkit.Callers) {
			seedLogin(roles.Approved)(t, app, c)
			if zone == "" {
				return
			}
			if _, err := system.SaveSettings(app, inventory.Op{}, []system.Setting{{Key: schema.SettingTimeZone, Value: []byte(`"` + zone + `"`)}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, row := range []struct{ zone, want string }{{"", `"timeZone":"UTC"`}, {"America/Los_Angeles", `"timeZone":"America/Los_Angeles"`}} {
		for _, who := range []string{testkit.Pending, testkit.Driver, testkit.Master} {
			factory, headers := testkit.As(who, setZone(row.zone))
			(&tests.ApiScenario{
				Name: "current user as " + who + " in " + row.want, Method: http.MethodGet, URL: "/api/auth/user",
				Headers: headers, TestAppFactory: factory,
				ExpectedStatus: 200, ExpectedContent: []string{row.want},
			}).Test(t)
		}
		factory, headers := testkit.As(testkit.Guest, setZone(row.zone))
		(&tests.ApiScenario{
			Name: "login in " + row.want, Method: http.MethodPost, URL: "/api/login",
			Body:    body(map[string]string{"email": "login@example.com", "password": testkit.Password}),
			Headers: headers, TestAppFactory: factory,
			ExpectedStatus: 200, ExpectedContent: []string{`"email":"login@example.com"`, row.want},
		}).Test(t)
	}
}
