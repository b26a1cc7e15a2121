package packs_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/earnings"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
)

// safetyWorld is a fleet of n packs in the bay (optional tracking), a driver, the liaison and
// a server.
type safetyWorld struct {
	*testkitApp
	srv           string
	client        *http.Client
	dana, liaison *core.Record
	tokens        map[string]string
}

func newSafetyWorld(t *testing.T, n int) *safetyWorld {
	w := fleet(t, n, schema.PackTrackingOptional)
	srv := testkit.Serve(t, w.App)
	s := &safetyWorld{testkitApp: w, srv: srv.URL, client: srv.Client(),
		dana:    testkit.CreateUser(t, w.App, roles.Driver, roles.Approved),
		liaison: testkit.CreateUser(t, w.App, roles.Liaison, roles.Approved)}
	s.tokens = map[string]string{s.dana.Id: testkit.TokenIn(t, w.App, s.dana), s.liaison.Id: testkit.TokenIn(t, w.App, s.liaison),
		w.admin.Id: testkit.TokenIn(t, w.App, w.admin)}
	return s
}

// call sends method url as who (a user id) with body and an optional key; it decodes the answer.
func (s *safetyWorld) call(t *testing.T, who, method, url, key, body string) (int, map[string]any) {
	t.Helper()
	h := map[string]string{}
	if key != "" {
		h["Idempotency-Key"] = key
	}
	status, raw, _ := ledgertest.Do(t, s.client, method, s.srv+url, s.tokens[who], body, h)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return status, out
}

func (s *safetyWorld) ok(t *testing.T, who, method, url, body string) map[string]any {
	t.Helper()
	status, out := s.call(t, who, method, url, "", body)
	if status != http.StatusOK {
		t.Fatalf("%s %s: %d %v", method, url, status, out)
	}
	return out
}

func packState(t *testing.T, app core.App, serial string) string {
	t.Helper()
	rec, err := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial)
	if err != nil {
		t.Fatal(err)
	}
	return rec.GetString(schema.PackState)
}

