package packs_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/idempotency"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
)

// TestPackLedgerProperties sends 10,000 random pack-named writes (steps that send something;
// the tally lists answers 200 and refusals per kind) through the routes, two seeds in
// required mode and two in optional — pickups, dropoffs, swaps, assignments and their deletes, charging starts and
// completions, corrections and deletes of movements, bad names (unknown, twice, too few,
// quarantined), packs named where the records do not have them, keyed replays, answers lost
// and sent again, and the same pack sent by two drivers at once — and after every step checks:
// every pack is in one place that exists, an out-of-use pack moved only toward quarantine
// (issue 42: state changes, damage reports, recalls, exchanges, dead transfers, session
// quantities and deletes, count edits — refused in required mode — and back-dated or
// early-keyed pickups are among the writes), in required mode the packs at every account
// equal its balance, a
// replay changed nothing, and every refusal is a 4xx carrying a code (the ledger's own
// invariants every 10 steps and at the end).
// SWAPBAY_PACK_PROPERTY_SEED=<n> reruns one seed.
func TestPackLedgerProperties(t *testing.T) {
	seeds, steps := []int64{1, 2, 3, 4}, 2500
	if s := os.Getenv("SWAPBAY_PACK_PROPERTY_SEED"); s != "" {
		n, _ := strconv.ParseInt(s, 10, 64)
		seeds = []int64{n}
	}
	if testing.Short() {
		seeds, steps = seeds[:1], 400
	}
	tally := map[string][2]int{}
	var mu sync.Mutex
	t.Run("seeds", func(t *testing.T) {
		for _, seed := range seeds {
			// odd seeds in required mode, even ones in optional (issue 42: both modes)
			mode := schema.PackTrackingRequired
			if seed%2 == 0 {
				mode = schema.PackTrackingOptional
			}
			t.Run(fmt.Sprint("seed", seed, mode), func(t *testing.T) {
				t.Parallel() // separate apps: the seeds share only the tally
				local := map[string][2]int{}
				runPackSequence(t, seed, steps, local, mode)
				mu.Lock()
				defer mu.Unlock()
				for k, v := range local {
					c := tally[k]
					tally[k] = [2]int{c[0] + v[0], c[1] + v[1]}
				}
			})
		}
	})
	for _, kind := range []string{"pickup", "dropoff", "swap", "assign", "delete assignment", "start charging",
		"complete session", "edit pickup", "delete movement", "replay", "lost answer", "same pack at once",
		"state change", "damage", "recall", "exchange", "dead transfer", "session change", "count edit", "backdated"} {
		if tally[kind][0] == 0 && !testing.Short() {
			t.Errorf("%q was never accepted (%d refused)", kind, tally[kind][1])
		}
	}
	if tally["bad names"][1] == 0 && !testing.Short() {
		t.Error("no bad names were sent")
	}
	t.Logf("accepted/refused per operation: %v", tally)
}

type packWorld struct {
	t       *testing.T
	app     core.App
	rng     *rand.Rand
	client  *http.Client
	url     string
	drivers []*core.Record
	admin   *core.Record
	tokens  map[string]string
	sent    []sentRequest // accepted keyed requests, for replays
	keys    int
	mode    string    // the tracking mode of the run
	modeSet time.Time // when it was set (a key minted before earns the offline grace)
}

type sentRequest struct {
	who, method, path, key, body string
}

// codes a refusal may carry in this test.
var packRefusalCodes = map[string]bool{
	apierr.CodePackCount: true, apierr.CodePackUnknown: true, apierr.CodePackQuarantined: true, apierr.CodePackRetired: true,
	apierr.CodeValidationFailed: true, apierr.CodeInsufficientHoldings: true, apierr.CodeNotEnoughReady: true,
	apierr.CodeNotEnoughWaiting: true, apierr.CodeNotEnough: true, apierr.CodeConflict: true, apierr.CodeNotFound: true,
	system.CodeStatChanged: true,
}

