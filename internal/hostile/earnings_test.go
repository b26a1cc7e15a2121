package hostile_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/earnings"
)

// earningsState is what a refused earnings write must leave as it was: the pay rate rows,
// the adjustments, every user's withholding and pay reduction, and the admin's report.
func (w *world) earningsState(t *testing.T) string {
	t.Helper()
	var n struct {
		Rates, Adjustments int
		Withholding, Pay   int
	}
	err := w.app.DB().NewQuery(`SELECT (SELECT COUNT(*) FROM ` + schema.PayRates + `) AS rates,
		(SELECT COUNT(*) FROM ` + schema.TaskAdjustments + `) AS adjustments,
		(SELECT COALESCE(SUM(` + schema.UserAdminPoolWithholdingPct + `), 0) FROM users) AS withholding,
		(SELECT COALESCE(SUM(payReductionPercentage), 0) FROM users) AS pay`).One(&n)
	if err != nil {
		t.Fatal(err)
	}
	status, report := w.do("GET", "/api/admin/all-earnings", w.admin, "")
	if status != 200 {
		t.Fatalf("all-earnings: %d %s", status, report)
	}
	return fmt.Sprintf("%+v %s", n, report)
}

// earningsReads are the earnings GET routes; after any refusal they must answer (drivers get
// 403 on the admin ones and 200 on their estimate).
var earningsReads = []string{"/api/admin/all-earnings", "/api/admin/core-team-earnings", "/api/admin/pay-rates",
	"/api/admin/earnings.csv", "/api/driver/pay-estimate"}

func (w *world) assertEarningsReadable(t *testing.T) {
	t.Helper()
	w.assertReadable(t)
	for _, url := range earningsReads {
		for _, tok := range []string{w.admin, w.driverTok} {
			status, body := w.do("GET", url, tok, "")
			if status != 200 && !(tok == w.driverTok && status == 403) {
				t.Errorf("GET %s: %d %s", url, status, body)
			}
		}
	}
}