// A driver reports damage on a pack they hold with a photo: one damage event, the pack
// quarantined with the note as the reason, the keyed replay writes nothing more. A pack not
// theirs is a 404, another's photo a 400, the liaison a 403; on a pack already quarantined the
// report is recorded without a second state change. Nothing is counted differently.
func TestDamageReport(t *testing.T) {
	s := newSafetyWorld(t, 6)
	app := s.App
	s.ok(t, s.dana.Id, "POST", "/api/driver/pickup", fmt.Sprintf(`{"quantity": 2, "notes": "n", "packs": [%q, %q]}`, serial(1), serial(2)))
	photo := testkit.ClaimedPhoto(t, app, s.dana.Id)
	theirs := testkit.ClaimedPhoto(t, app, s.admin.Id)
	before := ledgertest.Capture(t, app)

	for _, c := range []struct {
		who, serial, body string
		status            int
	}{
		{s.dana.Id, serial(3), `{"note": "swollen"}`, 404},                                          // in the bay, never theirs
		{s.dana.Id, serial(1), `{"note": "  "}`, 400},                                               // no note
		{s.dana.Id, serial(1), fmt.Sprintf(`{"note": "x", "photos": [%q]}`, theirs), 400},           // another's photo
		{s.dana.Id, serial(1), fmt.Sprintf(`{"note": "x", "photos": [%q, %q]}`, photo, photo), 400}, // twice
		{s.liaison.Id, serial(1), `{"note": "x"}`, 403},
		{s.dana.Id, "SWB-999999", `{"note": "x"}`, 404},
	} {
		if status, out := s.call(t, c.who, "POST", "/api/packs/"+c.serial+"/damage", "", c.body); status != c.status {
			t.Fatalf("damage %s %s: %d %v; want %d", c.serial, c.body, status, out, c.status)
		}
	}
	if n := eventsOf(t, app, schema.PackEventDamage); n != 0 || packState(t, app, serial(1)) != schema.PackStateInService {
		t.Fatalf("a refused report wrote %d damage events", n)
	}

	body := fmt.Sprintf(`{"note": "Swollen case, smells hot", "photos": [%q]}`, photo)
	for i := 0; i < 2; i++ {
		status, out := s.call(t, s.dana.Id, "POST", "/api/packs/"+serial(1)+"/damage", "k-damage-1", body)
		if status != 200 || out["message"] != "Damage reported: pack SWB-000001 is quarantined" {
			t.Fatalf("damage %d: %d %v", i, status, out)
		}
		if pack, _ := out["pack"].(map[string]any); pack["state"] != schema.PackStateQuarantined {
			t.Fatalf("answer's pack = %v", pack)
		}
	}
	if d, s := eventsOf(t, app, schema.PackEventDamage), eventsOf(t, app, schema.PackEventState); d != 1 || s != 1 {
		t.Fatalf("%d damage and %d state events after a report and its replay; want 1 and 1", d, s)
	}
	d, err := packs.PackDetail(app, packs.Viewer{UserId: s.admin.Id}, serial(1))
	if err != nil {
		t.Fatal(err)
	}
	var damage, state *packs.HistoryEvent
	for i := range d.History {
		switch d.History[i].Kind {
		case schema.PackEventDamage:
			damage = &d.History[i]
		case schema.PackEventState:
			state = &d.History[i]
		}
	}
	if damage == nil || damage.Reason != "Swollen case, smells hot" || !reflect.DeepEqual(damage.Photos, []string{photo}) || damage.Actor.Id != s.dana.Id {
		t.Fatalf("damage event = %+v", damage)
	}
	if state == nil || state.Reason != "Damage reported: Swollen case, smells hot" || state.FromState != "in_service" || state.ToState != "quarantined" {
		t.Fatalf("state event = %+v", state)
	}

	// an admin reports on the same pack: recorded, no second quarantine
	status, out := s.call(t, s.admin.Id, "POST", "/api/packs/"+serial(1)+"/damage", "", `{"note": "Confirmed: case cracked"}`)
	if status != 200 || out["message"] != "Damage reported on pack SWB-000001 (already quarantined)" {
		t.Fatalf("second report: %d %v", status, out)
	}
	if d, s := eventsOf(t, app, schema.PackEventDamage), eventsOf(t, app, schema.PackEventState); d != 2 || s != 1 {
		t.Fatalf("%d damage and %d state events; want 2 and 1", d, s)
	}
	// Dana drops both off: the quarantined pack goes back to the bay (not handed out) and she
	// may still report on the other, whose last movement was hers
	s.ok(t, s.dana.Id, "POST", "/api/driver/dropoff-batteries", fmt.Sprintf(`{"goodBatteries": 2, "notes": "n", "goodPacks": [%q, %q]}`, serial(1), serial(2)))
	s.ok(t, s.dana.Id, "POST", "/api/packs/"+serial(2)+"/damage", `{"note": "Loose connector"}`)
	if packState(t, app, serial(2)) != schema.PackStateQuarantined {
		t.Fatal("the dropped-off pack was not quarantined")
	}
	// the dropoff took the quarantined pack's battery to quarantine and the other to ready,
	// which the second report then moved to quarantine too (issue 42)
	after := ledgertest.Capture(t, app)
	if after.Stats.Ready != before.Stats.Ready || after.Stats.Quarantined != before.Stats.Quarantined+2 || after.Movements != before.Movements+2 {
		t.Fatalf("counts %+v → %+v; want both batteries in quarantine", before, after)
	}
	sound(t, app)
}

// setLot gives packs from..to (serial numbers) lot, model and manufacturer.
func setLot(t *testing.T, app core.App, from, to int, lot, model, maker string) {
	t.Helper()
	for i := from; i <= to; i++ {
		if _, err := app.DB().NewQuery("UPDATE packs SET lot = {:l}, model = {:m}, manufacturer = {:f} WHERE serial = {:s}").
			Bind(map[string]any{"l": lot, "m": model, "f": maker, "s": serial(i)}).Execute(); err != nil {
			t.Fatal(err)
		}
	}
}

