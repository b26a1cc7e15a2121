// Package testkit builds SwapBay test apps: a migrated data dir cloned per test, every module
// registered, and one user per caller role, so API tables can have a row per caller.
// Use it from external test packages (package x_test) to keep imports one-way.
package testkit

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
	"github.com/pocketbase/pocketbase/tools/hook"
	"golang.org/x/crypto/bcrypt"

	"swapbay/lib/records"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/auth"
	"swapbay/pb_app/setup"
)

// Password is the password of every user testkit creates.
const Password = "secret123"

var (
	templateOnce sync.Once
	templateDir  string
	templateErr  error
	userSeq      atomic.Int64
)

// template migrates one empty data dir per test binary; every test app is a clone of it.
func template() (string, error) {
	templateOnce.Do(func() {
		templateDir, templateErr = os.MkdirTemp("", "swapbay_template_*")
		if templateErr != nil {
			return
		}
		var app *tests.TestApp
		app, templateErr = newTestApp(templateDir)
		if templateErr != nil {
			return
		}
		// Tests hash many passwords: the cheapest bcrypt cost keeps them fast. Production
		// keeps PocketBase's default cost.
		if templateErr = cheapPasswords(app); templateErr != nil {
			return
		}
		// NewTestApp cloned the dir: the migrated clone becomes the template.
		migrated := app.DataDir()
		app.ResetBootstrapState()
		templateDir = migrated
	})
	return templateDir, templateErr
}

// newTestApp is tests.NewTestApp (a clone of dir) on the database connections the server uses
// (sqlitedb: PocketBase's pragmas, the per-connection statement cache, the pool's size).
func newTestApp(dir string) (*tests.TestApp, error) {
	config := sqlitedb.AppConfig(dir)
	config.EncryptionEnv = "pb_test_env" // as tests.NewTestApp
	return tests.NewTestAppWithConfig(config)
}

// NewApp returns a migrated test app with every SwapBay module registered.
// Call app.Cleanup() when done (ApiScenario does it for you).
func NewApp(t testing.TB) *tests.TestApp {
	t.Helper()
	dir, err := template()
	if err != nil {
		t.Fatalf("testkit: template data dir: %v", err)
	}
	app, err := newTestApp(dir)
	if err != nil {
		t.Fatalf("testkit: new test app: %v", err)
	}
	register(app)
	return app
}

// Open opens an existing data dir (a restored backup, an older release's data) as a test app:
// migrated forward, every module registered, known to Token. Call app.Cleanup() when done.
func Open(t testing.TB, dir string) *tests.TestApp {
	t.Helper()
	app, err := newTestApp(dir)
	if err != nil {
		t.Fatalf("testkit: open %s: %v", dir, err)
	}
	register(app)
	return app
}

// register wires SwapBay onto app as the server does, makes every mutation carry an
// Idempotency-Key as the UI's do (Keyed), and makes the app known to Token.
func register(app *tests.TestApp) {
	setup.Register(app)
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Id: "testkitKeyed",
		Func: func(se *core.ServeEvent) error {
			se.Router.Bind(Keyed())
			return se.Next()
		},
	})
	apps.Store(app, struct{}{})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		apps.Delete(app)
		return e.Next()
	})
}

// apps are the live test apps NewApp made, so Token can find the app a record lives in.
var apps sync.Map // *tests.TestApp → struct{}

// Factory returns an ApiScenario.TestAppFactory that makes a new app and runs seed on it.
func Factory(seed func(t testing.TB, app *tests.TestApp)) func(t testing.TB) *tests.TestApp {
	return func(t testing.TB) *tests.TestApp {
		app := NewApp(t)
		if seed != nil {
			seed(t, app)
		}
		return app
	}
}

// CreateUser saves a user with the given role and approval state and returns it.
func CreateUser(t testing.TB, app core.App, role, approval string) *core.Record {
	t.Helper()
	col, err := app.FindCollectionByNameOrId(schema.Users)
	if err != nil {
		t.Fatal(err)
	}
	n := userSeq.Add(1)
	rec := core.NewRecord(col)
	rec.SetEmail(fmt.Sprintf("%s%d@example.com", role, n))
	rec.SetPassword(Password)
	rec.Set(schema.UserFirstName, "First"+fmt.Sprint(n))
	rec.Set(schema.UserLastName, "Last"+fmt.Sprint(n))
	rec.Set(schema.UserRole, role)
	rec.Set(schema.UserIsApproved, approval)
	rec.Set(schema.UserPayReductionPercentage, schema.DefaultPayReductionPercentage)
	if err := app.Save(rec); err != nil {
		t.Fatalf("testkit: create %s user: %v", role, err)
	}
	return rec
}

