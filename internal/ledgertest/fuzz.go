package ledgertest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
)

// Route is one mutation route a fuzz target sends bodies to, with its seed bodies.
type Route struct {
	Method, URL string
	Seeds       []string
}

// FuzzRoutes fuzzes the JSON bodies of a module's mutation routes on one app (made once per
// fuzzing process; prepare seeds it and returns the routes). The fuzzed input is a route
// index (taken modulo len(routes)) and a body. Every answer must be below 500, and a refusal
// (4xx) must change nothing: stats, movement, entry and session counts, and the ledger stays
// sound. who is the caller kind. The committed corpus under testdata/fuzz/<target> is added
// by the go command; each route's Seeds are added here.
func FuzzRoutes(f *testing.F, who string, prepare func(t testing.TB, app *tests.TestApp, c testkit.Callers) []Route) {
	app := testkit.NewApp(f)
	f.Cleanup(app.Cleanup)
	callers := testkit.SeedCallers(f, app)
	routes := prepare(f, app, callers)
	for i, r := range routes {
		for _, s := range r.Seeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	token := testkit.Token(f, callers.Pick(who))
	handler := testkit.Handler(f, app)
	f.Fuzz(func(t *testing.T, index uint8, body []byte) {
		r := routes[int(index)%len(routes)]
		before := Capture(t, app)
		req := httptest.NewRequest(r.Method, r.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", token)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		switch {
		case rec.Code >= http.StatusInternalServerError:
			t.Fatalf("%s %s %q: %d %s", r.Method, r.URL, body, rec.Code, rec.Body.Bytes())
		case rec.Code >= http.StatusBadRequest:
			AssertUnchanged(t, app, before)
		default:
			AssertSound(t, app)
		}
	})
}
