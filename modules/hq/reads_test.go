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

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/earnings"
	"swapbay/modules/hq"
	"swapbay/modules/hq/reads"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/stocktake"
	"swapbay/modules/system"
	"swapbay/modules/transfers"
)

func init() { hq.RollupsEnabled = false } // the tests run RollUp themselves

// seedCity is a city with a history: three weeks of pickups, dropoffs, rebalances and
// recovers by two drivers and an admin at their own pay reductions, rates changed once, a task
// adjustment, packs (one unseen for a month: missing), a recall, in Europe/Paris.
func seedCity(t *testing.T, now time.Time) *tests.TestApp {
	t.Helper()
	city := testkit.NewApp(t)
	t.Cleanup(city.Cleanup)
	setSetting(t, city, schema.SettingTimeZone, "Europe/Paris")
	loc, _ := time.LoadLocation("Europe/Paris")
	if _, err := earnings.SetRates(city, nil, earnings.Rates{DeadBattery: 150, Move: 75, Recover: 310}, now.AddDate(0, 0, -40)); err != nil {
		t.Fatal(err)
	}
	if _, err := earnings.SetRates(city, nil, earnings.Rates{DeadBattery: 175, Move: 80, Recover: 333}, now.AddDate(0, 0, -9)); err != nil {
		t.Fatal(err)
	}
	d1 := ledgertest.NewUser(t, city, roles.Driver)
	d2 := ledgertest.NewUser(t, city, roles.Driver)
	adm := ledgertest.NewUser(t, city, roles.Admin)
	d2.Set(schema.UserPayReductionPercentage, 35)
	adm.Set(schema.UserAdminPoolWithholdingPct, 12.5)
	for _, r := range []*core.Record{d2, adm} {
		if err := city.Save(r); err != nil {
			t.Fatal(err)
		}
	}
	for ago := 0; ago < 23; ago++ {
		day := clock.DayStart(now, loc).AddDate(0, 0, -ago)
		for i, u := range []*core.Record{d1, d2, adm} {
			at, step := day.Add(time.Duration(8+i)*time.Hour).Add(time.Duration(ago)*time.Minute), time.Minute
			if ago == 0 { // today: between local midnight and now, whatever the hour
				since := now.Sub(day)
				at, step = day.Add(since*time.Duration(i+1)/8), since/40
			}
			op := inventory.Op{Actor: u, At: at}
			n := 1 + (ago+i)%3
			if _, err := inventory.Pickup(city, op, u.Id, n); err != nil {
				t.Fatal(err)
			}
			op.At = at.Add(step)
			if _, err := inventory.Dropoff(city, op, u.Id, 0, 1); err != nil { // n-1 stay in the field
				t.Fatal(err)
			}
			if (ago+i)%2 == 0 {
				op.At = at.Add(2 * step)
				if _, err := inventory.LogActivity(city, op, u.Id, inventory.TypeRebalance, 2+i); err != nil {
					t.Fatal(err)
				}
			}
			if (ago+i)%4 == 1 {
				op.At = at.Add(3 * step)
				if _, err := inventory.LogActivity(city, op, u.Id, inventory.TypeRetrievesRepairs, 1); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// an adjustment of last week's moves for d1
	col, _ := city.FindCollectionByNameOrId(schema.TaskAdjustments)
	adj := core.NewRecord(col)
	adj.Set(schema.AdjustmentUser, d1.Id)
	adj.Set(schema.AdjustmentWeekStart, clock.DateString(clock.WeekStart(now, loc, -1)))
	adj.Set(schema.AdjustmentTaskType, schema.AdjustmentTaskMoves)
	adj.Set(schema.AdjustmentOriginal, 3)
	adj.Set(schema.AdjustmentAdjusted, 11)
	adj.Set(schema.AdjustmentReason, "counted by hand")
	adj.Set(schema.AdjustmentCreatedBy, adm.Id)
	if err := city.Save(adj); err != nil {
		t.Fatal(err)
	}
	ready, err := inventory.SystemAccount(city, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.MintPacks(t, city, 4, ready.Id)
	if _, err := city.DB().NewQuery("UPDATE packs SET lastSeenAt = {:old} WHERE serial = 'SWB-000002'").
		Bind(map[string]any{"old": now.AddDate(0, 0, -30).UTC().Format("2006-01-02 15:04:05.000Z")}).Execute(); err != nil {
		t.Fatal(err)
	}
	rc, _ := city.FindCollectionByNameOrId(schema.PackRecalls)
	r := core.NewRecord(rc)
	r.Set(schema.PackRecallBy, schema.PackRecallByLot)
	r.Set(schema.PackRecallValue, "L-7")
	r.Set(schema.PackRecallReason, "swelling")
	r.Set(schema.PackRecallActor, adm.Id)
	r.Set(schema.PackRecallAt, now.Add(-time.Hour))
	r.Set(schema.PackRecallPackCount, 3)
	if err := city.SaveNoValidate(r); err != nil {
		t.Fatal(err)
	}
	return city
}

func setSetting(t *testing.T, app core.App, key, value string) {
	t.Helper()
	col, err := app.FindCachedCollectionByNameOrId(schema.Settings)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := app.FindFirstRecordByData(schema.Settings, schema.SettingKey, key)
	if err != nil {
		rec = core.NewRecord(col)
		rec.Set(schema.SettingKey, key)
	}
	rec.Set(schema.SettingValue, value)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
}

// copyCity writes the city's database as HQ's copy of city id (VACUUM INTO: a consistent file,
// as Litestream's restore makes one).
func copyCity(t *testing.T, city core.App, s *hqServer, id string) string {
	t.Helper()
	path := s.set.CopyPath(id)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(path)
	if _, err := city.DB().NewQuery("VACUUM INTO '" + strings.ReplaceAll(path, "'", "''") + "'").Execute(); err != nil {
		t.Fatal(err)
	}
	return path
}

// addCity saves a city in HQ (not followed: the tests put its copy in place by hand).
func (s *hqServer) addCity(name, tz, cur string) string {
	s.t.Helper()
	rec, err := hq.SaveCity(s.app, "", hq.CityInput{Name: name, TimeZone: tz, Currency: cur, ReplicaURL: "file:///nonexistent/" + name,
		Address: "https://" + strings.ToLower(name) + ".swapbay.example", Token: "hq-token-" + name}, "")
	if err != nil {
		s.t.Fatal(err)
	}
	return rec.Id
}

func decode[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return v
}

// The overview's figures equal the city's own screens' on a seeded city read as a copy: the
// dashboard's stock (inventory.Stats), the weekly stats' pickups per day
// (activity.AdminWeeklyStats), each week's earnings total (earnings.Compute), the missing packs
// (packs.CountMissing) and the recalls; each rolled day's pay is the earnings module's total of
// the day (earnings.Total without adjustments). A copy that is not a database and one not
// restored yet are ok:false in words; the others are still answered.
func TestFiguresEqualTheCitys(t *testing.T) {
	now := time.Now()
	city := seedCity(t, now)
	s := newHQ(t)
	paris := s.addCity("Paris", "Europe/Paris", "EUR")
	broken := s.addCity("Berlin", "Europe/Berlin", "EUR")
	s.addCity("Lisbon", "Europe/Lisbon", "EUR") // no copy yet
	copyCity(t, city, s, paris)
	bad := s.set.CopyPath(broken)
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Repeat("not a database ", 400)), 0o644); err != nil {
		t.Fatal(err)
	}

	o, err := hq.ReadOverview(context.Background(), s.app, s.set, now)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]hq.CityOverview{}
	for _, c := range o.Cities {
		byName[c.Name] = c
	}
	p := byName["Paris"]
	if !p.Ok || p.Error != "" {
		t.Fatalf("Paris not read: %+v", p)
	}
	if b := byName["Berlin"]; b.Ok || !strings.HasPrefix(b.Error, hq.MsgCopyUnread) {
		t.Fatalf("a broken copy: %+v", b)
	}
	if l := byName["Lisbon"]; l.Ok || l.Error != hq.MsgCopyMissing {
		t.Fatalf("a missing copy: %+v", l)
	}
	// stock
	st, err := inventory.Stats(city)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Stock; got.Ready != st.Ready || got.Waiting != st.Waiting || got.Charging != st.Charging || got.Field != st.InField || got.Quarantined != st.Quarantined {
		t.Fatalf("stock %+v, the city's %+v", got, st)
	}
	if st.InField == 0 || st.Waiting == 0 {
		t.Fatalf("the seed should leave batteries in the field and waiting: %+v", st)
	}
	if o.Totals.Stock != p.Stock {
		t.Fatalf("totals %+v with one city read %+v", o.Totals.Stock, p.Stock)
	}
	// swaps per day
	loc, _ := system.Location(city)
	ws, err := activity.AdminWeeklyStats(city, now, loc)
	if err != nil {
		t.Fatal(err)
	}
	swaps := map[string]int{}
	for _, d := range p.SwapsPerDay {
		swaps[d.Day] = d.Swaps
	}
	if len(p.SwapsPerDay) != hq.OverviewDays || p.SwapsPerDay[hq.OverviewDays-1].Day != clock.DateString(now.In(loc)) {
		t.Fatalf("30 days ending today: %+v", p.SwapsPerDay)
	}
	compared := 0
	for _, w := range []activity.WeekStats{ws.LastWeek, ws.ThisWeek} {
		for _, d := range w.Days {
			if d.Date > clock.DateString(now.In(loc)) {
				continue
			}
			if swaps[d.Date] != d.Totals[activity.TypePickup].Count {
				t.Fatalf("%s: %d swaps, the city's dashboard %d", d.Date, swaps[d.Date], d.Totals[activity.TypePickup].Count)
			}
			compared++
		}
	}
	if compared < 8 || swaps[clock.DateString(now.In(loc))] != 3 {
		t.Fatalf("compared %d days; today %d", compared, swaps[clock.DateString(now.In(loc))])
	}
	// pay per week
	if len(p.PayPerWeek) != hq.OverviewWeeks {
		t.Fatalf("8 weeks: %+v", p.PayPerWeek)
	}
	nonzero := 0
	for _, w := range p.PayPerWeek {
		start, _ := time.ParseInLocation(time.DateOnly, w.WeekStart, loc)
		rep, err := earnings.Compute(city, earnings.WeekOf(start, loc), now)
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		for _, r := range rep.Rows {
			total += int64(r.TotalEarnings)
		}
		if total != w.Cents {
			t.Fatalf("week %s: %d cents, the city's earnings %d", w.WeekStart, w.Cents, total)
		}
		if total > 0 {
			nonzero++
		}
	}
	if nonzero < 3 {
		t.Fatalf("the seed should pay 3 weeks or more: %+v", p.PayPerWeek)
	}
	if len(o.Totals.PayByCurrency) != 1 || o.Totals.PayByCurrency[0].Currency != "EUR" || len(o.Totals.PayByCurrency[0].Weeks) != hq.OverviewWeeks {
		t.Fatalf("pay by currency: %+v", o.Totals.PayByCurrency)
	}
	// missing packs, recalls
	missing, err := packs.CountMissing(city, now)
	if err != nil {
		t.Fatal(err)
	}
	if p.Missing != missing || missing != 1 {
		t.Fatalf("missing %d, the city's %d", p.Missing, missing)
	}
	if p.Recalls.Count != 1 || p.Recalls.PacksQuarantined != 3 {
		t.Fatalf("recalls %+v", p.Recalls)
	}
	// the route answers the same to a viewer
	code, body := s.do(s.viewer, "GET", "/api/hq/overview", "")
	if code != http.StatusOK {
		t.Fatalf("overview %d %s", code, body)
	}
	ov := decode[hq.Overview](t, body)
	if len(ov.Cities) != 3 || ov.Totals.Stock != p.Stock {
		t.Fatalf("overview route: %s", body)
	}

	// rollups: 400 finished days at the first run, nothing new at the second (a restart)
	res, err := hq.RollUp(context.Background(), s.app, s.set, now)
	if err != nil {
		t.Fatal(err)
	}
	weeks, _ := s.app.CountRecords(hq.CityWeeks)
	if res.Cities != 1 || res.Written != hq.RollupMaxDays+int(weeks) || weeks < 57 || weeks > 58 {
		t.Fatalf("first run: %+v, %d weeks", res, weeks)
	}
	res, err = hq.RollUp(context.Background(), s.app, s.set, now)
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 0 {
		t.Fatalf("second run wrote %d", res.Written)
	}
	if n, _ := s.app.CountRecords(hq.CityDays); n != hq.RollupMaxDays {
		t.Fatalf("%d rows", n)
	}
	// the overview from the rollups (finished days and weeks) equals the one from the copy alone
	o2, err := hq.ReadOverview(context.Background(), s.app, s.set, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range o2.Cities {
		if c.Name != "Paris" {
			continue
		}
		a, _ := json.Marshal([]any{p.SwapsPerDay, p.PayPerWeek})
		b, _ := json.Marshal([]any{c.SwapsPerDay, c.PayPerWeek})
		if string(a) != string(b) {
			t.Fatalf("from the rollups %s (%s), from the copy %s", b, c.Error, a)
		}
	}
	// a day later: one new day (and the recent ones unchanged)
	res, err = hq.RollUp(context.Background(), s.app, s.set, now.Add(24*time.Hour))
	days, _ := s.app.CountRecords(hq.CityDays)
	if err != nil || days != hq.RollupMaxDays+1 {
		t.Fatalf("next day: %+v %v, %d days", res, err, days)
	}
	// each rolled day's swaps are the overview's, and its pay the earnings module's total of
	// the day over the copy (without adjustments: they are made per week)
	cp, err := reads.Open(s.set.CopyPath(paris))
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	paid := 0
	for _, d := range p.SwapsPerDay[:hq.OverviewDays-1] {
		rec, err := s.app.FindFirstRecordByFilter(hq.CityDays, "city = {:c} && day = {:d}", map[string]any{"c": paris, "d": d.Day})
		if err != nil {
			t.Fatalf("%s not rolled: %v", d.Day, err)
		}
		if rec.GetInt(hq.CityDaySwaps) != d.Swaps {
			t.Fatalf("%s: rolled %d, overview %d", d.Day, rec.GetInt(hq.CityDaySwaps), d.Swaps)
		}
		start, _ := time.ParseInLocation(time.DateOnly, d.Day, loc)
		want, err := earnings.Total(context.Background(), cp.Builder(), start, start.AddDate(0, 0, 1), now, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := int64(rec.GetInt(hq.CityDayPayCents)); got != int64(want) {
			t.Fatalf("%s: rolled pay %d, the city's earnings %d", d.Day, got, want)
		}
		if want > 0 {
			paid++
		}
	}
	if paid < 5 {
		t.Fatalf("the seed should pay on 5 days or more of the last month: %d", paid)
	}
	code, body = s.do(s.viewer, "GET", "/api/hq/history?weeks=4", "")
	if code != http.StatusOK {
		t.Fatalf("history %d %s", code, body)
	}
	h := decode[hq.History](t, body)
	var hp hq.HistoryCity
	for _, c := range h.Cities {
		if c.Id == paris {
			hp = c
		}
	}
	if len(hp.Weeks) != 4 || hp.Currency != "EUR" {
		t.Fatalf("history: %s", body)
	}
	lastWeek := hp.Weeks[2]
	var want int
	for _, d := range ws.LastWeek.Days {
		want += d.Totals[activity.TypePickup].Count
	}
	if lastWeek.WeekStart != ws.LastWeek.WeekStart || lastWeek.Swaps != want || lastWeek.PayCents == 0 {
		t.Fatalf("last week %+v, the city's %s %d swaps", lastWeek, ws.LastWeek.WeekStart, want)
	}
	// its pay is the earnings page's (the weekly rollup, adjustment included)
	lwStart, _ := time.ParseInLocation(time.DateOnly, lastWeek.WeekStart, loc)
	rep, err := earnings.Compute(city, earnings.WeekOf(lwStart, loc), now)
	if err != nil {
		t.Fatal(err)
	}
	var lwPay int64
	for _, r := range rep.Rows {
		lwPay += int64(r.TotalEarnings)
	}
	if lastWeek.PayCents != lwPay {
		t.Fatalf("last week's pay %d, the city's earnings %d", lastWeek.PayCents, lwPay)
	}
}

// The pack search finds a serial or a prefix in every copy (a label URL too), names the place
// as the city's pack page does and links the city's pack page; the transit reads
// pack_transfers (created by hand here: hq-transfers' schema) and a copy without it has none.
func TestPackSearchAndTransit(t *testing.T) {
	now := time.Now()
	city := seedCity(t, now)
	s := newHQ(t)
	paris := s.addCity("Paris", "Europe/Paris", "EUR")
	berlin := s.addCity("Berlin", "Europe/Berlin", "EUR")
	lisbon := s.addCity("Lisbon", "Europe/Lisbon", "EUR")
	copyCity(t, city, s, paris)
	bpath := copyCity(t, city, s, berlin)
	copyCity(t, city, s, lisbon)

	code, body := s.do(s.viewer, "GET", "/api/hq/packs?q=swb-00000", "")
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	found := decode[hq.PackSearch](t, body)
	if len(found.Packs) != 12 || len(found.Cities) != 3 {
		t.Fatalf("4 packs in 3 copies: %s", body)
	}
	f := found.Packs[0]
	if f.Serial != "SWB-000001" || f.Place != "Ready" || f.State != "in_service" || !strings.HasSuffix(f.URL, ".swapbay.example/packs/SWB-000001") {
		t.Fatalf("first: %+v", f)
	}
	code, body = s.do(s.admin, "GET", "/api/hq/packs?q="+"https://paris.swapbay.example/p/SWB-000002", "")
	found = decode[hq.PackSearch](t, body)
	if code != http.StatusOK || len(found.Packs) != 3 || found.Packs[0].Serial != "SWB-000002" || found.Packs[0].LastSeenAt == "" {
		t.Fatalf("a label URL: %d %s", code, body)
	}

	// transit: Berlin's copy sent three packs to Paris; Paris's copy received one
	ppath := s.set.CopyPath(paris)
	table := "CREATE TABLE IF NOT EXISTS pack_transfers (id TEXT PRIMARY KEY, direction TEXT, ref TEXT, otherCity TEXT, otherAddress TEXT, serials JSON, movement TEXT, actor TEXT, at TEXT, created TEXT, updated TEXT)"
	exec := func(path string, stmts ...string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range stmts {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
	}
	sent := now.Add(-2 * time.Hour).UTC().Format("2006-01-02 15:04:05.000Z")
	exec(bpath, table, fmt.Sprintf(`INSERT INTO pack_transfers (id, direction, ref, otherCity, otherAddress, serials, at) VALUES
		('tr1', 'out', 'tr1', 'paris', '', '["BER-1","BER-2","BER-3"]', '%s'),
		('tr0', 'out', 'tr0', 'Oslo', 'https://oslo.example', '["BER-9"]', '%s')`, sent, sent))
	exec(ppath, table, fmt.Sprintf(`INSERT INTO pack_transfers (id, direction, ref, otherCity, otherAddress, serials, at) VALUES
		('in1', 'in', 'tr1', 'Berlin', 'https://berlin.swapbay.example', '["BER-2"]', '%s')`, sent))
	code, body = s.do(s.viewer, "GET", "/api/hq/transit", "")
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	tr := decode[hq.Transit](t, body)
	if len(tr.Transfers) != 2 {
		t.Fatalf("two transfers: %s", body)
	}
	var t1 hq.TransitRow
	for _, x := range tr.Transfers {
		if x.Ref == "tr1" {
			t1 = x
		}
	}
	if t1.FromCityId != berlin || t1.ToCityId != paris || strings.Join(t1.Received, ",") != "BER-2" || strings.Join(t1.Pending, ",") != "BER-1,BER-3" {
		t.Fatalf("tr1: %+v", t1)
	}
	for _, c := range tr.Cities {
		if !c.Ok {
			t.Fatalf("a copy without pack_transfers has none, not an error: %+v", c)
		}
	}
}

// Callers and hostile queries: a guest is 401, a viewer and an admin read; a q too short, too
// long, with bidi or control characters, % or _ is refused 400 in words; weeks 0, -1, int64's max and min, 1e309,
// "3" (quoted), 261, 3.5 are refused.
func TestReadsHostile(t *testing.T) {
	s := newHQ(t)
	for _, path := range []string{"/api/hq/overview", "/api/hq/history", "/api/hq/packs?q=SWB-001", "/api/hq/transit", "/api/hq/me"} {
		if code, body := s.do("", "GET", path, ""); code != http.StatusUnauthorized {
			t.Fatalf("guest %s: %d %s", path, code, body)
		}
		for _, tok := range []string{s.viewer, s.admin} {
			if code, body := s.do(tok, "GET", path, ""); code != http.StatusOK {
				t.Fatalf("%s: %d %s", path, code, body)
			}
		}
	}
	for _, q := range []string{"", "AB", "%20%20AB%20", strings.Repeat("A", 41), strings.Repeat("A", 3000), "SWB%25", "SWB_1", "SWB%E2%80%AE1", "SWB%00%01",
		"SWB%201", "%3Cscript%3E", "https://x.example/p/AB"} {
		code, body := s.do(s.viewer, "GET", "/api/hq/packs?q="+q, "")
		if code != http.StatusBadRequest || !strings.Contains(body, `"message"`) {
			t.Fatalf("q=%q: %d %s", q, code, body)
		}
	}
	for _, w := range []string{"0", "-1", "1e309", "%223%22", "261", "3.5", "NaN", "%20",
		"9223372036854775807", "-9223372036854775808", "99999999999999999999"} { // int64's edges and past them
		code, body := s.do(s.viewer, "GET", "/api/hq/history?weeks="+w, "")
		if code != http.StatusBadRequest || !strings.Contains(body, hq.MsgWeeks) {
			t.Fatalf("weeks=%q: %d %s", w, code, body)
		}
	}
	for _, w := range []string{"1", "260", "052"} {
		if code, body := s.do(s.viewer, "GET", "/api/hq/history?weeks="+w, ""); code != http.StatusOK {
			t.Fatalf("weeks=%q: %d %s", w, code, body)
		}
	}
}

// Sign-in: a wrong password or an unknown email is 400 in the city's words; a good one sets
// an HttpOnly SameSite=Lax cookie that every /api/hq route accepts; /me answers the user;
// sign-out ends the session (the old cookie is refused at once) and clears the cookie; a
// cookie write from another site is refused (CSRF).
func TestSignInOutMe(t *testing.T) {
	s := newHQ(t)
	send := func(method, path, body string, hdr map[string]string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		s.mux.ServeHTTP(rec, req)
		return rec
	}
	for _, body := range []string{`{"email":"viewer@hq.example","password":"wrong-secret-1"}`, `{"email":"nobody@hq.example","password":"long-secret-1"}`} {
		r := send("POST", "/api/hq/auth/login", body, nil)
		if r.Code != http.StatusBadRequest || !strings.Contains(r.Body.String(), hq.MsgInvalidLogin) || r.Header().Get("Set-Cookie") != "" {
			t.Fatalf("%s: %d %s", body, r.Code, r.Body)
		}
	}
	for _, body := range []string{`{}`, `{"email":"viewer@hq.example"}`, `[]`, `{"email":1}`, `nope`} {
		if r := send("POST", "/api/hq/auth/login", body, nil); r.Code != http.StatusBadRequest {
			t.Fatalf("%s: %d %s", body, r.Code, r.Body)
		}
	}
	r := send("POST", "/api/hq/auth/login", `{"email":"Viewer@HQ.example","password":"long-secret-1"}`, nil)
	if r.Code != http.StatusOK {
		t.Fatalf("login %d %s", r.Code, r.Body)
	}
	var got struct{ User hq.Me }
	if err := json.Unmarshal(r.Body.Bytes(), &got); err != nil || got.User.Email != "viewer@hq.example" || got.User.Role != hq.RoleViewer {
		t.Fatalf("login answer %s", r.Body)
	}
	setCookie := r.Header().Get("Set-Cookie")
	if !strings.Contains(setCookie, "HttpOnly") || !strings.Contains(setCookie, "SameSite=Lax") || strings.Contains(setCookie, "Secure") {
		t.Fatalf("cookie %q", setCookie)
	}
	cookie := strings.SplitN(setCookie, ";", 2)[0]
	for _, path := range []string{"/api/hq/me", "/api/hq/overview", "/api/hq/cities"} {
		if r := send("GET", path, "", map[string]string{"Cookie": cookie}); r.Code != http.StatusOK {
			t.Fatalf("%s with the cookie: %d %s", path, r.Code, r.Body)
		}
	}
	// a viewer's cookie cannot write (403), a cross-site write is refused before that
	if r := send("POST", "/api/hq/cities", cityJSON(nil), map[string]string{"Cookie": cookie, "Idempotency-Key": "k-viewer-1"}); r.Code != http.StatusForbidden {
		t.Fatalf("viewer write %d %s", r.Code, r.Body)
	}
	for _, hdr := range []map[string]string{{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}} {
		hdr["Cookie"], hdr["Idempotency-Key"] = cookie, "k-csrf-"+fmt.Sprint(len(hdr))
		if r := send("POST", "/api/hq/auth/logout", "", hdr); r.Code != http.StatusForbidden || !strings.Contains(r.Body.String(), "Cross-site") {
			t.Fatalf("cross-site logout %v: %d %s", hdr, r.Code, r.Body)
		}
	}
	if r := send("GET", "/api/hq/me", "", map[string]string{"Cookie": cookie}); r.Code != http.StatusOK {
		t.Fatalf("still signed in after refused logouts: %d", r.Code)
	}
	// https: Secure
	r = send("POST", "/api/hq/auth/login", `{"email":"admin@hq.example","password":"long-secret-1"}`, map[string]string{"X-Forwarded-Proto": "https"})
	if r.Code != http.StatusOK || !strings.Contains(r.Header().Get("Set-Cookie"), "Secure") {
		t.Fatalf("https login %d %q", r.Code, r.Header().Get("Set-Cookie"))
	}
	// sign-out
	r = send("POST", "/api/hq/auth/logout", "", map[string]string{"Cookie": cookie, "Idempotency-Key": "k-logout-1"})
	if r.Code != http.StatusNoContent || !strings.Contains(r.Header().Get("Set-Cookie"), "Max-Age=0") {
		t.Fatalf("logout %d %q %s", r.Code, r.Header().Get("Set-Cookie"), r.Body)
	}
	if r := send("GET", "/api/hq/me", "", map[string]string{"Cookie": cookie}); r.Code != http.StatusUnauthorized {
		t.Fatalf("the old cookie after sign-out: %d %s", r.Code, r.Body)
	}
	if r := send("GET", "/api/hq/overview", "", map[string]string{"Authorization": strings.TrimPrefix(cookie, "swapbay_session=")}); r.Code != http.StatusUnauthorized {
		t.Fatalf("the old token as a header after sign-out: %d", r.Code)
	}
	// a burst of wrong passwords is rate limited
	limited := false
	for i := 0; i < 30 && !limited; i++ {
		limited = send("POST", "/api/hq/auth/login", `{"email":"admin@hq.example","password":"wrong-secret-1"}`, nil).Code == http.StatusTooManyRequests
	}
	if !limited {
		t.Fatal("30 wrong passwords were never refused 429")
	}
}

// transitCity is a city with pack tracking on whose ready shelf holds packs <prefix>-000001…n,
// and its admin.
func transitCity(t *testing.T, prefix string, n int) (*tests.TestApp, *core.Record) {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	admin := testkit.SeedCallers(t, app).Admin
	if _, err := system.Override(app, inventory.Op{Actor: admin}, n, 0, 0, n); err != nil {
		t.Fatal(err)
	}
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	col, _ := app.FindCachedCollectionByNameOrId(schema.Packs)
	for i := 1; i <= n; i++ {
		rec := core.NewRecord(col)
		rec.Set(schema.PackSerial, fmt.Sprintf("%s-%06d", prefix, i))
		rec.Set(schema.PackModel, "M1")
		rec.Set(schema.PackState, schema.PackStateInService)
		rec.Set(schema.PackLocation, ready.Id)
		if err := app.Save(rec); err != nil {
			t.Fatal(err)
		}
	}
	ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
	return app, admin
}

// Paris sends two packs to Berlin and Berlin receives both: nothing is counted twice. Paris
// then deletes the send's movement (its packs back in service there): inTwoCities lists both
// serials, in service in Paris and in Berlin, received by Berlin from Paris's send. Paris's
// stocktake of its ready shelf without them makes them lost there: nothing is listed again.
// Lisbon's broken copy is ok:false beside the answer throughout.
func TestTransitCountedInTwoCities(t *testing.T) {
	paris, parisAdmin := transitCity(t, "PAR", 3)
	berlin, berlinAdmin := transitCity(t, "BER", 1)
	s := newHQ(t)
	parisId := s.addCity("Paris", "Europe/Paris", "EUR")
	berlinId := s.addCity("Berlin", "Europe/Berlin", "EUR")
	lisbonId := s.addCity("Lisbon", "Europe/Lisbon", "EUR")
	bad := s.set.CopyPath(lisbonId)
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Repeat("not a database ", 400)), 0o644); err != nil {
		t.Fatal(err)
	}
	sent, err := transfers.Send(paris, inventory.Op{Actor: parisAdmin}, transfers.SendInput{ToCity: "Berlin",
		ToAddress: "https://berlin.swapbay.example", Serials: []string{"PAR-000001", "PAR-000002"},
		From: transfers.City{Name: "Paris", Address: "https://paris.swapbay.example"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := transfers.Receive(berlin, inventory.Op{Actor: berlinAdmin}, transfers.ReceiveInput{Manifest: sent.Manifest,
		Serials: []string{"PAR-000001", "PAR-000002"}, To: inventory.KeyReady}); err != nil {
		t.Fatal(err)
	}
	transit := func() (hq.Transit, string) {
		t.Helper()
		copyCity(t, paris, s, parisId)
		copyCity(t, berlin, s, berlinId)
		code, body := s.do(s.viewer, "GET", "/api/hq/transit", "")
		if code != http.StatusOK {
			t.Fatalf("%d %s", code, body)
		}
		tr := decode[hq.Transit](t, body)
		for _, c := range tr.Cities {
			if (c.Id == lisbonId) == c.Ok {
				t.Fatalf("only Lisbon's copy fails: %+v", tr.Cities)
			}
		}
		return tr, body
	}

	tr, body := transit()
	if len(tr.Transfers) != 1 || strings.Join(tr.Transfers[0].Received, ",") != "PAR-000001,PAR-000002" || !strings.Contains(body, `"inTwoCities":[]`) {
		t.Fatalf("a send received in full, counted once: %s", body)
	}

	if err := inventory.DeleteMovement(paris, inventory.Op{Actor: parisAdmin}, sent.Movement); err != nil {
		t.Fatal(err)
	}
	tr, body = transit()
	if len(tr.InTwoCities) != 2 || tr.InTwoCities[0].Serial != "PAR-000001" || tr.InTwoCities[1].Serial != "PAR-000002" {
		t.Fatalf("both serials counted in two cities: %s", body)
	}
	for _, r := range tr.InTwoCities {
		if r.ReceivedByCityId != berlinId || r.ReceivedBy != "Berlin" || r.FromCity != "Paris" || r.Ref != sent.Ref || len(r.Cities) != 2 {
			t.Fatalf("%s: %+v", r.Serial, r)
		}
		held := map[string]string{}
		for _, c := range r.Cities {
			held[c.CityId+" "+c.CityName] = c.State
		}
		if held[parisId+" Paris"] != schema.PackStateInService || held[berlinId+" Berlin"] != schema.PackStateInService {
			t.Fatalf("%s held: %v", r.Serial, held)
		}
	}

	res, err := stocktake.Apply(paris, inventory.Op{Actor: parisAdmin}, stocktake.Input{Place: stocktake.PlaceReady, Serials: []string{"PAR-000003"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts.Missing != 2 {
		t.Fatalf("the stocktake misses both: %+v", res.Counts)
	}
	for _, serial := range []string{"PAR-000001", "PAR-000002"} {
		rec, err := paris.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial)
		if err != nil || rec.GetString(schema.PackState) != schema.PackStateLost {
			t.Fatalf("%s in Paris after the stocktake: %v %v", serial, rec, err)
		}
	}
	if tr, body = transit(); len(tr.InTwoCities) != 0 || !strings.Contains(body, `"inTwoCities":[]`) {
		t.Fatalf("lost in Paris: counted in Berlin only: %s", body)
	}
}

// PackStates looks serials up in chunks under SQLite's variable limit (1,201 serials, the
// city's at both ends), and a copy without the packs table holds none of them.
func TestPackStatesChunked(t *testing.T) {
	city, _ := transitCity(t, "PAR", 3)
	dir := t.TempDir()
	path := filepath.Join(dir, "copy.db")
	if _, err := city.DB().NewQuery("VACUUM INTO '" + strings.ReplaceAll(path, "'", "''") + "'").Execute(); err != nil {
		t.Fatal(err)
	}
	serials := []string{"PAR-000003"}
	for i := range 1199 {
		serials = append(serials, fmt.Sprintf("NOPE-%06d", i))
	}
	serials = append(serials, "PAR-000001")
	db, err := reads.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.PackStates(context.Background(), serials)
	if err != nil || len(got) != 2 || got["PAR-000001"] != schema.PackStateInService || got["PAR-000003"] != schema.PackStateInService {
		t.Fatalf("%v %v", got, err)
	}
	old := filepath.Join(dir, "old.db")
	raw, err := sql.Open("sqlite", old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("CREATE TABLE settings (key TEXT, value TEXT)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	odb, err := reads.Open(old)
	if err != nil {
		t.Fatal(err)
	}
	defer odb.Close()
	if got, err := odb.PackStates(context.Background(), serials); err != nil || len(got) != 0 {
		t.Fatalf("a copy without packs: %v %v", got, err)
	}
}

// A task adjustment of a week older than the recent ones the rollup reads again (an admin
// adjusts a past week at any time): the next run reads that week again, so history's pay is the
// city's earnings total with the adjustment; a run after that writes nothing new.
func TestRollupReadsAnOldAdjustedWeekAgain(t *testing.T) {
	now := time.Now()
	city := seedCity(t, now)
	loc, _ := time.LoadLocation("Europe/Paris")
	if _, err := earnings.SetRates(city, nil, earnings.Rates{DeadBattery: 100, Move: 50, Recover: 200}, now.AddDate(0, 0, -300)); err != nil {
		t.Fatal(err)
	}
	s := newHQ(t)
	paris := s.addCity("Paris", "Europe/Paris", "EUR")
	copyCity(t, city, s, paris)
	if _, err := hq.RollUp(context.Background(), s.app, s.set, now); err != nil {
		t.Fatal(err)
	}
	old := clock.WeekStart(now, loc, -(hq.OverviewWeeks + 3))
	week := func() int64 {
		t.Helper()
		rec, err := s.app.FindFirstRecordByFilter(hq.CityWeeks, "city = {:c} && weekStart = {:w}", dbx.Params{"c": paris, "w": clock.DateString(old)})
		if err != nil {
			t.Fatal(err)
		}
		return int64(rec.GetInt(hq.CityWeekPayCents))
	}
	if got := week(); got != 0 {
		t.Fatalf("the old week before any adjustment: %d cents", got)
	}
	// weeks later, an admin records a driver's 30 moves of that week (20 % pay reduction)
	d := ledgertest.NewUser(t, city, roles.Driver)
	if _, err := earnings.Adjust(city, nil, earnings.AdjustmentInput{UserId: d.Id, WeekStart: clock.DateString(old), TaskType: schema.AdjustmentTaskMoves,
		AdjustedCount: reqx.Int{Present: true, Valid: true, V: 30}, Reason: "paper log"}, now, loc); err != nil {
		t.Fatal(err)
	}
	total, err := earnings.Total(context.Background(), city.DB(), old, old.AddDate(0, 0, 7), now, true)
	if err != nil || total != 30*50*80/100 {
		t.Fatalf("the city's total of the adjusted week = %v %v; want 1200 cents", total, err)
	}
	copyCity(t, city, s, paris)
	res, err := hq.RollUp(context.Background(), s.app, s.set, now.Add(hq.RollupEvery))
	if err != nil {
		t.Fatal(err)
	}
	if got := week(); got != int64(total) || res.Written != 1 {
		t.Fatalf("the adjusted week after the next run: %d cents (%+v); want %d, 1 row written", got, res, total)
	}
	if res, err = hq.RollUp(context.Background(), s.app, s.set, now.Add(2*hq.RollupEvery)); err != nil || res.Written != 0 {
		t.Fatalf("a run after it: %+v %v; want nothing written", res, err)
	}
}

// Packs a city sent and another city received are counted once: in the receiver's stock, no
// longer in the sender's "in transit" (the sender's registry keeps them in transit for good: it
// never hears of the receipt). A pack still on its way stays in transit.
func TestOverviewInTransitLeavesArrivedPacks(t *testing.T) {
	newCity := func(prefix string, n int) (*tests.TestApp, []string, testkit.Callers) {
		app := testkit.NewApp(t)
		t.Cleanup(app.Cleanup)
		c := testkit.SeedCallers(t, app)
		if _, err := system.Override(app, inventory.Op{Actor: c.Admin}, n, 0, 0, n); err != nil {
			t.Fatal(err)
		}
		ready, err := inventory.SystemAccount(app, inventory.KeyReady)
		if err != nil {
			t.Fatal(err)
		}
		serials := ledgertest.MintPacks(t, app, n, ready.Id)
		if _, err := app.DB().NewQuery("UPDATE packs SET serial = {:p} || substr(serial, 4), model = 'M1', nominalWh = 960, lot = 'L1'").Bind(dbx.Params{"p": prefix}).Execute(); err != nil {
			t.Fatal(err)
		}
		for i := range serials {
			serials[i] = prefix + serials[i][3:]
		}
		ledgertest.SetPackTracking(t, app, schema.PackTrackingOptional)
		return app, serials, c
	}
	paris, ps, pc := newCity("PAR", 3)
	berlin, _, bc := newCity("BER", 1)
	tr, err := transfers.Send(paris, inventory.Op{Actor: pc.Admin}, transfers.SendInput{ToCity: "Berlin", Serials: ps[:2], From: transfers.City{Name: "Paris"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := transfers.Receive(berlin, inventory.Op{Actor: bc.Admin}, transfers.ReceiveInput{Manifest: tr.Manifest, Serials: ps[:1], To: inventory.KeyReady}); err != nil {
		t.Fatal(err)
	}
	s := newHQ(t)
	pid := s.addCity("Paris", "Europe/Paris", "EUR")
	bid := s.addCity("Berlin", "Europe/Berlin", "EUR")
	copyCity(t, paris, s, pid)
	copyCity(t, berlin, s, bid)
	o, err := hq.ReadOverview(context.Background(), s.app, s.set, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]hq.CityOverview{}
	for _, c := range o.Cities {
		by[c.Name] = c
	}
	if p, b := by["Paris"], by["Berlin"]; !p.Ok || !b.Ok || p.Stock.InTransit != 1 || p.Stock.Ready != 1 || b.Stock.Ready != 2 || b.Stock.InTransit != 0 {
		t.Fatalf("Paris %+v, Berlin %+v; want Paris 1 ready and 1 in transit (the other arrived), Berlin 2 ready", p.Stock, b.Stock)
	}
	if o.Totals.Stock.InTransit != 1 || o.Totals.Stock.Ready != 3 {
		t.Fatalf("totals %+v; want 3 ready and 1 in transit: each pack once", o.Totals.Stock)
	}

	// the arrived pack goes back to Paris, and Paris sends it to Berlin again: on its way again,
	// judged by its newest send (its first was received)
	back, err := transfers.Send(berlin, inventory.Op{Actor: bc.Admin}, transfers.SendInput{ToCity: "Paris", Serials: ps[:1], From: transfers.City{Name: "Berlin"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := transfers.Receive(paris, inventory.Op{Actor: pc.Admin}, transfers.ReceiveInput{Manifest: back.Manifest, Serials: ps[:1], To: inventory.KeyReady}); err != nil {
		t.Fatal(err)
	}
	if _, err := transfers.Send(paris, inventory.Op{Actor: pc.Admin}, transfers.SendInput{ToCity: "Berlin", Serials: ps[:1], From: transfers.City{Name: "Paris"}}); err != nil {
		t.Fatal(err)
	}
	copyCity(t, paris, s, pid)
	copyCity(t, berlin, s, bid)
	if o, err = hq.ReadOverview(context.Background(), s.app, s.set, time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, c := range o.Cities {
		by[c.Name] = c
	}
	if p, b := by["Paris"], by["Berlin"]; p.Stock.InTransit != 2 || p.Stock.Ready != 1 || b.Stock.InTransit != 0 || b.Stock.Ready != 1 {
		t.Fatalf("Paris %+v, Berlin %+v; want Paris 1 ready and 2 on their way, Berlin 1 ready and none (its send arrived)", p.Stock, b.Stock)
	}
}

// A city that wipes its history keeps its past in head office: the rolled days and weeks
// before the cut (the recent ones the job reads again included) stay as they were written,
// not rewritten to no swaps and no pay. Was: the wipe reached head office's last 8 days and 7
// weeks, and the pay already paid in them left its history.
func TestRollupKeepsWhatTheCityWiped(t *testing.T) {
	now := time.Now()
	city := seedCity(t, now)
	loc, _ := time.LoadLocation("Europe/Paris")
	s := newHQ(t)
	paris := s.addCity("Paris", "Europe/Paris", "EUR")
	copyCity(t, city, s, paris)
	if _, err := hq.RollUp(context.Background(), s.app, s.set, now); err != nil {
		t.Fatal(err)
	}
	rows := func() map[string]int64 {
		t.Helper()
		out := map[string]int64{}
		days, err := s.app.FindRecordsByFilter(hq.CityDays, "city = {:c}", "", 0, 0, dbx.Params{"c": paris})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range days {
			out["day "+r.GetString(hq.CityDayDay)] = int64(r.GetInt(hq.CityDayPayCents))*1000 + int64(r.GetInt(hq.CityDaySwaps))
		}
		weeks, err := s.app.FindRecordsByFilter(hq.CityWeeks, "city = {:c}", "", 0, 0, dbx.Params{"c": paris})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range weeks {
			out["week "+r.GetString(hq.CityWeekStart)] = int64(r.GetInt(hq.CityWeekPayCents))
		}
		return out
	}
	before := rows()
	lastWeek := "week " + clock.DateString(clock.WeekStart(now, loc, -1))
	if before[lastWeek] == 0 {
		t.Fatalf("last week's pay is 0 before the wipe: the seed has none to lose (%v)", before)
	}
	today := clock.DateString(clock.DayStart(now, loc))
	if _, err := system.WipeHistory(city, inventory.Op{}, today, system.WipeConfirmPhrase); err != nil {
		t.Fatal(err)
	}
	copyCity(t, city, s, paris)
	if _, err := hq.RollUp(context.Background(), s.app, s.set, now.Add(hq.RollupEvery)); err != nil {
		t.Fatal(err)
	}
	after := rows()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: %d after the city's wipe, %d before", k, after[k], v)
		}
	}
}

// A movement of a day older than the recent ones, deleted in the city (a delete leaves no row
// to find its day by), reaches head office by the job's full reread: the run 10 minutes later
// still reads only the recent days, the run RollupFullEvery after the last full one reads every
// day and week again, and the day's row and its week's row then equal the city's figures. Was:
// days older than RollupRecentDays were never read again.
func TestRollupReadsAnOldEditedOrDeletedDayAgain(t *testing.T) {
	now := time.Now()
	city := seedCity(t, now)
	loc, _ := time.LoadLocation("Europe/Paris")
	s := newHQ(t)
	paris := s.addCity("Paris", "Europe/Paris", "EUR")
	copyCity(t, city, s, paris)
	job := hq.NewRollupJob()
	if _, err := job(context.Background(), s.app, s.set, now); err != nil {
		t.Fatal(err)
	}
	// a rebalance (pay: moves) of 15 days ago is deleted in the city
	old := clock.DayStart(now, loc).AddDate(0, 0, -15)
	var id string
	if err := city.DB().NewQuery("SELECT id FROM movements WHERE type = 'rebalance' AND occurredAt >= {:a} AND occurredAt < {:b} ORDER BY occurredAt LIMIT 1").
		Bind(dbx.Params{"a": clock.DBText(old), "b": clock.DBText(old.AddDate(0, 0, 1))}).Row(&id); err != nil {
		t.Fatalf("no rebalance 15 days ago: %v", err)
	}
	admin := ledgertest.NewUser(t, city, roles.Admin)
	if err := inventory.DeleteMovement(city, inventory.Op{Actor: admin}, id); err != nil {
		t.Fatal(err)
	}
	copyCity(t, city, s, paris)
	cp, err := reads.Open(s.set.CopyPath(paris))
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	want, err := cp.Days(context.Background(), old, 1, now)
	if err != nil {
		t.Fatal(err)
	}
	week := clock.WeekStart(old, loc, 0)
	wantWeek, err := cp.Pay(context.Background(), week, week.AddDate(0, 0, 7), now)
	if err != nil {
		t.Fatal(err)
	}
	rows := func() (int64, int64) {
		t.Helper()
		d, err := s.app.FindFirstRecordByFilter(hq.CityDays, "city = {:c} && day = {:d}", dbx.Params{"c": paris, "d": clock.DateString(old)})
		if err != nil {
			t.Fatal(err)
		}
		w, err := s.app.FindFirstRecordByFilter(hq.CityWeeks, "city = {:c} && weekStart = {:w}", dbx.Params{"c": paris, "w": clock.DateString(week)})
		if err != nil {
			t.Fatal(err)
		}
		return int64(d.GetInt(hq.CityDayPayCents)), int64(w.GetInt(hq.CityWeekPayCents))
	}
	day, _ := rows()
	if day == want[0].PayCents {
		t.Fatalf("the deleted rebalance paid nothing on %s (%d cents): the test proves nothing", want[0].Day, day)
	}
	if _, err := job(context.Background(), s.app, s.set, now.Add(hq.RollupEvery)); err != nil {
		t.Fatal(err)
	}
	// (its week is one of the recent weeks, read again every run: only the day waited)
	if d, _ := rows(); d != day {
		t.Fatalf("a recent-days run changed the old day (%d → %d): the test no longer shows the full reread", day, d)
	}
	res, err := job(context.Background(), s.app, s.set, now.Add(hq.RollupFullEvery))
	if err != nil {
		t.Fatal(err)
	}
	if d, w := rows(); d != want[0].PayCents || w != wantWeek {
		t.Fatalf("after the full reread (%+v): day %d cents, week %d; the city's %d and %d", res, d, w, want[0].PayCents, wantWeek)
	}
	if res.Written < 1 {
		t.Fatalf("the full reread wrote %d rows; want the day's", res.Written)
	}
	// RollUpAll reads it all again at once; nothing changed since, nothing written
	if res, err := hq.RollUpAll(context.Background(), s.app, s.set, now.Add(hq.RollupFullEvery+hq.RollupEvery)); err != nil || res.Written != 0 {
		t.Fatalf("RollUpAll after it: %+v %v; want nothing written", res, err)
	}
}