// ClaimedPhoto stores a photo of userId as the photo flow leaves it once a movement or a
// damage report has claimed it, and returns its id.
func ClaimedPhoto(t testing.TB, app core.App, userId string) string {
	t.Helper()
	rec, err := records.New(app, schema.Photos)
	if err != nil {
		t.Fatal(err)
	}
	rec.Set(schema.PhotoUploadedBy, userId)
	rec.Set(schema.PhotoClaimed, true)
	rec.Set(schema.PhotoFilename, "swollen.jpg")
	if err := app.Save(rec); err != nil {
		t.Fatalf("testkit: save a claimed photo: %v", err)
	}
	return rec.Id
}

// TokenIn is Token for a user of app: use it when user ids are fixed, as several test apps
// running in parallel may then hold a user with the same id.
func TokenIn(t testing.TB, app core.App, rec *core.Record) string {
	t.Helper()
	token, err := auth.NewSession(app, rec, "127.0.0.1", "testkit")
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// SuperuserToken saves a superuser with email in app (a city's or head office's) and returns
// its auth token: the raw-data door's tests write through the record API as /_/ does.
func SuperuserToken(t testing.TB, app core.App, email string) string {
	t.Helper()
	su, err := records.New(app, core.CollectionNameSuperusers)
	if err != nil {
		t.Fatal(err)
	}
	su.SetEmail(email)
	su.SetPassword("superuser-secret-1")
	if err := app.Save(su); err != nil {
		t.Fatal(err)
	}
	token, err := su.NewAuthToken()
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// Token signs rec in as /api/login does (a new session on its app, see auth.NewSession) and
// returns the session token, usable as the Authorization header or the session cookie value.
func Token(t testing.TB, rec *core.Record) string {
	t.Helper()
	var token string
	var err error
	found := false
	apps.Range(func(k, _ any) bool {
		app := k.(*tests.TestApp)
		if _, ferr := app.FindRecordById(schema.Users, rec.Id); ferr != nil {
			return true
		}
		found = true
		token, err = auth.NewSession(app, rec, "127.0.0.1", "testkit")
		return false
	})
	if !found {
		t.Fatalf("testkit: no test app holds user %s", rec.Id)
	}
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// Callers holds one user per caller kind of DESIGN.md §4.
type Callers struct {
	Pending, Driver, Liaison, Admin, Master *core.Record
}

// SeedCallers creates one approved user per role plus a pending driver.
func SeedCallers(t testing.TB, app core.App) Callers {
	t.Helper()
	return Callers{
		Pending: CreateUser(t, app, roles.Driver, roles.Pending),
		Driver:  CreateUser(t, app, roles.Driver, roles.Approved),
		Liaison: CreateUser(t, app, roles.Liaison, roles.Approved),
		Admin:   CreateUser(t, app, roles.Admin, roles.Approved),
		Master:  CreateUser(t, app, roles.MasterAdmin, roles.Approved),
	}
}

// Headers returns request headers authenticating as rec (nil rec means a guest).
func Headers(t testing.TB, rec *core.Record) map[string]string {
	h := map[string]string{"Content-Type": "application/json"}
	if rec != nil {
		h["Authorization"] = Token(t, rec)
	}
	return h
}

// Caller kinds for API tables, one row per caller (STYLE.md).
const (
	Guest   = "guest"
	Pending = "pending"
	Driver  = "driver"
	Liaison = "liaison"
	Admin   = "admin"
	Master  = "master_admin"
)

// AllCallers lists every caller kind in table order.
var AllCallers = []string{Guest, Pending, Driver, Liaison, Admin, Master}

// Pick returns the user of c for caller kind who (nil for Guest).
func (c Callers) Pick(who string) *core.Record {
	switch who {
	case Pending:
		return c.Pending
	case Driver:
		return c.Driver
	case Liaison:
		return c.Liaison
	case Admin:
		return c.Admin
	case Master:
		return c.Master
	}
	return nil
}

// As returns an ApiScenario factory and headers for caller kind who. The factory seeds the
// callers, runs seed (may be nil) and then fills headers in place, so the same map given as
// ApiScenario.Headers authenticates the request.
func As(who string, seed func(t testing.TB, app *tests.TestApp, c Callers)) (func(t testing.TB) *tests.TestApp, map[string]string) {
	headers := map[string]string{"Content-Type": "application/json"}
	factory := func(t testing.TB) *tests.TestApp {
		app := NewApp(t)
		c := SeedCallers(t, app)
		if seed != nil {
			seed(t, app, c)
		}
		if rec := c.Pick(who); rec != nil {
			headers["Authorization"] = Token(t, rec)
		}
		return app
	}
	return factory, headers
}

// cheapPasswords sets the users password field to bcrypt's minimum cost.
func cheapPasswords(app core.App) error {
	users, err := app.FindCollectionByNameOrId(schema.Users)
	if err != nil {
		return err
	}
	if f, ok := users.Fields.GetByName("password").(*core.PasswordField); ok {
		f.Cost = bcrypt.MinCost
	}
	return app.Save(users)
}
