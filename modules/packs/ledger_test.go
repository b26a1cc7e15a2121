package packs_test

import (
	"errors"
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
)

// fleet is a test app with n packs SWB-000001… all in ready (ready = n) and the tracking mode.
func fleet(t testing.TB, n int, mode string) *testkitApp {
	t.Helper()
	app := testkit.NewApp(t)
	t.Cleanup(app.Cleanup)
	admin := testkit.CreateUser(t, app, roles.Admin, roles.Approved)
	if _, err := system.Override(app, inventory.Op{Actor: admin}, n, 0, 0, n); err != nil {
		t.Fatal(err)
	}
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		t.Fatal(err)
	}
	ledgertest.MintPacks(t, app, n, ready.Id)
	ledgertest.SetPackTracking(t, app, mode)
	return &testkitApp{App: app, admin: admin}
}

type testkitApp struct {
	core.App
	admin *core.Record
}

func serial(i int) string { return packs.Serial(packs.DefaultPrefix, i) }

func code(err error) string {
	var de *apierr.Error
	if errors.As(err, &de) {
		return de.Code
	}
	return ""
}

// sound fails the test on any broken ledger or pack invariant.
func sound(t *testing.T, app core.App) {
	t.Helper()
	ledgertest.AssertSound(t, app)
	if v, err := ledgertest.PackViolations(app); err != nil || len(v) > 0 {
		t.Fatalf("pack invariants: %v %v", v, err)
	}
}

func location(t *testing.T, app core.App, s string) string {
	t.Helper()
	rec, err := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, s)
	if err != nil {
		t.Fatal(err)
	}
	loc := rec.GetString(schema.PackLocation)
	if loc == "" {
		return ""
	}
	acc, err := inventory.FindAccount(app, loc)
	if err != nil {
		t.Fatal(err)
	}
	return acc.Key()
}

func eventsOf(t *testing.T, app core.App, kind string) int {
	t.Helper()
	var n int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = {:k}").Bind(map[string]any{"k": kind}).Row(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Required mode: every write names exactly its packs; refusals carry their code, name the
// pack and change nothing; packs follow the batteries through pickup, dropoff, charging.
func TestRequiredModeFollowsEveryWrite(t *testing.T) {
	w := fleet(t, 8, schema.PackTrackingRequired)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	op := func(names inventory.PackNames) inventory.Op {
		return inventory.Op{Actor: dana, Notes: "n", Packs: names}
	}
	for _, c := range []struct {
		name  string
		names inventory.PackNames
		code  string
	}{
		{"none named", inventory.PackNames{}, apierr.CodePackCount},
		{"one short", inventory.PackNames{Packs: []string{serial(1)}}, apierr.CodePackCount},
		{"twice", inventory.PackNames{Packs: []string{serial(1), serial(1)}}, apierr.CodePackCount},
		{"unknown", inventory.PackNames{Packs: []string{serial(1), "SWB-999999"}}, apierr.CodePackUnknown},
		{"wrong field", inventory.PackNames{GoodPacks: []string{serial(1), serial(2)}}, ""},
	} {
		before := ledgertest.Capture(t, app)
		_, err := inventory.Pickup(app, op(c.names), dana.Id, 2)
		if err == nil || code(err) != c.code {
			t.Fatalf("%s: err = %v (code %q); want code %q", c.name, err, code(err), c.code)
		}
		ledgertest.AssertUnchanged(t, app, before)
		if c.code == apierr.CodePackUnknown && err.Error() != "Unknown pack: SWB-999999" {
			t.Fatalf("unknown refusal = %q; want it to name the pack", err.Error())
		}
	}
	// the label's URL is as good as the bare serial
	if _, err := inventory.Pickup(app, op(inventory.PackNames{Packs: []string{"https://bay.example/p/" + serial(1), serial(2)}}), dana.Id, 2); err != nil {
		t.Fatal(err)
	}
	holder := inventory.HolderKey(dana.Id, inventory.AssignmentPickup)
	if l := location(t, app, serial(1)); l != holder {
		t.Fatalf("SWB-000001 at %q; want %q", l, holder)
	}
	sound(t, app)

	// dropoff: good to ready, dead to waiting
	if _, err := inventory.Dropoff(app, op(inventory.PackNames{GoodPacks: []string{serial(1)}, DeadPacks: []string{serial(2)}}), dana.Id, 1, 1); err != nil {
		t.Fatal(err)
	}
	if a, b := location(t, app, serial(1)), location(t, app, serial(2)); a != inventory.KeyReady || b != inventory.KeyWaiting {
		t.Fatalf("after dropoff: %s, %s; want ready, waiting", a, b)
	}
	sound(t, app)

	// charging: start names the pack, completion moves the session's packs and counts a charge
	adminOp := inventory.Op{Actor: w.admin, Packs: inventory.PackNames{Packs: []string{serial(2)}}}
	sess, _, err := charging.Start(app, adminOp, "4A", 1)
	if err != nil {
		t.Fatal(err)
	}
	if l := location(t, app, serial(2)); l != inventory.SessionKey(sess.Id) {
		t.Fatalf("charging pack at %s", l)
	}
	if _, _, err := charging.Complete(app, inventory.Op{Actor: w.admin}, sess.Id); err != nil {
		t.Fatal(err)
	}
	rec, _ := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(2))
	if rec.GetInt(schema.PackChargeCount) != 1 || location(t, app, serial(2)) != inventory.KeyReady {
		t.Fatalf("after completion: charge count %d at %s", rec.GetInt(schema.PackChargeCount), location(t, app, serial(2)))
	}
	sound(t, app)

	// a quarantined pack is not handed out
	if _, err := app.DB().NewQuery("UPDATE packs SET state = 'quarantined' WHERE serial = {:s}").Bind(map[string]any{"s": serial(3)}).Execute(); err != nil {
		t.Fatal(err)
	}
	_, _, err = custody.Assign(app, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{Packs: []string{serial(3)}}}, dana.Id, 1, "repair")
	if code(err) != apierr.CodePackQuarantined || err.Error() != "Pack SWB-000003 is quarantined and cannot be handed out" {
		t.Fatalf("assign quarantined: %v (%s)", err, code(err))
	}
	res, err := system.Recalculate(app)
	if err != nil || len(res.Corrections) != 0 || len(res.PackCorrections) != 0 {
		t.Fatalf("recalculate: %v %v %v", res.Corrections, res.PackCorrections, err)
	}
}

