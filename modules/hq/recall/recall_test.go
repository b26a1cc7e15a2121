package recall_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
	"swapbay/modules/hq/recall"
	"swapbay/modules/inventory"
	"swapbay/modules/system"

	_ "swapbay/pb_migrations/hq" // HQ's own (the city's come with testkit)
)

// ---- a city: a real test app served over HTTP on an address it keeps across a stop ----

type city struct {
	t      *testing.T
	name   string
	app    *tests.TestApp
	c      testkit.Callers
	master string // the master admin's session token
	mux    http.Handler
	addr   string
	srv    *http.Server
	hits   atomic.Int32 // recall POSTs it handled
	token  string       // the head-office token it issued
	tokId  string
	id     string // its id in HQ
}

// newCity is a city with n packs in the bay (SWB-000001…), lot lots[i] on pack i+1 ("" none).
func newCity(t *testing.T, name string, lots ...string) *city {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	c := testkit.SeedCallers(t, app)
	n := len(lots)
	if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, n, 0, 0, n); err != nil {
		t.Fatal(err)
	}
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	serials := ledgertest.MintPacks(t, app, n, ready.Id)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
	for i, lot := range lots {
		if _, err := app.DB().NewQuery("UPDATE packs SET lot = {:lot}, model = 'M1', manufacturer = 'Acme' WHERE serial = {:s}").
			Bind(dbx.Params{"lot": lot, "s": serials[i]}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	ct := &city{t: t, name: name, app: app, c: c, master: testkit.TokenIn(t, app, c.Master), mux: testkit.Handler(t, app)}
	ct.start()
	t.Cleanup(ct.stop)
	ct.token, ct.tokId = ct.issue()
	return ct
}

func (c *city) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == recall.CityRecallPath {
		c.hits.Add(1)
	}
	c.mux.ServeHTTP(w, r)
}

// start serves the city (on its former address after a stop: the city came back).
func (c *city) start() {
	c.t.Helper()
	addr := c.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		c.t.Fatal(err)
	}
	c.addr = ln.Addr().String()
	c.srv = &http.Server{Handler: c}
	go func() { _ = c.srv.Serve(ln) }()
}

// stop takes the city down (connections refused until start).
func (c *city) stop() {
	if c.srv != nil {
		_ = c.srv.Close()
		c.srv = nil
	}
}

func (c *city) url() string { return "http://" + c.addr }

func (c *city) call(method, path, body string) (int, map[string]any) {
	c.t.Helper()
	status, raw, _ := ledgertest.Do(c.t, http.DefaultClient, method, c.url()+path, c.master, body,
		map[string]string{"Idempotency-Key": fmt.Sprintf("city-%d", time.Now().UnixNano())})
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return status, out
}

// issue has the city's master admin issue a head-office token.
func (c *city) issue() (token, id string) {
	c.t.Helper()
	status, out := c.call(http.MethodPost, "/api/admin/head-office/tokens", `{"name":"Head office"}`)
	if status != http.StatusOK {
		c.t.Fatalf("%s: issue a token: %d %v", c.name, status, out)
	}
	info, _ := out["info"].(map[string]any)
	token, _ = out["token"].(string)
	id, _ = info["id"].(string)
	return token, id
}

func (c *city) revoke() {
	c.t.Helper()
	if status, out := c.call(http.MethodPost, "/api/admin/head-office/tokens/"+c.tokId+"/revoke", `{}`); status != http.StatusOK {
		c.t.Fatalf("%s: revoke: %d %v", c.name, status, out)
	}
}

func (c *city) count(q string, params dbx.Params) int {
	c.t.Helper()
	var n int
	if err := c.app.DB().NewQuery(q).Bind(params).Row(&n); err != nil {
		c.t.Fatal(err)
	}
	return n
}

// recalls are the city's recall ids.
func (c *city) recalls() []string {
	c.t.Helper()
	var ids []string
	if err := c.app.DB().NewQuery("SELECT id FROM pack_recalls ORDER BY at").Column(&ids); err != nil {
		c.t.Fatal(err)
	}
	return ids
}

// checkOnce checks that the city made exactly one recall, quarantining want packs of lot, each
// by one state event naming that recall, and no pack quarantined twice.
func (c *city) checkOnce(lot string, want int) string {
	c.t.Helper()
	ids := c.recalls()
	if len(ids) != 1 {
		c.t.Fatalf("%s: %d recalls, want 1", c.name, len(ids))
	}
	if n := c.count("SELECT COUNT(*) FROM pack_events WHERE kind = 'state' AND recall = {:r}", dbx.Params{"r": ids[0]}); n != want {
		c.t.Errorf("%s: %d state events of the recall, want %d", c.name, n, want)
	}
	if n := c.count("SELECT COUNT(*) FROM (SELECT pack FROM pack_events WHERE kind = 'state' AND toState = 'quarantined' GROUP BY pack HAVING COUNT(*) > 1)", nil); n != 0 {
		c.t.Errorf("%s: %d packs quarantined more than once", c.name, n)
	}
	if n := c.count("SELECT COUNT(*) FROM packs WHERE lot = {:l} AND state = 'quarantined'", dbx.Params{"l": lot}); n != want {
		c.t.Errorf("%s: %d packs of %s quarantined, want %d", c.name, n, lot, want)
	}
	return ids[0]
}

// ---- head office ----

type hqWorld struct {
	t      *testing.T
	dir    string
	app    *hq.App
	set    *follow.Set
	sender *recall.Sender
	mux    http.Handler
	admin  string // session tokens
	viewer string
}

// fast are the sender's options in tests.
func fast(tr http.RoundTripper) recall.Options {
	return recall.Options{RetryMin: 20 * time.Millisecond, RetryMax: 100 * time.Millisecond, Timeout: 5 * time.Second, Transport: tr}
}

