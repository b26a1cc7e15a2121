package auth_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/testkit"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/auth"
	"swapbay/modules/terms"
)

// loginFrom posts a sign-in as if from source (the test server trusts X-Forwarded-For) and
// returns the status and the answer.
func loginFrom(c *client, source, email, password, extra string) (int, map[string]any) {
	c.t.Helper()
	req, _ := http.NewRequest("POST", c.srv.URL+"/api/login",
		strings.NewReader(`{"email":"`+email+`","password":"`+password+`"`+extra+`}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", source)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	return res.StatusCode, body
}

func trustForwardedFor(t *testing.T) (*client, string) {
	app, srv, driver := setup(t)
	app.Settings().TrustedProxy.Headers = []string{"X-Forwarded-For"}
	return &client{t: t, srv: srv}, driver.Email()
}

// The owner signs in with the right password while another source is failing on the same
// account; the failing source is slowed (429), even once it sends the right password.
func TestOwnerSignsInWhileAnotherSourceFails(t *testing.T) {
	c, email := trustForwardedFor(t)
	var got []int
	for i := 0; i < 8; i++ {
		s, _ := loginFrom(c, "198.51.100.66", email, "guess", "")
		got = append(got, s)
	}
	want := []int{400, 400, 400, 400, 400, 400, 429, 429} // the sixth failure starts the wait
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("attacker's statuses %v, want %v", got, want)
	}
	if s, body := loginFrom(c, "198.51.100.66", email, testkit.Password, ""); s != 429 || body["code"] != "too_many_requests" {
		t.Fatalf("the failing source with the right password: %d %v, want 429 too_many_requests", s, body)
	}
	if s, body := loginFrom(c, "203.0.113.7", email, testkit.Password, ""); s != 200 {
		t.Fatalf("the owner from another source: %d %v", s, body)
	}
	// the attacker is still waiting after the owner signed in
	if s, _ := loginFrom(c, "198.51.100.66", email, "guess", ""); s != 429 {
		t.Fatalf("the failing source after the owner's sign-in: %d", s)
	}
}

// distributedFailures fails n times on email, each from its own source (none of them slowed).
func distributedFailures(t *testing.T, c *client, email string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if s, _ := loginFrom(c, fmt.Sprintf("10.%d.%d.1", i/200, i%200), email, "guess", ""); s != 400 {
			t.Fatalf("failure %d: %d", i+1, s)
		}
	}
}

// Without SMTP an account failed on from many sources still signs its owner in from a clean
// source: nothing refuses the right password.
func TestAccountUnderAttackWithoutSMTPStillSignsTheOwnerIn(t *testing.T) {
	c, email := trustForwardedFor(t)
	distributedFailures(t, c, email, 60)
	if s, body := loginFrom(c, "203.0.113.7", email, testkit.Password, ""); s != 200 {
		t.Fatalf("owner: %d %v", s, body)
	}
}

// With SMTP set, beyond the per-account threshold the right password is answered with an
// emailed code, which (with the password) signs in once.
func TestAccountUnderAttackAsksForAnEmailedCode(t *testing.T) {
	app, srv, driver := setup(t)
	app.Settings().TrustedProxy.Headers = []string{"X-Forwarded-For"}
	app.Settings().SMTP.Enabled = true
	c, email := &client{t: t, srv: srv}, driver.Email()
	distributedFailures(t, c, email, 49)
	if s, _ := loginFrom(c, "203.0.113.7", email, testkit.Password, ""); s != 200 {
		t.Fatalf("below the threshold the password alone signs in: %d", s)
	}
	distributedFailures(t, c, email, 50)
	s, body := loginFrom(c, "203.0.113.7", email, testkit.Password, "")
	if s != 403 || body["code"] != "sign_in_code_required" {
		t.Fatalf("over the threshold: %d %v", s, body)
	}
	otpId, _ := body["data"].(map[string]any)["otpId"].(string)
	msg := app.TestMailer.LastMessage()
	if otpId == "" || len(msg.To) != 1 || msg.To[0].Address != email {
		t.Fatalf("otpId %q, mail to %v", otpId, msg.To)
	}
	code := regexp.MustCompile(`\b\d{8}\b`).FindString(msg.HTML)
	if s, body := loginFrom(c, "203.0.113.7", email, testkit.Password, `,"otpId":"`+otpId+`","code":"00000000"`); s != 400 || body["code"] != "invalid_sign_in_code" {
		t.Fatalf("wrong code: %d %v", s, body)
	}
	if s, _ := loginFrom(c, "198.51.100.9", email, "guess", `,"otpId":"`+otpId+`","code":"`+code+`"`); s != 400 {
		t.Fatalf("the code without the password: %d", s)
	}
	if s, body := loginFrom(c, "203.0.113.7", email, testkit.Password, `,"otpId":"`+otpId+`","code":"`+code+`"`); s != 200 {
		t.Fatalf("password and code: %d %v", s, body)
	}
	if s, _ := loginFrom(c, "203.0.113.8", email, testkit.Password, `,"otpId":"`+otpId+`","code":"`+code+`"`); s != 200 {
		t.Fatalf("after the owner signed in the account's count starts again: %d", s)
	}
}

// Admins see the sources with repeated failures; nobody else does.
func TestAdminsSeeRepeatedFailures(t *testing.T) {
	app, srv, driver := setup(t)
	app.Settings().TrustedProxy.Headers = []string{"X-Forwarded-For"}
	c := &client{t: t, srv: srv}
	for i := 0; i < 3; i++ {
		loginFrom(c, "198.51.100.66", driver.Email(), "guess", "")
	}
	loginFrom(c, "198.51.100.67", driver.Email(), "guess", "") // once is not repeated
	admin := testkit.CreateUser(t, app, roles.Admin, roles.Approved)
	liaison := testkit.CreateUser(t, app, roles.Liaison, roles.Approved)
	for _, row := range []struct {
		name string
		who  *core.Record // nil: a guest
		want int
	}{{"admin", admin, 200}, {"driver", driver, 403}, {"liaison", liaison, 403}, {"guest", nil, 401}} {
		req, _ := http.NewRequest("GET", srv.URL+"/api/admin/sign-in-failures", nil)
		if row.who != nil {
			req.Header.Set("Authorization", testkit.Token(t, row.who))
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != row.want {
			t.Fatalf("%s: %d %s", row.name, res.StatusCode, b)
		}
		want := row.want
		if want == 200 {
			var rows []map[string]any
			_ = json.Unmarshal(b, &rows)
			if len(rows) != 1 || rows[0]["account"] != driver.Email() || rows[0]["source"] != "198.51.100.66" || rows[0]["count"] != 3.0 || rows[0]["lastAt"] == "" {
				t.Fatalf("rows %s", b)
			}
		}
	}
}

// Signing the terms is limited per account: 12 signs at once store 3 agreements, the rest
// are answered 429 too_many_requests.
func TestTermsSignIsRateLimited(t *testing.T) {
	app, srv, driver := setup(t)
	sign := `{"acceptedTerms":true,"signatureData":"` + dataURL(signaturePNG(t)) + `"}`
	token := testkit.Token(t, driver)
	statuses := make(chan int, 12)
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", srv.URL+"/api/terms/sign", strings.NewReader(sign))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == 429 && (!strings.Contains(string(b), `"code":"too_many_requests"`) || res.Header.Get("Retry-After") == "") {
				t.Errorf("429 without its code or Retry-After: %s", b)
			}
			statuses <- res.StatusCode
		}()
	}
	wg.Wait()
	close(statuses)
	by := map[int]int{}
	for s := range statuses {
		by[s]++
	}
	if by[200] != auth.SignLimit.PerAccount.N || by[429] != 12-auth.SignLimit.PerAccount.N {
		t.Fatalf("statuses %v", by)
	}
	terms.WaitForPDFs(app)
	if n := count(t, app, schema.Agreements, dbx.HashExp{schema.AgreementUser: driver.Id}); n != int64(auth.SignLimit.PerAccount.N) {
		t.Fatalf("%d agreements stored", n)
	}
}