// A scan is a physical fact: a pack the records put elsewhere moves, the difference is one
// discrepancy event, and in required mode the records are matched to the counts again.
func TestDiscrepancyMovesThePackAndKeepsTheCounts(t *testing.T) {
	w := fleet(t, 6, schema.PackTrackingRequired)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1), serial(2)}}}, dana.Id, 2); err != nil {
		t.Fatal(err)
	}
	// Eve picks up SWB-000001, which the records put with Dana
	mv, err := inventory.Pickup(app, inventory.Op{Actor: eve, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, eve.Id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if l := location(t, app, serial(1)); l != inventory.HolderKey(eve.Id, inventory.AssignmentPickup) {
		t.Fatalf("scanned pack at %s; want Eve's", l)
	}
	if n := eventsOf(t, app, schema.PackEventDiscrepancy); n != 1 {
		t.Fatalf("%d discrepancies; want 1", n)
	}
	var ev struct {
		Expected string `db:"expectedAccount"`
		Movement string `db:"movement"`
		Actor    string `db:"actor"`
	}
	if err := app.DB().NewQuery("SELECT expectedAccount, movement, actor FROM pack_events WHERE kind = 'discrepancy'").One(&ev); err != nil {
		t.Fatal(err)
	}
	danaHolder, _ := inventory.FindAccountByKey(app, inventory.HolderKey(dana.Id, inventory.AssignmentPickup))
	if ev.Expected != danaHolder.Id || ev.Movement != mv.Id || ev.Actor != eve.Id {
		t.Fatalf("discrepancy = %+v; want expected Dana's holding, movement %s, actor Eve", ev, mv.Id)
	}
	// counts: Dana 2, Eve 1; the records gave one ready pack to Dana in place of SWB-000001
	sound(t, app)

	// deleting Eve's pickup puts SWB-000001 back where the records had it, and its stand-in
	if err := inventory.DeleteMovement(app, inventory.Op{Actor: w.admin}, mv.Id); err != nil {
		t.Fatal(err)
	}
	if l := location(t, app, serial(1)); l != inventory.HolderKey(dana.Id, inventory.AssignmentPickup) {
		t.Fatalf("after delete SWB-000001 at %s; want Dana's again", l)
	}
	sound(t, app)
}

// Corrections: an edit without packs keeps the movement's packs; one that names others moves
// those instead, and the old ones go back.
func TestCorrectionsPutPacksBack(t *testing.T) {
	w := fleet(t, 6, schema.PackTrackingOptional)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	mv, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1), serial(2)}}}, dana.Id, 3)
	if err != nil {
		t.Fatal(err)
	}
	holder := inventory.HolderKey(dana.Id, inventory.AssignmentPickup)
	if _, err := inventory.EditMovement(app, inventory.Op{Actor: w.admin}, mv.Id, 4, 0, "more"); err != nil {
		t.Fatal(err)
	}
	if a, b := location(t, app, serial(1)), location(t, app, serial(2)); a != holder || b != holder {
		t.Fatalf("edit without packs: %s %s; want both still held", a, b)
	}
	if _, err := inventory.EditMovement(app, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{Packs: []string{serial(3)}}}, mv.Id, 4, 0, ""); err != nil {
		t.Fatal(err)
	}
	if a, c := location(t, app, serial(1)), location(t, app, serial(3)); a != inventory.KeyReady || c != holder {
		t.Fatalf("edit naming SWB-000003: 1 at %s, 3 at %s", a, c)
	}
	if err := inventory.DeleteMovement(app, inventory.Op{Actor: w.admin}, mv.Id); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		if l := location(t, app, serial(i)); l != inventory.KeyReady {
			t.Fatalf("after delete %s at %s; want ready", serial(i), l)
		}
	}
	sound(t, app)
}