func runPackSequence(t *testing.T, seed int64, steps int, tally map[string][2]int, mode string) {
	w := fleet(t, 40, mode)
	modeSet := clock.Now()
	setLot(t, w.App, 1, 5, "L-1", "S48", "Voltcell")
	setLot(t, w.App, 6, 10, "L-2", "S48", "Voltcell")
	srv := testkit.Serve(t, w.App)
	pw := &packWorld{t: t, app: w.App, rng: rand.New(rand.NewSource(seed)), client: srv.Client(), url: srv.URL, admin: w.admin, tokens: map[string]string{},
		mode: mode, modeSet: modeSet}
	for i := 0; i < 4; i++ {
		pw.drivers = append(pw.drivers, testkit.CreateUser(t, w.App, roles.Driver, roles.Approved))
	}
	for _, u := range append([]*core.Record{w.admin}, pw.drivers...) {
		pw.tokens[u.Id] = testkit.TokenIn(t, w.App, u)
	}
	// two packs are quarantined (their batteries go to the quarantine account): handing them
	// out is refused
	for _, s := range []string{"SWB-000039", "SWB-000040"} {
		if _, err := packs.SetState(w.App, s, schema.PackStateQuarantined, "check", w.admin.Id, clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	ops := []struct {
		kind   string
		weight int
		run    func() (int, bool) // status, whether it was a refusal the step may make
	}{
		{"pickup", 14, pw.pickup},
		{"dropoff", 14, pw.dropoff},
		{"swap", 6, pw.swap},
		{"assign", 5, pw.assign},
		{"delete assignment", 3, pw.deleteAssignment},
		{"start charging", 6, pw.startCharging},
		{"complete session", 5, pw.completeSession},
		{"edit pickup", 4, pw.editPickup},
		{"delete movement", 4, pw.deleteMovement},
		{"replay", 8, pw.replay},
		{"lost answer", 4, pw.lostAnswer},
		{"same pack at once", 3, pw.samePackAtOnce},
		{"bad names", 6, pw.badNames},
		{"state change", 4, pw.stateChange},
		{"damage", 1, pw.damage},
		{"recall", 1, pw.recall},
		{"exchange", 3, pw.exchange},
		{"dead transfer", 3, pw.deadTransfer},
		{"session change", 3, pw.sessionChange},
		{"count edit", 2, pw.countEdit},
		{"backdated", 3, pw.backdated},
	}
	total := 0
	for _, o := range ops {
		total += o.weight
	}
	for step := 0; step < steps; {
		r := pw.rng.Intn(total)
		for _, o := range ops {
			if r -= o.weight; r >= 0 {
				continue
			}
			before := pw.places()
			status, _ := o.run()
			if status == 0 {
				break // nothing to send in this state (e.g. no pack held): not a step
			}
			if v := outOfUseMoves(before, pw.places()); len(v) > 0 {
				t.Fatalf("step %d (%s): %v", step+1, o.kind, v)
			}
			step++
			c := tally[o.kind]
			if status == http.StatusOK {
				c[0]++
			} else {
				c[1]++
			}
			tally[o.kind] = c
			// the counts' own invariants every 10 steps and at the end (they read every entry:
			// internal/ledgertest's property test checks them after each step); the packs'
			// after every step
			if step%10 == 0 || step == steps {
				if v, err := ledgertest.Violations(pw.app); err != nil || len(v) > 0 {
					t.Fatalf("step %d (%s): ledger %v %v", step, o.kind, v, err)
				}
			}
			if v, err := ledgertest.PackViolations(pw.app); err != nil || len(v) > 0 {
				t.Fatalf("step %d (%s): packs %v %v", step, o.kind, v, err)
			}
			break
		}
	}
}

// send posts body and checks the answer: 200, or a 4xx with a code this test knows.
func (w *packWorld) send(who, method, path, key, body string) (int, map[string]any, http.Header) {
	w.t.Helper()
	h := map[string]string{}
	if key != "" {
		h[idempotency.Header] = key
	}
	status, raw, hdr := ledgertest.Do(w.t, w.client, method, w.url+path, w.tokens[who], body, h)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	if status != http.StatusOK {
		code, _ := out["code"].(string)
		if status >= 500 || !packRefusalCodes[code] {
			w.t.Fatalf("%s %s %s: %d %s; want 200 or a 4xx with its code", method, path, body, status, raw)
		}
	}
	return status, out, hdr
}

// keyed sends a keyed write and remembers it for replays when it was accepted.
func (w *packWorld) keyed(who, method, path, body string) (int, map[string]any) {
	w.keys++
	key := fmt.Sprintf("prop-%d", w.keys)
	status, out, _ := w.send(who, method, path, key, body)
	if status == http.StatusOK {
		w.sent = append(w.sent, sentRequest{who, method, path, key, body})
	}
	return status, out
}

// packsAt lists the serials the records put at account key (up to n, random order).
func (w *packWorld) packsAt(key string, n int) []string {
	var serials []string
	err := w.app.DB().NewQuery("SELECT p.serial FROM packs p JOIN accounts a ON a.id = p.location WHERE a.key = {:k} ORDER BY p.serial").
		Bind(dbx.Params{"k": key}).Column(&serials)
	if err != nil {
		w.t.Fatal(err)
	}
	w.rng.Shuffle(len(serials), func(i, j int) { serials[i], serials[j] = serials[j], serials[i] })
	return serials[:min(n, len(serials))]
}

// heldPacks lists up to n packs the records put with user (any holding).
func (w *packWorld) heldPacks(user string, n int) []string {
	var serials []string
	err := w.app.DB().NewQuery("SELECT p.serial FROM packs p JOIN accounts a ON a.id = p.location WHERE a.kind = 'holder' AND a.user = {:u} ORDER BY p.serial").
		Bind(dbx.Params{"u": user}).Column(&serials)
	if err != nil {
		w.t.Fatal(err)
	}
	w.rng.Shuffle(len(serials), func(i, j int) { serials[i], serials[j] = serials[j], serials[i] })
	return serials[:min(n, len(serials))]
}

// misread replaces one serial of list with a pack the records put elsewhere, now and then
// (a scan is a physical fact: it moves anyway and the difference is recorded).
func (w *packWorld) misread(list []string) []string {
	if len(list) == 0 || w.rng.Intn(8) != 0 {
		return list
	}
	other := fmt.Sprintf("SWB-%06d", 1+w.rng.Intn(38))
	for _, s := range list {
		if s == other {
			return list
		}
	}
	out := append([]string(nil), list...)
	out[w.rng.Intn(len(out))] = other
	return out
}

func jsonList(list []string) string {
	if list == nil {
		list = []string{}
	}
	b, _ := json.Marshal(list)
	return string(b)
}

func (w *packWorld) driver() *core.Record { return w.drivers[w.rng.Intn(len(w.drivers))] }

func (w *packWorld) pickup() (int, bool) {
	d := w.driver()
	q := 1 + w.rng.Intn(3)
	list := w.misread(w.packsAt(inventory.KeyReady, q))
	if len(list) < q {
		q = max(1, len(list))
	}
	status, _ := w.keyed(d.Id, "POST", "/api/driver/pickup", fmt.Sprintf(`{"quantity": %d, "notes": "n", "packs": %s}`, q, jsonList(list)))
	return status, true
}

func (w *packWorld) dropoff() (int, bool) {
	d := w.driver()
	held := w.misread(w.heldPacks(d.Id, 1+w.rng.Intn(3)))
	if len(held) == 0 {
		return 0, true
	}
	cut := w.rng.Intn(len(held) + 1)
	good, dead := held[:cut], held[cut:]
	status, _ := w.keyed(d.Id, "POST", "/api/driver/dropoff-batteries",
		fmt.Sprintf(`{"goodBatteries": %d, "deadBatteries": %d, "notes": "n", "goodPacks": %s, "deadPacks": %s}`, len(good), len(dead), jsonList(good), jsonList(dead)))
	return status, true
}

func (w *packWorld) swap() (int, bool) {
	from, to := w.driver(), w.driver()
	if from.Id == to.Id {
		return 0, true
	}
	list := w.misread(w.heldPacks(from.Id, 1+w.rng.Intn(2)))
	if len(list) == 0 {
		return 0, true
	}
	status, _ := w.keyed(w.admin.Id, "POST", "/api/admin/driver-swap",
		fmt.Sprintf(`{"fromUserId": %q, "toUserId": %q, "goodBatteries": %d, "deadBatteries": 0, "goodPacks": %s}`, from.Id, to.Id, len(list), jsonList(list)))
	return status, true
}

func (w *packWorld) assign() (int, bool) {
	d := w.driver()
	types := []string{"pickup", "repair", "home_charger"}
	list := w.packsAt(inventory.KeyReady, 1+w.rng.Intn(2))
	if w.rng.Intn(6) == 0 {
		list = append(list[:0:0], "SWB-000039") // quarantined
	}
	if len(list) == 0 {
		return 0, true
	}
	status, _ := w.keyed(w.admin.Id, "POST", "/api/admin/assignments",
		fmt.Sprintf(`{"userId": %q, "quantity": %d, "assignmentType": %q, "packs": %s}`, d.Id, len(list), types[w.rng.Intn(len(types))], jsonList(list)))
	return status, true
}

func (w *packWorld) deleteAssignment() (int, bool) {
	var ids []string
	if err := w.app.DB().NewQuery("SELECT id FROM accounts WHERE kind = 'holder' AND balance > 0").Column(&ids); err != nil || len(ids) == 0 {
		return 0, true
	}
	status, _ := w.keyed(w.admin.Id, "DELETE", "/api/admin/assignments/"+ids[w.rng.Intn(len(ids))], "")
	return status, true
}

func (w *packWorld) startCharging() (int, bool) {
	list := w.misread(w.packsAt(inventory.KeyWaiting, 1+w.rng.Intn(3)))
	if len(list) == 0 {
		return 0, true
	}
	status, _ := w.keyed(w.admin.Id, "POST", "/api/start-charging", fmt.Sprintf(`{"chargerType": "4A", "quantity": %d, "packs": %s}`, len(list), jsonList(list)))
	return status, true
}

func (w *packWorld) completeSession() (int, bool) {
	var ids []string
	if err := w.app.DB().NewQuery("SELECT id FROM charging_sessions WHERE status = 'active'").Column(&ids); err != nil || len(ids) == 0 {
		return 0, true
	}
	status, _ := w.keyed(w.admin.Id, "POST", "/api/admin/charge/"+ids[w.rng.Intn(len(ids))]+"/complete", "")
	return status, true
}

// editPickup corrects a random pickup: the same packs (not named), or a new count with packs.
func (w *packWorld) editPickup() (int, bool) {
	var ids []string
	if err := w.app.DB().NewQuery("SELECT id FROM movements WHERE type = 'pickup' ORDER BY rowid DESC LIMIT 20").Column(&ids); err != nil || len(ids) == 0 {
		return 0, true
	}
	id := ids[w.rng.Intn(len(ids))]
	mv, err := inventory.FindMovement(w.app, id)
	if err != nil {
		w.t.Fatal(err)
	}
	q := -mv.Quantity()
	body := fmt.Sprintf(`{"goodBatteries": %d, "deadBatteries": 0, "notes": "edited"}`, q)
	if w.rng.Intn(2) == 0 {
		// one more pack: the old ones (where the movement put them) and one from ready
		var old []string
		for _, m := range mv.PackMoves() {
			if m.Field == inventory.FieldPacks {
				old = append(old, m.Serial)
			}
		}
		list := append(old, w.packsAt(inventory.KeyReady, 1)...)
		body = fmt.Sprintf(`{"goodBatteries": %d, "deadBatteries": 0, "notes": "edited", "packs": %s}`, len(list), jsonList(list))
	}
	status, _ := w.keyed(w.admin.Id, "PUT", "/api/admin/movements/"+id, body)
	return status, true
}

func (w *packWorld) deleteMovement() (int, bool) {
	var ids []string
	if err := w.app.DB().NewQuery("SELECT id FROM movements WHERE type IN ('pickup', 'dropoff', 'driver_swap_out') ORDER BY rowid DESC LIMIT 20").Column(&ids); err != nil || len(ids) == 0 {
		return 0, true
	}
	id := ids[w.rng.Intn(len(ids))]
	status, _ := w.keyed(w.admin.Id, "DELETE", "/api/admin/movements/"+id, "")
	return status, true
}

// counts of the pack records that any write changes
func (w *packWorld) packState() string {
	var n, events int
	var locs string
	if err := w.app.DB().NewQuery("SELECT COUNT(*), COALESCE(group_concat(serial || '@' || location, ','), '') FROM (SELECT serial, location FROM packs ORDER BY serial)").Row(&n, &locs); err != nil {
		w.t.Fatal(err)
	}
	if err := w.app.DB().NewQuery("SELECT COUNT(*) FROM pack_events").Row(&events); err != nil {
		w.t.Fatal(err)
	}
	return fmt.Sprint(n, events, locs)
}

// replay sends an accepted keyed request again: the first answer, nothing changed.
func (w *packWorld) replay() (int, bool) {
	if len(w.sent) == 0 {
		return 0, true
	}
	r := w.sent[w.rng.Intn(len(w.sent))]
	before, ledger := w.packState(), ledgertest.Capture(w.t, w.app)
	status, _, hdr := w.send(r.who, r.method, r.path, r.key, r.body)
	if status != http.StatusOK || hdr.Get(idempotency.ReplayedHeader) != "true" {
		w.t.Fatalf("replay of %s %s: %d, replayed %q", r.method, r.path, status, hdr.Get(idempotency.ReplayedHeader))
	}
	if after := w.packState(); after != before {
		w.t.Fatalf("replay of %s %s changed the packs", r.method, r.path)
	}
	ledgertest.AssertUnchanged(w.t, w.app, ledger)
	return status, true
}

// lostAnswer sends a pickup whose answer the phone never reads (the outbox keeps it), then
// sends it again with the same key: it was applied once.
func (w *packWorld) lostAnswer() (int, bool) {
	d := w.driver()
	list := w.packsAt(inventory.KeyReady, 1)
	if len(list) == 0 {
		return 0, true
	}
	body := fmt.Sprintf(`{"quantity": 1, "notes": "n", "packs": %s}`, jsonList(list))
	w.keys++
	key := fmt.Sprintf("lost-%d", w.keys)
	if status, _, _ := w.send(d.Id, "POST", "/api/driver/pickup", key, body); status != http.StatusOK {
		return status, true
	}
	before := w.packState()
	status, _, hdr := w.send(d.Id, "POST", "/api/driver/pickup", key, body)
	if status != http.StatusOK || hdr.Get(idempotency.ReplayedHeader) != "true" || w.packState() != before {
		w.t.Fatalf("resent pickup: %d replayed %q", status, hdr.Get(idempotency.ReplayedHeader))
	}
	return status, true
}

// samePackAtOnce: two drivers drop off the same pack at the same moment (one misread): one
// place, at most one new discrepancy.
func (w *packWorld) samePackAtOnce() (int, bool) {
	a, b := w.drivers[0], w.drivers[1+w.rng.Intn(len(w.drivers)-1)]
	list := w.heldPacks(a.Id, 1)
	if len(list) == 0 || len(w.heldPacks(b.Id, 1)) == 0 {
		return 0, true
	}
	var before int
	_ = w.app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = 'discrepancy'").Row(&before)
	body := fmt.Sprintf(`{"goodBatteries": 1, "notes": "n", "goodPacks": %s}`, jsonList(list))
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, u := range []*core.Record{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = w.keyed(u.Id, "POST", "/api/driver/dropoff-batteries", body)
		}()
	}
	wg.Wait()
	var after int
	_ = w.app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = 'discrepancy'").Row(&after)
	if statuses[0] == http.StatusOK && statuses[1] == http.StatusOK && after-before != 1 {
		w.t.Fatalf("the same pack sent by two drivers at once: %d new discrepancies; want 1", after-before)
	}
	if statuses[0] != http.StatusOK {
		return statuses[0], true
	}
	return statuses[1], true
}

// badNames sends names the ledger must refuse, each with its code, changing nothing.
func (w *packWorld) badNames() (int, bool) {
	d := w.driver()
	ready := w.packsAt(inventory.KeyReady, 2)
	if len(ready) < 2 {
		return 0, true
	}
	cases := []struct{ body, code string }{
		{fmt.Sprintf(`{"quantity": 2, "notes": "n", "packs": [%q]}`, ready[0]), apierr.CodePackCount},
		{fmt.Sprintf(`{"quantity": 2, "notes": "n", "packs": [%q, %q]}`, ready[0], ready[0]), apierr.CodePackCount},
		{fmt.Sprintf(`{"quantity": 2, "notes": "n", "packs": [%q, "SWB-999999"]}`, ready[0]), apierr.CodePackUnknown},
		{`{"quantity": 1, "notes": "n", "packs": ["SWB-000040"]}`, apierr.CodePackQuarantined},
		{`{"quantity": 1, "notes": "n"}`, apierr.CodePackCount},
	}
	if w.mode != schema.PackTrackingRequired {
		cases = cases[1:4] // optional: too few packs is allowed
	}
	c := cases[w.rng.Intn(len(cases))]
	before, ledger := w.packState(), ledgertest.Capture(w.t, w.app)
	status, out, _ := w.send(d.Id, "POST", "/api/driver/pickup", "", c.body)
	// (in optional mode a count edit may have left fewer ready batteries than packs: the
	// counts are checked first)
	if got, _ := out["code"].(string); status == http.StatusOK || got != c.code && !(w.mode != schema.PackTrackingRequired && got == apierr.CodeNotEnoughReady) {
		w.t.Fatalf("%s: %d %v; want code %s", c.body, status, out, c.code)
	}
	if w.packState() != before {
		w.t.Fatal("a refused write changed the packs")
	}
	ledgertest.AssertUnchanged(w.t, w.app, ledger)
	return status, true
}
