package setup_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// errAnswer is an error answer: PocketBase's {status, message, data} plus the stable code.
type errAnswer struct {
	Status  int            `json:"status"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
	Code    string         `json:"code"`
}

// call sends method path with body (JSON unless a string) and headers to srv.
func call(t *testing.T, url, method, path string, body any, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		r = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, url+path, r)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res, raw
}

func with(h map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// Every refusal a client can meet carries its stable code (DESIGN.md §5): the guards, the
// cross-site check, PocketBase's own routes, the body limits, the idempotency keys, the
// ledger's balances and occurredAt's bounds, on the driver writes and the photo claim.
func TestEveryRefusalCarriesItsCode(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	srv := testkit.Serve(t, app)
	driver := testkit.Headers(t, c.Driver)
	expired := testkit.Headers(t, testkit.CreateUser(t, app, roles.Driver, roles.Approved))
	if _, err := app.DB().NewQuery("DELETE FROM " + schema.AuthSessions).Execute(); err != nil {
		t.Fatal(err)
	}
	driver = testkit.Headers(t, c.Driver) // a fresh session after the purge
	suspended := testkit.Headers(t, testkit.CreateUser(t, app, roles.Driver, roles.Suspended))
	rejected := testkit.Headers(t, testkit.CreateUser(t, app, roles.Driver, roles.Rejected))
	now := time.Now()
	rfc := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }

	// a keyed write the reuse row sends again to another path
	if res, raw := call(t, srv.URL, "POST", "/api/driver/rebalance", map[string]any{"quantity": 1},
		with(driver, "Idempotency-Key", "codes-k1")); res.StatusCode != 200 {
		t.Fatalf("rebalance: %d %s", res.StatusCode, raw)
	}

	cases := []struct {
		name, method, path string
		body               any
		headers            map[string]string
		status             int
		code, field        string
	}{
		{"guest", "GET", "/api/state", nil, nil, 401, apierr.CodeNotSignedIn, ""},
		{"ended session", "GET", "/api/state", nil, expired, 401, apierr.CodeSessionExpired, ""},
		{"pending", "GET", "/api/state", nil, testkit.Headers(t, c.Pending), 403, apierr.CodeAccountPending, ""},
		{"suspended", "POST", "/api/driver/pickup", map[string]any{"quantity": 1}, suspended, 403, apierr.CodeAccountSuspended, ""},
		{"rejected", "GET", "/api/state", nil, rejected, 403, apierr.CodeAccountRejected, ""},
		{"driver on an admin route", "GET", "/api/admin/weekly-activity", nil, driver, 403, apierr.CodeForbidden, ""},
		{"PocketBase's own list", "GET", "/api/collections/users/records", nil, driver, 403, apierr.CodeForbidden, ""},
		{"closed auth route", "POST", "/api/collections/users/auth-refresh", nil, driver, 403, apierr.CodeRouteClosed, ""},
		{"cross-site", "POST", "/api/driver/pickup", map[string]any{"quantity": 1}, with(driver, "Origin", "https://evil.example"), 403, apierr.CodeCrossSite, ""},
		{"unknown /api path", "GET", "/api/no-such-route", nil, driver, 404, apierr.CodeNotFound, ""},
		{"bad query", "GET", "/api/admin/weekly-activity?weekOffset=7", nil, testkit.Headers(t, c.Admin), 400, apierr.CodeValidationFailed, "weekOffset"},
		{"not JSON", "POST", "/api/driver/pickup", "{", driver, 400, apierr.CodeValidationFailed, ""},
		{"count not an integer", "POST", "/api/driver/pickup", map[string]any{"quantity": 1.5}, driver, 400, apierr.CodeValidationFailed, "quantity"},
		{"not enough ready", "POST", "/api/driver/pickup", map[string]any{"quantity": 10000, "notes": "bay 3"}, driver, 409, apierr.CodeNotEnoughReady, ""},
		{"body too large", "POST", "/api/driver/pickup", map[string]any{"quantity": 1, "notes": strings.Repeat("x", 70<<10)}, driver, 413, apierr.CodeTooLarge, ""},
		{"key reused", "POST", "/api/driver/retrieves-repairs-dropoff", map[string]any{"quantity": 1}, with(driver, "Idempotency-Key", "codes-k1"), 409, apierr.CodeIdempotencyKeyReused, ""},
		{"wrong password", "POST", "/api/login", map[string]any{"email": c.Driver.Email(), "password": "wrong-password"}, nil, 400, apierr.CodeInvalidCredentials, ""},
		{"occurredAt malformed", "POST", "/api/driver/dropoff-batteries", map[string]any{"goodBatteries": 1, "notes": "n", "occurredAt": "yesterday 9:15"}, driver, 400, apierr.CodeValidationFailed, "occurredAt"},
		{"occurredAt without offset", "POST", "/api/driver/pickup", map[string]any{"quantity": 1, "occurredAt": "2026-11-22T23:50:00"}, driver, 400, apierr.CodeValidationFailed, "occurredAt"},
		{"occurredAt not a string", "POST", "/api/driver/rebalance", map[string]any{"quantity": 1, "occurredAt": 1763900000}, driver, 400, apierr.CodeValidationFailed, "occurredAt"},
		{"occurredAt in the future", "POST", "/api/driver/rebalance", map[string]any{"quantity": 1, "occurredAt": rfc(5 * time.Minute)}, driver, 400, apierr.CodeOccurredInFuture, "occurredAt"},
		{"occurredAt too old", "POST", "/api/driver/retrieves-repairs-dropoff", map[string]any{"quantity": 1, "occurredAt": rfc(-8 * 24 * time.Hour)}, driver, 400, apierr.CodeTooOld, "occurredAt"},
		{"photo occurredAt too old", "POST", "/api/photos/upload", map[string]any{"filename": "a.jpg", "url": "/api/objects/uploads/nope", "occurredAt": rfc(-8 * 24 * time.Hour)}, driver, 400, apierr.CodeTooOld, "occurredAt"},
		{"photo occurredAt malformed", "POST", "/api/photos/upload", map[string]any{"filename": "a.jpg", "url": "/api/objects/uploads/nope", "occurredAt": "soon"}, driver, 400, apierr.CodeValidationFailed, "occurredAt"},
		{"photo upload missing", "POST", "/api/photos/upload", map[string]any{"filename": "a.jpg", "url": "/api/objects/uploads/nope", "occurredAt": rfc(-time.Hour)}, driver, 404, apierr.CodeNotFound, ""},
	}
	for _, tc := range cases {
		res, raw := call(t, srv.URL, tc.method, tc.path, tc.body, tc.headers)
		var got errAnswer
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Errorf("%s: %d %s: %v", tc.name, res.StatusCode, raw, err)
			continue
		}
		if res.StatusCode != tc.status || got.Status != tc.status || got.Code != tc.code || got.Message == "" || got.Data == nil {
			t.Errorf("%s: %d %s, want %d code %q", tc.name, res.StatusCode, raw, tc.status, tc.code)
		}
		if tc.field != "" && got.Data[tc.field] == nil {
			t.Errorf("%s: data %v does not name %s", tc.name, got.Data, tc.field)
		}
	}
	if strings.Contains(reqx.MsgOccurredTooOld, "admin") == false {
		t.Errorf("too_old's message must send the driver to an admin: %q", reqx.MsgOccurredTooOld)
	}
}
