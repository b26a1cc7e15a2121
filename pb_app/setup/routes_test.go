package setup_test

import (
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"

	"swapbay/internal/testkit"
	"swapbay/lib/idempotency"
)

// route is one mutation route as registered: method, full path, and whether it is bound
// idempotency.Skip() (on itself or a group above it).
type route struct {
	method, path string
	skip         bool
}

// walk lists g's mutation routes. A router group keeps its children unexported: they are read
// by reflection, so a PocketBase upgrade that renames the field fails this test loudly.
func walk(t *testing.T, g *router.RouterGroup[*core.RequestEvent], prefix string, skip bool, out *[]route) {
	t.Helper()
	prefix += g.Prefix
	skip = skip || slices.ContainsFunc(g.Middlewares, isSkip)
	f := reflect.ValueOf(g).Elem().FieldByName("children")
	if !f.IsValid() {
		t.Fatal("router.RouterGroup has no children field: update walk for this PocketBase")
	}
	children := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().([]any)
	for _, c := range children {
		switch c := c.(type) {
		case *router.Route[*core.RequestEvent]:
			switch c.Method {
			case "POST", "PUT", "PATCH", "DELETE":
				*out = append(*out, route{c.Method, prefix + c.Path, skip || slices.ContainsFunc(c.Middlewares, isSkip)})
			}
		case *router.RouterGroup[*core.RequestEvent]:
			walk(t, c, prefix, skip, out)
		default:
			t.Fatalf("unknown router child %T", c)
		}
	}
}

func isSkip(h *hook.Handler[*core.RequestEvent]) bool { return h.Id == idempotency.SkipId }

// swapbayRoutes returns the mutation routes SwapBay registers: those of the full router (as
// serve builds it) that apis.NewRouter alone, PocketBase's own, does not have.
func swapbayRoutes(t *testing.T) []route {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	base, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	var pb []route
	walk(t, base.RouterGroup, "", false, &pb)
	full, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.OnServe().Trigger(&core.ServeEvent{App: app, Router: full}, func(*core.ServeEvent) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var all, ours []route
	walk(t, full.RouterGroup, "", false, &all)
	for _, r := range all {
		if !slices.ContainsFunc(pb, func(p route) bool { return p.method == r.method && p.path == r.path }) {
			ours = append(ours, r)
		}
	}
	return ours
}

// row says how a mutation route meets a keyed request from the UI: it runs inside the keyed
// write transaction (keyed names the package whose API tests call it, through testkit, which
// keys every mutation, and check its effect), or it is bound idempotency.Skip() for the reason
// given (also written beside the binding).
type row struct{ keyed, skip string }

func keyed(pkg string) row { return row{keyed: pkg} }
func skip(why string) row  { return row{skip: why} }

// mutationRoutes is every mutation route SwapBay registers. A new route without a row fails
// TestEveryMutationRouteIsKeyedOrSkipped.
var mutationRoutes = map[string]row{
	"POST /api/login":           skip("checks a password (bcrypt)"),
	"POST /api/register":        skip("hashes the password (bcrypt)"),
	"POST /api/logout":          keyed("modules/auth"),
	"POST /api/change-password": skip("checks and hashes passwords (bcrypt)"),
	"POST /api/terms/sign":      keyed("modules/auth"),

	"POST /api/admin/users/create":               skip("hashes the password (bcrypt)"),
	"POST /api/admin/users/{id}/approval":        keyed("modules/users"),
	"PUT /api/admin/users/{id}":                  skip("may hash a new password (bcrypt)"),
	"DELETE /api/admin/users/{id}":               keyed("modules/users"),
	"POST /api/admin/users/{id}/suspend":         keyed("modules/users"),
	"POST /api/admin/force-terms-resigning/{id}": keyed("modules/users"),

	"POST /api/admin/terms-content":               keyed("modules/terms"),
	"PUT /api/admin/terms-content/{id}":           keyed("modules/terms"),
	"POST /api/admin/terms-content/{id}/activate": keyed("modules/terms"),
	"POST /api/admin/retry-pdf/{id}":              skip("renders a PDF; a failure is recorded, not rolled back"),

	"POST /api/driver/pickup":                    keyed("modules/inventory"),
	"POST /api/driver/dropoff-batteries":         keyed("modules/inventory"),
	"POST /api/driver/rebalance":                 keyed("modules/inventory"),
	"POST /api/driver/retrieves-repairs-dropoff": keyed("modules/inventory"),
	"PUT /api/admin/movements/{id}":              keyed("modules/inventory"),
	"DELETE /api/admin/movements/{id}":           keyed("modules/inventory"),

	"POST /api/start-charging":                         keyed("modules/charging"),
	"POST /api/admin/charge/{id}/complete":             keyed("modules/charging"),
	"DELETE /api/admin/charging-sessions/{id}":         keyed("modules/charging"),
	"PATCH /api/admin/charging-sessions/{id}/quantity": keyed("modules/charging"),

	"POST /api/admin/assignments":           keyed("modules/custody"),
	"DELETE /api/admin/assignments/{id}":    keyed("modules/custody"),
	"POST /api/admin/driver-swap":           keyed("modules/custody"),
	"POST /api/admin/dead-battery-transfer": keyed("modules/custody"),

	"POST /api/admin/update-stats":                 keyed("modules/system"),
	"POST /api/admin/emergency-override":           keyed("modules/system"),
	"POST /api/admin/emergency-inventory-override": keyed("modules/system"),
	"POST /api/admin/recalculate-inventory":        keyed("modules/system"),
	"POST /api/admin/settings":                     keyed("modules/system"),
	"POST /api/admin/history/wipe":                 keyed("modules/system"),
	"POST /api/admin/clean-slate":                  keyed("modules/system"),

	"POST /api/objects/upload":      keyed("modules/photos"),
	"PUT /api/objects/uploads/{id}": skip("streams up to 10 MB of image bytes"),
	"POST /api/photos/upload":       keyed("modules/photos"),
	"DELETE /api/photos/mass":       keyed("modules/photos"),
	"DELETE /api/photos/{id}":       keyed("modules/photos"),

	"POST /api/admin/pay-rates":                   keyed("modules/earnings"),
	"POST /api/admin/task-adjustments":            keyed("modules/earnings"),
	"POST /api/admin/users/{id}/pool-withholding": keyed("modules/earnings"),

	"POST /api/admin/packs/mint":          keyed("modules/packs"),
	"POST /api/admin/packs/import":        keyed("modules/packs"),
	"PUT /api/admin/packs/{serial}/state": keyed("modules/packs"),

	"PUT /api/admin/backups":     keyed("modules/backups"),
	"POST /api/admin/backups":    skip("VACUUM INTO cannot run in a transaction"),
	"PUT /api/admin/replication": skip("reaches the replica (S3 or a directory) before saving: no network call holds the write lock"),
}

func TestEveryMutationRouteIsKeyedOrSkipped(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range swapbayRoutes(t) {
		name := r.method + " " + r.path
		seen[name] = true
		row, ok := mutationRoutes[name]
		switch {
		case !ok:
			t.Errorf("%s has no row in mutationRoutes: test it keyed, or bind idempotency.Skip() with its reason", name)
		case row.skip != "" && !r.skip:
			t.Errorf("%s: the table skips it (%s) but the route is not bound idempotency.Skip()", name, row.skip)
		case row.skip == "" && r.skip:
			t.Errorf("%s is bound idempotency.Skip(): give its row the reason", name)
		}
	}
	for name := range mutationRoutes {
		if !seen[name] {
			t.Errorf("%s has a row but no route", name)
		}
	}
}
