package users_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/terms"
	"swapbay/modules/users"
)

// Fixed ids of the seeded users the rows act on.
const (
	pendingID = "pendingdriver01" // a pending driver
	masterID  = "othermaster0001" // an approved master_admin other than the caller
	signedID  = "signeddriver001" // a driver who signed the terms
	selfAdmin = "selfadmin000001"
	selfMastr = "selfmaster00001"
	unknownID = "nosuchuser00001"
)

func fixedUser(t testing.TB, app core.App, id, email, role, approval string) *core.Record {
	t.Helper()
	col, err := app.FindCollectionByNameOrId(schema.Users)
	if err != nil {
		t.Fatal(err)
	}
	rec := core.NewRecord(col)
	rec.Set("id", id)
	rec.SetEmail(email)
	rec.SetPassword(testkit.Password)
	rec.Set(schema.UserFirstName, "Fixed")
	rec.Set(schema.UserLastName, id)
	rec.Set(schema.UserRole, role)
	rec.Set(schema.UserIsApproved, approval)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// seed adds the rows' targets: a pending driver, a second master_admin and a signed driver.
func seed(t testing.TB, app *tests.TestApp, _ testkit.Callers) {
	fixedUser(t, app, pendingID, "pending.target@example.com", roles.Driver, roles.Pending)
	fixedUser(t, app, masterID, "other.master@example.com", roles.MasterAdmin, roles.Approved)
	signed := fixedUser(t, app, signedID, "signed@example.com", roles.Driver, roles.Pending)
	active, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	_, err = terms.RecordAgreement(app, terms.Signature{
		User: signed, Terms: active, PNG: []byte("\x89PNG\r\n\x1a\n"),
		IP: "198.51.100.7", UserAgent: "test", SignedAt: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
}

// as returns a factory and headers for caller kind who, with the targets seeded.
func as(who string) (func(testing.TB) *tests.TestApp, map[string]string) {
	return testkit.As(who, seed)
}

// asSelf returns a factory and headers for an approved user of role with a fixed id, with
// the targets seeded (for rows where callers act on themselves).
func asSelf(id, role string) (func(testing.TB) *tests.TestApp, map[string]string) {
	headers := map[string]string{"Content-Type": "application/json"}
	return func(t testing.TB) *tests.TestApp {
		app := testkit.NewApp(t)
		c := testkit.SeedCallers(t, app)
		seed(t, app, c)
		me := fixedUser(t, app, id, id+"@example.com", role, roles.Approved)
		headers["Authorization"] = testkit.TokenIn(t, app, me)
		return app
	}, headers
}

func find(t testing.TB, app core.App, id string) *core.Record {
	t.Helper()
	rec, err := app.FindRecordById(schema.Users, id)
	if err != nil {
		t.Fatalf("user %s: %v", id, err)
	}
	return rec
}

func wantField(field, want string, id string) func(testing.TB, *tests.TestApp, *http.Response) {
	return func(t testing.TB, app *tests.TestApp, res *http.Response) {
		if got := find(t, app, id).GetString(field); got != want {
			t.Errorf("user %s %s: got %q, want %q", id, field, got, want)
		}
	}
}

// guarded is one caller's expectation on an admin route.
func guarded(who string) (status int, content string) {
	switch who {
	case testkit.Guest:
		return 401, `"status":401`
	case testkit.Pending:
		return 403, `"message":"Account pending approval`
	case testkit.Driver, testkit.Liaison:
		return 403, `"status":403`
	}
	return 0, ""
}

// perCaller runs one scenario per caller kind. Admins get okStatus/okContent; the others
// the guard's answer. check runs after each, told whether the caller was allowed.
func perCaller(t *testing.T, method, url, reqBody string, okStatus int, okContent []string, check func(t testing.TB, app *tests.TestApp, allowed bool)) {
	t.Helper()
	for _, who := range testkit.AllCallers {
		factory, headers := as(who)
		s := tests.ApiScenario{
			Name: method + " " + url + " as " + who, Method: method, URL: url, Headers: headers, TestAppFactory: factory,
		}
		if reqBody != "" {
			s.Body = strings.NewReader(reqBody)
		}
		allowed := who == testkit.Admin || who == testkit.Master
		if allowed {
			s.ExpectedStatus, s.ExpectedContent = okStatus, okContent
		} else {
			status, content := guarded(who)
			s.ExpectedStatus, s.ExpectedContent = status, []string{content}
		}
		if check != nil {
			s.AfterTestFunc = func(t testing.TB, app *tests.TestApp, res *http.Response) { check(t, app, allowed) }
		}
		s.Test(t)
	}
}

type row struct {
	name    string
	factory func(testing.TB) *tests.TestApp
	headers map[string]string
	method  string
	url     string
	body    string
	status  int
	want    []string
	after   func(testing.TB, *tests.TestApp, *http.Response)
}

func runRows(t *testing.T, rows []row) {
	t.Helper()
	for _, r := range rows {
		s := tests.ApiScenario{
			Name: r.name, Method: r.method, URL: r.url, Headers: r.headers, TestAppFactory: r.factory,
			ExpectedStatus: r.status, ExpectedContent: r.want, AfterTestFunc: r.after,
		}
		if r.body != "" {
			s.Body = strings.NewReader(r.body)
		}
		s.Test(t)
	}
}

func rowAs(who string, r row) row {
	r.factory, r.headers = as(who)
	return r
}

func rowSelf(id, role string, r row) row {
	r.factory, r.headers = asSelf(id, role)
	return r
}

func decodeList(t testing.TB, res *http.Response) []users.AdminJSON {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out []users.AdminJSON
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return out
}

func TestListUsers(t *testing.T) {
	t.Parallel()
	perCaller(t, http.MethodGet, "/api/admin/users", "", 200, []string{
		`"email":"signed@example.com"`, `"termsStatus":{"signed":true,"pdfStatus":"`,
		`"version":"2025.1"`, `"signed":false`, `"created":"`, `"role":"master_admin"`,
	}, nil)

	runRows(t, []row{
		rowAs(testkit.Admin, row{
			name: "newest first, every user", method: http.MethodGet, url: "/api/admin/users",
			status: 200, want: []string{`"id":"`},
			after: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				list := decodeList(t, res)
				total, _ := app.CountRecords(schema.Users)
				if int64(len(list)) != total {
					t.Fatalf("listed %d users, have %d", len(list), total)
				}
				for i := 1; i < len(list); i++ {
					if list[i-1].Created < list[i].Created {
						t.Fatalf("not newest first: %s before %s", list[i-1].Created, list[i].Created)
					}
				}
			},
		}),
	})
	// an admin account that is not approved gets its own state's message
	for state, msg := range map[string]string{roles.Pending: "Account pending approval", roles.Rejected: "Account rejected", roles.Suspended: "Account suspended"} {
		headers := map[string]string{}
		s := tests.ApiScenario{
			Name: state + " admin", Method: http.MethodGet, URL: "/api/admin/users", Headers: headers,
			TestAppFactory: func(t testing.TB) *tests.TestApp {
				app := testkit.NewApp(t)
				headers["Authorization"] = testkit.Token(t, testkit.CreateUser(t, app, roles.Admin, state))
				return app
			},
			ExpectedStatus: 403, ExpectedContent: []string{`"message":"` + msg},
		}
		s.Test(t)
	}
}

func TestListPendingUsers(t *testing.T) {
	t.Parallel()
	perCaller(t, http.MethodGet, "/api/admin/users/pending", "", 200, []string{`"id":"` + pendingID + `"`}, nil)
	runRows(t, []row{rowAs(testkit.Master, row{
		name: "only pending users", method: http.MethodGet, url: "/api/admin/users/pending",
		status: 200, want: []string{`"isApproved":"pending"`},
		after: func(t testing.TB, app *tests.TestApp, res *http.Response) {
			list := decodeList(t, res)
			// the pending caller, the pending target and the signed (pending) registrant
			if len(list) != 3 {
				t.Fatalf("got %d pending users, want 3", len(list))
			}
			for _, u := range list {
				if u.IsApproved != roles.Pending {
					t.Errorf("%s is %s", u.Email, u.IsApproved)
				}
			}
		},
	})})
}

// unchanged checks user id still has approval state.
func unchanged(id, field, want string) func(testing.TB, *tests.TestApp, *http.Response) {
	return wantField(field, want, id)
}

func TestSetApproval(t *testing.T) {
	t.Parallel()
	url := "/api/admin/users/" + pendingID + "/approval"
	perCaller(t, http.MethodPost, url, `{"isApproved":"approved"}`, 200,
		[]string{`"id":"` + pendingID + `"`, `"isApproved":"approved"`},
		func(t testing.TB, app *tests.TestApp, allowed bool) {
			want := roles.Pending
			if allowed {
				want = roles.Approved
			}
			wantField(schema.UserIsApproved, want, pendingID)(t, app, nil)
		})

	masterURL := "/api/admin/users/" + masterID + "/approval"
	rows := []row{
		rowAs(testkit.Admin, row{name: "admin may not change a master_admin", method: http.MethodPost, url: masterURL,
			body: `{"isApproved":"suspended"}`, status: 403, want: []string{`"message":"Only Master Admins can change a Master Admin account`},
			after: unchanged(masterID, schema.UserIsApproved, roles.Approved)}),
		rowAs(testkit.Master, row{name: "master_admin may change a master_admin", method: http.MethodPost, url: masterURL,
			body: `{"isApproved":"suspended"}`, status: 200, want: []string{`"isApproved":"suspended"`},
			after: unchanged(masterID, schema.UserIsApproved, roles.Suspended)}),
		rowSelf(selfAdmin, roles.Admin, row{name: "admin may not change own approval", method: http.MethodPost, url: "/api/admin/users/" + selfAdmin + "/approval",
			body: `{"isApproved":"pending"}`, status: 400, want: []string{`"message":"You cannot change your own approval status`},
			after: unchanged(selfAdmin, schema.UserIsApproved, roles.Approved)}),
		rowSelf(selfMastr, roles.MasterAdmin, row{name: "master_admin may not change own approval", method: http.MethodPost, url: "/api/admin/users/" + selfMastr + "/approval",
			body: `{"isApproved":"suspended"}`, status: 400, want: []string{`"message":"You cannot change your own approval status`},
			after: unchanged(selfMastr, schema.UserIsApproved, roles.Approved)}),
		rowAs(testkit.Admin, row{name: "unknown user", method: http.MethodPost, url: "/api/admin/users/" + unknownID + "/approval",
			body: `{"isApproved":"approved"}`, status: 404, want: []string{`"status":404`}}),
		rowAs(testkit.Admin, row{name: "bad value", method: http.MethodPost, url: url,
			body: `{"isApproved":"maybe"}`, status: 400, want: []string{`"message":"Invalid approval status`, `"isApproved":`},
			after: unchanged(pendingID, schema.UserIsApproved, roles.Pending)}),
		rowAs(testkit.Admin, row{name: "missing value", method: http.MethodPost, url: url,
			status: 400, want: []string{`"message":"Invalid approval status`},
			after: unchanged(pendingID, schema.UserIsApproved, roles.Pending)}),
		rowAs(testkit.Admin, row{name: "wrong type", method: http.MethodPost, url: url,
			body: `{"isApproved":true}`, status: 400, want: []string{`"status":400`},
			after: unchanged(pendingID, schema.UserIsApproved, roles.Pending)}),
	}
	for _, state := range []string{roles.Rejected, roles.Suspended, roles.Pending} {
		rows = append(rows, rowAs(testkit.Admin, row{name: "admin sets " + state, method: http.MethodPost,
			url: "/api/admin/users/" + pendingID + "/approval", body: `{"isApproved":"` + state + `"}`,
			status: 200, want: []string{`"isApproved":"` + state + `"`}}))
	}
	runRows(t, rows)
}

func TestSuspend(t *testing.T) {
	t.Parallel()
	url := "/api/admin/users/" + pendingID + "/suspend"
	perCaller(t, http.MethodPost, url, "", 200, []string{`"isApproved":"suspended"`},
		func(t testing.TB, app *tests.TestApp, allowed bool) {
			want := roles.Pending
			if allowed {
				want = roles.Suspended
			}
			wantField(schema.UserIsApproved, want, pendingID)(t, app, nil)
		})
	runRows(t, []row{
		rowAs(testkit.Admin, row{name: "admin may not suspend a master_admin", method: http.MethodPost, url: "/api/admin/users/" + masterID + "/suspend",
			status: 403, want: []string{`"message":"Only Master Admins can change a Master Admin account`},
			after: unchanged(masterID, schema.UserIsApproved, roles.Approved)}),
		rowAs(testkit.Master, row{name: "master_admin suspends a master_admin", method: http.MethodPost, url: "/api/admin/users/" + masterID + "/suspend",
			status: 200, want: []string{`"isApproved":"suspended"`},
			after: unchanged(masterID, schema.UserIsApproved, roles.Suspended)}),
		rowSelf(selfAdmin, roles.Admin, row{name: "no self suspend", method: http.MethodPost, url: "/api/admin/users/" + selfAdmin + "/suspend",
			status: 400, want: []string{`"message":"You cannot change your own approval status`},
			after: unchanged(selfAdmin, schema.UserIsApproved, roles.Approved)}),
		rowAs(testkit.Admin, row{name: "unknown user", method: http.MethodPost, url: "/api/admin/users/" + unknownID + "/suspend",
			status: 404, want: []string{`"status":404`}}),
	})
}

func createBody(email, role string, bypass bool) string {
	b, _ := json.Marshal(map[string]any{
		"firstName": "Cora", "lastName": "Liaison", "email": email, "role": role,
		"password": "secret123", "bypassTerms": bypass,
	})
	return string(b)
}

// created checks whether a user with email exists (and its approval/mustResign when it does).
func created(email string, want bool) func(testing.TB, *tests.TestApp, *http.Response) {
	return func(t testing.TB, app *tests.TestApp, res *http.Response) {
		rec, err := users.FindByEmail(app, email)
		if want != (err == nil) {
			t.Fatalf("user %s exists: %v, want %v", email, err == nil, want)
		}
		if want && rec.GetString(schema.UserIsApproved) != roles.Approved {
			t.Errorf("created user is %s, want approved", rec.GetString(schema.UserIsApproved))
		}
	}
}

func TestAdminCreateUser(t *testing.T) {
	t.Parallel()
	perCaller(t, http.MethodPost, "/api/admin/users/create", createBody("cora@example.com", roles.Liaison, true), 200,
		[]string{`"email":"cora@example.com"`, `"role":"corporate_liason"`, `"isApproved":"approved"`, `"mustResignTerms":false`, `"payReductionPercentage":20`},
		func(t testing.TB, app *tests.TestApp, allowed bool) {
			created("cora@example.com", allowed)(t, app, nil)
		})

	url := "/api/admin/users/create"
	runRows(t, []row{
		rowAs(testkit.Admin, row{name: "without bypass the user must sign at next login", method: http.MethodPost, url: url,
			body: createBody("d@example.com", roles.Driver, false), status: 200, want: []string{`"mustResignTerms":true`},
			after: created("d@example.com", true)}),
		rowAs(testkit.Admin, row{name: "admin may not create a master_admin", method: http.MethodPost, url: url,
			body: createBody("m@example.com", roles.MasterAdmin, true), status: 403,
			want: []string{`"message":"Only Master Admins can assign the Master Admin role`}, after: created("m@example.com", false)}),
		rowAs(testkit.Master, row{name: "master_admin may create a master_admin", method: http.MethodPost, url: url,
			body: createBody("m@example.com", roles.MasterAdmin, true), status: 200,
			want: []string{`"role":"master_admin"`}, after: created("m@example.com", true)}),
		rowAs(testkit.Admin, row{name: "missing email", method: http.MethodPost, url: url,
			body: createBody("", roles.Driver, true), status: 400, want: []string{`"message":"Email and password are required`}}),
		rowAs(testkit.Admin, row{name: "missing password", method: http.MethodPost, url: url,
			body: `{"firstName":"a","lastName":"b","email":"p@example.com","role":"driver"}`, status: 400,
			want: []string{`"message":"Email and password are required`}, after: created("p@example.com", false)}),
		rowAs(testkit.Admin, row{name: "short password", method: http.MethodPost, url: url,
			body: `{"firstName":"a","lastName":"b","email":"p@example.com","role":"driver","password":"123"}`, status: 400,
			want: []string{`"message":"Password must be at least 6 characters`}, after: created("p@example.com", false)}),
		rowAs(testkit.Admin, row{name: "missing names", method: http.MethodPost, url: url,
			body: `{"email":"p@example.com","role":"driver","password":"secret123"}`, status: 400,
			want: []string{`"message":"First name and last name are required`}, after: created("p@example.com", false)}),
		rowAs(testkit.Admin, row{name: "bad role", method: http.MethodPost, url: url,
			body: createBody("r@example.com", "boss", true), status: 400,
			want: []string{`"message":"Invalid role`}, after: created("r@example.com", false)}),
		rowAs(testkit.Admin, row{name: "taken email", method: http.MethodPost, url: url,
			body: createBody("Pending.Target@example.com", roles.Driver, true), status: 400,
			want: []string{`"message":"An account with this email already exists`, `"email":`}}),
	})
}

func TestUpdateUser(t *testing.T) {
	t.Parallel()
	url := "/api/admin/users/" + pendingID
	perCaller(t, http.MethodPut, url, `{"payReductionPercentage":15}`, 200, []string{`"payReductionPercentage":15`},
		func(t testing.TB, app *tests.TestApp, allowed bool) {
			want := "20"
			if allowed {
				want = "15"
			}
			wantField(schema.UserPayReductionPercentage, want, pendingID)(t, app, nil)
		})

	masterURL := "/api/admin/users/" + masterID
	runRows(t, []row{
		rowAs(testkit.Admin, row{name: "only changed fields", method: http.MethodPut, url: url,
			body: `{"firstName":"  Renamed "}`, status: 200, want: []string{`"firstName":"Renamed"`, `"lastName":"pendingdriver01"`},
			after: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				u := find(t, app, pendingID)
				if u.GetString(schema.UserLastName) != pendingID || u.GetString(schema.UserRole) != roles.Driver || !u.ValidatePassword(testkit.Password) {
					t.Error("fields not sent were changed")
				}
			}}),
		rowAs(testkit.Admin, row{name: "blank password keeps the old one", method: http.MethodPut, url: url,
			body: `{"password":""}`, status: 200, want: []string{`"id":"` + pendingID},
			after: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if !find(t, app, pendingID).ValidatePassword(testkit.Password) {
					t.Error("password changed")
				}
			}}),
		rowAs(testkit.Admin, row{name: "new password", method: http.MethodPut, url: url,
			body: `{"password":"another-pass"}`, status: 200, want: []string{`"id":"` + pendingID},
			after: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				if !find(t, app, pendingID).ValidatePassword("another-pass") {
					t.Error("password not changed")
				}
			}}),
		rowAs(testkit.Admin, row{name: "email and role", method: http.MethodPut, url: url,
			body: `{"email":" New@Example.com ","role":"corporate_liason"}`, status: 200,
			want: []string{`"email":"new@example.com"`, `"role":"corporate_liason"`}}),
		rowAs(testkit.Admin, row{name: "admin may not edit a master_admin", method: http.MethodPut, url: masterURL,
			body: `{"firstName":"X"}`, status: 403, want: []string{`"message":"Only Master Admins can change a Master Admin account`},
			after: unchanged(masterID, schema.UserFirstName, "Fixed")}),
		rowAs(testkit.Admin, row{name: "admin may not grant master_admin", method: http.MethodPut, url: url,
			body: `{"role":"master_admin"}`, status: 403, want: []string{`"message":"Only Master Admins can assign the Master Admin role`},
			after: unchanged(pendingID, schema.UserRole, roles.Driver)}),
		rowAs(testkit.Master, row{name: "master_admin grants master_admin", method: http.MethodPut, url: url,
			body: `{"role":"master_admin"}`, status: 200, want: []string{`"role":"master_admin"`},
			after: unchanged(pendingID, schema.UserRole, roles.MasterAdmin)}),
		rowAs(testkit.Master, row{name: "master_admin demotes another master_admin", method: http.MethodPut, url: masterURL,
			body: `{"role":"admin"}`, status: 200, want: []string{`"role":"admin"`},
			after: unchanged(masterID, schema.UserRole, roles.Admin)}),
		rowSelf(selfAdmin, roles.Admin, row{name: "no own role change", method: http.MethodPut, url: "/api/admin/users/" + selfAdmin,
			body: `{"role":"driver"}`, status: 400, want: []string{`"message":"You cannot change your own role`},
			after: unchanged(selfAdmin, schema.UserRole, roles.Admin)}),
		rowSelf(selfAdmin, roles.Admin, row{name: "own name change is fine", method: http.MethodPut, url: "/api/admin/users/" + selfAdmin,
			body: `{"firstName":"Me","role":"admin"}`, status: 200, want: []string{`"firstName":"Me"`}}),
		rowAs(testkit.Admin, row{name: "pay reduction over 100", method: http.MethodPut, url: url,
			body: `{"payReductionPercentage":101}`, status: 400, want: []string{`"message":"Please enter a number between 0 and 100`},
			after: unchanged(pendingID, schema.UserPayReductionPercentage, "20")}),
		rowAs(testkit.Admin, row{name: "pay reduction not whole", method: http.MethodPut, url: url,
			body: `{"payReductionPercentage":12.5}`, status: 400, want: []string{`"message":"Please enter a number between 0 and 100`},
			after: unchanged(pendingID, schema.UserPayReductionPercentage, "20")}),
		rowAs(testkit.Admin, row{name: "pay reduction 0 allowed", method: http.MethodPut, url: url,
			body: `{"payReductionPercentage":0}`, status: 200, want: []string{`"payReductionPercentage":0`},
			after: unchanged(pendingID, schema.UserPayReductionPercentage, "0")}),
		rowAs(testkit.Admin, row{name: "blank name", method: http.MethodPut, url: url,
			body: `{"lastName":"  "}`, status: 400, want: []string{`"message":"First name and last name are required`},
			after: unchanged(pendingID, schema.UserLastName, pendingID)}),
		rowAs(testkit.Admin, row{name: "taken email", method: http.MethodPut, url: url,
			body: `{"email":"SIGNED@example.com"}`, status: 400, want: []string{`"message":"An account with this email already exists`},
			after: unchanged(pendingID, core.FieldNameEmail, "pending.target@example.com")}),
		rowAs(testkit.Admin, row{name: "bad email", method: http.MethodPut, url: url,
			body: `{"email":"nope"}`, status: 400, want: []string{`"message":"Please enter a valid email address`},
			after: unchanged(pendingID, core.FieldNameEmail, "pending.target@example.com")}),
		rowAs(testkit.Admin, row{name: "bad role", method: http.MethodPut, url: url,
			body: `{"role":"boss"}`, status: 400, want: []string{`"message":"Invalid role`},
			after: unchanged(pendingID, schema.UserRole, roles.Driver)}),
		rowAs(testkit.Admin, row{name: "unknown user", method: http.MethodPut, url: "/api/admin/users/" + unknownID,
			body: `{"firstName":"X"}`, status: 404, want: []string{`"status":404`}}),
	})
}