// startHQ serves head office from dir as `hq serve` wires it (hq.Register, recall.Register),
// with no follower running: the copies are the cities' databases copied by copyOf.
func startHQ(t *testing.T, dir string, opt recall.Options) *hqWorld {
	t.Helper()
	app, err := hq.NewApp(dir)
	if err != nil {
		t.Fatal(err)
	}
	stopped, cancel := context.WithCancel(context.Background())
	cancel() // no follower ever starts: a follower would replace the copies this test writes
	set := hq.NewSet(stopped, app, follow.DefaultOptions())
	hq.Register(app, set)
	h := &hqWorld{t: t, dir: dir, app: app, set: set}
	h.sender = recall.Register(app, set, opt)
	r, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	err = app.OnServe().Trigger(&core.ServeEvent{App: app, Router: r}, func(e *core.ServeEvent) error {
		mux, err := e.Router.BuildMux()
		h.mux = mux
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	h.admin = h.user("admin@hq.example", hq.RoleAdmin)
	h.viewer = h.user("viewer@hq.example", hq.RoleViewer)
	t.Cleanup(h.kill)
	return h
}

// kill stops head office at once: the sends under way cancelled, then the app terminated as the
// server's stop does (OnTerminate: the rollup job stopped, the followers closed) and closed. A
// bare ResetBootstrapState left the rollup job running: its first run, late on a loaded machine,
// then read a closed app and panicked the package.
func (h *hqWorld) kill() {
	h.sender.Close()
	_ = h.app.OnTerminate().Trigger(&core.TerminateEvent{App: h.app}, func(e *core.TerminateEvent) error {
		return e.App.ResetBootstrapState()
	})
}

func (h *hqWorld) user(email, role string) string {
	h.t.Helper()
	rec, err := h.app.FindAuthRecordByEmail(hq.Users, email)
	if err != nil {
		if rec, err = hq.CreateUser(h.app, hq.NewUser{Email: email, Password: "long-secret-1", Role: role, Name: "HQ " + role}); err != nil {
			h.t.Fatal(err)
		}
	}
	tok, err := rec.NewAuthToken()
	if err != nil {
		h.t.Fatal(err)
	}
	return tok
}

// addCity adds c to head office (its address and token), not followed.
func (h *hqWorld) addCity(c *city) {
	h.t.Helper()
	rec, err := hq.SaveCity(h.app, c.id, hq.CityInput{Name: c.name, TimeZone: "Europe/Paris", Currency: "EUR",
		ReplicaURL: "file:///nonexistent/" + strings.ToLower(c.name), Address: c.url(), Token: c.token}, "")
	if err != nil {
		h.t.Fatal(err)
	}
	c.id = rec.Id
}

// add adds the cities to head office with their copies.
func (h *hqWorld) add(cs ...*city) {
	h.t.Helper()
	for _, c := range cs {
		h.addCity(c)
	}
	h.copyOf(cs...)
}

// copyOf copies c's database as its followed copy (what Litestream's follow keeps in HQ).
func (h *hqWorld) copyOf(cs ...*city) {
	h.t.Helper()
	for _, c := range cs {
		path := h.set.CopyPath(c.id)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			h.t.Fatal(err)
		}
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			_ = os.Remove(p)
		}
		if _, err := c.app.DB().NewQuery("VACUUM INTO {:p}").Bind(dbx.Params{"p": path}).Execute(); err != nil {
			h.t.Fatal(err)
		}
	}
}

var keyN atomic.Int64

// do sends method path body as token to head office; a mutation carries key (a fresh one when
// "").
func (h *hqWorld) do(token, method, path, body, key string) (int, string, http.Header) {
	h.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	if method != http.MethodGet {
		if key == "" {
			key = fmt.Sprintf("hq-test-%d", keyN.Add(1))
		}
		req.Header.Set("Idempotency-Key", key)
	}
	rec := httptest.NewRecorder()
	h.mux.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String(), rec.Header()
}