// TestHostileEarnings sends every hostile value to every number field of the earnings write
// routes (pay rates, task adjustments, pool withholding), then other users' and unknown ids,
// callers without the role, and a replayed Idempotency-Key: each refusal is a 4xx with its
// message, nothing changes, and every read still answers.
func TestHostileEarnings(t *testing.T) {
	w := newWorld(t)
	monday := earnings.WeekOf(time.Now(), time.UTC).StartDate()
	adjust := func(user, count string) string {
		return `{"userId":"` + user + `","weekStart":"` + monday + `","taskType":"moves","originalCount":0,"adjustedCount":` + count + `,"adjustmentReason":"r"}`
	}
	type field struct {
		url, field, body, msg string
		valid                 map[string]bool // hostile values that are valid here (money and tenths take 1.5)
	}
	fields := []field{
		{"/api/admin/pay-rates", "deadBattery", `{"deadBattery":%s,"move":0.5,"recover":0}`, earnings.MsgRateInvalid, map[string]bool{"1.5": true}},
		{"/api/admin/pay-rates", "move", `{"deadBattery":1,"move":%s,"recover":0}`, earnings.MsgRateInvalid, map[string]bool{"1.5": true}},
		{"/api/admin/pay-rates", "recover", `{"deadBattery":1,"move":0.5,"recover":%s}`, earnings.MsgRateInvalid, map[string]bool{"1.5": true}},
		{"/api/admin/task-adjustments", "adjustedCount", adjust(w.c.Driver.Id, "%s"), earnings.MsgCountInvalid, nil},
		{"/api/admin/users/" + w.c.Admin.Id + "/pool-withholding", "withholding", `{"withholding":%s}`, earnings.MsgPercentRange, map[string]bool{"1.5": true}},
	}
	before := w.earningsState(t)
	sent := 0
	for _, f := range fields {
		for _, v := range hostile {
			if f.valid[v.raw] {
				continue
			}
			body := fmt.Sprintf(f.body, v.raw)
			status, answer := w.do("POST", f.url, w.admin, body)
			sent++
			msgOK := strings.Contains(answer, `"message":"`+f.msg+`"`) ||
				(f.field == "adjustedCount" && strings.Contains(answer, `"message":"`+reqx.MsgCountTooLarge+`"`))
			if status != 400 || !msgOK || !strings.Contains(answer, `"`+f.field+`":{`) {
				t.Errorf("POST %s %s: %d %s; want 400 %q naming %s", f.url, body, status, answer, f.msg, f.field)
				continue
			}
			if after := w.earningsState(t); after != before {
				t.Fatalf("POST %s %s changed the earnings:\n%s\n%s", f.url, body, before, after)
			}
		}
	}

	// ids: unknown users, a user who does not earn, a driver's withholding; callers without the role
	refusals := []struct {
		tok, method, url, body string
		status                 int
		msg                    string
	}{
		{w.admin, "POST", "/api/admin/task-adjustments", adjust("nosuchuser00000", "3"), 404, earnings.MsgUserNotFound},
		{w.admin, "POST", "/api/admin/task-adjustments", adjust(w.c.Liaison.Id, "3"), 400, earnings.MsgNotEarner},
		{w.admin, "POST", "/api/admin/task-adjustments", adjust(w.c.Pending.Id, "3"), 400, earnings.MsgNotEarner},
		{w.admin, "POST", "/api/admin/users/nosuchuser00000/pool-withholding", `{"withholding":5}`, 404, "User not found"},
		{w.admin, "POST", "/api/admin/users/" + w.c.Driver.Id + "/pool-withholding", `{"withholding":5}`, 400, "Pool withholding applies to admins and master admins only"},
		{w.driverTok, "POST", "/api/admin/pay-rates", `{"deadBattery":9,"move":9,"recover":9}`, 403, ""},
		{w.driverTok, "POST", "/api/admin/task-adjustments", adjust(w.c.Driver.Id, "99"), 403, ""},
		{w.driverTok, "POST", "/api/admin/users/" + w.c.Admin.Id + "/pool-withholding", `{"withholding":0}`, 403, ""},
		{testkit.Token(t, w.c.Liaison), "POST", "/api/admin/pay-rates", `{"deadBattery":9,"move":9,"recover":9}`, 403, ""},
		{"", "POST", "/api/admin/pay-rates", `{"deadBattery":9,"move":9,"recover":9}`, 401, ""},
	}
	for _, r := range refusals {
		status, answer := w.do(r.method, r.url, r.tok, r.body)
		sent++
		if status != r.status || !strings.Contains(answer, `"message":"`+r.msg) {
			t.Errorf("%s %s %s: %d %s; want %d %q", r.method, r.url, r.body, status, answer, r.status, r.msg)
		}
		if after := w.earningsState(t); after != before {
			t.Fatalf("%s %s %s changed the earnings", r.method, r.url, r.body)
		}
	}

	// a driver's estimate is their own whatever the query names
	_, own := w.do("GET", "/api/driver/pay-estimate", w.driverTok, "")
	_, other := w.do("GET", "/api/driver/pay-estimate?userId="+w.other.Id, w.driverTok, "")
	if own != other {
		t.Errorf("pay estimate followed ?userId: %s vs %s", own, other)
	}

	// a replayed Idempotency-Key records once and answers the first answer again; the same key
	// with another body is refused 409 idempotency_key_reused, and nothing more is recorded
	keyed := func(body string) (int, string) {
		req := httptest.NewRequest(http.MethodPost, "/api/admin/task-adjustments", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", w.admin)
		req.Header.Set("Idempotency-Key", "hostile-earnings-1")
		rec := httptest.NewRecorder()
		w.handler.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	count := func() (n int) {
		if err := w.app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.TaskAdjustments).Row(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	s1, a1 := keyed(adjust(w.c.Driver.Id, "7"))
	s2, a2 := keyed(adjust(w.c.Driver.Id, "7"))
	if s1 != 200 || s2 != 200 || a1 != a2 || count() != 1 {
		t.Fatalf("replay: %d %s / %d %s, %d adjustments", s1, a1, s2, a2, count())
	}
	if s3, a3 := keyed(adjust(w.c.Driver.Id, "8")); s3 != http.StatusConflict || !strings.Contains(a3, "idempotency_key_reused") || count() != 1 {
		t.Fatalf("key replayed with another body: %d %s, %d adjustments", s3, a3, count())
	}

	w.assertEarningsReadable(t)
	t.Logf("%d hostile earnings requests refused", sent)
}
