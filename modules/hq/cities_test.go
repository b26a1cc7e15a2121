package hq_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
	"swapbay/modules/replication"

	_ "swapbay/pb_migrations"    // the city's migrations, registered in core.AppMigrations: HQ must not run them
	_ "swapbay/pb_migrations/hq" // HQ's own
)

type hqServer struct {
	t             *testing.T
	app           *hq.App
	set           *follow.Set
	mux           http.Handler
	admin, viewer string // auth tokens
}

func newHQ(t *testing.T) *hqServer {
	t.Helper()
	app, err := hq.NewApp(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opt := follow.DefaultOptions()
	opt.Interval, opt.CheckInterval, opt.RetryMin = 100*time.Millisecond, 100*time.Millisecond, 100*time.Millisecond
	set := hq.NewSet(context.Background(), app, opt)
	hq.Register(app, set)
	s := &hqServer{t: t, app: app, set: set}
	r, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	err = app.OnServe().Trigger(&core.ServeEvent{App: app, Router: r}, func(e *core.ServeEvent) error {
		mux, err := e.Router.BuildMux()
		s.mux = mux
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		set.Close()
		_ = app.ResetBootstrapState()
	})
	s.admin = s.user("admin@hq.example", hq.RoleAdmin)
	s.viewer = s.user("viewer@hq.example", hq.RoleViewer)
	return s
}

func (s *hqServer) user(email, role string) string {
	rec, err := hq.CreateUser(s.app, hq.NewUser{Email: email, Password: "long-secret-1", Role: role})
	if err != nil {
		s.t.Fatal(err)
	}
	tok, err := rec.NewAuthToken()
	if err != nil {
		s.t.Fatal(err)
	}
	return tok
}

var keyN int

// do sends method path body as token (keyed: a fresh Idempotency-Key unless key is given).
func (s *hqServer) do(token, method, path, body string, key ...string) (int, string) {
	s.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	if method != http.MethodGet {
		keyN++
		k := "test-key-" + time.Now().Format("150405.000000") + "-" + string(rune('a'+keyN%26)) + strings.Repeat("x", keyN%7)
		if len(key) > 0 {
			k = key[0]
		}
		req.Header.Set("Idempotency-Key", k)
	}
	rec := httptest.NewRecorder()
	s.mux.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

func (s *hqServer) cityCount() int {
	n, err := s.app.CountRecords(hq.Cities)
	if err != nil {
		s.t.Fatal(err)
	}
	return int(n)
}

func cityJSON(over map[string]any) string {
	m := map[string]any{"name": "Paris", "timeZone": "Europe/Paris", "currency": "EUR",
		"replicaUrl": "s3://swapbay-paris/db?endpoint=https://s3.example&region=eu-west-3", "accessKeyId": "AKIAPARIS",
		"secretAccessKey": "paris-secret", "address": "https://paris.swapbay.example", "token": "hq-token-paris"}
	for k, v := range over {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// HQ's data dir has HQ's collections only: cities, the users with a role, the idempotency
// keys; none of the city's (their migrations are registered in this test binary and not run).
func TestHQHasItsOwnCollections(t *testing.T) {
	s := newHQ(t)
	for _, name := range []string{hq.Cities, hq.Users, "idempotency_keys"} {
		if _, err := s.app.FindCollectionByNameOrId(name); err != nil {
			t.Errorf("HQ lacks %s: %v", name, err)
		}
	}
	for _, name := range []string{"movements", "packs", "settings", "replication_settings", "terms"} {
		if _, err := s.app.FindCollectionByNameOrId(name); err == nil {
			t.Errorf("HQ has the city's collection %s", name)
		}
	}
	users, _ := s.app.FindCollectionByNameOrId(hq.Users)
	if users.CreateRule != nil || users.ListRule != nil {
		t.Errorf("HQ's users are open to the record API: create %v list %v", users.CreateRule, users.ListRule)
	}
}

// A city created, shown with the keys and the token only as set, changed with blank secrets
// kept, moved to a directory (keys dropped), and deleted; a keyed repeat creates it once.
func TestCitiesRoundTrip(t *testing.T) {
	s := newHQ(t)
	code, body := s.do(s.admin, "POST", "/api/hq/cities", cityJSON(nil), "same-key")
	if code != 200 {
		t.Fatalf("create: %d %s", code, body)
	}
	for _, secret := range []string{"paris-secret", "AKIAPARIS", "hq-token-paris"} {
		if strings.Contains(body, secret) {
			t.Fatalf("the answer shows %s: %s", secret, body)
		}
	}
	var c hq.City
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatal(err)
	}
	if !c.AccessKeyIDSet || !c.SecretAccessKeySet || !c.TokenSet || c.Currency != "EUR" || c.ID == "" {
		t.Fatalf("created city = %+v", c)
	}
	if code, _ := s.do(s.admin, "POST", "/api/hq/cities", cityJSON(nil), "same-key"); code != 200 || s.cityCount() != 1 {
		t.Fatalf("keyed repeat: %d, %d cities", code, s.cityCount())
	}
	// blank keys and token keep the stored ones
	code, body = s.do(s.admin, "PUT", "/api/hq/cities/"+c.ID, cityJSON(map[string]any{"name": "Paris Nord", "accessKeyId": "", "secretAccessKey": "", "token": ""}))
	if code != 200 {
		t.Fatalf("update: %d %s", code, body)
	}
	rec, _ := s.app.FindRecordById(hq.Cities, c.ID)
	if rec.GetString(hq.CityAccessKeyID) != "AKIAPARIS" || rec.GetString(hq.CitySecretKey) != "paris-secret" || rec.GetString(hq.CityToken) != "hq-token-paris" || rec.GetString(hq.CityName) != "Paris Nord" {
		t.Fatalf("after a blank-keys update: %v", rec.PublicExport())
	}
	// another bucket without new keys is refused (the saved keys are never sent to another host)
	code, body = s.do(s.admin, "PUT", "/api/hq/cities/"+c.ID, cityJSON(map[string]any{"replicaUrl": "s3://other-bucket/db?endpoint=https://other.example", "accessKeyId": "", "secretAccessKey": ""}))
	if code != 400 || !strings.Contains(body, "Changing the endpoint or bucket") {
		t.Fatalf("other bucket without keys: %d %s", code, body)
	}
	// a directory replica drops the keys; its copy is followed
	city := newCity(t)
	code, body = s.do(s.admin, "PUT", "/api/hq/cities/"+c.ID, cityJSON(map[string]any{"replicaUrl": "file://" + city.replica}))
	if code != 200 {
		t.Fatalf("to a directory: %d %s", code, body)
	}
	rec, _ = s.app.FindRecordById(hq.Cities, c.ID)
	if rec.GetString(hq.CityAccessKeyID) != "" || rec.GetString(hq.CitySecretKey) != "" {
		t.Fatal("a directory replica kept the S3 keys")
	}
	var list []hq.City
	waitFor(t, 10*time.Second, "the city's copy following", func() bool {
		code, body := s.do(s.viewer, "GET", "/api/hq/cities", "")
		if code != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list) != 1 {
			return false
		}
		return list[0].Copy.State == follow.StateFollowing && list[0].Copy.LastAppliedAt != nil
	})
	if list[0].Copy.LagSeconds != 0 || list[0].Copy.CopyTXID == 0 {
		t.Fatalf("copy = %+v", list[0].Copy)
	}
	copyDir := s.set.Dir(c.ID)
	if _, err := os.Stat(filepath.Join(copyDir, follow.CopyName)); err != nil {
		t.Fatal(err)
	}
	if code, body := s.do(s.admin, "DELETE", "/api/hq/cities/"+c.ID, ""); code != 200 {
		t.Fatalf("delete: %d %s", code, body)
	}
	if _, err := os.Stat(copyDir); !os.IsNotExist(err) {
		t.Fatalf("the deleted city's copy is still there: %v", err)
	}
	if s.cityCount() != 0 {
		t.Fatal("not deleted")
	}
}

// The hostile table: each request is refused with its status and a message in words, and no
// city is created or changed.
func TestCitiesHostile(t *testing.T) {
	s := newHQ(t)
	code, body := s.do(s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": "Lyon"}))
	if code != 200 {
		t.Fatalf("seed city: %d %s", code, body)
	}
	var lyon hq.City
	_ = json.Unmarshal([]byte(body), &lyon)
	before, _ := s.app.FindRecordById(hq.Cities, lyon.ID)
	huge := strings.Repeat("x", 5000)
	cases := []struct {
		name, token, method, path, body string
		status                          int
		want                            string
	}{
		{"guest list", "", "GET", "/api/hq/cities", "", 401, ""},
		{"guest create", "", "POST", "/api/hq/cities", cityJSON(nil), 401, ""},
		{"viewer create", s.viewer, "POST", "/api/hq/cities", cityJSON(nil), 403, hq.MsgForbidden},
		{"viewer update", s.viewer, "PUT", "/api/hq/cities/" + lyon.ID, cityJSON(nil), 403, hq.MsgForbidden},
		{"viewer delete", s.viewer, "DELETE", "/api/hq/cities/" + lyon.ID, "", 403, hq.MsgForbidden},
		{"unknown id update", s.admin, "PUT", "/api/hq/cities/nosuchcity12345", cityJSON(nil), 404, hq.MsgCityNotFound},
		{"unknown id delete", s.admin, "DELETE", "/api/hq/cities/nosuchcity12345", "", 404, hq.MsgCityNotFound},
		{"huge id", s.admin, "DELETE", "/api/hq/cities/" + strings.Repeat("a", 300), "", 404, hq.MsgCityNotFound},
		{"name taken (any case)", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": "LYON"}), 409, hq.MsgNameTaken},
		{"name blank", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": "  "}), 400, hq.MsgNameRequired},
		{"name huge", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": huge}), 400, hq.MsgNameTooLong},
		{"name bidi override", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": "Par\u202eis"}), 400, "control"},
		{"name wrong type", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": 42}), 400, "name"},
		{"time zone unknown", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"timeZone": "Mars/Olympus"}), 400, hq.MsgTimeZone},
		{"time zone Local", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"timeZone": "Local"}), 400, hq.MsgTimeZone},
		{"time zone path", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"timeZone": "../../etc/passwd"}), 400, hq.MsgTimeZone},
		{"currency long", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"currency": "EURO"}), 400, hq.MsgCurrency},
		{"currency symbols", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"currency": "€€€"}), 400, hq.MsgCurrency},
		{"currency number", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"currency": 978}), 400, "currency"},
		{"replica missing", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"replicaUrl": nil}), 400, hq.MsgReplicaRequired},
		{"replica http", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"replicaUrl": "http://example.com/db"}), 400, replication.MsgURLForm},
		{"replica credentials in URL", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"replicaUrl": "s3://AKIA:secret@bucket/db"}), 400, replication.MsgURLCredentials},
		{"replica secret in query", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"replicaUrl": "s3://bucket/db?secretKey=abc"}), 400, replication.MsgURLCredentials},
		{"replica relative file", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"replicaUrl": "file://relative/dir"}), 400, replication.MsgURLForm},
		{"replica huge", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"replicaUrl": "s3://bucket/" + huge}), 400, replication.MsgURLForm},
		{"address javascript", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"address": "javascript:alert(1)"}), 400, hq.MsgAddress},
		{"address with password", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"address": "https://u:p@paris.example"}), 400, hq.MsgAddress},
		{"address ftp", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"address": "ftp://paris.example"}), 400, hq.MsgAddress},
		{"address huge", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"address": "https://" + huge + ".example"}), 400, hq.MsgAddress},
		{"token missing", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"token": nil}), 400, hq.MsgTokenRequired},
		{"token with spaces", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"token": "a b"}), 400, hq.MsgTokenCharacters},
		{"token huge", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"token": huge}), 400, hq.MsgTokenTooLong},
		{"key huge", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"accessKeyId": huge}), 400, hq.MsgKeyTooLong},
		{"NaN", s.admin, "POST", "/api/hq/cities", `{"name": NaN}`, 400, ""},
		{"name int64 max", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": int64(9223372036854775807)}), 400, ""},
		{"time zone int64 min", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"timeZone": int64(-9223372036854775808)}), 400, ""},
		{"not an object", s.admin, "POST", "/api/hq/cities", `[1,2,3]`, 400, ""},
		{"body too large", s.admin, "POST", "/api/hq/cities", `{"name":"` + strings.Repeat("x", 40_000) + `"}`, 413, ""},
		{"update with a bad field", s.admin, "PUT", "/api/hq/cities/" + lyon.ID, cityJSON(map[string]any{"name": "Lyon", "currency": "1e309"}), 400, hq.MsgCurrency},
		// Lyon's replica again under another name: its figures would be counted twice, its
		// packs listed twice, its recalls sent twice
		{"Lyon's replica again", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": "Lyon 2"}), 409, fmt.Sprintf(hq.MsgReplicaTaken, "Lyon")},
		{"Lyon's replica, written otherwise", s.admin, "POST", "/api/hq/cities", cityJSON(map[string]any{"name": "Lyon 2",
			"replicaUrl": "s3://swapbay-paris/x/../db/?endpoint=https://s3.example/&region=eu-west-3"}), 409, `"replicaUrl"`},
	}
	for _, tc := range cases {
		code, body := s.do(tc.token, tc.method, tc.path, tc.body)
		if code != tc.status || (tc.want != "" && !strings.Contains(body, tc.want)) {
			t.Errorf("%s: %d %s, want %d %q", tc.name, code, body, tc.status, tc.want)
		}
		if code >= 400 && !strings.Contains(body, `"message"`) {
			t.Errorf("%s: no message in %s", tc.name, body)
		}
	}
	if n := s.cityCount(); n != 1 {
		t.Fatalf("%d cities after the hostile table, want 1", n)
	}
	after, _ := s.app.FindRecordById(hq.Cities, lyon.ID)
	if after.GetString(hq.CityUpdatedBy) != before.GetString(hq.CityUpdatedBy) || after.GetString("updated") != before.GetString("updated") {
		t.Fatal("a refused request changed the city")
	}
}