// exists checks whether user id exists.
func exists(id string, want bool) func(testing.TB, *tests.TestApp, *http.Response) {
	return func(t testing.TB, app *tests.TestApp, res *http.Response) {
		_, err := app.FindRecordById(schema.Users, id)
		if (err == nil) != want {
			t.Fatalf("user %s exists: %v, want %v", id, err == nil, want)
		}
	}
}

func TestDeleteUser(t *testing.T) {
	t.Parallel()
	perCaller(t, http.MethodDelete, "/api/admin/users/"+pendingID, "", 200, []string{`"message":"User deleted successfully"`},
		func(t testing.TB, app *tests.TestApp, allowed bool) { exists(pendingID, !allowed)(t, app, nil) })
	runRows(t, []row{
		rowAs(testkit.Admin, row{name: "admin may not delete a master_admin", method: http.MethodDelete, url: "/api/admin/users/" + masterID,
			status: 403, want: []string{`"message":"Only Master Admins can change a Master Admin account`}, after: exists(masterID, true)}),
		rowAs(testkit.Master, row{name: "master_admin deletes a master_admin", method: http.MethodDelete, url: "/api/admin/users/" + masterID,
			status: 200, want: []string{`"message":`}, after: exists(masterID, false)}),
		rowSelf(selfMastr, roles.MasterAdmin, row{name: "no self delete", method: http.MethodDelete, url: "/api/admin/users/" + selfMastr,
			status: 400, want: []string{`"message":"You cannot delete your own account`}, after: exists(selfMastr, true)}),
		rowAs(testkit.Admin, row{name: "unknown user", method: http.MethodDelete, url: "/api/admin/users/" + unknownID,
			status: 404, want: []string{`"status":404`}}),
		{name: "a user holding batteries is kept", method: http.MethodDelete, url: "/api/admin/users/" + pendingID,
			factory: holding, headers: holdingHeaders,
			status: 409, want: []string{`"message":"This user still holds batteries`}, after: exists(pendingID, true)},
		// a signed agreement is a legal record: it outlives the account, with the signer's name and email
		rowAs(testkit.Admin, row{name: "the agreement outlives the user", method: http.MethodDelete, url: "/api/admin/users/" + signedID,
			status: 200, want: []string{`"message":`},
			after: func(t testing.TB, app *tests.TestApp, res *http.Response) {
				recs, err := app.FindAllRecords(schema.Agreements)
				if err != nil || len(recs) != 1 {
					t.Fatalf("%d agreements left (%v), want 1", len(recs), err)
				}
				if a := recs[0]; a.GetString(schema.AgreementUser) != "" || a.GetString(schema.AgreementEmail) != "signed@example.com" {
					t.Fatalf("agreement after the delete: user %q, email %q", a.GetString(schema.AgreementUser), a.GetString(schema.AgreementEmail))
				}
			}}),
	})
}

