package replication_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/replication"
	"swapbay/modules/restore"
)

const route = "/api/admin/replication"

// client sends requests to one test app's full router as the given users.
type client struct {
	t   *testing.T
	app *tests.TestApp
	h   http.Handler
	c   testkit.Callers
}

func newClient(t *testing.T) *client {
	t.Setenv(replication.EnvURL, "")
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	return &client{t: t, app: app, h: testkit.Handler(t, app), c: c}
}

// do sends method route with body as who and returns the status and the raw answer.
func (cl *client) do(who *core.Record, method, body string) (int, string) {
	cl.t.Helper()
	req := httptest.NewRequest(method, route, strings.NewReader(body))
	for k, v := range testkit.Headers(cl.t, who) {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	cl.h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

type answer struct {
	replication.Status
	Settings *replication.Form `json:"settings"`
	Code     string            `json:"code"`
	Message  string            `json:"message"`
}

func decode(t *testing.T, body string) answer {
	t.Helper()
	var a answer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatalf("answer %q: %v", body, err)
	}
	return a
}

// stored counts the replication_settings rows (0: nothing was ever saved).
func stored(t *testing.T, app core.App) int {
	t.Helper()
	n, err := app.CountRecords(schema.ReplicationSettings)
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func movements(t *testing.T, app core.App) int {
	t.Helper()
	var n int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM movements").Row(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The status is read by both admin roles, the form only by a master admin; only a master
// admin may change it.
func TestRolesOfTheReplicationRoute(t *testing.T) {
	cl := newClient(t)
	dir := "file://" + filepath.Join(t.TempDir(), "replica")
	for _, row := range []struct {
		who          string
		get, put     int
		seesSettings bool
	}{
		{testkit.Guest, 401, 401, false},
		{testkit.Pending, 403, 403, false},
		{testkit.Driver, 403, 403, false},
		{testkit.Liaison, 403, 403, false},
		{testkit.Admin, 200, 403, false},
		{testkit.Master, 200, 200, true},
	} {
		t.Run(row.who, func(t *testing.T) {
			who := cl.c.Pick(row.who)
			status, body := cl.do(who, "GET", "")
			if status != row.get {
				t.Fatalf("GET: %d %s", status, body)
			}
			if status == 200 && (decode(t, body).Settings != nil) != row.seesSettings {
				t.Fatalf("GET settings shown=%v: %s", !row.seesSettings, body)
			}
			status, body = cl.do(who, "PUT", `{"enabled":false,"url":"`+dir+`"}`)
			if status != row.put {
				t.Fatalf("PUT: %d %s", status, body)
			}
			if row.put != 200 && stored(t, cl.app) != 0 {
				t.Fatalf("a refused PUT saved the settings")
			}
		})
	}
}

// startS3 is an in-process S3 server with the bucket "swapbay"; Litestream's S3 client
// cannot take AWS_CA_BUNDLE (see caHint), so the test unsets it.
func startS3(t *testing.T) *httptest.Server {
	t.Setenv("AWS_CA_BUNDLE", "")
	os.Unsetenv("AWS_CA_BUNDLE")
	backend := s3mem.New()
	if err := backend.CreateBucket("swapbay"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	return srv
}

// The access key ID and the secret go in and never come back: not in the PUT's answer, not in
// GET's, not in a refusal naming the replica; the form shows them as set, and a blank field
// keeps them.
func TestCredentialsAreNeverAnswered(t *testing.T) {
	const keyID, secret = "AKIAEXAMPLEKEYID42", "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY"
	s3srv := startS3(t)
	cl := newClient(t)
	url := "s3://swapbay/city?endpoint=" + s3srv.URL + "&region=us-east-1&forcePathStyle=true"
	var answers []string
	check := func(who *core.Record, method, req string, want int) answer {
		t.Helper()
		status, body := cl.do(who, method, req)
		answers = append(answers, body)
		if status != want {
			t.Fatalf("status %d, want %d: %s", status, want, body)
		}
		return decode(t, body)
	}
	a := check(cl.c.Master, "PUT", `{"enabled":true,"url":"`+url+`","accessKeyId":"`+keyID+`","secretAccessKey":"`+secret+`"}`, 200)
	if !a.Enabled || a.Settings == nil || !a.Settings.AccessKeyIDSet || !a.Settings.SecretAccessKeySet || a.Settings.URL != url || a.Source != "settings" {
		t.Fatalf("after turning it on: %+v %+v", a.Status, a.Settings)
	}
	r := replication.Of(cl.app)
	if r == nil {
		t.Fatal("not replicating after the PUT")
	}
	if err := r.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	check(cl.c.Master, "GET", "", 200)
	check(cl.c.Admin, "GET", "", 200)
	// a blank key and secret keep the stored ones: the same settings, the same replication
	a = check(cl.c.Master, "PUT", `{"enabled":true,"url":"`+url+`","accessKeyId":"","secretAccessKey":""}`, 200)
	if replication.Of(cl.app) != r || !a.Settings.SecretAccessKeySet {
		t.Fatalf("a repeat of the same settings restarted the replication or lost the secret: %+v", a.Settings)
	}
	s, err := replication.LoadStored(cl.app)
	if err != nil || s.AccessKeyID != keyID || s.SecretAccessKey != secret {
		t.Fatalf("stored: %v %+v", err, s)
	}
	// a replica that does not answer, with a new secret: refused, and the refusal names neither
	replication.Stop(cl.app) // its last sync before the S3 server goes
	s3srv.Close()
	a = check(cl.c.Master, "PUT", `{"enabled":true,"url":"s3://swapbay/other?endpoint=`+s3srv.URL+`&region=us-east-1","accessKeyId":"`+keyID+`","secretAccessKey":"`+secret+`x"}`, 422)
	if a.Code != "replica_unreachable" || !strings.Contains(a.Message, "Could not reach the replica at s3://swapbay/other") {
		t.Fatalf("unreachable: %+v", a)
	}
	for _, body := range answers {
		if strings.Contains(body, keyID) || strings.Contains(body, secret) || strings.Contains(body, "EXAMPLEKEY") {
			t.Fatalf("an answer shows a credential: %s", body)
		}
	}
}

// Bad input is refused with a clear message and a code, and nothing changes: no settings
// saved, nothing replicating.
func TestBadSettingsAreRefused(t *testing.T) {
	cl := newClient(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, row := range []struct {
		name, body string
		status     int
		code, msg  string
	}{
		{"not JSON", `{"enabled":`, 400, "validation_failed", "The request body is not valid JSON"},
		{"enabled not a boolean", `{"enabled":"yes","url":"file:///tmp/x"}`, 400, "validation_failed", "Enabled must be true or false"},
		{"enabled a huge number", `{"enabled":9223372036854775807,"url":"file:///tmp/x"}`, 400, "validation_failed", "Enabled must be true or false"},
		{"enabled -1", `{"enabled":-1,"url":"file:///tmp/x"}`, 400, "validation_failed", "Enabled must be true or false"},
		{"enabled 1.5", `{"enabled":1.5,"url":"file:///tmp/x"}`, 400, "validation_failed", "Enabled must be true or false"},
		{"enabled \"3\"", `{"enabled":"3","url":"file:///tmp/x"}`, 400, "validation_failed", "Enabled must be true or false"},
		{"no URL", `{"enabled":true,"url":"  "}`, 400, "validation_failed", replication.MsgURLRequired},
		{"unknown scheme", `{"enabled":true,"url":"ftp://host/x"}`, 400, "validation_failed", replication.MsgURLForm},
		{"relative dir", `{"enabled":true,"url":"replica/dir"}`, 400, "validation_failed", replication.MsgURLForm},
		{"file with a host", `{"enabled":true,"url":"file://host/dir"}`, 400, "validation_failed", replication.MsgURLForm},
		{"s3 without a bucket", `{"enabled":true,"url":"s3:///path"}`, 400, "validation_failed", replication.MsgURLForm},
		{"credentials in the URL", `{"enabled":true,"url":"s3://AKIA:secret@bucket/db"}`, 400, "validation_failed", replication.MsgURLCredentials},
		{"secret in the query", `{"enabled":false,"url":"s3://bucket/db?secretKey=abc"}`, 400, "validation_failed", replication.MsgURLCredentials},
		{"unreachable S3", `{"enabled":true,"url":"s3://swapbay/db?endpoint=` + closed.URL + `&region=us-east-1","accessKeyId":"k","secretAccessKey":"s"}`, 422, "replica_unreachable", "Could not reach the replica at s3://swapbay/db"},
		{"the data dir itself", `{"enabled":true,"url":"file://` + cl.app.DataDir() + `"}`, 400, "validation_failed", replication.MsgURLInDataDir},
		{"inside the data dir", `{"enabled":true,"url":"file://` + filepath.Join(cl.app.DataDir(), "replica") + `"}`, 400, "validation_failed", replication.MsgURLInDataDir},
		{"inside it, written with ..", `{"enabled":true,"url":"file://` + filepath.Join(cl.app.DataDir(), "..", filepath.Base(cl.app.DataDir()), "storage", "r") + `/"}`, 400, "validation_failed", replication.MsgURLInDataDir},
		{"inside it through a link", `{"enabled":true,"url":"file://` + filepath.Join(linkTo(t, cl.app.DataDir()), "replica") + `"}`, 400, "validation_failed", replication.MsgURLInDataDir},
		{"a file where the dir should be", `{"enabled":true,"url":"file://` + filepath.Join(writeFile(t), "sub") + `"}`, 422, "replica_unreachable", "Could not reach the replica at file://"},
	} {
		t.Run(row.name, func(t *testing.T) {
			status, body := cl.do(cl.c.Master, "PUT", row.body)
			a := decode(t, body)
			if status != row.status || a.Code != row.code || !strings.Contains(a.Message, row.msg) {
				t.Fatalf("%d %s, want %d %s %q", status, body, row.status, row.code, row.msg)
			}
			if stored(t, cl.app) != 0 || replication.Active(cl.app) {
				t.Fatal("a refused PUT changed the settings or the replication")
			}
		})
	}
}

// linkTo is a new symbolic link to dir.
func linkTo(t *testing.T, dir string) string {
	p := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFile(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A flag or environment replica wins: the form says so and a PUT is refused (409).
func TestServerValueWins(t *testing.T) {
	cl := newClient(t)
	t.Setenv(replication.EnvURL, "file://"+filepath.Join(t.TempDir(), "env-replica"))
	status, body := cl.do(cl.c.Master, "GET", "")
	if a := decode(t, body); status != 200 || a.Settings == nil || a.Settings.SetBy != "env" {
		t.Fatalf("GET: %d %s", status, body)
	}
	status, body = cl.do(cl.c.Master, "PUT", `{"enabled":false,"url":""}`)
	if a := decode(t, body); status != 409 || a.Code != "conflict" || a.Message != replication.MsgSetByServer {
		t.Fatalf("PUT: %d %s", status, body)
	}
	if stored(t, cl.app) != 0 {
		t.Fatal("saved while the environment wins")
	}
}

// On → off → on at runtime, no restart: writes made while on reach the directory replica,
// turning it off stops the replication (the checkpoint job takes data.db back), turning it
// on again ships everything, including what was written while off. A restore from the
// replica alone then holds every movement, with 0 corrections. The settings survive a
// restart of the server: a new serve of the same data dir replicates again.
func TestOnOffOnAtRuntime(t *testing.T) {
	cl := newClient(t)
	dir := filepath.Join(t.TempDir(), "replica")
	on := `{"enabled":true,"url":"file://` + dir + `"}`
	write := func(n int) {
		for i := 0; i < n; i++ {
			if _, err := inventory.Pickup(cl.app, inventory.Op{Actor: cl.c.Driver, Notes: "drill"}, cl.c.Driver.Id, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	restored := func() int {
		t.Helper()
		rep, err := restore.Run(context.Background(), restore.Replica{Config: replication.Config{URL: "file://" + dir}}, filepath.Join(t.TempDir(), "restored"), false)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Integrity != "ok" || len(rep.Corrections) != 0 {
			t.Fatalf("restore: %+v", rep)
		}
		if rep.SettingsTurnedOff != "file://"+dir {
			t.Fatalf("the restored copy keeps replicating on its own: %+v", rep)
		}
		return rep.Movements
	}
	sync := func() {
		t.Helper()
		r := replication.Of(cl.app)
		if r == nil {
			t.Fatal("not replicating")
		}
		if err := r.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
	}

	if status, body := cl.do(cl.c.Master, "PUT", on); status != 200 || !decode(t, body).Enabled {
		t.Fatalf("on: %d %s", status, body)
	}
	write(10)
	sync()
	if got, want := restored(), movements(t, cl.app); got != want {
		t.Fatalf("after on: restored %d movements, want %d", got, want)
	}

	status, body := cl.do(cl.c.Master, "PUT", `{"enabled":false,"url":"file://`+dir+`"}`)
	if a := decode(t, body); status != 200 || a.Enabled || a.Settings.Enabled || a.Settings.URL != "file://"+dir || replication.Active(cl.app) {
		t.Fatalf("off: %d %s", status, body)
	}
	write(5)

	if status, body := cl.do(cl.c.Master, "PUT", on); status != 200 || !decode(t, body).Enabled {
		t.Fatalf("on again: %d %s", status, body)
	}
	write(5)
	sync()
	if got, want := restored(), movements(t, cl.app); got != want {
		t.Fatalf("after on, off, on: restored %d movements, want %d", got, want)
	}

	// a new serve of the same data dir starts the stored replica
	replication.Stop(cl.app)
	if replication.Active(cl.app) {
		t.Fatal("still replicating after Stop")
	}
	again := testkit.Open(t, cl.app.DataDir()) // a copy of the data dir, served anew
	defer again.Cleanup()
	testkit.Handler(t, again)
	if st := replication.StatusOf(again); !st.Enabled || st.Source != "settings" || st.Target != "file://"+dir {
		t.Fatalf("after a restart: %+v", st)
	}
}

// The replica check runs outside any write transaction (the route is bound
// idempotency.Skip()): while an S3 endpoint holds the check, the ledger still takes writes.
// Bound inside the keyed transaction, the write would wait for the check's answer.
func TestReplicaCheckDoesNotHoldTheWriter(t *testing.T) {
	startS3(t) // AWS_CA_BUNDLE unset
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-release
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer slow.Close()
	cl := newClient(t)
	// the check ends only when the test releases it (not at its own time limit)
	opt := replication.DefaultOptions()
	opt.ReachTimeout = time.Hour
	replication.SetOptions(cl.app, opt)
	type reply struct {
		status int
		body   string
	}
	put := make(chan reply, 1)
	go func() {
		status, body := cl.do(cl.c.Master, "PUT", `{"enabled":true,"url":"s3://swapbay/db?endpoint=`+slow.URL+`&region=us-east-1","accessKeyId":"k","secretAccessKey":"s"}`)
		put <- reply{status, body}
	}()
	select {
	case <-arrived:
	case r := <-put:
		t.Fatalf("the PUT answered before asking the replica: %d %s", r.status, r.body)
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := inventory.Pickup(cl.app, inventory.Op{Actor: cl.c.Driver, Notes: "during the check"}, cl.c.Driver.Id, 1)
		wrote <- err
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatalf("a write during the replica check: %v", err)
		}
	case <-time.After(time.Minute): // a deadlock detector, not a speed limit: the check is held until the write is done
		close(release)
		t.Fatal("a write waited for the replica check: it runs inside the write transaction")
	}
	close(release)
	if r := <-put; r.status != 422 || decode(t, r.body).Code != "replica_unreachable" {
		t.Fatalf("the held check's answer: %d %s", r.status, r.body)
	}
}

// A replica that fails is named in plain words in the 422 (HTTP status and S3's code, DNS,
// TLS, credentials, unreachable), never with the S3 client's text or the remote host's body.
func TestFailuresAreNamedInPlainWords(t *testing.T) {
	s3srv := startS3(t) // a bucket "swapbay"; AWS_CA_BUNDLE unset
	const body = "REMOTE-BODY-MARKER please visit evil.example"
	answering := func(status int, code string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(status)
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message></Error>`, code, body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(tlsSrv.Close)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	cl := newClient(t)
	for _, row := range []struct {
		name, endpoint, bucket, want string
	}{
		{"wrong key", answering(403, "InvalidAccessKeyId"), "swapbay", "the access key ID was refused (credentials) (HTTP 403 InvalidAccessKeyId)"},
		{"wrong secret", answering(403, "SignatureDoesNotMatch"), "swapbay", "the secret access key was refused (credentials) (HTTP 403 SignatureDoesNotMatch)"},
		{"server failing", answering(500, "InternalError"), "swapbay", "the replica's server failed (HTTP 500 InternalError)"},
		{"odd code", answering(400, "<script>"), "swapbay", "the replica refused the request (HTTP 400 Bad Request)"},
		{"no such bucket", s3srv.URL, "missing-bucket", "the bucket does not exist (HTTP 404 NoSuchBucket)"},
		{"TLS", tlsSrv.URL, "swapbay", "TLS: the replica's certificate is signed by an unknown authority"},
		{"refused", closed.URL, "swapbay", "the replica's host refused the connection"},
		{"DNS", "http://swapbay-replica.invalid", "swapbay", "(DNS)"},
	} {
		t.Run(row.name, func(t *testing.T) {
			status, raw := cl.do(cl.c.Master, "PUT", `{"enabled":true,"url":"s3://`+row.bucket+`/db?endpoint=`+row.endpoint+`&region=us-east-1&forcePathStyle=true","accessKeyId":"k","secretAccessKey":"s"}`)
			a := decode(t, raw)
			if status != 422 || a.Code != "replica_unreachable" || !strings.Contains(a.Message, row.want) {
				t.Fatalf("%d %s, want 422 with %q", status, raw, row.want)
			}
			for _, raw := range []string{"REMOTE-BODY", "evil.example", "operation error", "api error", "StatusCode:", "RequestID", "https response error"} {
				if strings.Contains(a.Message, raw) {
					t.Fatalf("the message carries %q: %s", raw, a.Message)
				}
			}
		})
	}
}

// The saved keys belong to the endpoint and bucket they were saved for (issue 34): another
// bucket or endpoint with blank key fields is refused (400, naming the field) and changes
// nothing; with new keys it is saved and the new keys replace the old; another path in the
// same bucket keeps them.
func TestNewEndpointOrBucketNeedsNewKeys(t *testing.T) {
	s3srv := startS3(t)
	other := startS3(t)
	cl := newClient(t)
	url := func(endpoint, bucket, path string) string {
		return "s3://" + bucket + "/" + path + "?endpoint=" + endpoint + "&region=us-east-1&forcePathStyle=true"
	}
	put := func(u, key, secret string) (int, answer) {
		t.Helper()
		status, raw := cl.do(cl.c.Master, "PUT", `{"enabled":true,"url":"`+u+`","accessKeyId":"`+key+`","secretAccessKey":"`+secret+`"}`)
		return status, decode(t, raw)
	}
	if status, a := put(url(s3srv.URL, "swapbay", "paris"), "old-key", "old-secret"); status != 200 {
		t.Fatalf("first save: %d %+v", status, a)
	}
	for _, u := range []string{url(other.URL, "swapbay", "paris"), url(s3srv.URL, "lyon", "paris")} {
		status, a := put(u, "", "")
		if status != 400 || a.Code != "validation_failed" || a.Message != replication.MsgNewKeysRequired {
			t.Fatalf("%s with the saved keys: %d %+v", u, status, a)
		}
		if status, a := put(u, "new-key", ""); status != 400 || a.Message != replication.MsgNewKeysRequired {
			t.Fatalf("%s with a new key but the saved secret: %d %+v", u, status, a)
		}
		if s, _ := replication.LoadStored(cl.app); s.AccessKeyID != "old-key" || s.URL != url(s3srv.URL, "swapbay", "paris") {
			t.Fatalf("a refused change changed the settings: %+v", s)
		}
	}
	if status, a := put(url(s3srv.URL, "swapbay", "lyon"), "", ""); status != 200 {
		t.Fatalf("another path in the same bucket: %d %+v", status, a)
	}
	if s, _ := replication.LoadStored(cl.app); s.AccessKeyID != "old-key" || s.SecretAccessKey != "old-secret" {
		t.Fatalf("the keys were lost on a path change: %+v", s)
	}
	if status, a := put(url(other.URL, "swapbay", "paris"), "new-key", "new-secret"); status != 200 || !a.Settings.AccessKeyIDSet {
		t.Fatalf("another endpoint with new keys: %d %+v", status, a)
	}
	if s, _ := replication.LoadStored(cl.app); s.AccessKeyID != "new-key" || s.SecretAccessKey != "new-secret" {
		t.Fatalf("stored after the endpoint change: %+v", s)
	}
}

// A replica set by the serve flag shows as on: the status names the flag as its source and
// the form is the running replica, ticked and read-only (setBy), never the stored settings.
func TestFlagReplicaShowsAsOn(t *testing.T) {
	cl := newClient(t)
	target := "file://" + filepath.Join(t.TempDir(), "flag-replica")
	opt := replication.DefaultOptions()
	opt.ServerURL = target
	replication.SetOptions(cl.app, opt)
	again := testkit.Open(t, cl.app.DataDir())
	defer again.Cleanup()
	replication.SetOptions(again, opt)
	h := testkit.Handler(t, again) // serve: the flag's replica starts
	defer replication.Stop(again)
	req := httptest.NewRequest("GET", route, nil)
	master := testkit.CreateUser(t, again, "master_admin", "approved")
	for k, v := range testkit.Headers(t, master) {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	a := decode(t, rec.Body.String())
	if rec.Code != 200 || !a.Enabled || a.Source != "flag" || a.Target != target || a.Settings == nil ||
		!a.Settings.Enabled || a.Settings.SetBy != "flag" || a.Settings.URL != target {
		t.Fatalf("GET: %d %s", rec.Code, rec.Body.String())
	}
}

// At start-up the server serves and warns: a flag or environment replica that does not answer
// starts, and the status names the failure in plain words until it answers; only a value that
// is not a replica URL at all stops serve (README, "Running in production").
func TestStartUpServesAndWarnsWhenTheReplicaIsUnreachable(t *testing.T) {
	startS3(t) // AWS_CA_BUNDLE unset
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	t.Setenv(replication.EnvURL, "s3://swapbay/db?endpoint="+closed.URL+"&region=us-east-1&forcePathStyle=true")
	t.Setenv(replication.EnvAccessKey, "k")
	t.Setenv(replication.EnvSecretKey, "s")
	app := testkit.NewApp(t)
	defer app.Cleanup()
	testkit.Handler(t, app) // serve: fails the test if the hooks refuse
	defer replication.Stop(app)
	var st replication.Status
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if st = replication.StatusOf(app); strings.Contains(st.Warning, "refused the connection") {
			break
		}
	}
	if !st.Enabled || st.Source != "env" || st.Warning != "Replication is failing: the replica's host refused the connection (unreachable: nothing listens there)" {
		t.Fatalf("status while the replica is unreachable: %+v", st)
	}

	t.Setenv(replication.EnvURL, "ftp://example.com/db")
	typo := testkit.NewApp(t)
	defer typo.Cleanup()
	router, err := apis.NewRouter(typo)
	if err != nil {
		t.Fatal(err)
	}
	err = typo.OnServe().Trigger(&core.ServeEvent{App: typo, Router: router}, func(e *core.ServeEvent) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "unsupported scheme") || !strings.Contains(err.Error(), replication.EnvURL) {
		t.Fatalf("serve with a URL that is not a replica URL: %v", err)
	}
}

// A file:// replica at or inside the data dir set by the serve flag or $SWAPBAY_REPLICA_URL
// stops serve in words, as the System page refuses it (the replica would go down with the disk
// it guards and into every backup zip); nothing is replicated there. Was: the flag's and the
// environment's replica started inside the data dir.
func TestStartRefusesAReplicaInsideTheDataDir(t *testing.T) {
	t.Setenv(replication.EnvURL, "")
	serve := func(app core.App) error {
		t.Helper()
		router, err := apis.NewRouter(app)
		if err != nil {
			t.Fatal(err)
		}
		return app.OnServe().Trigger(&core.ServeEvent{App: app, Router: router}, func(e *core.ServeEvent) error { return nil })
	}
	for _, tc := range []struct{ name, source string }{{"flag", "the --replicate flag"}, {"env", "$" + replication.EnvURL}} {
		app := testkit.NewApp(t)
		inside := "file://" + filepath.Join(app.DataDir(), "replica")
		if tc.name == "flag" {
			opt := replication.DefaultOptions()
			opt.ServerURL = inside
			replication.SetOptions(app, opt)
		} else {
			t.Setenv(replication.EnvURL, "file://"+filepath.Join(app.DataDir(), "sub", "..", "replica2"))
		}
		err := serve(app)
		replication.Stop(app)
		if err == nil || !strings.Contains(err.Error(), replication.MsgURLInDataDir) || !strings.Contains(err.Error(), tc.source) {
			t.Errorf("%s: serve with a replica inside the data dir: %v", tc.name, err)
		}
		if replication.Active(app) {
			t.Errorf("%s: replicating inside the data dir", tc.name)
		}
		for _, p := range []string{"replica", "replica2"} {
			if _, err := os.Stat(filepath.Join(app.DataDir(), p)); !os.IsNotExist(err) {
				t.Errorf("%s: %s made inside the data dir (%v)", tc.name, p, err)
			}
		}
		app.Cleanup()
		t.Setenv(replication.EnvURL, "")
	}
}