// ---- a city replicating to a directory (the city's own replication code) ----

type city struct {
	replica string
	db      *sql.DB
	r       *replication.Replicator
}

func newCity(t *testing.T) *city {
	t.Helper()
	dir := t.TempDir()
	c := &city{replica: filepath.Join(t.TempDir(), "replica")}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "data.db")+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE swaps (id INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	opt := *replication.DefaultOptions()
	opt.MonitorInterval, opt.SyncInterval = 50*time.Millisecond, 50*time.Millisecond
	r, err := replication.Start(context.Background(), filepath.Join(dir, "data.db"), replication.Config{URL: "file://" + c.replica}, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	c.db, c.r = db, r
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.Close(ctx)
		db.Close()
	})
	return c
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Sign-in is rate limited (PocketBase's limiter, HQ's own migration): a burst of wrong
// passwords is answered 429.
func TestSignInIsRateLimited(t *testing.T) {
	s := newHQ(t)
	limited := false
	for i := 0; i < 6 && !limited; i++ {
		code, _ := s.do("", "POST", "/api/collections/users/auth-with-password", `{"identity":"admin@hq.example","password":"wrong-password"}`)
		limited = code == http.StatusTooManyRequests
	}
	if !limited {
		t.Fatal("six wrong passwords in a row were never refused 429")
	}
}

// sameReplica: one replica however it is written; another path, bucket or endpoint is another.
func TestSameReplica(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"file:///srv/rep/paris", "file:///srv/rep/paris/", true},
		{"file:///srv/rep/paris", "file:///srv/rep/x/../paris", true},
		{"file:///srv/rep/paris", "file:///srv/rep/berlin", false},
		{"file:///srv/rep/paris", "s3://srv/rep/paris", false},
		{"s3://b/db?endpoint=https://s3.example&region=r", "s3://b/db/?endpoint=https://s3.example/&region=r", true},
		{"s3://b/db?endpoint=https://s3.example&region=r", "s3://b/other?endpoint=https://s3.example&region=r", false},
		{"s3://b/db?endpoint=https://s3.example&region=r", "s3://c/db?endpoint=https://s3.example&region=r", false},
		{"s3://b/db?endpoint=https://s3.example&region=r", "s3://b/db?endpoint=https://minio.example&region=r", false},
	} {
		if got := hq.SameReplica(c.a, c.b); got != c.same {
			t.Errorf("SameReplica(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
