package terms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/testkit"
	"swapbay/lib/events"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
	"swapbay/modules/terms"
)

func signaturePNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 200, 60))
	for x := 10; x < 190; x++ {
		img.Set(x, 30+(x%10), color.Black)
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// sign records user's signature of the active terms, as registration does, and waits for the
// after-commit PDF.
func sign(t testing.TB, app core.App, user *core.Record) *core.Record {
	t.Helper()
	active, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	var rec *core.Record
	err = app.RunInTransaction(func(tx core.App) error {
		rec, err = terms.RecordAgreement(tx, terms.Signature{User: user, Terms: active, PNG: signaturePNG(),
			IP: "203.0.113.9", UserAgent: "Mozilla/5.0 test", SignedAt: time.Now()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	terms.WaitForPDFs(app)
	return rec
}

func status(t testing.TB, app core.App, id string) (string, string) {
	t.Helper()
	rows, err := terms.ListAgreements(app)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Id == id {
			return r.PDFStatus, r.PDFUrl
		}
	}
	t.Fatalf("agreement %s not listed", id)
	return "", ""
}

func TestAgreementPDFIsMadeAfterSigning(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	a := sign(t, app, c.Driver)
	if st, url := status(t, app, a.Id); st != terms.PDFAvailable || url != terms.PDFPath(a.Id) {
		t.Fatalf("after signing: %s %q", st, url)
	}
}

// The PDF is made through txutil.OnCommit: after the signing commits, never for a signing
// that rolled back, nor for one whose part of a shared transaction was discarded.
func TestAgreementPDFOnlyAfterCommit(t *testing.T) {
	app := testkit.NewApp(t)
	signer := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	active, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	rendered := 0
	defer terms.SetRenderPDF(func(ev terms.Evidence) ([]byte, error) {
		mu.Lock()
		rendered++
		mu.Unlock()
		return terms.RenderPDF(ev)
	})()
	record := func(tx core.App) error {
		_, err := terms.RecordAgreement(tx, terms.Signature{User: signer, Terms: active, PNG: signaturePNG(),
			IP: "203.0.113.9", UserAgent: "Mozilla/5.0 test", SignedAt: time.Now()})
		return err
	}
	renders := func() int {
		terms.WaitForPDFs(app)
		mu.Lock()
		defer mu.Unlock()
		return rendered
	}
	rollback := errors.New("rolled back")
	if err := app.RunInTransaction(func(tx core.App) error {
		if err := record(tx); err != nil {
			return err
		}
		return rollback
	}); !errors.Is(err, rollback) {
		t.Fatal(err)
	}
	if n := renders(); n != 0 {
		t.Fatalf("a rolled-back signing rendered %d PDFs", n)
	}
	if err := app.RunInTransaction(func(tx core.App) error {
		part := &txutil.Part{}
		err := txutil.RunPart(tx, part, func() error { return record(tx) })
		part.Discard()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := renders(); n != 0 {
		t.Fatalf("a discarded part's signing rendered %d PDFs", n)
	}
	if err := app.RunInTransaction(record); err != nil {
		t.Fatal(err)
	}
	if n := renders(); n != 1 {
		t.Fatalf("a committed signing rendered %d PDFs, want 1", n)
	}
}

// The signer's account deleted while their PDF renders: the PDF is stored, and the agreement
// keeps the cleared user link instead of getting the deleted id back from the copy read
// before rendering.
func TestPDFKeepsWhatChangedWhileItRendered(t *testing.T) {
	app := testkit.NewApp(t)
	signer := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	defer terms.SetRenderPDF(func(ev terms.Evidence) ([]byte, error) {
		if err := app.Delete(signer); err != nil {
			return nil, err
		}
		return terms.RenderPDF(ev)
	})()
	a := sign(t, app, signer)
	rec, err := app.FindRecordById(schema.Agreements, a.Id)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.GetString(schema.AgreementUser); got != "" {
		t.Fatalf("the agreement names the deleted user %q again", got)
	}
	if st, _ := status(t, app, a.Id); st != terms.PDFAvailable || rec.GetString(schema.AgreementPDF) == "" {
		t.Fatalf("PDF status %s, file %q", st, rec.GetString(schema.AgreementPDF))
	}
	if rec.GetString(schema.AgreementEmail) != signer.Email() {
		t.Fatalf("signer email %q", rec.GetString(schema.AgreementEmail))
	}
}

// A failing generator leaves ERROR: and its reason; the retry route then makes the PDF.
func TestFailedPDFThenRetry(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	restore := terms.SetRenderPDF(func(terms.Evidence) ([]byte, error) { return nil, errors.New("disk full") })
	a := sign(t, app, c.Driver)
	st, url := status(t, app, a.Id)
	if st != terms.PDFFailed || url != "ERROR: disk full" {
		t.Fatalf("after a failure: %s %q", st, url)
	}
	rec, _ := app.FindRecordById(schema.Agreements, a.Id)
	if rec.GetInt(schema.AgreementPDFAttempts) != 1 || rec.GetDateTime(schema.AgreementPDFNextAt).IsZero() {
		t.Fatalf("attempts %d, next %v", rec.GetInt(schema.AgreementPDFAttempts), rec.GetDateTime(schema.AgreementPDFNextAt))
	}
	// the job does not retry before the backoff has passed
	if n, _ := terms.RetryDue(context.Background(), app, time.Now(), 10); n != 0 {
		t.Fatalf("retried %d before the backoff", n)
	}
	// the retry route while the generator still fails: a 422 with the reason, never a 500
	h := testkit.Handler(t, app)
	call := func(method, url string, who *core.Record) *http.Response {
		req := httptest.NewRequest(method, url, nil)
		if who != nil {
			req.Header.Set("Authorization", testkit.Token(t, who))
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Result()
	}
	if res := call("POST", "/api/admin/retry-pdf/"+a.Id, c.Admin); res.StatusCode != 422 {
		t.Fatalf("retry while failing: %d", res.StatusCode)
	}
	if res := call("GET", "/api/agreements/"+a.Id+"/pdf", c.Admin); res.StatusCode != 409 {
		t.Fatalf("PDF of a failed agreement: %d", res.StatusCode)
	} else if b := body(res); !strings.Contains(b, "PDF generation failed") {
		t.Fatalf("PDF of a failed agreement: %s", b)
	}
	restore()
	res := call("POST", "/api/admin/retry-pdf/"+a.Id, c.Admin)
	if got := body(res); res.StatusCode != 200 || !strings.Contains(got, terms.MsgPDFRetried) {
		t.Fatalf("retry: %d %s", res.StatusCode, got)
	}
	if st, _ := status(t, app, a.Id); st != terms.PDFAvailable {
		t.Fatalf("after retry: %s", st)
	}
	// who may download it
	for _, tc := range []struct {
		who  *core.Record
		want int
	}{{c.Admin, 200}, {c.Master, 200}, {c.Driver, 200}, {c.Liaison, 403}, {testkit.CreateUser(t, app, roles.Driver, roles.Approved), 403}, {nil, 401}} {
		res := call("GET", "/api/agreements/"+a.Id+"/pdf", tc.who)
		if res.StatusCode != tc.want {
			t.Errorf("download as %v: %d, want %d", tc.who, res.StatusCode, tc.want)
		}
		if tc.want == 200 {
			b, _ := io.ReadAll(res.Body)
			if res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(b, []byte("%PDF")) {
				t.Errorf("download: %s, %q…", res.Header.Get("Content-Type"), b[:min(8, len(b))])
			}
		}
	}
	if res := call("GET", "/api/agreements/nosuchagreement/pdf", c.Admin); res.StatusCode != 404 {
		t.Fatalf("unknown agreement: %d", res.StatusCode)
	}
}

// An agreement left generating (the process stopped before its PDF was made) is made by the
// pdf job after a restart.
func TestJobPicksUpAStuckAgreementAfterRestart(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	a := sign(t, app, c.Driver)
	// as a crash would leave it: generating, no PDF, signed two minutes ago
	if _, err := app.DB().NewQuery("UPDATE agreements SET pdfStatus = 'generating', pdf = '', created = {:t} WHERE id = {:id}").
		Bind(map[string]any{"t": time.Now().Add(-2 * time.Minute).UTC().Format("2006-01-02 15:04:05.000Z"), "id": a.Id}).Execute(); err != nil {
		t.Fatal(err)
	}
	restarted := testkit.Open(t, app.DataDir())
	defer restarted.Cleanup()

	n, err := terms.RetryDue(context.Background(), restarted, time.Now(), 10)
	if err != nil || n != 1 {
		t.Fatalf("job made %d (%v)", n, err)
	}
	if st, _ := status(t, restarted, a.Id); st != terms.PDFAvailable {
		t.Fatalf("after the job: %s", st)
	}
	ag, _ := terms.FindAgreement(restarted, a.Id)
	r, _, err := terms.OpenPDF(restarted, ag)
	if err != nil {
		t.Fatalf("the PDF the job made: %v", err)
	}
	r.Close()
}

// Two activations at once always leave exactly one active version.
func TestActivationRaceLeavesOneActive(t *testing.T) {
	app := testkit.NewApp(t)
	var ids []string
	for _, v := range []string{"2026.1", "2026.2", "2026.3"} {
		out, err := terms.CreateVersion(app, terms.VersionInput{Version: v, Title: "T " + v, Content: "<p>Terms " + v + "</p>", EffectiveDate: "2026-01-01"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, out.Id)
	}
	for round := 0; round < 20; round++ {
		var wg sync.WaitGroup
		for _, id := range ids {
			wg.Add(1)
			go func(id string) {
				defer wg.Done()
				_, _ = terms.Activate(app, id)
			}(id)
		}
		wg.Wait()
		var n int
		_ = app.DB().NewQuery("SELECT COUNT(*) FROM terms_versions WHERE isActive = TRUE").Row(&n)
		if n != 1 {
			t.Fatalf("round %d: %d active versions", round, n)
		}
	}
}

func TestVersionRulesAndImmutability(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	v, err := terms.CreateVersion(app, terms.VersionInput{Version: "2026.1", Title: "Terms", EffectiveDate: "2026-02-01",
		Content: `<h2 onclick="x()">One</h2><p>Text<script>alert(1)</script> <a href="javascript:alert(1)">bad</a> <a href="https://ok.example">ok</a></p>`})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(v.Content, "script") || strings.Contains(v.Content, "onclick") || strings.Contains(v.Content, "javascript") || !strings.Contains(v.Content, `href="https://ok.example"`) {
		t.Fatalf("stored content %q", v.Content)
	}
	for _, bad := range []struct {
		in  terms.VersionInput
		msg string
	}{
		{terms.VersionInput{Version: "2026.1", Title: "T", Content: "<p>x</p>", EffectiveDate: "2026-01-01"}, terms.MsgVersionTaken},
		{terms.VersionInput{Version: " ", Title: "T", Content: "<p>x</p>", EffectiveDate: "2026-01-01"}, terms.MsgVersionRequired},
		{terms.VersionInput{Version: "x", Title: "", Content: "<p>x</p>", EffectiveDate: "2026-01-01"}, terms.MsgTitleRequired},
		{terms.VersionInput{Version: "x", Title: "T", Content: "<p>x</p>", EffectiveDate: "2026-02-30"}, terms.MsgEffectiveDate},
		{terms.VersionInput{Version: "x", Title: "T", Content: "<script>alert(1)</script>", EffectiveDate: "2026-01-01"}, terms.MsgContentRequired},
	} {
		if _, err := terms.CreateVersion(app, bad.in); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("create %+v: %v, want %q", bad.in, err, bad.msg)
		}
	}
	// unsigned: editable; signed: 409
	if _, err := terms.UpdateVersion(app, v.Id, terms.VersionInput{Version: "2026.1", Title: "Terms, edited", Content: "<p>Edited</p>", EffectiveDate: "2026-02-01"}); err != nil {
		t.Fatalf("edit unsigned: %v", err)
	}
	if _, err := terms.Activate(app, v.Id); err != nil {
		t.Fatal(err)
	}
	sign(t, app, c.Driver)
	_, err = terms.UpdateVersion(app, v.Id, terms.VersionInput{Version: "2026.1", Title: "Sneaky", Content: "<p>Changed after signing</p>", EffectiveDate: "2026-02-01"})
	if err == nil || !strings.Contains(err.Error(), terms.MsgVersionSigned) {
		t.Fatalf("edit signed: %v", err)
	}
}

func TestTermsAdminRoutesByRole(t *testing.T) {
	for _, route := range []struct{ method, url, body, want string }{
		{"GET", "/api/admin/terms-content", "", `"signedCount"`},
		{"GET", "/api/admin/terms-template", "", `"content":"<h1>Micromobility`},
		{"GET", "/api/admin/terms-agreements", "", `[`},
		{"POST", "/api/admin/terms-content", `{"version":"2027.1","title":"T","content":"<p>x</p>","effectiveDate":"2027-01-01"}`, `"message":"Terms version created"`},
	} {
		for _, who := range testkit.AllCallers {
			status, want := 403, `"status":403`
			switch who {
			case testkit.Guest:
				status, want = 401, `"status":401`
			case testkit.Admin, testkit.Master:
				status, want = 200, route.want
			}
			factory, headers := testkit.As(who, nil)
			(&tests.ApiScenario{Name: route.method + " " + route.url + " as " + who, Method: route.method, URL: route.url,
				Body: strings.NewReader(route.body), Headers: headers, TestAppFactory: factory,
				ExpectedStatus: status, ExpectedContent: []string{want}}).Test(t)
		}
	}
}

func body(res *http.Response) string {
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// A retry from the UI carries an Idempotency-Key. With a generator that still fails, the
// agreement keeps its new "ERROR: …" (a second attempt counted) and TERMS_UPDATED goes out:
// the route runs outside the keyed write transaction, whose rollback of the 422 would
// otherwise take both with it.
func TestKeyedRetryOfAFailingPDFKeepsTheError(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	defer terms.SetRenderPDF(func(terms.Evidence) ([]byte, error) { return nil, errors.New("disk full") })()
	a := sign(t, app, c.Driver)
	sent := make(chan string, 16)
	defer events.For(app).Subscribe(func(m events.Message) { sent <- m.Type })()

	req := httptest.NewRequest("POST", "/api/admin/retry-pdf/"+a.Id, strings.NewReader("{}"))
	req.Header.Set("Authorization", testkit.Token(t, c.Admin))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(idempotency.Header, "retry-pdf-1")
	w := httptest.NewRecorder()
	testkit.Handler(t, app).ServeHTTP(w, req)
	if w.Code != 422 || !strings.Contains(w.Body.String(), "PDF generation failed: disk full") {
		t.Fatalf("keyed retry: %d %s", w.Code, w.Body)
	}
	rec, _ := app.FindRecordById(schema.Agreements, a.Id)
	if st, url := status(t, app, a.Id); st != terms.PDFFailed || url != "ERROR: disk full" || rec.GetInt(schema.AgreementPDFAttempts) != 2 {
		t.Fatalf("after a keyed retry: %s %q, attempts %d (want 2)", st, url, rec.GetInt(schema.AgreementPDFAttempts))
	}
	select {
	case typ := <-sent:
		if typ != terms.TermsUpdated {
			t.Fatalf("sent %s", typ)
		}
	default:
		t.Fatal("no TERMS_UPDATED after the failed retry")
	}
}

// A new registrant is pending from the moment they sign: they download their own PDF and find
// it through GET /api/agreements/mine (the pending screen's link). So do rejected and
// suspended signers; other users still get 403, admins every agreement.
func TestTheSignerGetsTheirCopyInAnyState(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	h := testkit.Handler(t, app)
	get := func(url string, who *core.Record) (int, string) {
		req := httptest.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", testkit.Token(t, who))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	if code, b := get("/api/agreements/mine", c.Pending); code != 404 || !strings.Contains(b, terms.MsgNoAgreement) {
		t.Fatalf("mine before signing: %d %s", code, b)
	}
	a := sign(t, app, c.Pending)
	for _, state := range []string{roles.Pending, roles.Rejected, roles.Suspended} {
		c.Pending.Set(schema.UserIsApproved, state)
		if err := app.Save(c.Pending); err != nil {
			t.Fatal(err)
		}
		if code, b := get("/api/agreements/"+a.Id+"/pdf", c.Pending); code != 200 || !strings.HasPrefix(b, "%PDF") {
			t.Fatalf("%s signer downloads their PDF: %d %.80s", state, code, b)
		}
		code, b := get("/api/agreements/mine", c.Pending)
		var mine struct{ Id, TermsVersion, SignedAt, PdfStatus, PdfUrl string }
		if err := json.Unmarshal([]byte(b), &mine); code != 200 || err != nil {
			t.Fatalf("%s: mine: %d %s", state, code, b)
		}
		if mine.Id != a.Id || mine.PdfUrl != terms.PDFPath(a.Id) || mine.PdfStatus != terms.PDFAvailable || mine.TermsVersion == "" || mine.SignedAt == "" {
			t.Fatalf("%s: mine %+v", state, mine)
		}
	}
	for who, want := range map[*core.Record]int{c.Admin: 200, c.Master: 200, c.Driver: 403, c.Liaison: 403} {
		if code, _ := get("/api/agreements/"+a.Id+"/pdf", who); code != want {
			t.Errorf("%s downloads another's PDF: %d, want %d", who.GetString(schema.UserRole), code, want)
		}
	}
	// a suspended admin is refused as before
	c.Admin.Set(schema.UserIsApproved, roles.Suspended)
	if err := app.Save(c.Admin); err != nil {
		t.Fatal(err)
	}
	if code, _ := get("/api/agreements/"+a.Id+"/pdf", c.Admin); code != 403 {
		t.Errorf("suspended admin: %d, want 403", code)
	}
}

// The built-in template's effective date is today in the operation's time zone. The zone is
// picked so that its date differs from UTC's now (behind UTC before 11:00 UTC, ahead after).
func TestTemplateEffectiveDateIsTheOperationsToday(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	zone := "Pacific/Kiritimati" // UTC+14
	if time.Now().UTC().Hour() < 11 {
		zone = "Pacific/Pago_Pago" // UTC−11
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Skip("no zone data:", err)
	}
	h := testkit.Handler(t, app)
	call := func(method, url, body string) (int, string) {
		req := httptest.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Authorization", testkit.Token(t, c.Admin))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	if code, b := call("POST", "/api/admin/settings", `{"settings":[{"key":"time_zone","value":"`+zone+`"}]}`); code != 200 {
		t.Fatalf("set zone: %d %s", code, b)
	}
	code, b := call("GET", "/api/admin/terms-template", "")
	var tpl struct{ EffectiveDate string }
	if err := json.Unmarshal([]byte(b), &tpl); code != 200 || err != nil {
		t.Fatalf("template: %d %s", code, b)
	}
	now := time.Now()
	if want := now.In(loc).Format(time.DateOnly); tpl.EffectiveDate != want || want == now.UTC().Format(time.DateOnly) {
		t.Fatalf("effective date %s, want %s in %s (UTC %s)", tpl.EffectiveDate, want, zone, now.UTC().Format(time.DateOnly))
	}
}

// The admin agreements list says how each agreement was signed: drawn or typed (an agreement
// stored without a method, as older ones were, reads as drawn).
func TestAgreementsListSignatureMethod(t *testing.T) {
	app := testkit.NewApp(t)
	c := testkit.SeedCallers(t, app)
	active, err := terms.FindActive(app)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, s := range []struct {
		user           *core.Record
		method, stored string
	}{{c.Driver, terms.SignatureTyped, "typed"}, {c.Liaison, terms.SignatureDrawn, "drawn"}, {c.Admin, "", "drawn"}} {
		a, err := terms.RecordAgreement(app, terms.Signature{User: s.user, Terms: active, PNG: signaturePNG(),
			Method: s.method, Text: "Dee River", IP: "203.0.113.9", UserAgent: "test", SignedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		want[a.Id] = s.stored
	}
	terms.WaitForPDFs(app)
	if _, err := app.DB().NewQuery("UPDATE agreements SET signatureMethod = '' WHERE user = {:u}").Bind(dbx.Params{"u": c.Admin.Id}).Execute(); err != nil {
		t.Fatal(err)
	}
	rows, err := terms.ListAgreements(app)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for _, r := range rows {
		if r.SignatureMethod != want[r.Id] {
			t.Errorf("agreement %s: signatureMethod %q, want %q", r.Id, r.SignatureMethod, want[r.Id])
		}
	}
}
