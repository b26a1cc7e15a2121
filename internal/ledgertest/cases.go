package ledgertest

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
)

// Case is one row of a ledger API table: who calls, how the app is seeded (Prepare returns
// the URL and JSON body, so ids created while seeding can be used), what status and content
// are expected, and for a success what the new balances are. A row whose Status is not 2xx
// asserts that nothing changed (stats, movement, entry and session counts) and that the
// ledger is still sound.
type Case struct {
	Name     string
	Who      string // a testkit caller kind
	Method   string
	Prepare  func(t testing.TB, app *tests.TestApp, c testkit.Callers) (url, body string)
	Headers  map[string]string
	Status   int
	Contains []string
	// Check runs after a 2xx answer with the state before the request and the decoded body.
	Check func(t testing.TB, app *tests.TestApp, before State, body map[string]any)
}

// Run runs every case as an ApiScenario.
func Run(t *testing.T, cases []Case) {
	t.Helper()
	for _, c := range cases {
		c := c
		var before State
		var callers testkit.Callers
		s := &tests.ApiScenario{
			Name:            c.Name + " as " + c.Who,
			Method:          c.Method,
			ExpectedStatus:  c.Status,
			ExpectedContent: c.Contains,
		}
		if len(c.Contains) == 0 {
			s.NotExpectedContent = []string{"\x00never\x00"}
		}
		factory, headers := testkit.As(c.Who, func(t testing.TB, app *tests.TestApp, cs testkit.Callers) {
			callers = cs
			url, body := c.Prepare(t, app, cs)
			s.URL = url
			s.Body = strings.NewReader(body)
		})
		for k, v := range c.Headers {
			headers[k] = v
		}
		s.Headers = headers
		s.TestAppFactory = func(t testing.TB) *tests.TestApp {
			app := factory(t)
			before = Capture(t, app)
			return app
		}
		s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) {
			raw, _ := io.ReadAll(res.Body)
			if res.StatusCode < 200 || res.StatusCode > 299 {
				AssertUnchanged(t, app, before)
				return
			}
			AssertSound(t, app)
			body := Body(t, raw)
			if body["success"] != true {
				t.Fatalf("success answer without success:true: %s", raw)
			}
			if _, ok := body["stats"].(map[string]any); !ok {
				t.Fatalf("success answer without stats: %s", raw)
			}
			if c.Check != nil {
				c.Check(t, app, before, body)
			}
		}
		_ = callers
		s.Test(t)
	}
}

// Access lists who may call a route.
type Access int

// Access levels of DESIGN.md §4.
const (
	DriverRoute Access = iota // approved driver, admin, master_admin
	AdminRoute                // admin, master_admin
	MasterRoute               // master_admin
)

// Allowed reports whether caller kind who passes access.
func (a Access) Allowed(who string) bool {
	switch a {
	case DriverRoute:
		return who == testkit.Driver || who == testkit.Admin || who == testkit.Master
	case AdminRoute:
		return who == testkit.Admin || who == testkit.Master
	default:
		return who == testkit.Master
	}
}

// Matrix returns one row per caller in testkit.AllCallers for a valid request: callers
// allowed by access get okStatus and check; guests 401; pending 403 'Account pending
// approval'; other roles 403 — and refusals change nothing.
func Matrix(name, method string, access Access, prepare func(t testing.TB, app *tests.TestApp, c testkit.Callers) (string, string),
	okStatus int, okContains []string, check func(t testing.TB, app *tests.TestApp, before State, body map[string]any)) []Case {
	var out []Case
	for _, who := range testkit.AllCallers {
		c := Case{Name: name, Who: who, Method: method, Prepare: prepare}
		switch {
		case who == testkit.Guest:
			c.Status, c.Contains = 401, []string{`"status":401`}
		case who == testkit.Pending:
			c.Status, c.Contains = 403, []string{`"message":"Account pending approval`}
		case !access.Allowed(who):
			c.Status, c.Contains = 403, []string{`"status":403`}
		default:
			c.Status, c.Contains, c.Check = okStatus, okContains, check
		}
		out = append(out, c)
	}
	return out
}

// NewUser creates an approved user of role with a display name, for seeding swaps and
// assignments.
func NewUser(t testing.TB, app core.App, role string) *core.Record {
	t.Helper()
	return testkit.CreateUser(t, app, role, roles.Approved)
}