// An admin previews a lot (how many, where), recalls it: every matching pack in service is
// quarantined in one go with the recall named; the recall page lists them with their place and
// last holder and how many are in the bay; the driver sees the recall on the packs they hold.
// An empty match is refused and writes nothing; a second recall of the same lot finds nothing.
func TestRecall(t *testing.T) {
	s := newSafetyWorld(t, 12)
	app := s.App
	setLot(t, app, 1, 6, "L-7", "S48", "Voltcell")
	setLot(t, app, 7, 12, "L-8", "S48", "Voltcell")
	s.ok(t, s.dana.Id, "POST", "/api/driver/pickup", fmt.Sprintf(`{"quantity": 3, "notes": "n", "packs": [%q, %q, %q]}`, serial(1), serial(2), serial(7)))
	if _, err := packs.SetState(app, serial(3), schema.PackStateRetired, "worn", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := packs.SetState(app, serial(4), schema.PackStateQuarantined, "check", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := packs.SetState(app, serial(5), schema.PackStateLost, "gone", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	danaName := s.dana.GetString(schema.UserFirstName) + " " + s.dana.GetString(schema.UserLastName)

	p := s.ok(t, s.admin.Id, "GET", "/api/admin/packs/recall-preview?by=lot&value=L-7", "")
	wantPreview := map[string]any{"count": 4.0, "alreadyQuarantined": 1.0,
		"places": []any{map[string]any{"place": danaName, "count": 2.0}, map[string]any{"place": "Ready", "count": 2.0}}}
	if !reflect.DeepEqual(p, wantPreview) {
		t.Fatalf("preview = %v; want %v", p, wantPreview)
	}
	for _, c := range []struct {
		body   string
		status int
	}{
		{`{"by": "lot", "value": "L-9", "reason": "fire"}`, 404},
		{`{"by": "colour", "value": "L-7", "reason": "fire"}`, 400},
		{`{"by": "lot", "value": "L-7", "reason": " "}`, 400},
	} {
		if status, out := s.call(t, s.admin.Id, "POST", "/api/admin/packs/recall", "", c.body); status != c.status {
			t.Fatalf("recall %s: %d %v; want %d", c.body, status, out, c.status)
		}
	}
	if n := eventsOf(t, app, schema.PackEventState); n != 3 {
		t.Fatalf("refused recalls wrote: %d state events; want 3", n)
	}
	before := ledgertest.Capture(t, app)

	out := s.ok(t, s.admin.Id, "POST", "/api/admin/packs/recall", `{"by": "lot", "value": "L-7", "reason": "Cells overheat (supplier notice 12)"}`)
	rc, _ := out["recall"].(map[string]any)
	if out["message"] != "4 packs with lot L-7 quarantined" || rc["packCount"] != 4.0 || rc["by"] != "lot" || rc["value"] != "L-7" || rc["id"] == "" {
		t.Fatalf("recall = %v", out)
	}
	id := rc["id"].(string)
	for i, want := range []string{"quarantined", "quarantined", "retired", "quarantined", "quarantined", "quarantined", "in_service"} {
		if got := packState(t, app, serial(i+1)); got != want {
			t.Fatalf("%s is %s; want %s", serial(i+1), got, want)
		}
	}
	// the recalled packs on the shelf (5, declared lost there, and 6) went to quarantine with
	// their batteries (issue 42)
	if after := ledgertest.Capture(t, app); after.Stats.Ready != before.Stats.Ready-2 || after.Stats.Quarantined != before.Stats.Quarantined+2 || after.Stats.Unaccounted != before.Stats.Unaccounted {
		t.Fatalf("counts %+v → %+v; want 2 from ready to quarantine", before.Stats, after.Stats)
	}
	sound(t, app)

	// a second recall of the lot finds nothing left: 409, nothing written
	if status, out := s.call(t, s.admin.Id, "POST", "/api/admin/packs/recall", "", `{"by": "lot", "value": "L-7", "reason": "again"}`); status != 409 {
		t.Fatalf("second recall: %d %v", status, out)
	}

	var recalls []packs.RecallInfo
	status, raw, _ := ledgertest.Do(t, s.client, "GET", s.srv+"/api/admin/packs/recalls", s.tokens[s.admin.Id], "", nil)
	if err := json.Unmarshal(raw, &recalls); status != 200 || err != nil || len(recalls) != 1 || recalls[0].Id != id || recalls[0].Reason != "Cells overheat (supplier notice 12)" {
		t.Fatalf("recalls = %d %s", status, raw)
	}

	var page packs.RecallPage
	status, raw, _ = ledgertest.Do(t, s.client, "GET", s.srv+"/api/admin/packs/recalls/"+id, s.tokens[s.admin.Id], "", nil)
	if err := json.Unmarshal(raw, &page); status != 200 || err != nil {
		t.Fatalf("recall page = %d %s", status, raw)
	}
	// SWB-000005 was declared lost where the records last had it (ready), then moved to
	// quarantine with 6: in the bay by the records
	if page.Total != 4 || page.InBay != 2 || len(page.Packs) != 4 {
		t.Fatalf("recall page = %+v; want 4 packs, 2 in the bay", page)
	}
	bySerial := map[string]packs.RecalledPack{}
	for _, p := range page.Packs {
		bySerial[p.Serial] = p
	}
	if p := bySerial[serial(1)]; p.Place != danaName || p.InBay || p.LastHolder == nil || p.LastHolder.Id != s.dana.Id || p.LastHolder.Name != danaName {
		t.Fatalf("%s on the recall page = %+v", serial(1), p)
	}
	if p := bySerial[serial(6)]; p.Place != "Quarantine" || !p.InBay || p.LastHolder != nil {
		t.Fatalf("%s on the recall page = %+v", serial(6), p)
	}
	if page.Packs[len(page.Packs)-1].InBay != true || page.Packs[0].InBay {
		t.Fatalf("packs still out come first: %+v", page.Packs)
	}
	if status, _, _ := ledgertest.Do(t, s.client, "GET", s.srv+"/api/admin/packs/recalls/nope", s.tokens[s.admin.Id], "", nil); status != 404 {
		t.Fatalf("unknown recall = %d", status)
	}

	// Dana's holdings: the two recalled packs name the recall, the other does not
	held, err := packs.ListPacks(app, packs.Viewer{UserId: s.dana.Id, Driver: true}, packs.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(held.Packs) != 3 {
		t.Fatalf("dana holds %d packs", len(held.Packs))
	}
	for _, p := range held.Packs {
		recalled := p.Serial != serial(7)
		if recalled != (p.Recall != nil) || (recalled && (p.Recall.Id != id || p.Recall.Reason != "Cells overheat (supplier notice 12)")) {
			t.Fatalf("%s recall = %+v", p.Serial, p.Recall)
		}
	}
	// the pack she brings back to the bay counts on the recall page at once
	s.ok(t, s.dana.Id, "POST", "/api/driver/dropoff-batteries", fmt.Sprintf(`{"goodBatteries": 1, "notes": "n", "goodPacks": [%q]}`, serial(1)))
	page, err = packs.RecallDetail(app, id)
	if err != nil || page.InBay != 3 {
		t.Fatalf("after a return: %+v %v", page, err)
	}
	// handed out again — a pickup queued offline before the recall, sent now — refused at
	// send, naming the pack
	queued := clock.Now().Add(-30 * time.Minute).UTC().Format(time.RFC3339)
	status, refusal := s.call(t, s.dana.Id, "POST", "/api/driver/pickup", "k-queued", fmt.Sprintf(`{"quantity": 1, "notes": "n", "occurredAt": %q, "packs": [%q]}`, queued, serial(1)))
	if status != 409 || refusal["code"] != "pack_quarantined" || refusal["message"] != "Pack SWB-000001 is quarantined and cannot be handed out" {
		t.Fatalf("pickup of a recalled pack: %d %v", status, refusal)
	}
}

// Every pair of states: the table's transitions are allowed (each with its event: who, when,
// why), every other is refused with pack_state and changes nothing.
func TestEveryTransition(t *testing.T) {
	allowed := map[string][]string{
		"in_service":  {"maintenance", "quarantined", "retired", "lost"},
		"maintenance": {"in_service", "quarantined", "retired", "lost"},
		"quarantined": {"in_service", "maintenance", "retired", "lost"},
		"retired":     {"recycled"},
		"recycled":    {},
		"lost":        {"in_service", "maintenance", "quarantined", "retired"},
		// sent to another city: only its transfer changes it (modules/transfers)
		"in_transit": {},
	}
	if !reflect.DeepEqual(allowed, packs.Transitions) {
		t.Fatalf("Transitions = %v; the test expects %v", packs.Transitions, allowed)
	}
	w := fleet(t, len(schema.PackStates)*len(schema.PackStates), schema.PackTrackingOptional)
	app := w.App
	i := 0
	for _, from := range schema.PackStates {
		for _, to := range schema.PackStates {
			i++
			s := serial(i)
			if _, err := app.DB().NewQuery("UPDATE packs SET state = {:s} WHERE serial = {:p}").Bind(map[string]any{"s": from, "p": s}).Execute(); err != nil {
				t.Fatal(err)
			}
			want := false
			for _, a := range allowed[from] {
				want = want || a == to
			}
			before := eventsOf(t, app, schema.PackEventState) + eventsOf(t, app, schema.PackEventFound)
			_, err := packs.SetState(app, s, to, "because", w.admin.Id, clock.Now())
			after := eventsOf(t, app, schema.PackEventState) + eventsOf(t, app, schema.PackEventFound)
			switch {
			case want && err != nil:
				t.Errorf("%s → %s refused: %v", from, to, err)
			case want && (packState(t, app, s) != to || after != before+1):
				t.Errorf("%s → %s: state %s, %d events", from, to, packState(t, app, s), after-before)
			case !want && (code(err) != "pack_state" || packState(t, app, s) != from || after != before):
				t.Errorf("%s → %s: %v (code %q), state %s; want refused with pack_state", from, to, err, code(err), packState(t, app, s))
			}
		}
	}
}

// Pay unchanged (issue 37 item 7): a damage report, a quarantine, a recall and an admin's
// decision change no pay figure, and the counts only move within the bay: a quarantined pack
// on the shelf takes its battery to the quarantine account, a released one goes to waiting
// (issue 42); nothing leaves a person, nothing is unaccounted.
func TestSafetyChangesNoCountOrPay(t *testing.T) {
	s := newSafetyWorld(t, 8)
	app := s.App
	setLot(t, app, 1, 8, "L-1", "S48", "Voltcell")
	s.ok(t, s.dana.Id, "POST", "/api/driver/pickup", fmt.Sprintf(`{"quantity": 3, "notes": "n", "packs": [%q, %q, %q]}`, serial(1), serial(2), serial(3)))
	s.ok(t, s.dana.Id, "POST", "/api/driver/dropoff-batteries", fmt.Sprintf(`{"goodBatteries": 1, "deadBatteries": 1, "notes": "n", "goodPacks": [%q], "deadPacks": [%q]}`, serial(1), serial(2)))
	week := earnings.WeekOf(clock.Now(), time.UTC)
	pay := func() earnings.Report {
		r, err := earnings.Compute(app, week, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	beforePay, before := pay(), ledgertest.Capture(t, app)
	s.ok(t, s.dana.Id, "POST", "/api/packs/"+serial(3)+"/damage", `{"note": "dented"}`)
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(4)+"/state", `{"state": "quarantined", "reason": "check"}`)
	s.ok(t, s.admin.Id, "POST", "/api/admin/packs/recall", `{"by": "lot", "value": "L-1", "reason": "notice"}`)
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(4)+"/state", `{"state": "maintenance", "reason": "checked"}`)
	after := ledgertest.Capture(t, app)
	bay := func(s inventory.Snapshot) int { return s.Ready + s.Waiting + s.Quarantined }
	if bay(after.Stats) != bay(before.Stats) || after.Stats.InField != before.Stats.InField || after.Stats.Unaccounted != 0 || after.Stats.Quarantined != 6 {
		t.Fatalf("counts %+v → %+v; want 6 quarantined, nothing else changed", before.Stats, after.Stats)
	}
	if after := pay(); !reflect.DeepEqual(beforePay, after) {
		t.Fatalf("pay changed:\n%+v\n%+v", beforePay, after)
	}
	sound(t, app)
}

// The packs' part of the attention strip: quarantined packs, missing packs, discrepancies of
// the last 7 days and open damage reports (closed by an admin's decision, not reopened by a
// later quarantine).
func TestAttentionCounts(t *testing.T) {
	s := newSafetyWorld(t, 6)
	app := s.App
	count := func(want packs.Attention) {
		t.Helper()
		got, err := packs.CountAttention(app, clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("attention = %+v; want %+v", got, want)
		}
	}
	count(packs.Attention{})
	s.ok(t, s.dana.Id, "POST", "/api/driver/pickup", fmt.Sprintf(`{"quantity": 2, "notes": "n", "packs": [%q, %q]}`, serial(1), serial(2)))
	s.ok(t, s.dana.Id, "POST", "/api/packs/"+serial(1)+"/damage", `{"note": "swollen"}`)
	count(packs.Attention{QuarantinedPacks: 1, DamageReports: 1})
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(3)+"/state", `{"state": "quarantined", "reason": "check"}`)
	count(packs.Attention{QuarantinedPacks: 2, DamageReports: 1})
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(1)+"/state", `{"state": "maintenance", "reason": "cell swap"}`)
	count(packs.Attention{QuarantinedPacks: 1})
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(1)+"/state", `{"state": "quarantined", "reason": "again"}`)
	count(packs.Attention{QuarantinedPacks: 2})
	// Dana returns a pack the records had on the shelf: a discrepancy
	s.ok(t, s.dana.Id, "POST", "/api/driver/dropoff-batteries", fmt.Sprintf(`{"goodBatteries": 1, "notes": "n", "goodPacks": [%q]}`, serial(5)))
	if _, err := app.DB().NewQuery("UPDATE packs SET lastSeenAt = '2020-01-01 00:00:00.000Z' WHERE serial = {:s}").Bind(map[string]any{"s": serial(6)}).Execute(); err != nil {
		t.Fatal(err)
	}
	count(packs.Attention{QuarantinedPacks: 2, PackDiscrepancies: 1, MissingPacks: 1})
	restore := clock.Set(func() time.Time { return time.Now().Add(8 * 24 * time.Hour) })
	defer restore()
	// a week on: the discrepancy has aged out; every pack not seen since is missing (in service
	// or maintenance: 2, 4, 5, 6 — 1 and 3 are quarantined)
	count(packs.Attention{QuarantinedPacks: 2, MissingPacks: 4})
}

// A 500-pack lot is recalled in one go: every pack quarantined with an event naming the recall
// (make bench -only recall measures the time on a larger registry).
func TestRecallOf500Packs(t *testing.T) {
	w := fleet(t, 1, schema.PackTrackingOptional)
	app := w.App
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.RunInTransaction(func(tx core.App) error {
		for i := 2; i <= 511; i++ {
			lot := "BIG"
			if i > 501 {
				lot = "OTHER"
			}
			if _, err := tx.DB().NewQuery("INSERT INTO packs (id, serial, state, lot, location, created, updated) VALUES ({:id}, {:s}, 'in_service', {:lot}, {:loc}, '2026-01-01 00:00:00.000Z', '2026-01-01 00:00:00.000Z')").
				Bind(map[string]any{"id": fmt.Sprintf("pk%013d", i), "s": serial(i), "lot": lot, "loc": ready.Id}).Execute(); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := packs.Recall(app, packs.RecallForm{By: "lot", Value: "BIG", Reason: "fire at a station"}, w.admin.Id, clock.Now())
	t.Logf("recall of 500 packs: %s (the machine's load makes this no benchmark)", time.Since(start))
	if err != nil || r.PackCount != 500 {
		t.Fatalf("recall = %+v %v", r, err)
	}
	var quarantined, recalled int
	if err := app.DB().NewQuery("SELECT (SELECT COUNT(*) FROM packs WHERE state = 'quarantined' AND lot = 'BIG'), (SELECT COUNT(*) FROM pack_events WHERE recall = {:r} AND toState = 'quarantined' AND fromState = 'in_service')").
		Bind(map[string]any{"r": r.Id}).Row(&quarantined, &recalled); err != nil {
		t.Fatal(err)
	}
	if quarantined != 500 || recalled != 500 || packState(t, app, serial(502)) != schema.PackStateInService {
		t.Fatalf("%d quarantined, %d recall events; want 500 and 500, the other lot untouched", quarantined, recalled)
	}
	page, err := packs.RecallDetail(app, r.Id)
	if err != nil || page.Total != 500 || page.InBay != 500 {
		t.Fatalf("recall page: %d packs, %d in the bay, %v", page.Total, page.InBay, err)
	}
}

// A pack declared lost (the state route) is found when a movement scans it: its state comes
// back, the find is in its history, and it was never on the missing list meanwhile.
func TestDeclaredLostIsFoundByAScan(t *testing.T) {
	s := newSafetyWorld(t, 3)
	app := s.App
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(2)+"/state", `{"state": "maintenance", "reason": "cell check"}`)
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(2)+"/state", `{"state": "lost", "reason": "not on the shelf at the count"}`)
	if got := missingSerials(t, app); len(got) != 0 {
		t.Fatalf("missing %v; a lost pack is not missing", got)
	}
	s.ok(t, s.dana.Id, "POST", "/api/driver/pickup", fmt.Sprintf(`{"quantity": 1, "notes": "n", "packs": [%q]}`, serial(2)))
	d, err := packs.PackDetail(app, packs.Viewer{UserId: s.admin.Id}, serial(2))
	if err != nil {
		t.Fatal(err)
	}
	if d.State != schema.PackStateMaintenance || len(d.History) == 0 {
		t.Fatalf("after the scan: %s; want maintenance again", d.State)
	}
	found := false
	for _, h := range d.History {
		found = found || (h.Kind == schema.PackEventFound && h.FromState == "lost" && h.ToState == "maintenance" && h.Actor != nil && h.Actor.Id == s.dana.Id)
	}
	if !found {
		t.Fatalf("no find in the history: %+v", d.History)
	}
}

// Each pack change announces INVENTORY_UPDATED once it commits (the packs list, the recall
// page and the attention strip refetch on it); a refused one announces nothing.
func TestPackChangesAnnounceThemselves(t *testing.T) {
	s := newSafetyWorld(t, 3)
	app := s.App
	setLot(t, app, 1, 3, "L-1", "S48", "Voltcell")
	var mu sync.Mutex
	var got []string
	cancel := events.For(app).Subscribe(func(m events.Message) {
		mu.Lock()
		got = append(got, m.Type)
		mu.Unlock()
	})
	defer cancel()
	announced := func(what string, want int) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, typ := range got {
			if typ == events.InventoryUpdated {
				n++
			}
		}
		if n != want {
			t.Fatalf("after %s: %d INVENTORY_UPDATED (%v); want %d", what, n, got, want)
		}
	}
	s.ok(t, s.admin.Id, "PUT", "/api/admin/packs/"+serial(1)+"/state", `{"state": "maintenance", "reason": "check"}`)
	announced("a state change", 1)
	s.ok(t, s.admin.Id, "POST", "/api/packs/"+serial(2)+"/damage", `{"note": "dented"}`)
	announced("a damage report", 2)
	s.ok(t, s.admin.Id, "POST", "/api/admin/packs/recall", `{"by": "lot", "value": "L-1", "reason": "notice"}`)
	announced("a recall", 3)
	if status, _ := s.call(t, s.admin.Id, "POST", "/api/admin/packs/recall", "", `{"by": "lot", "value": "L-1", "reason": "again"}`); status != 409 {
		t.Fatalf("second recall = %d", status)
	}
	announced("a refused recall", 3)
}