// Off: named packs are ignored and the counts apply. A write queued before the mode became
// required is judged as optional.
func TestModeOffAndQueuedBeforeRequired(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOff)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{"NOT-A-PACK"}}}, dana.Id, 1); err != nil {
		t.Fatalf("off mode refused an unknown serial: %v", err)
	}
	if l := location(t, app, serial(1)); l != inventory.KeyReady {
		t.Fatalf("off mode moved a pack: %s", l)
	}
	tap := time.Now().UTC().Add(-time.Minute)
	time.Sleep(5 * time.Millisecond)
	ledgertest.SetPackTracking(t, app, schema.PackTrackingRequired)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", At: tap}, dana.Id, 1); code(err) != apierr.CodePackCount {
		t.Fatalf("an action back-dated by its occurredAt alone: %v; want pack_count (issue 42)", err)
	}
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", At: tap, KeyAt: tap}, dana.Id, 1); err != nil {
		t.Fatalf("an action keyed before required was refused: %v", err)
	}
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n"}, dana.Id, 1); code(err) != apierr.CodePackCount {
		t.Fatalf("a new action without packs in required mode: %v; want pack_count", err)
	}
}

// Lost packs are found when named; a swap moves packs between holders; deleting an
// assignment and a charging session move the packs the records put there.
func TestFoundSwapAndImplicitMoves(t *testing.T) {
	w := fleet(t, 6, schema.PackTrackingRequired)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := app.DB().NewQuery("UPDATE packs SET state = 'lost', stateBefore = 'maintenance' WHERE serial = {:s}").Bind(map[string]any{"s": serial(1)}).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := custody.Assign(app, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{Packs: []string{serial(1), serial(2), serial(3)}}}, dana.Id, 3, "pickup"); err != nil {
		t.Fatal(err)
	}
	rec, _ := app.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(1))
	if rec.GetString(schema.PackState) != schema.PackStateMaintenance || eventsOf(t, app, schema.PackEventFound) != 1 {
		t.Fatalf("found pack state %q", rec.GetString(schema.PackState))
	}
	_, err := custody.Swap(app, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{GoodPacks: []string{serial(1), serial(2)}}},
		custody.SwapRequest{FromUserId: dana.Id, ToUserId: eve.Id, Good: 2})
	if err != nil {
		t.Fatal(err)
	}
	if l := location(t, app, serial(2)); l != inventory.HolderKey(eve.Id, inventory.AssignmentPickup) {
		t.Fatalf("swapped pack at %s", l)
	}
	sound(t, app)
	if _, err := custody.DeleteAssignment(app, inventory.Op{Actor: w.admin}, eve.Id); err != nil {
		t.Fatal(err)
	}
	if a, b := location(t, app, serial(1)), location(t, app, serial(2)); a != inventory.KeyWaiting || b != inventory.KeyWaiting {
		t.Fatalf("after deleting Eve's assignment: %s %s; want waiting", a, b)
	}
	sound(t, app)
	sess, _, err := charging.Start(app, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{Packs: []string{serial(1), serial(2)}}}, "5A", 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := charging.Delete(app, inventory.Op{Actor: w.admin}, sess.Id); err != nil {
		t.Fatal(err)
	}
	if a := location(t, app, serial(1)); a != inventory.KeyWaiting {
		t.Fatalf("after deleting the session: %s", a)
	}
	sound(t, app)
}

// Two drivers send the same pack: whichever commits first, it ends in one place and the
// difference is recorded once.
func TestSamePackFromTwoDriversIsOneDiscrepancy(t *testing.T) {
	for _, eveFirst := range []bool{false, true} {
		w := fleet(t, 6, schema.PackTrackingRequired)
		app := w.App
		dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
		eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
		for i, u := range []*core.Record{dana, eve} {
			names := inventory.PackNames{Packs: []string{serial(2*i + 1), serial(2*i + 2)}}
			if _, err := inventory.Pickup(app, inventory.Op{Actor: u, Notes: "n", Packs: names}, u.Id, 2); err != nil {
				t.Fatal(err)
			}
		}
		order := []*core.Record{dana, eve}
		if eveFirst {
			order = []*core.Record{eve, dana}
		}
		for _, u := range order {
			if _, err := inventory.Dropoff(app, inventory.Op{Actor: u, Notes: "n", Packs: inventory.PackNames{GoodPacks: []string{serial(1)}}}, u.Id, 1, 0); err != nil {
				t.Fatal(err)
			}
		}
		if n := eventsOf(t, app, schema.PackEventDiscrepancy); n != 1 {
			t.Fatalf("eve first %v: %d discrepancies; want 1", eveFirst, n)
		}
		if l := location(t, app, serial(1)); l != inventory.KeyReady {
			t.Fatalf("eve first %v: SWB-000001 at %s", eveFirst, l)
		}
		sound(t, app)
	}
}