// recallOf starts a recall and answers it.
func (h *hqWorld) recallOf(by, value, key string) recall.HQRecall {
	h.t.Helper()
	status, body, _ := h.do(h.admin, http.MethodPost, "/api/hq/recalls", fmt.Sprintf(`{"by":%q,"value":%q,"reason":"Cell supplier notice 7"}`, by, value), key)
	if status != http.StatusCreated {
		h.t.Fatalf("recall %s %s: %d %s", by, value, status, body)
	}
	var out struct {
		Recall recall.HQRecall `json:"recall"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		h.t.Fatal(err)
	}
	return out.Recall
}

func (h *hqWorld) get(id string) recall.HQRecall {
	h.t.Helper()
	status, body, _ := h.do(h.viewer, http.MethodGet, "/api/hq/recalls/"+id, "", "")
	if status != http.StatusOK {
		h.t.Fatalf("get %s: %d %s", id, status, body)
	}
	var out recall.HQRecall
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		h.t.Fatal(err)
	}
	return out
}

func cityOf(r recall.HQRecall, id string) recall.CityStatus {
	for _, c := range r.Cities {
		if c.ID == id {
			return c
		}
	}
	return recall.CityStatus{}
}

// waitSend waits until recall id's send to c is state (and no send is under way).
func (h *hqWorld) waitSend(id string, c *city, state string) recall.CityStatus {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		cs := cityOf(h.get(id), c.id)
		if cs.Send == state {
			return cs
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%s: send %q (%s), want %s", c.name, cs.Send, cs.Error, state)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (h *hqWorld) recallCount() int {
	n, err := h.app.CountRecords(recall.Recalls)
	if err != nil {
		h.t.Fatal(err)
	}
	return int(n)
}

// transport is a RoundTripper from a function.
type transport func(*http.Request) (*http.Response, error)

func (f transport) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// drop reads and closes a response the test loses on its way back.
func drop(resp *http.Response) {
	if resp != nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
}

// A recall sent twice quarantines each pack once in each city: Paris's first answer is lost
// after Paris made the recall (the retry is answered from Paris's stored answer), and head
// office is killed while Berlin's answer is on its way (Berlin made the recall); head office
// started again over the same dir resumes Berlin's send, answered from Berlin's stored answer.
// Progress is counted in the copies: not done until the copies show every pack quarantined.
func TestRecallReachesEachCityOnce(t *testing.T) {
	paris := newCity(t, "Paris", "L1", "L1", "L1", "L1", "L2", "")
	berlin := newCity(t, "Berlin", "L1", "L1", "L1", "L3", "")
	dir := t.TempDir()

	var parisTries atomic.Int32
	berlinHandled := make(chan struct{})
	var once sync.Once
	tr := transport(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		switch r.URL.Host {
		case paris.addr:
			if parisTries.Add(1) == 1 {
				drop(resp)
				return nil, errors.New("read: connection reset by peer")
			}
		case berlin.addr:
			drop(resp)
			once.Do(func() { close(berlinHandled) })
			<-r.Context().Done() // head office dies waiting for Berlin's answer
			return nil, r.Context().Err()
		}
		return resp, err
	})
	opt := fast(tr)
	opt.Timeout = time.Minute // Berlin's answer is never waited out: head office is killed first
	h := startHQ(t, dir, opt)
	h.add(paris, berlin)

	key := "hq-recall-L1"
	r := h.recallOf("lot", "L1", key)
	if r.By != "lot" || r.Value != "L1" || r.Reason != "Cell supplier notice 7" || r.Actor.Name != "HQ hq_admin" || r.Done || len(r.Cities) != 2 {
		t.Fatalf("recall = %+v", r)
	}
	for _, c := range r.Cities {
		if c.Send != recall.SendPending || c.Done || !c.CopyOK {
			t.Errorf("answered city %+v: want pending, not done", c)
		}
	}
	if p, b := cityOf(r, paris.id), cityOf(r, berlin.id); p.Matching != 4 || p.Quarantined != 0 || b.Matching != 3 {
		t.Errorf("counts before: Paris %+v Berlin %+v", p, b)
	}

	ps := h.waitSend(r.ID, paris, recall.SendSent)
	select {
	case <-berlinHandled:
	case <-time.After(10 * time.Second):
		t.Fatal("Berlin never received the recall")
	}
	parisID := paris.checkOnce("L1", 4)
	if ps.CityRecallID != parisID || ps.Attempts != 2 || ps.Error != "" || ps.SentAt == "" {
		t.Errorf("Paris's send = %+v, want sent on the 2nd attempt with Paris's recall %s", ps, parisID)
	}
	if got := paris.hits.Load(); got != 2 {
		t.Errorf("Paris handled %d recall requests, want 2 (one answer lost)", got)
	}
	// the copies are not caught up: the cities' packs are not counted quarantined yet
	if got := h.get(r.ID); got.Done || cityOf(got, paris.id).Done {
		t.Errorf("done before the copies show it: %+v", got)
	}

	// head office killed mid-fan-out: Berlin made its recall, head office never heard
	h.kill()
	berlinID := berlin.checkOnce("L1", 3)

	h2 := startHQ(t, dir, fast(nil)) // resumes Berlin's pending send at serve
	bs := h2.waitSend(r.ID, berlin, recall.SendSent)
	if bs.CityRecallID != berlinID || bs.Error != "" {
		t.Errorf("Berlin's send = %+v, want Berlin's recall %s", bs, berlinID)
	}
	if got := berlin.hits.Load(); got != 2 {
		t.Errorf("Berlin handled %d recall requests, want 2", got)
	}
	paris.checkOnce("L1", 4)
	berlin.checkOnce("L1", 3)
	if ps2 := cityOf(h2.get(r.ID), paris.id); ps2.Attempts != 2 || paris.hits.Load() != 2 {
		t.Errorf("Paris sent again after the restart: %+v, %d requests", ps2, paris.hits.Load())
	}

	// the copies catch up: every city done, and the recall
	h2.copyOf(paris, berlin)
	got := h2.get(r.ID)
	p, b := cityOf(got, paris.id), cityOf(got, berlin.id)
	if !got.Done || !p.Done || !b.Done || p.Matching != 4 || p.Quarantined != 4 || b.Matching != 3 || b.Quarantined != 3 {
		t.Errorf("after the copies caught up: %+v", got)
	}

	// the same POST again (a lost answer at head office): the stored answer, no new recall
	status, body, hdr := h2.do(h2.admin, http.MethodPost, "/api/hq/recalls", `{"by":"lot","value":"L1","reason":"Cell supplier notice 7"}`, key)
	if status != http.StatusCreated || hdr.Get("Idempotent-Replayed") == "" || !strings.Contains(body, r.ID) || h2.recallCount() != 1 {
		t.Errorf("replayed POST: %d %s (recalls %d)", status, body, h2.recallCount())
	}
	// a new recall of the same lot: nothing left anywhere (every copy read)
	status, body, _ = h2.do(h2.admin, http.MethodPost, "/api/hq/recalls", `{"by":"lot","value":"L1","reason":"again"}`, "")
	if status != http.StatusConflict || !strings.Contains(body, recall.MsgNothingLeft) || h2.recallCount() != 1 {
		t.Errorf("second recall of L1: %d %s", status, body)
	}

	// the list: newest first, as the page
	status, body, _ = h2.do(h2.viewer, http.MethodGet, "/api/hq/recalls", "", "")
	var list []recall.HQRecall
	_ = json.Unmarshal([]byte(body), &list)
	if status != http.StatusOK || len(list) != 1 || list[0].ID != r.ID || !list[0].Done {
		t.Errorf("list: %d %s", status, body)
	}
	if paris.hits.Load() != 2 || berlin.hits.Load() != 2 {
		t.Errorf("requests: Paris %d Berlin %d, want 2 each", paris.hits.Load(), berlin.hits.Load())
	}
}

// A city whose token was revoked refuses the recall: failed, in words, until a new token is
// saved and the send retried; a city with no matching pack records the recall as standing (for
// packs that arrive later): sent, done, its recall quarantining none.
func TestRevokedTokenFailsThenRetry(t *testing.T) {
	paris := newCity(t, "Paris", "L2", "L2", "L1", "")
	berlin := newCity(t, "Berlin", "L1", "")
	h := startHQ(t, t.TempDir(), fast(nil))
	h.add(paris, berlin)
	paris.revoke()

	r := h.recallOf("lot", "L2", "")
	ps := h.waitSend(r.ID, paris, recall.SendFailed)
	if ps.Error != recall.MsgTokenRefused || ps.Attempts != 1 || ps.Done {
		t.Errorf("Paris = %+v", ps)
	}
	bs := h.waitSend(r.ID, berlin, recall.SendSent)
	if bs.Error != "" || bs.CityRecallID == "" || bs.Matching != 0 || bs.Quarantined != 0 || !bs.Done {
		t.Errorf("Berlin (no L2) = %+v, want sent and done, its standing recall named", bs)
	}
	if len(paris.recalls()) != 0 || len(berlin.recalls()) != 1 {
		t.Fatalf("recalls made: Paris %v (want none) Berlin %v (want its standing one)", paris.recalls(), berlin.recalls())
	}

	retry := "/api/hq/recalls/" + r.ID + "/cities/" + paris.id + "/retry"
	for _, c := range []struct {
		token, path string
		status      int
		msg         string
	}{
		{"", retry, 401, ""},
		{h.viewer, retry, 403, hq.MsgForbidden},
		{h.admin, "/api/hq/recalls/" + r.ID + "/cities/" + berlin.id + "/retry", 409, recall.MsgAlreadySent},
		{h.admin, "/api/hq/recalls/" + r.ID + "/cities/nope/retry", 404, recall.MsgCityNotInRecall},
		{h.admin, "/api/hq/recalls/nope/cities/" + paris.id + "/retry", 404, recall.MsgNotFound},
		{h.admin, "/api/hq/recalls/" + strings.Repeat("x", 5000) + "/cities/" + paris.id + "/retry", 404, recall.MsgNotFound},
	} {
		if status, body, _ := h.do(c.token, http.MethodPost, c.path, `{}`, ""); status != c.status || !strings.Contains(body, c.msg) {
			t.Errorf("retry %s as %.10q: %d %s, want %d %q", c.path[:min(len(c.path), 80)], c.token, status, body, c.status, c.msg)
		}
	}
	if cs := cityOf(h.get(r.ID), paris.id); cs.Send != recall.SendFailed || cs.Attempts != 1 {
		t.Errorf("refused retries changed Paris's send: %+v", cs)
	}

	// Paris issues a new token, head office saves it and sends again
	paris.token, paris.tokId = paris.issue()
	h.addCity(paris)
	status, body, _ := h.do(h.admin, http.MethodPost, retry, `{}`, "")
	if status != http.StatusOK || !strings.Contains(body, `"send":"pending"`) {
		t.Fatalf("retry: %d %s", status, body)
	}
	ps = h.waitSend(r.ID, paris, recall.SendSent)
	id := paris.checkOnce("L2", 2)
	if ps.CityRecallID != id || ps.Error != "" || ps.Attempts != 2 {
		t.Errorf("Paris after the retry = %+v, want its recall %s", ps, id)
	}
	h.copyOf(paris)
	if got := h.get(r.ID); !got.Done {
		t.Errorf("not done once Paris's copy shows its packs quarantined: %+v", got)
	}
	if n := paris.count("SELECT COUNT(*) FROM packs WHERE lot = 'L1' AND state = 'quarantined'", nil); n != 0 {
		t.Errorf("Paris quarantined %d packs of another lot", n)
	}
}

// A city that is down is retried with a back-off, the failure in words, and sent once it is back.
func TestCityDownIsRetried(t *testing.T) {
	paris := newCity(t, "Paris", "L1", "")
	berlin := newCity(t, "Berlin", "L1", "L1", "")
	h := startHQ(t, t.TempDir(), fast(nil))
	h.add(paris, berlin)
	berlin.stop()

	r := h.recallOf("lot", "L1", "")
	h.waitSend(r.ID, paris, recall.SendSent)
	deadline := time.Now().Add(10 * time.Second)
	var bs recall.CityStatus
	for {
		bs = cityOf(h.get(r.ID), berlin.id)
		if bs.Attempts >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if bs.Send != recall.SendPending || bs.Attempts < 3 || bs.Error != fmt.Sprintf(recall.MsgUnreachable, "connection refused") {
		t.Fatalf("Berlin down = %+v, want pending, retried, in words", bs)
	}
	berlin.start()
	bs = h.waitSend(r.ID, berlin, recall.SendSent)
	id := berlin.checkOnce("L1", 2)
	if bs.CityRecallID != id || bs.Error != "" {
		t.Errorf("Berlin back = %+v", bs)
	}
	paris.checkOnce("L1", 1)
	if h.sender.Running() != 0 {
		t.Errorf("%d sends still running", h.sender.Running())
	}
}

// The preview counts in the copies as each city's own preview does; a city whose copy is not
// there yet is named, with the reason in words.
func TestPreviewCountsInTheCopies(t *testing.T) {
	paris := newCity(t, "Paris", "L1", "L1", "L1", "L1", "L2")
	berlin := newCity(t, "Berlin", "L1", "L1", "L1", "")
	if _, err := paris.app.DB().NewQuery("UPDATE packs SET state = CASE serial WHEN 'SWB-000001' THEN 'quarantined' ELSE 'retired' END WHERE serial IN ('SWB-000001', 'SWB-000002')").Execute(); err != nil {
		t.Fatal(err)
	}
	h := startHQ(t, t.TempDir(), fast(nil))
	h.add(paris, berlin)
	lisbon := &city{name: "Lisbon", addr: "127.0.0.1:9", token: "swbhq_x"}
	h.addCity(lisbon)

	status, body, _ := h.do(h.admin, http.MethodGet, "/api/hq/recall-preview?by=lot&value=L1", "", "")
	var p recall.Preview
	_ = json.Unmarshal([]byte(body), &p)
	if status != http.StatusOK || p.Total != 5 || p.AlreadyQuarantined != 1 || len(p.Cities) != 3 {
		t.Fatalf("preview: %d %s", status, body)
	}
	want := map[string]recall.CityPreview{
		paris.id:  {ID: paris.id, Name: "Paris", Count: 2, AlreadyQuarantined: 1, OK: true},
		berlin.id: {ID: berlin.id, Name: "Berlin", Count: 3, OK: true},
		lisbon.id: {ID: lisbon.id, Name: "Lisbon", Error: recall.MsgCopyNotReady},
	}
	for _, c := range p.Cities {
		if c != want[c.ID] {
			t.Errorf("preview of %s = %+v, want %+v", c.Name, c, want[c.ID])
		}
	}
	// by model and manufacturer
	for _, q := range []string{"by=model&value=M1", "by=manufacturer&value=%20Acme%20"} {
		status, body, _ = h.do(h.admin, http.MethodGet, "/api/hq/recall-preview?"+q, "", "")
		_ = json.Unmarshal([]byte(body), &p)
		if status != http.StatusOK || p.Total != 7 || p.AlreadyQuarantined != 1 {
			t.Errorf("preview %s: %d %s", q, status, body)
		}
	}
	// who may preview
	for token, want := range map[string]int{"": 401, h.viewer: 403} {
		if status, body, _ := h.do(token, http.MethodGet, "/api/hq/recall-preview?by=lot&value=L1", "", ""); status != want {
			t.Errorf("preview as %.10q: %d %s, want %d", token, status, body, want)
		}
	}
	for _, q := range []string{"", "by=serial&value=L1", "by=lot", "by=lot&value=%20", "by=lot&value=" + strings.Repeat("x", 101), "by=lot&value=L%E2%80%AE1"} {
		if status, body, _ := h.do(h.admin, http.MethodGet, "/api/hq/recall-preview?"+q, "", ""); status != http.StatusBadRequest {
			t.Errorf("preview ?%s: %d %s, want 400", q, status, body)
		}
	}
	// a city without a copy: the recall is still made (the city decides), every city sent to
	r := h.recallOf("lot", "L2", "")
	if len(r.Cities) != 3 || cityOf(r, lisbon.id).CopyOK {
		t.Errorf("recall with an unread copy: %+v", r)
	}
}

// Hostile input is refused with a message, and nothing is recorded or sent.
func TestRecallHostile(t *testing.T) {
	paris := newCity(t, "Paris", "L1", "")
	berlin := newCity(t, "Berlin", "")
	h := startHQ(t, t.TempDir(), fast(nil))
	h.add(paris, berlin)

	long := strings.Repeat("é", 101)
	cases := []struct {
		name, token, body string
		status            int
		field, msg        string
	}{
		{"guest", "", `{"by":"lot","value":"L1","reason":"r"}`, 401, "", ""},
		{"viewer", h.viewer, `{"by":"lot","value":"L1","reason":"r"}`, 403, "", hq.MsgForbidden},
		{"by unknown", h.admin, `{"by":"serial","value":"L1","reason":"r"}`, 400, "by", "Recall by lot"},
		{"by missing", h.admin, `{"value":"L1","reason":"r"}`, 400, "by", "Recall by lot"},
		{"by wrong type", h.admin, `{"by":1,"value":"L1","reason":"r"}`, 400, "by", ""},
		{"value empty", h.admin, `{"by":"lot","value":"  ","reason":"r"}`, 400, "value", "Choose the lot"},
		{"value huge", h.admin, `{"by":"lot","value":"` + long + `","reason":"r"}`, 400, "value", "Choose the lot"},
		{"value bidi", h.admin, `{"by":"lot","value":"L\u202e1","reason":"r"}`, 400, "value", recall.MsgValueCharacters},
		{"value control", h.admin, `{"by":"lot","value":"L\u00001","reason":"r"}`, 400, "value", recall.MsgValueCharacters},
		{"value array", h.admin, `{"by":"lot","value":["L1"],"reason":"r"}`, 400, "value", ""},
		{"value 1e309", h.admin, `{"by":"lot","value":1e309,"reason":"r"}`, 400, "value", ""},
		{"value int64 max", h.admin, `{"by":"lot","value":9223372036854775807,"reason":"r"}`, 400, "value", ""},
		{"by int64 min", h.admin, `{"by":-9223372036854775808,"value":"L1","reason":"r"}`, 400, "by", ""},
		{"value NaN", h.admin, `{"by":"lot","value":NaN,"reason":"r"}`, 400, "", ""},
		{"reason missing", h.admin, `{"by":"lot","value":"L1"}`, 400, "reason", "reason"},
		{"reason huge", h.admin, `{"by":"lot","value":"L1","reason":"` + strings.Repeat("r", 2001) + `"}`, 400, "reason", ""},
		{"reason object", h.admin, `{"by":"lot","value":"L1","reason":{}}`, 400, "reason", ""},
		{"not an object", h.admin, `["lot","L1"]`, 400, "", ""},
		{"body too large", h.admin, `{"by":"lot","value":"L1","reason":"` + strings.Repeat("r", 40<<10) + `"}`, 413, "", ""},
		{"no pack anywhere", h.admin, `{"by":"lot","value":"1e309","reason":"r"}`, 404, "", recall.MsgNoMatch},
		{"no such model", h.admin, `{"by":"model","value":"L1","reason":"r"}`, 404, "", recall.MsgNoMatch},
	}
	for _, c := range cases {
		status, body, _ := h.do(c.token, http.MethodPost, "/api/hq/recalls", c.body, "")
		var out struct {
			Message string                    `json:"message"`
			Data    map[string]map[string]any `json:"data"`
		}
		_ = json.Unmarshal([]byte(body), &out)
		if status != c.status || !strings.Contains(out.Message+fmt.Sprint(out.Data), c.msg) || (c.field != "" && out.Data[c.field] == nil) || out.Message == "" {
			t.Errorf("%s: %d %.300s, want %d %s %q", c.name, status, body, c.status, c.field, c.msg)
		}
	}
	if n := h.recallCount(); n != 0 {
		t.Errorf("%d recalls recorded", n)
	}
	if paris.hits.Load() != 0 || berlin.hits.Load() != 0 {
		t.Errorf("a city was sent a refused recall")
	}
	// reads: guests refused, unknown and huge ids 404
	for _, c := range []struct {
		token, path string
		status      int
	}{
		{"", "/api/hq/recalls", 401},
		{"", "/api/hq/recalls/abc", 401},
		{h.viewer, "/api/hq/recalls", 200},
		{h.viewer, "/api/hq/recalls/abc", 404},
		{h.admin, "/api/hq/recalls/" + strings.Repeat("a", 3000), 404},
	} {
		if status, body, _ := h.do(c.token, http.MethodGet, c.path, "", ""); status != c.status {
			t.Errorf("GET %.60s: %d %s, want %d", c.path, status, body, c.status)
		}
	}
	if _, body, _ := h.do(h.viewer, http.MethodGet, "/api/hq/recalls", "", ""); strings.TrimSpace(body) != "[]" {
		t.Errorf("empty list = %s", body)
	}
}

// The Idempotency-Key a city receives is derived from the recall and the city.
func TestKeyIsDerived(t *testing.T) {
	if got := recall.Key("r1", "c2"); got != "hqr-r1-c2" {
		t.Errorf("Key = %q", got)
	}
}

// What head office sends a city (the derived key, the token, the recall) and how it reads each
// answer, against a scripted city: a 503 retried then sent, a 2xx without a recall retried, a
// 400 failed with the city's words, a redirect failed and not followed (the token stays with
// the city's address).
func TestCityAnswersInWords(t *testing.T) {
	type got struct{ key, auth, body string }
	var mu sync.Mutex
	seen := map[string][]got{} // lot → requests
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(other.Close)
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var f recall.Form
		_ = json.Unmarshal(raw, &f)
		mu.Lock()
		seen[f.Value] = append(seen[f.Value], got{r.Header.Get("Idempotency-Key"), r.Header.Get("Authorization"), string(raw)})
		n := len(seen[f.Value])
		mu.Unlock()
		if r.URL.Path != recall.CityRecallPath || r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		switch {
		case f.Value == "A" && n == 1:
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"status":503,"message":"Busy restoring","data":{}}`)
		case f.Value == "C" && n == 1:
			_, _ = io.WriteString(w, `{"success":true}`)
		case f.Value == "A" || f.Value == "C":
			_, _ = io.WriteString(w, `{"success":true,"recall":{"id":"cr-`+f.Value+`"}}`)
		case f.Value == "B":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"status":400,"message":"Nope, not that","data":{}}`)
		case f.Value == "D":
			http.Redirect(w, r, other.URL+recall.CityRecallPath, http.StatusTemporaryRedirect)
		case f.Value == "E":
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"status":404,"message":"The requested resource wasn't found.","data":{}}`)
		case f.Value == "F":
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"status":404,"message":"No pack has lot F","data":{}}`)
		case f.Value == "G":
			w.WriteHeader(http.StatusConflict)
			_, _ = io.WriteString(w, `{"status":409,"message":"Every pack with lot G is already quarantined, retired or recycled: nothing to recall","data":{}}`)
		case f.Value == "H":
			w.WriteHeader(http.StatusConflict)
			_, _ = io.WriteString(w, `{"status":409,"message":"This Idempotency-Key was already used for a different request.","data":{}}`)
		}
	}))
	t.Cleanup(fake.Close)
	h := startHQ(t, t.TempDir(), fast(nil))
	c := &city{name: "Scripted", addr: strings.TrimPrefix(fake.URL, "http://"), token: "swbhq_scripted"}
	h.addCity(c)

	want := map[string]struct {
		send     string
		attempts int
		err      string
		cityRec  string
	}{
		"A": {recall.SendSent, 2, "", "cr-A"},
		"B": {recall.SendFailed, 1, fmt.Sprintf(recall.MsgCityRefused, 400, "Nope, not that"), ""},
		"C": {recall.SendSent, 2, "", "cr-C"},
		"D": {recall.SendFailed, 1, fmt.Sprintf(recall.MsgCityRefused, 307, "Temporary Redirect"), ""},
		"E": {recall.SendFailed, 1, fmt.Sprintf(recall.MsgNotTheRoute, "The requested resource wasn't found."), ""},
		"F": {recall.SendSent, 1, "", ""},
		"G": {recall.SendSent, 1, "", ""},
		"H": {recall.SendFailed, 1, fmt.Sprintf(recall.MsgCityRefused, 409, "This Idempotency-Key was already used for a different request."), ""},
	}
	for _, lot := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
		r := h.recallOf("lot", lot, "")
		cs := h.waitSend(r.ID, c, want[lot].send)
		w := want[lot]
		if cs.Attempts != w.attempts || cs.Error != w.err || cs.CityRecallID != w.cityRec || cs.CopyOK || cs.CopyError != recall.MsgCopyNotReady || cs.Done {
			t.Errorf("lot %s: %+v, want %+v", lot, cs, w)
		}
		mu.Lock()
		reqs := seen[lot]
		mu.Unlock()
		if len(reqs) != w.attempts {
			t.Errorf("lot %s: %d requests, want %d", lot, len(reqs), w.attempts)
		}
		for _, g := range reqs {
			if g.key != recall.Key(r.ID, c.id) || g.auth != "Bearer swbhq_scripted" ||
				g.body != fmt.Sprintf(`{"by":"lot","value":%q,"reason":"Cell supplier notice 7","standing":true}`, lot) {
				t.Errorf("lot %s: sent %+v", lot, g)
			}
		}
	}
	if elsewhere.Load() != 0 {
		t.Error("a redirect was followed")
	}
}

// A city removed from head office after the recall: its send fails in words (never sent), it
// is listed with the words, and no longer holds the recall back from done.
func TestRemovedCity(t *testing.T) {
	paris := newCity(t, "Paris", "L1", "")
	berlin := newCity(t, "Berlin", "L1", "")
	block := make(chan struct{})
	tr := transport(func(r *http.Request) (*http.Response, error) {
		if r.URL.Host == berlin.addr {
			<-block
			return nil, errors.New("connection refused")
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	h := startHQ(t, t.TempDir(), fast(tr))
	h.add(paris, berlin)
	r := h.recallOf("lot", "L1", "")
	h.waitSend(r.ID, paris, recall.SendSent)
	if status, body, _ := h.do(h.admin, http.MethodDelete, "/api/hq/cities/"+berlin.id, "", ""); status != http.StatusOK {
		t.Fatalf("delete Berlin: %d %s", status, body)
	}
	close(block)
	bs := h.waitSend(r.ID, berlin, recall.SendFailed)
	if bs.Error != recall.MsgCityRemoved || bs.CopyError != recall.MsgCityRemoved || bs.Name != "Berlin" || bs.Done {
		t.Errorf("Berlin removed = %+v", bs)
	}
	if berlin.hits.Load() != 0 || len(berlin.recalls()) != 0 {
		t.Error("the removed city was sent the recall")
	}
	h.copyOf(paris)
	if got := h.get(r.ID); !got.Done {
		t.Errorf("the removed city holds the recall back: %+v", got)
	}
}

// A city restored from a backup made before a recall reached it (swapbay restore) loses the
// recall and its stored answer to the send's key, while head office's send still says sent.
// Once the city's copy, caught up past the answer (its heartbeat later), shows the recall gone,
// the city reads lost and not done, in words, and Send again makes the recall there once more:
// once, the packs quarantined again. While the city still has the recall, Send again stays a 409.
func TestCityRestoredFromAnOlderBackupIsSentAgain(t *testing.T) {
	skew := recall.SkewAllowed
	recall.SkewAllowed = 0
	t.Cleanup(func() { recall.SkewAllowed = skew })
	paris := newCity(t, "Paris", "L1", "L1", "")
	backup := t.TempDir()
	if _, err := paris.app.DB().NewQuery("VACUUM INTO {:p}").Bind(dbx.Params{"p": filepath.Join(backup, "data.db")}).Execute(); err != nil {
		t.Fatal(err)
	}
	beat := func() {
		t.Helper()
		time.Sleep(5 * time.Millisecond)
		if _, err := paris.app.DB().NewQuery("INSERT INTO " + schema.Heartbeat + " (id, at) VALUES (1, {:at}) ON CONFLICT(id) DO UPDATE SET at = excluded.at").
			Bind(dbx.Params{"at": types.NowDateTime().String()}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	h := startHQ(t, t.TempDir(), fast(nil))
	h.add(paris)
	r := h.recallOf("lot", "L1", "")
	h.waitSend(r.ID, paris, recall.SendSent)
	first := paris.checkOnce("L1", 2)
	retry := "/api/hq/recalls/" + r.ID + "/cities/" + paris.id + "/retry"

	// the city still has it: done, and nothing to send again
	beat()
	h.copyOf(paris)
	if ps := cityOf(h.get(r.ID), paris.id); ps.Lost || !ps.Done || ps.CityRecallID != first {
		t.Fatalf("Paris with its recall = %+v", ps)
	}
	if status, body, _ := h.do(h.admin, http.MethodPost, retry, `{}`, ""); status != http.StatusConflict || !strings.Contains(body, recall.MsgAlreadySent) {
		t.Fatalf("retry while Paris has the recall: %d %s", status, body)
	}

	// Paris is restored from the backup made before the recall, and beats again
	paris.stop()
	restored := testkit.Open(t, backup)
	t.Cleanup(restored.Cleanup)
	paris.app, paris.mux = restored, testkit.Handler(t, restored)
	paris.start()
	if len(paris.recalls()) != 0 {
		t.Fatal("the backup has the recall")
	}
	// a copy not caught up past the answer cannot tell: still sent
	h.copyOf(paris)
	if ps := cityOf(h.get(r.ID), paris.id); ps.Lost {
		t.Fatalf("Paris's copy without a heartbeat since the answer reads lost: %+v", ps)
	}
	beat()
	h.copyOf(paris)
	ps := cityOf(h.get(r.ID), paris.id)
	if !ps.Lost || ps.Done || ps.Send != recall.SendSent || ps.Error != recall.MsgRecallLost {
		t.Fatalf("Paris back at its older backup = %+v; want lost, not done, in words", ps)
	}
	if got := h.get(r.ID); got.Done {
		t.Fatal("the recall reads done while Paris lost it")
	}
	if status, body, _ := h.do(h.viewer, http.MethodPost, retry, `{}`, ""); status != http.StatusForbidden {
		t.Fatalf("a viewer's retry: %d %s", status, body)
	}
	if status, body, _ := h.do(h.admin, http.MethodPost, retry, `{}`, ""); status != http.StatusOK || !strings.Contains(body, `"send":"pending"`) {
		t.Fatalf("retry of the lost recall: %d %s", status, body)
	}
	ps = h.waitSend(r.ID, paris, recall.SendSent)
	again := paris.checkOnce("L1", 2)
	if again == first || ps.CityRecallID != again || ps.Attempts != 2 || ps.Error != "" {
		t.Fatalf("Paris sent again = %+v; want its new recall %s", ps, again)
	}
	beat()
	h.copyOf(paris)
	if got := h.get(r.ID); !got.Done || cityOf(got, paris.id).Lost {
		t.Fatalf("not done once Paris has the recall again: %+v", got)
	}
	if status, body, _ := h.do(h.admin, http.MethodPost, retry, `{}`, ""); status != http.StatusConflict || !strings.Contains(body, recall.MsgAlreadySent) {
		t.Fatalf("retry once Paris has it again: %d %s", status, body)
	}
	paris.checkOnce("L1", 2)
}

// A pack of the recalled lot that a city sent to another city stays in transit in the sender's
// registry for good (the sender never hears of its receipt): the sender's recall passes it over,
// and the receiver's standing recall quarantines it on arrival. It is counted where it arrives:
// the sender is done once its own packs are quarantined, and the recall is done everywhere
// once the receiver's copy shows the pack quarantined.
func TestPackSentAwayIsCountedWhereItArrives(t *testing.T) {
	paris := newCity(t, "Paris", "L1", "L1", "L1", "")
	berlin := newCity(t, "Berlin", "L1", "")
	// SWB-000003 left Paris for Berlin before the recall: in transit in Paris for good; Berlin
	// has its own L1 pack
	if _, err := paris.app.DB().NewQuery("UPDATE packs SET state = 'in_transit', location = '' WHERE serial = 'SWB-000003'").Execute(); err != nil {
		t.Fatal(err)
	}
	h := startHQ(t, t.TempDir(), fast(nil))
	h.add(paris, berlin)
	r := h.recallOf("lot", "L1", "")
	h.waitSend(r.ID, paris, recall.SendSent)
	h.waitSend(r.ID, berlin, recall.SendSent)
	paris.checkOnce("L1", 2)
	berlin.checkOnce("L1", 1)
	h.copyOf(paris, berlin)
	got := h.get(r.ID)
	ps := cityOf(got, paris.id)
	if ps.Matching != 2 || ps.Quarantined != 2 || !ps.Done {
		t.Fatalf("Paris with a pack sent away = %+v; want 2 of 2 and done (the third is counted where it arrives)", ps)
	}
	if !got.Done {
		t.Fatalf("the recall is not done: %+v", got)
	}
}

// A city added to head office after a recall was made is sent it: a recall stands (every
// matching pack out of use, wherever it is), so the city's packs of the lot are quarantined
// there too, once, under the send's own key, and the recall is not done until that city's copy
// shows them out of use. Was: the city was never sent the recall, and the recall read done.
func TestCityAddedLaterIsSentTheRecalls(t *testing.T) {
	paris := newCity(t, "Paris", "L1", "")
	berlin := newCity(t, "Berlin", "L1", "L1", "")
	block := make(chan struct{})
	tr := transport(func(r *http.Request) (*http.Response, error) {
		if r.URL.Host == berlin.addr {
			<-block
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	h := startHQ(t, t.TempDir(), fast(tr))
	h.add(paris)
	r := h.recallOf("lot", "L1", "")
	h.waitSend(r.ID, paris, recall.SendSent)
	h.copyOf(paris)
	if got := h.get(r.ID); !got.Done || len(got.Cities) != 1 {
		t.Fatalf("Paris alone: %+v", got)
	}

	// Berlin added through the route, keyed (sent twice: one city, one send)
	body := fmt.Sprintf(`{"name":"Berlin","timeZone":"Europe/Berlin","currency":"EUR","replicaUrl":"file:///nonexistent/berlin","address":%q,"token":%q}`, berlin.url(), berlin.token)
	for range 2 {
		status, out, _ := h.do(h.admin, http.MethodPost, "/api/hq/cities", body, "add-berlin")
		if status != http.StatusOK {
			t.Fatalf("add Berlin: %d %s", status, out)
		}
		var c hq.City
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatal(err)
		}
		berlin.id = c.ID
	}
	h.copyOf(berlin) // Berlin's copy before the recall reached it
	got := h.get(r.ID)
	bs := cityOf(got, berlin.id)
	if bs.ID == "" || bs.Name != "Berlin" || bs.Send != recall.SendPending || bs.Matching != 2 || bs.Quarantined != 0 || bs.Done || got.Done {
		t.Fatalf("Berlin added after the recall: %+v, recall done %v", bs, got.Done)
	}
	if n, err := h.app.CountRecords(recall.Sends, dbx.HashExp{recall.SendCity: berlin.id}); err != nil || n != 1 {
		t.Fatalf("Berlin's sends = %d (%v), want 1", n, err)
	}
	close(block)
	h.waitSend(r.ID, berlin, recall.SendSent)
	berlin.checkOnce("L1", 2)
	if paris.hits.Load() != 1 || len(paris.recalls()) != 1 {
		t.Errorf("Paris sent again: %d hits, %d recalls", paris.hits.Load(), len(paris.recalls()))
	}
	if got := h.get(r.ID); got.Done {
		t.Errorf("done before Berlin's copy caught up: %+v", got)
	}
	h.copyOf(berlin)
	if got := h.get(r.ID); !got.Done {
		t.Errorf("not done once Berlin's copy shows its packs quarantined: %+v", got)
	}

	// a city with no pack of the lot is sent the standing recall all the same (the city decides)
	lisbon := newCity(t, "Lisbon", "")
	h.addCity(lisbon)
	if n, err := h.app.CountRecords(recall.Sends, dbx.HashExp{recall.SendCity: lisbon.id}); err != nil || n != 1 {
		t.Errorf("Lisbon's sends = %d (%v), want 1 (the standing L1 recall)", n, err)
	}
}