var holdingHeaders = map[string]string{}

// holding seeds the targets and gives the pending driver 3 batteries on a holder account.
func holding(t testing.TB) *tests.TestApp {
	factory, headers := as(testkit.Admin)
	app := factory(t)
	for k, v := range headers {
		holdingHeaders[k] = v
	}
	col, err := app.FindCollectionByNameOrId(schema.Accounts)
	if err != nil {
		t.Fatal(err)
	}
	acc := core.NewRecord(col)
	acc.Set(schema.AccountKey, inventory.HolderKey(pendingID, "pickup"))
	acc.Set(schema.AccountKind, schema.AccountKindHolder)
	acc.Set(schema.AccountUser, pendingID)
	acc.Set(schema.AccountAssignmentType, "pickup")
	acc.Set(schema.AccountBalance, 3)
	if err := app.Save(acc); err != nil {
		t.Fatal(err)
	}
	return app
}

func TestForceResign(t *testing.T) {
	t.Parallel()
	perCaller(t, http.MethodPost, "/api/admin/force-terms-resigning/"+pendingID, "", 200,
		[]string{`"message":"`, `"mustResignTerms":true`},
		func(t testing.TB, app *tests.TestApp, allowed bool) {
			if find(t, app, pendingID).GetBool(schema.UserMustResignTerms) != allowed {
				t.Errorf("mustResignTerms should be %v", allowed)
			}
		})
	runRows(t, []row{
		rowAs(testkit.Admin, row{name: "admin may not force a master_admin", method: http.MethodPost, url: "/api/admin/force-terms-resigning/" + masterID,
			status: 403, want: []string{`"message":"Only Master Admins can change a Master Admin account`},
			after: unchanged(masterID, schema.UserMustResignTerms, "false")}),
		rowAs(testkit.Master, row{name: "master_admin forces a master_admin", method: http.MethodPost, url: "/api/admin/force-terms-resigning/" + masterID,
			status: 200, want: []string{`"mustResignTerms":true`}, after: unchanged(masterID, schema.UserMustResignTerms, "true")}),
		rowAs(testkit.Admin, row{name: "unknown user", method: http.MethodPost, url: "/api/admin/force-terms-resigning/" + unknownID,
			status: 404, want: []string{`"status":404`}}),
	})
}
