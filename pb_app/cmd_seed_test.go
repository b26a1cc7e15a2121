package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/users"
)

func TestSeedDemo(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()

	var out bytes.Buffer
	if err := seedDemo(app, time.Now(), &out); err != nil {
		t.Fatalf("seed-demo: %v", err)
	}
	for _, u := range demoLogins {
		if !strings.Contains(out.String(), u.email) {
			t.Fatalf("login %s not printed:\n%s", u.email, out.String())
		}
		rec, err := users.FindByEmail(app, u.email)
		if err != nil {
			t.Fatalf("%s: %v", u.email, err)
		}
		if !rec.ValidatePassword(DemoPassword) || rec.GetString(schema.UserRole) != u.role {
			t.Fatalf("%s: wrong password or role %q", u.email, rec.GetString(schema.UserRole))
		}
	}

	// a consistent ledger: recalculation corrects nothing, every battery is accounted for
	rec, err := inventory.Recalculate(app)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Corrections) > 0 {
		t.Fatalf("recalculation found corrections: %v", rec.Corrections)
	}
	stats, err := inventory.Stats(app)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Total != 160 || stats.Unaccounted != 0 {
		t.Fatalf("stats %+v", stats)
	}

	// two weeks of every kind of operation
	var types []struct {
		Type string `db:"type"`
		N    int    `db:"n"`
	}
	if err := app.DB().NewQuery("SELECT type, COUNT(*) AS n FROM movements GROUP BY type").All(&types); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range types {
		seen[r.Type] = r.N
	}
	for _, typ := range []string{inventory.TypePickup, inventory.TypeDropoff, inventory.TypeRebalance, inventory.TypeRetrievesRepairs,
		inventory.TypeChargeStart, inventory.TypeChargeComplete, inventory.TypeDriverSwapIn, inventory.TypeDriverSwapOut} {
		if seen[typ] == 0 {
			t.Errorf("no %s movement in the demo history (have %v)", typ, seen)
		}
	}
	// recorded when they happened: no seeded row shows as sent late
	var late int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM movements WHERE recordedAt != occurredAt").Row(&late); err != nil || late != 0 {
		t.Errorf("%d seeded movements recorded at another time than they happened (%v), want 0", late, err)
	}
	var first string
	_ = app.DB().NewQuery("SELECT MIN(occurredAt) FROM movements WHERE checkpoint = FALSE").Row(&first)
	if first == "" || first > time.Now().AddDate(0, 0, -12).UTC().Format("2006-01-02") {
		t.Errorf("history starts %q, want about two weeks ago", first)
	}
	var active int
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM charging_sessions WHERE status = 'active'").Row(&active)
	if active < 1 {
		t.Errorf("no active charging session at the end")
	}

	// every screen has something to show (issue 13): a due and a running session, batteries
	// waiting, holdings of several types, a pending and a suspended account, the opening
	// balance at the bottom of the feed
	var due, running int
	now := time.Now().UTC().Format("2006-01-02 15:04:05.000Z")
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM charging_sessions WHERE status = 'active' AND etaAt <= {:now}").Bind(map[string]any{"now": now}).Row(&due)
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM charging_sessions WHERE status = 'active' AND etaAt > {:now}").Bind(map[string]any{"now": now}).Row(&running)
	if due < 1 || running < 1 {
		t.Errorf("charging sessions: %d due, %d running; want both", due, running)
	}
	if st, _ := inventory.Stats(app); st.Waiting < 1 {
		t.Errorf("nothing waiting to charge: %+v", st)
	}
	var keys []string
	_ = app.DB().NewQuery("SELECT key FROM accounts WHERE kind = 'holder' AND balance > 0").Column(&keys)
	held := map[string]bool{}
	for _, k := range keys {
		held[k[strings.LastIndex(k, ":")+1:]] = true
	}
	if len(held) < 3 {
		t.Errorf("holdings of %d assignment types (%v), want several", len(held), held)
	}
	for _, state := range []string{"pending", "suspended"} {
		var n int
		_ = app.DB().NewQuery("SELECT COUNT(*) FROM users WHERE isApproved = {:s}").Bind(map[string]any{"s": state}).Row(&n)
		if n < 1 {
			t.Errorf("no %s account", state)
		}
	}
	var oldest bool
	_ = app.DB().NewQuery("SELECT checkpoint FROM movements ORDER BY occurredAt LIMIT 1").Row(&oldest)
	if !oldest {
		t.Errorf("the opening balance is not the oldest movement")
	}

	// the admin screens have data: rates (two versions), a task adjustment, claimed photos from
	// several drivers, this week's earnings
	for q, least := range map[string]int{
		"SELECT COUNT(*) FROM pay_rates":                                              1,
		"SELECT COUNT(*) FROM task_adjustments":                                       1,
		"SELECT COUNT(*) FROM photos WHERE claimed = TRUE":                            5,
		"SELECT COUNT(DISTINCT uploadedBy) FROM photos":                               3,
		"SELECT COUNT(*) FROM users WHERE adminPoolWithholdingPercentage > 0":         1,
		"SELECT COUNT(*) FROM agreements WHERE pdfStatus = 'available' AND pdf != ''": 5,
	} {
		var n int
		if err := app.DB().NewQuery(q).Row(&n); err != nil || n < least {
			t.Errorf("%s = %d (%v), want at least %d", q, n, err, least)
		}
	}

	// the demo fleet's packs (issue 35): 160 registered, tracking optional, two weeks of
	// pack-named history with a few discrepancies, every pack somewhere that exists
	for q, want := range map[string][2]int{
		"SELECT COUNT(*) FROM packs": {160, 160},
		"SELECT COUNT(*) FROM packs WHERE location = '' OR location NOT IN (SELECT id FROM accounts)": {0, 0},
		"SELECT COUNT(*) FROM pack_events WHERE kind = 'discrepancy'":                                 {1, 6},
		"SELECT COUNT(*) FROM pack_events WHERE kind = 'moved'":                                       {500, 1 << 30},
		"SELECT COUNT(*) FROM pack_events WHERE kind = 'charged'":                                     {50, 1 << 30},
		"SELECT COUNT(DISTINCT pack) FROM pack_events WHERE kind = 'moved'":                           {100, 160},
		"SELECT COUNT(*) FROM settings WHERE key = 'pack_tracking' AND value = 'optional'":            {1, 1},
	} {
		var n int
		if err := app.DB().NewQuery(q).Row(&n); err != nil || n < want[0] || n > want[1] {
			t.Errorf("%s = %d (%v), want %d..%d", q, n, err, want[0], want[1])
		}
	}
	if len(rec.PackCorrections) > 0 {
		t.Errorf("pack corrections: %v", rec.PackCorrections)
	}

	// pack safety (issue 37): one recall of a six-pack lot, some in the bay and some with
	// drivers; a few missing packs with a last holder; an open damage report with a photo
	recalls, err := packs.Recalls(app)
	if err != nil || len(recalls) != 1 || recalls[0].PackCount != 6 {
		t.Fatalf("recalls = %+v %v; want one of 6 packs", recalls, err)
	}
	page, err := packs.RecallDetail(app, recalls[0].Id)
	if err != nil || page.InBay < 1 || page.InBay > 5 {
		t.Errorf("recall page: %d of %d in the bay (%v); want some in, some out", page.InBay, page.Total, err)
	}
	missing, err := packs.ListPacks(app, packs.Viewer{}, packs.Filter{Missing: true})
	if err != nil || len(missing.Packs) < 2 {
		t.Fatalf("missing packs = %d (%v); want a few", len(missing.Packs), err)
	}
	for _, p := range missing.Packs {
		if p.LastHolder == nil {
			t.Errorf("missing pack %s has no last holder", p.Serial)
		}
	}
	attention, err := packs.CountAttention(app, time.Now())
	if err != nil || attention.DamageReports != 1 || attention.QuarantinedPacks != 7 || attention.MissingPacks != len(missing.Packs) {
		t.Errorf("attention = %+v (%v); want 1 damage report, 7 quarantined, the missing packs", attention, err)
	}
	var photos int
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = 'damage' AND photos != '[]' AND photos != ''").Row(&photos)
	if photos != 1 {
		t.Errorf("%d damage reports with a photo; want 1", photos)
	}

	// a second run refuses and changes nothing
	var before, after int
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM movements").Row(&before)
	if err := seedDemo(app, time.Now(), &out); !errors.Is(err, errNotEmpty) {
		t.Fatalf("second run: %v, want errNotEmpty", err)
	}
	_ = app.DB().NewQuery("SELECT COUNT(*) FROM movements").Row(&after)
	if before != after {
		t.Fatalf("second run wrote %d movements", after-before)
	}
}

// seed-demo --pack-prefix mints the demo packs under the city's own prefix (make run-hq: three
// cities whose serials never collide); a prefix the System page would refuse is refused here too.
func TestSeedDemoPackPrefix(t *testing.T) {
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	if err := seedDemoWith(app, time.Now(), &bytes.Buffer{}, demoOptions{packPrefix: "PAR", withoutReadings: true}); err != nil {
		t.Fatal(err)
	}
	var other int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.Packs + " WHERE serial NOT LIKE 'PAR-%'").Row(&other); err != nil || other != 0 {
		t.Fatalf("%d demo packs without the PAR- prefix (%v)", other, err)
	}
	bad := testkit.NewApp(t)
	t.Cleanup(bad.Cleanup)
	if err := seedDemoWith(bad, time.Now(), &bytes.Buffer{}, demoOptions{packPrefix: "p!"}); err == nil || !strings.Contains(err.Error(), packs.MsgPrefix) {
		t.Fatalf("prefix p!: %v, want %q", err, packs.MsgPrefix)
	}
}
