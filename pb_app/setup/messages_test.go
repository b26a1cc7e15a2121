package setup_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"swapbay/internal/testkit"
)

// Error messages reach the client exactly as the code wrote them: one without a full stop
// gets none added, and one that ends a sentence keeps it (issue 9: no middleware rewrites
// them).
func TestErrorMessagesAreExact(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	srv := testkit.Serve(t, app)

	message := func(path string, headers map[string]string) (int, string) {
		res, raw := call(t, srv.URL, http.MethodGet, path, nil, headers) // codes_test.go
		var body struct{ Message string }
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, body.Message
	}

	cases := []struct {
		path    string
		headers map[string]string
		status  int
		want    string
	}{
		{"/api/state", nil, 401, "Unauthorized"},
		{"/api/no-such-route", nil, 404, "The requested resource wasn't found."},
		{"/api/admin/weekly-activity?weekOffset=7", testkit.Headers(t, c.Pick("admin")), 400, "weekOffset must be 0 or -1."},
		{"/api/state", testkit.Headers(t, c.Pick("pending")), 403, "Account pending approval"},
	}
	for _, tc := range cases {
		if status, got := message(tc.path, tc.headers); status != tc.status || got != tc.want {
			t.Errorf("%s: %d %q, want %d %q", tc.path, status, got, tc.status, tc.want)
		}
	}
}
