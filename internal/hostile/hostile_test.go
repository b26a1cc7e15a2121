package hostile_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
	"swapbay/modules/users"
)

// world is one app with every kind of record a mutation route can address.
type world struct {
	app              *tests.TestApp
	handler          http.Handler
	c                testkit.Callers
	driverTok, admin string
	other            *core.Record // a second driver
	session          string       // an active charging session
	movement         string       // a pickup to correct
	target           string       // a user to edit
}

func newWorld(t *testing.T) *world {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	w := &world{app: app, c: testkit.SeedCallers(t, app)}
	w.other = ledgertest.NewUser(t, app, roles.Driver)
	w.target = ledgertest.NewUser(t, app, roles.Driver).Id
	if _, err := system.Override(app, inventory.Op{}, 140, 20, 0, 160); err != nil {
		t.Fatal(err)
	}
	mv, err := inventory.Pickup(app, inventory.Op{}, w.c.Driver.Id, 5)
	if err != nil {
		t.Fatal(err)
	}
	w.movement = mv.Id
	if _, err := inventory.Pickup(app, inventory.Op{}, w.other.Id, 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := custody.Assign(app, inventory.Op{}, w.c.Driver.Id, 2, "repair"); err != nil {
		t.Fatal(err)
	}
	s, _, err := charging.Start(app, inventory.Op{}, "4A", 3)
	if err != nil {
		t.Fatal(err)
	}
	w.session = s.Id
	w.driverTok, w.admin = testkit.Token(t, w.c.Driver), testkit.Token(t, w.c.Admin)
	w.handler = testkit.Handler(t, app)
	return w
}

func (w *world) do(method, url, token, body string) (int, string) {
	req := httptest.NewRequest(method, url, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", token)
	rec := httptest.NewRecorder()
	w.handler.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// snapshot is everything a refused request must leave as it was: the ledger's State, the
// settings, the edited user's pay reduction and what /api/state reports.
type snapshot struct {
	ledger   ledgertest.State
	settings string
	pay      int
	state    string
}

func (w *world) snapshot(t *testing.T) snapshot {
	t.Helper()
	var rows []struct {
		Key   string `db:"key"`
		Value string `db:"value"`
	}
	if err := w.app.DB().NewQuery("SELECT key, value FROM settings ORDER BY key").All(&rows); err != nil {
		t.Fatal(err)
	}
	u, err := w.app.FindRecordById("users", w.target)
	if err != nil {
		t.Fatal(err)
	}
	status, body := w.do("GET", "/api/state", w.admin, "")
	if status != 200 {
		t.Fatalf("/api/state: %d %s", status, body)
	}
	stats := body[strings.Index(body, `"stats":`):]
	stats = stats[:strings.Index(stats, "}")+1]
	return snapshot{ledger: ledgertest.Capture(t, w.app), settings: fmt.Sprint(rows), pay: u.GetInt("payReductionPercentage"), state: stats}
}

// readRoutes are every GET route of the API; after any refusal they must all answer 200.
var readRoutes = []string{
	"/api/state", "/api/driver/recent-movements", "/api/driver/weekly-activity", "/api/driver/dead-battery-stats",
	"/api/admin/weekly-activity", "/api/admin/weekly-activity?weekOffset=-1", "/api/liaison/charging-sessions",
	"/api/admin/charging-sessions", "/api/liaison/battery-holders", "/api/admin/battery-holders",
	"/api/admin/recent-activity", "/api/admin/weekly-stats", "/api/admin/active-pickups", "/api/inventory",
	"/api/admin/users", "/api/admin/users/pending", "/api/auth/user", "/api/terms-content/active",
}

func (w *world) assertReadable(t *testing.T) {
	t.Helper()
	for _, url := range readRoutes {
		for _, tok := range []string{w.admin, w.driverTok} {
			status, body := w.do("GET", url, tok, "")
			if status != 200 && !(tok == w.driverTok && status == 403) {
				t.Errorf("GET %s: %d %s", url, status, body)
			}
		}
	}
}

// numberField is one number field of one mutation route: body has a %s where the value goes.
type numberField struct {
	who           string // testkit.Driver or testkit.Admin
	method, url   string
	field, body   string
	low, high     string // messages below / above the range (and for non-integers: low)
	null          string // message for null; "" when null means "absent, use the default"
	acceptsDigits bool   // settings are text pairs: "3" is a valid value there
}

// hostile values and whether each is above the range (else below it or not an integer).
var hostile = []struct {
	raw  string
	high bool
}{
	{"9223372036854775807", true}, {"2147483648", true}, {"-1", false}, {"1.5", false}, {`"3"`, false}, {"1e6", false}, {"null", false},
}

func (w *world) fields() []numberField {
	d, o := w.c.Driver.Id, w.other.Id
	count := func(who, method, url, field, body, low, null string) numberField {
		return numberField{who: who, method: method, url: url, field: field, body: body, low: low, high: reqx.MsgCountTooLarge, null: null}
	}
	fleet := func(url, field, body, low, null string) numberField {
		return numberField{who: testkit.Admin, method: "POST", url: url, field: field, body: body, low: low, high: reqx.MsgFleetTooLarge, null: null}
	}
	swap := func(field string) numberField {
		vals := map[string]string{"goodBatteries": "1", "deadBatteries": "0", "returnGoodBatteries": "0", "returnDeadBatteries": "0"}
		vals[field] = "%s"
		body := fmt.Sprintf(`{"fromUserId":%q,"toUserId":%q,"isExchange":true,"goodBatteries":%s,"deadBatteries":%s,"returnGoodBatteries":%s,"returnDeadBatteries":%s}`,
			d, o, vals["goodBatteries"], vals["deadBatteries"], vals["returnGoodBatteries"], vals["returnDeadBatteries"])
		return count(testkit.Admin, "POST", "/api/admin/driver-swap", field, body, reqx.MsgCountInvalid, "")
	}
	var out []numberField
	out = append(out,
		count(testkit.Driver, "POST", "/api/driver/pickup", "quantity", `{"quantity":%s,"notes":"n"}`, reqx.MsgQuantityRequired, reqx.MsgQuantityRequired),
		count(testkit.Driver, "POST", "/api/driver/dropoff-batteries", "goodBatteries", `{"goodBatteries":%s,"deadBatteries":1,"notes":"n"}`, reqx.MsgCountInvalid, ""),
		count(testkit.Driver, "POST", "/api/driver/dropoff-batteries", "deadBatteries", `{"goodBatteries":1,"deadBatteries":%s,"notes":"n"}`, reqx.MsgCountInvalid, ""),
		count(testkit.Driver, "POST", "/api/driver/rebalance", "quantity", `{"quantity":%s}`, reqx.MsgQuantityRequired, reqx.MsgQuantityRequired),
		count(testkit.Driver, "POST", "/api/driver/retrieves-repairs-dropoff", "quantity", `{"quantity":%s}`, reqx.MsgQuantityRequired, reqx.MsgQuantityRequired),
		count(testkit.Admin, "POST", "/api/start-charging", "quantity", `{"chargerType":"4A","quantity":%s}`, reqx.MsgQuantityRequired, reqx.MsgQuantityRequired),
		count(testkit.Admin, "PATCH", "/api/admin/charging-sessions/"+w.session+"/quantity", "quantity", `{"quantity":%s,"destination":"ready"}`, charging.MsgQuantityNegative, charging.MsgQuantityNegative),
		count(testkit.Admin, "POST", "/api/admin/assignments", "quantity", `{"userId":"`+d+`","quantity":%s,"assignmentType":"pickup"}`, reqx.MsgQuantityRequired, reqx.MsgQuantityRequired),
		swap("goodBatteries"), swap("deadBatteries"), swap("returnGoodBatteries"), swap("returnDeadBatteries"),
		count(testkit.Admin, "POST", "/api/admin/dead-battery-transfer", "deadBatteries", `{"fromUserId":"`+d+`","toUserId":"`+o+`","deadBatteries":%s}`, custody.MsgDeadAtLeastOne, custody.MsgDeadAtLeastOne),
		count(testkit.Admin, "PUT", "/api/admin/movements/"+w.movement, "goodBatteries", `{"goodBatteries":%s,"deadBatteries":1}`, inventory.MsgEditTotal, ""),
		count(testkit.Admin, "PUT", "/api/admin/movements/"+w.movement, "deadBatteries", `{"goodBatteries":1,"deadBatteries":%s}`, inventory.MsgEditTotal, ""),
	)
	for _, f := range []string{"total", "ready", "waiting", "charging", "inField"} {
		out = append(out, fleet("/api/admin/update-stats", "value", `{"stat":"`+f+`","value":%s,"from":0}`, system.MsgStatInvalid, system.MsgStatInvalid),
			fleet("/api/admin/update-stats", "from", `{"stat":"`+f+`","value":0,"from":%s}`, system.MsgStatInvalid, system.MsgStatInvalid))
	}
	for _, url := range []string{"/api/admin/emergency-override", "/api/admin/emergency-inventory-override"} {
		vals := map[string]string{"ready": "150", "waiting": "10", "charging": "0", "total": "160"}
		for _, f := range []struct{ name, label, min string }{{"ready", "Ready", "0"}, {"waiting", "Waiting", "0"}, {"charging", "Charging", "0"}, {"total", "Total", "1"}} {
			v := map[string]string{}
			for k, x := range vals {
				v[k] = x
			}
			v[f.name] = "%s"
			body := fmt.Sprintf(`{"ready":%s,"waiting":%s,"charging":%s,"total":%s}`, v["ready"], v["waiting"], v["charging"], v["total"])
			out = append(out, fleet(url, f.name, body, f.label+" count must be a whole number of at least "+f.min, f.label+" count is required"))
		}
	}
	total := fleet("/api/admin/settings", "total_batteries", `{"settings":[{"key":"total_batteries","value":%s}]}`, inventory.MsgTotalInvalid, inventory.MsgTotalRequired)
	total.acceptsDigits = true
	minutes := count(testkit.Admin, "POST", "/api/admin/settings", "charger_minutes_4A", `{"settings":[{"key":"charger_minutes_4A","value":%s}]}`, charging.MsgChargerMinutesInvalid, "")
	minutes.acceptsDigits = true
	pay := numberField{who: testkit.Admin, method: "PUT", url: "/api/admin/users/" + w.target, field: "payReductionPercentage",
		body: `{"payReductionPercentage":%s}`, low: users.MsgPercentRange, high: users.MsgPercentRange}
	return append(out, total, minutes, pay)
}

// TestHostileNumbers sends every hostile value to every number field of every mutation
// route: each is a 400 naming the field with its message, changes nothing (ledger, settings,
// users, /api/state), and every read route still answers 200 afterwards.
func TestHostileNumbers(t *testing.T) {
	w := newWorld(t)
	before := w.snapshot(t)
	sent := 0
	for _, f := range w.fields() {
		for _, v := range hostile {
			want := f.low
			switch {
			case v.high:
				want = f.high
			case v.raw == "null" && f.null == "":
				continue // optional field: null means absent
			case v.raw == "null":
				want = f.null
			case v.raw == `"3"` && f.acceptsDigits:
				continue
			}
			tok := w.admin
			if f.who == testkit.Driver {
				tok = w.driverTok
			}
			body := fmt.Sprintf(f.body, v.raw)
			status, answer := w.do(f.method, f.url, tok, body)
			sent++
			if status != 400 || !strings.Contains(answer, `"message":"`+want+`"`) || !strings.Contains(answer, `"`+f.field+`":{`) {
				t.Errorf("%s %s %s: %d %s; want 400 %q naming %s", f.method, f.url, body, status, answer, want, f.field)
				continue
			}
			if after := w.snapshot(t); after != before {
				t.Fatalf("%s %s %s changed the state:\n%+v\n%+v", f.method, f.url, body, before, after)
			}
		}
	}
	ledgertest.AssertSound(t, w.app)
	w.assertReadable(t)
	t.Logf("%d hostile requests refused", sent)
}

// TestHugeRebalanceTwice is the attack of issue 8: rebalance with int64 max, twice. Both are
// refused and the weekly activity still adds up.
func TestHugeRebalanceTwice(t *testing.T) {
	w := newWorld(t)
	before := w.snapshot(t)
	for i := 0; i < 2; i++ {
		for _, url := range []string{"/api/driver/rebalance", "/api/driver/dropoff-batteries"} {
			status, body := w.do("POST", url, w.driverTok, `{"quantity":9223372036854775807,"goodBatteries":9223372036854775807,"notes":"n"}`)
			if status != 400 {
				t.Fatalf("%s #%d: %d %s", url, i, status, body)
			}
		}
	}
	if after := w.snapshot(t); after != before {
		t.Fatalf("state changed:\n%+v\n%+v", before, after)
	}
	w.assertReadable(t)
}

// TestBalanceLimit: a balance at the ledger's bound refuses one more battery with a 409 from
// the guarded UPDATE, and changes nothing.
func TestBalanceLimit(t *testing.T) {
	w := newWorld(t)
	// keep the ledger sound: the outside account and an entry carry the other side
	if _, err := w.app.DB().NewQuery(fmt.Sprintf(`UPDATE accounts SET balance = balance + %[1]d WHERE key = 'ready';
		UPDATE accounts SET balance = balance - %[1]d WHERE key = 'outside'`, inventory.MaxBalance-160)).Execute(); err != nil {
		t.Fatal(err)
	}
	before := w.snapshot(t)
	status, body := w.do("POST", "/api/driver/dropoff-batteries", w.driverTok, `{"goodBatteries":9,"deadBatteries":0,"notes":"n"}`)
	if status != 409 || !strings.Contains(body, inventory.MsgBalanceLimit) {
		t.Fatalf("dropoff over the bound: %d %s", status, body)
	}
	if after := w.snapshot(t); after != before {
		t.Fatalf("state changed:\n%+v\n%+v", before, after)
	}
}

// TestSQLGuardsRefuseDamage: the triggers of migration 1764000000 refuse a non-integer or
// out-of-range balance, entry delta, session quantity or total, whoever writes it.
func TestSQLGuardsRefuseDamage(t *testing.T) {
	w := newWorld(t)
	for _, q := range []string{
		"UPDATE accounts SET balance = 1.5 WHERE key = 'ready'",
		"UPDATE accounts SET balance = balance + 9223372036854775807 WHERE key = 'ready'",
		fmt.Sprintf("UPDATE accounts SET balance = %d WHERE key = 'ready'", inventory.MaxBalance+1),
		"UPDATE accounts SET balance = 'lots' WHERE key = 'ready'",
		"UPDATE entries SET delta = 2.5 WHERE id = (SELECT id FROM entries LIMIT 1)",
		"UPDATE charging_sessions SET quantity = -1",
		"UPDATE settings SET value = '1.5' WHERE key = 'total_batteries'",
		"UPDATE settings SET value = '9223372036854775807' WHERE key = 'total_batteries'",
	} {
		if _, err := w.app.DB().NewQuery(q).Execute(); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%s: %v, want refused", q, err)
		}
	}
	ledgertest.AssertSound(t, w.app)
}

// TestRecoveryFromDamagedBalance: balances written behind the ledger's back (a float, a huge
// value; the guard triggers dropped, as on a database damaged before they existed) make
// ledger writes refuse with a clear 409, and recalculation or the emergency override repairs
// them without reading the damaged figures. Every read route answers 200 before and after.
func TestRecoveryFromDamagedBalance(t *testing.T) {
	for _, c := range []struct {
		name, url, body string
		want            string
	}{
		{"recalculate", "/api/admin/recalculate-inventory", `{}`, `"ready":131`},
		{"override", "/api/admin/emergency-override", `{"ready":100,"waiting":10,"charging":3,"total":160}`, `"ready":100`},
		{"inventory override", "/api/admin/emergency-inventory-override", `{"ready":100,"waiting":10,"charging":3,"total":160}`, `"ready":100`},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			for _, q := range []string{
				"DROP TRIGGER guard_accounts_balance_update",
				"UPDATE accounts SET balance = 9.3e18 WHERE key = 'ready'",
				"UPDATE accounts SET balance = 1.5 WHERE key = 'waiting'",
				"UPDATE accounts SET balance = 9223372036854775807 WHERE key = 'untracked'",
			} {
				if _, err := w.app.DB().NewQuery(q).Execute(); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			// every read still answers while the figures are damaged (the admins must be able to
			// see the problem and reach the repair)
			w.assertReadable(t)
			status, body := w.do("POST", "/api/driver/pickup", w.driverTok, `{"quantity":1,"notes":"n"}`)
			if status != 409 || !strings.Contains(body, inventory.MsgBalanceDamaged) {
				t.Fatalf("pickup on a damaged balance: %d %s", status, body)
			}
			status, body = w.do("POST", c.url, w.admin, c.body)
			if status != 200 || !strings.Contains(body, c.want) {
				t.Fatalf("%s: %d %s", c.url, status, body)
			}
			ledgertest.AssertSound(t, w.app)
			w.assertReadable(t)
			if status, body := w.do("POST", "/api/driver/pickup", w.driverTok, `{"quantity":1,"notes":"n"}`); status != 200 {
				t.Fatalf("pickup after repair: %d %s", status, body)
			}
		})
	}
}

// TestNamesRefuseControlsNotesStripThem: names with control characters or bidi overrides
// are refused wherever a name is set (registration, admin create, user edit); notes have
// them stripped.
func TestNamesRefuseControlsNotesStripThem(t *testing.T) {
	w := newWorld(t)
	for _, c := range []struct{ method, url, token, body, field string }{
		{"POST", "/api/register", "", `{"email":"new@example.com","password":"secret123","firstName":"Ana\u202egnp.exe","lastName":"B"}`, "firstName"},
		{"POST", "/api/admin/users/create", w.admin, `{"email":"new2@example.com","password":"secret123","firstName":"Ana","lastName":"B\u2066x","role":"driver"}`, "lastName"},
		{"PUT", "/api/admin/users/" + w.target, w.admin, `{"firstName":"Ana\u0000"}`, "firstName"},
		{"PUT", "/api/admin/users/" + w.target, w.admin, `{"lastName":"Lee\u001b[31m"}`, "lastName"},
	} {
		var n struct {
			N int `db:"n"`
		}
		count := func() int {
			if err := w.app.DB().NewQuery("SELECT COUNT(*) AS n FROM users WHERE firstName LIKE '%Ana%' OR lastName LIKE '%Lee%'").One(&n); err != nil {
				t.Fatal(err)
			}
			return n.N
		}
		before := count()
		status, body := w.do(c.method, c.url, c.token, c.body)
		if status != 400 || !strings.Contains(body, `"message":"`+reqx.MsgNameCharacters+`"`) || !strings.Contains(body, `"`+c.field+`":{`) {
			t.Errorf("%s %s %s: %d %s", c.method, c.url, c.body, status, body)
		}
		if count() != before {
			t.Errorf("%s %s saved a refused name", c.method, c.url)
		}
	}
	status, body := w.do("POST", "/api/driver/pickup", w.driverTok, `{"quantity":1,"notes":"all \u202egood\u0007 here\r\n"}`)
	if status != 200 || !strings.Contains(body, `"notes":"all good here"`) {
		t.Fatalf("pickup with control characters in notes: %d %s", status, body)
	}
}
