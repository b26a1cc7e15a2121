package packs_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/packs"
)

// Mints at once never share a serial, and the sequence ends at the last one handed out; a
// keyed mint sent again answers the same packs and mints none.
func TestMintConcurrentAndReplayed(t *testing.T) {
	app, c, srv := start(t)
	defer app.Cleanup()
	admin := testkit.Headers(t, c.Admin)

	const senders, each = 4, 30
	var wg sync.WaitGroup
	errs := make(chan string, senders)
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, raw := srv.do(admin, "POST", "/api/admin/packs/mint", map[string]any{"count": each, "model": "M"})
			if st != 200 {
				errs <- fmt.Sprintf("%d %s", st, raw)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatalf("a concurrent mint failed: %s", e)
	}
	var serials []string
	if err := app.DB().Select(schema.PackSerial).From(schema.Packs).OrderBy(schema.PackSerial).Column(&serials); err != nil {
		t.Fatal(err)
	}
	if len(serials) != senders*each || serials[0] != "SWB-000001" || serials[len(serials)-1] != packs.Serial("SWB", senders*each) {
		t.Fatalf("%d serials from %v to %v; want SWB-000001..%d, each once", len(serials), serials[0], serials[len(serials)-1], senders*each)
	}

	key := map[string]string{"Idempotency-Key": "mint-once"}
	for k, v := range admin {
		key[k] = v
	}
	_, first := srv.do(key, "POST", "/api/admin/packs/mint", map[string]any{"count": 2, "model": "M"})
	_, again := srv.do(key, "POST", "/api/admin/packs/mint", map[string]any{"count": 2, "model": "M"})
	if string(first) != string(again) {
		t.Fatalf("a replayed mint answered %s; first %s", again, first)
	}
	if n, _ := app.CountRecords(schema.Packs); n != senders*each+2 {
		t.Fatalf("%d packs after a replayed mint of 2; want %d", n, senders*each+2)
	}
}

// A pack unseen for pack_missing_days days is missing; one seen since, or retired, is not.
func TestMissing(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	if _, err := packs.Mint(app, 3, packs.Specs{Model: "M"}, c.Admin.Id, time.Now()); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-8 * 24 * time.Hour)
	for serial, state := range map[string]string{"SWB-000001": schema.PackStateInService, "SWB-000002": schema.PackStateRetired} {
		p, err := packs.FindBySerial(app, serial)
		if err != nil {
			t.Fatal(err)
		}
		p.Set(schema.PackLastSeenAt, old)
		p.Set(schema.PackState, state)
		if err := app.Save(p); err != nil {
			t.Fatal(err)
		}
	}
	l, err := packs.ListPacks(app, packs.Viewer{UserId: c.Admin.Id}, packs.Filter{Missing: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Packs) != 1 || l.Packs[0].Serial != "SWB-000001" || !l.Packs[0].Missing || l.MissingDays != 7 {
		t.Fatalf("missing = %+v (after %d days); want SWB-000001 alone", l.Packs, l.MissingDays)
	}
}

// A recall stands for the packs that come after it: packs minted or imported with a lot, model
// or manufacturer the city has recalled enter quarantined (the answer says so), each with a state
// event naming the newest matching recall; others, and those imported already out of use, are
// as they were given.
func TestRecallStandsForNewPacks(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	now := time.Now()
	// none of lot L-R yet: a standing recall (what head office sends)
	r, err := packs.Recall(app, packs.RecallForm{By: "lot", Value: "L-R", Reason: "Cells may overheat", Standing: true}, c.Admin.Id, now)
	if err != nil || r.PackCount != 0 {
		t.Fatalf("standing recall: %+v %v", r, err)
	}
	if _, err := packs.Recall(app, packs.RecallForm{By: "lot", Value: "L-R", Reason: "again"}, c.Admin.Id, now); err == nil {
		t.Fatal("a plain recall of a lot with no pack was not refused")
	}
	minted, err := packs.Mint(app, 2, packs.Specs{Model: "M", Lot: "L-R"}, c.Admin.Id, now)
	if err != nil {
		t.Fatal(err)
	}
	other, err := packs.Mint(app, 1, packs.Specs{Model: "M", Lot: "L-OK"}, c.Admin.Id, now)
	if err != nil {
		t.Fatal(err)
	}
	// through the route: the answer says how many start quarantined
	srv := server{t, testkit.Serve(t, app).URL}
	st, body := srv.do(testkit.Headers(t, c.Admin), "POST", "/api/admin/packs/mint", map[string]any{"count": 1, "model": "M", "lot": "L-R"})
	raw := string(body)
	if st != 200 || !strings.Contains(raw, `1 pack registered: `) || !strings.Contains(raw, `(1 quarantined: this city has recalled their lot, model or manufacturer)`) ||
		!strings.Contains(raw, `"state":"quarantined"`) {
		t.Fatalf("mint of a recalled lot through the route = %d %s", st, raw)
	}
	csv := "serial,model,lot,state\nIMP-1,M,L-R,\nIMP-2,M,L-OK,\nIMP-3,M,L-R,retired\n"
	if res, err := packs.Import(app, csv, false, c.Admin.Id, now); err != nil || res.Imported != 3 {
		t.Fatalf("import: %+v %v", res, err)
	}
	want := map[string]string{
		minted[0].GetString(schema.PackSerial): schema.PackStateQuarantined,
		minted[1].GetString(schema.PackSerial): schema.PackStateQuarantined,
		other[0].GetString(schema.PackSerial):  schema.PackStateInService,
		"IMP-1":                                schema.PackStateQuarantined,
		"IMP-2":                                schema.PackStateInService,
		"IMP-3":                                schema.PackStateRetired,
	}
	// the recall's count takes in what it reached: 2 + 1 minted, IMP-1 imported
	var count int
	_ = app.DB().NewQuery("SELECT packCount FROM pack_recalls WHERE id = {:id}").Bind(map[string]any{"id": r.Id}).Row(&count)
	if count != 4 {
		t.Errorf("the standing recall's packCount = %d; want 4", count)
	}
	for _, p := range minted {
		if p.GetString(schema.PackState) != schema.PackStateQuarantined {
			t.Errorf("the mint's answer says %s is %s", p.GetString(schema.PackSerial), p.GetString(schema.PackState))
		}
	}
	for serial, state := range want {
		rec, err := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial)
		if err != nil || rec.GetString(schema.PackState) != state {
			t.Errorf("%s: %v %v; want %s", serial, rec.GetString(schema.PackState), err, state)
			continue
		}
		var recall string
		_ = app.DB().NewQuery("SELECT recall FROM pack_events WHERE pack = {:p} AND kind = 'state'").Bind(map[string]any{"p": rec.Id}).Row(&recall)
		if (state == schema.PackStateQuarantined) != (recall == r.Id) {
			t.Errorf("%s (%s): state event's recall %q; the standing recall is %q", serial, state, recall, r.Id)
		}
	}
}
