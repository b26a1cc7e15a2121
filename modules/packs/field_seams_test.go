package packs_test

import (
	"testing"

	"github.com/pocketbase/dbx"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
)

// lastMovementOfKind returns the id of the latest movement whose meta kind is kind.
func lastMovementOfKind(t *testing.T, w *testkitApp, kind string) string {
	t.Helper()
	var id string
	err := w.App.DB().NewQuery("SELECT id FROM movements WHERE json_extract(meta, '$.kind') = {:k} ORDER BY rowid DESC LIMIT 1").
		Bind(dbx.Params{"k": kind}).Row(&id)
	if err != nil || id == "" {
		t.Fatalf("no %s movement: %v", kind, err)
	}
	return id
}

// An out-of-use pack moves only toward quarantine "by any route" (DESIGN.md §14), whatever the
// tracking mode: with tracking switched off after the pack was recalled, deleting a dropoff that
// returned it to quarantine must not put it back in the driver's hands (refused
// pack_quarantined, nothing changed). The movement that took a pack's battery to quarantine
// with its state change is not deleted on its own at all (see
// TestFieldSeamsStateMovementsAreNotDeleted).
func TestFieldSeamsOffModeDeleteKeepsOutOfUsePackInQuarantine(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOptional)
	dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, dana.Id, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := packs.SetState(w.App, serial(1), schema.PackStateQuarantined, "recalled by the maker", w.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	drop, err := inventory.Dropoff(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{GoodPacks: []string{serial(1)}}}, dana.Id, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l := location(t, w.App, serial(1)); l != inventory.KeyQuarantine {
		t.Fatalf("recalled pack at %q before the delete; want quarantine", l)
	}
	ledgertest.SetPackTracking(t, w.App, schema.PackTrackingOff)
	before := ledgertest.Capture(t, w.App)
	err = inventory.DeleteMovement(w.App, inventory.Op{Actor: w.admin}, drop.Id)
	if code(err) != apierr.CodePackQuarantined {
		t.Errorf("delete with tracking off: %v; want pack_quarantined", err)
	}
	ledgertest.AssertUnchanged(t, w.App, before)
	if l := location(t, w.App, serial(1)); l != inventory.KeyQuarantine {
		t.Errorf("recalled pack at %q after the delete; want quarantine", l)
	}
	sound(t, w.App)
}

// The movements that carry a pack's battery to quarantine or back with its state change are
// not deleted on their own (409, nothing changed): undone alone they left the place, the state
// and the counts apart — a released pack quarantined again counted twice in quarantine when its
// release was deleted, a recalled pack put back on the ready shelf with tracking off.
func TestFieldSeamsStateMovementsAreNotDeleted(t *testing.T) {
	for _, c := range []struct {
		name, mode string
		states     []string // the pack's state changes, in order
		kind       string   // the movement deleted: the last of this kind
	}{
		{"the quarantine, tracking off", schema.PackTrackingOff, []string{schema.PackStateQuarantined}, inventory.KindShelvedQuarantine},
		{"the quarantine, after the release", schema.PackTrackingOptional, []string{schema.PackStateQuarantined, schema.PackStateInService}, inventory.KindShelvedQuarantine},
		{"the release, after a second quarantine", schema.PackTrackingOptional,
			[]string{schema.PackStateQuarantined, schema.PackStateInService, schema.PackStateQuarantined}, inventory.KindShelvedRelease},
		{"the release, required", schema.PackTrackingRequired, []string{schema.PackStateQuarantined, schema.PackStateInService}, inventory.KindShelvedRelease},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := fleet(t, 4, schema.PackTrackingOptional)
			// other batteries in quarantine and waiting, so that no balance stops the delete
			if _, err := packs.SetState(w.App, serial(2), schema.PackStateQuarantined, "dented", w.admin.Id, clock.Now()); err != nil {
				t.Fatal(err)
			}
			if _, err := system.EditStat(w.App, inventory.Op{Actor: w.admin}, "waiting", 1, 0); err != nil {
				t.Fatal(err)
			}
			for _, st := range c.states {
				if _, err := packs.SetState(w.App, serial(1), st, "checked", w.admin.Id, clock.Now()); err != nil {
					t.Fatal(err)
				}
			}
			ledgertest.SetPackTracking(t, w.App, c.mode)
			before := ledgertest.Capture(t, w.App)
			err := inventory.DeleteMovement(w.App, inventory.Op{Actor: w.admin}, lastMovementOfKind(t, w, c.kind))
			if err == nil || err.Error() != inventory.MsgShelvedKept {
				t.Errorf("delete: %v; want %q", err, inventory.MsgShelvedKept)
			}
			ledgertest.AssertUnchanged(t, w.App, before)
			ledgertest.AssertSound(t, w.App) // (the waiting battery added above has no pack)
		})
	}
}

// In required mode a driver who holds fewer batteries than the packs they scan at a dropoff
// (the rest is the excess, DESIGN.md §3) brings packs the records put elsewhere: on the ready
// shelf, in quarantine (recalled), with another driver. The excess battery is taken from
// where the records had each pack, not from outside — else that place kept a battery with no
// pack (recalculation: "ready holds 5 batteries but 4 packs") and the fleet counted one
// battery more than it has (unaccounted -1). Deleting the dropoff puts everything back.
func TestFieldSeamsRequiredDropoffExcessComesFromThePacksPlace(t *testing.T) {
	for _, c := range []struct {
		name       string
		setup      func(t *testing.T, w *testkitApp, eve string)
		ready, q   int
		location   string
		eveHolding int
	}{
		{"a pack the records have on the ready shelf", func(*testing.T, *testkitApp, string) {}, 4, 0, inventory.KeyReady, 0},
		{"a recalled pack the records have in quarantine", func(t *testing.T, w *testkitApp, _ string) {
			if _, err := packs.SetState(w.App, serial(1), schema.PackStateQuarantined, "recalled", w.admin.Id, clock.Now()); err != nil {
				t.Fatal(err)
			}
		}, 3, 1, inventory.KeyQuarantine, 0},
		{"a pack the records have with another driver", func(t *testing.T, w *testkitApp, eve string) {
			if _, err := inventory.Pickup(w.App, inventory.Op{Actor: w.admin, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1), serial(2)}}}, eve, 2); err != nil {
				t.Fatal(err)
			}
		}, 3, 0, inventory.KeyReady, 1},
		{"the only pack another driver holds", func(t *testing.T, w *testkitApp, eve string) {
			if _, err := inventory.Pickup(w.App, inventory.Op{Actor: w.admin, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, eve, 1); err != nil {
				t.Fatal(err)
			}
		}, 4, 0, inventory.KeyReady, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := fleet(t, 4, schema.PackTrackingRequired)
			dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
			eve := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
			c.setup(t, w, eve.Id)
			before := ledgertest.Capture(t, w.App)
			drop, err := inventory.Dropoff(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{GoodPacks: []string{serial(1)}}}, dana.Id, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !drop.GetBool(schema.MovementDiscrepancy) {
				t.Error("a dropoff of more than the driver holds is not flagged")
			}
			st, err := inventory.Stats(w.App)
			if err != nil {
				t.Fatal(err)
			}
			if st.Ready != c.ready || st.Quarantined != c.q || st.Unaccounted != 0 {
				t.Errorf("stats %+v; want ready %d, quarantined %d, unaccounted 0", st, c.ready, c.q)
			}
			if l := location(t, w.App, serial(1)); l != c.location {
				t.Errorf("pack at %q; want %s", l, c.location)
			}
			var held int
			_ = w.App.DB().NewQuery("SELECT COALESCE(SUM(balance), 0) FROM accounts WHERE user = {:u}").Bind(dbx.Params{"u": eve.Id}).Row(&held)
			if held != c.eveHolding {
				t.Errorf("the other driver holds %d; want %d", held, c.eveHolding)
			}
			sound(t, w.App)
			res, err := system.Recalculate(w.App)
			if err != nil || len(res.Corrections) != 0 || len(res.PackCorrections) != 0 {
				t.Fatalf("recalculate: %v %v %v", res.Corrections, res.PackCorrections, err)
			}
			// a correction that keeps its pack (none named: the same again) changes nothing
			mid := ledgertest.Capture(t, w.App)
			if _, err := inventory.EditMovement(w.App, inventory.Op{Actor: w.admin}, drop.Id, 1, 0, ""); err != nil {
				t.Fatalf("correct the dropoff: %v", err)
			}
			if got := ledgertest.Capture(t, w.App); got.Stats != mid.Stats {
				t.Errorf("after the same correction %+v; want %+v", got.Stats, mid.Stats)
			}
			sound(t, w.App)
			if err := inventory.DeleteMovement(w.App, inventory.Op{Actor: w.admin}, drop.Id); err != nil {
				t.Fatalf("delete the dropoff: %v", err)
			}
			after := ledgertest.Capture(t, w.App)
			after.Movements, before.Movements = 0, 0
			after.Entries, before.Entries = 0, 0
			if after != before {
				t.Errorf("after deleting the dropoff %+v; want %+v", after, before)
			}
			sound(t, w.App)
		})
	}
}

// A pack recalled while it sits on a charger or with a driver goes to quarantine with its
// battery when the rest of that place moves without naming its packs: a charging session
// completed, deleted or lowered to 0, an assignment deleted. These once failed with "Unknown
// pack: SWB-000001" (the split-off out-of-use pack of an implicit move was looked up among the
// named ones), so a session started before a recall could never be finished.
func TestFieldSeamsRecalledPackLeavesWithItsPlace(t *testing.T) {
	ends := []struct {
		name string
		end  func(w *testkitApp, sess, holder string) error
		// where the other pack goes
		other string
	}{
		{"session completed", func(w *testkitApp, sess, _ string) error {
			_, _, err := charging.Complete(w.App, inventory.Op{Actor: w.admin}, sess)
			return err
		}, inventory.KeyReady},
		{"session deleted", func(w *testkitApp, sess, _ string) error {
			_, _, err := charging.Delete(w.App, inventory.Op{Actor: w.admin}, sess)
			return err
		}, inventory.KeyWaiting},
		{"session lowered to 0, to ready", func(w *testkitApp, sess, _ string) error {
			_, _, err := charging.SetQuantity(w.App, inventory.Op{Actor: w.admin}, sess, 0, charging.DestinationReady)
			return err
		}, inventory.KeyReady},
		{"session lowered to 0, to waiting", func(w *testkitApp, sess, _ string) error {
			_, _, err := charging.SetQuantity(w.App, inventory.Op{Actor: w.admin}, sess, 0, charging.DestinationWaiting)
			return err
		}, inventory.KeyWaiting},
		{"assignment deleted", func(w *testkitApp, _, holder string) error {
			_, err := custody.DeleteAssignment(w.App, inventory.Op{Actor: w.admin}, holder)
			return err
		}, inventory.KeyWaiting},
	}
	for _, mode := range []string{schema.PackTrackingOptional, schema.PackTrackingRequired} {
		for _, c := range ends {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				w := fleet(t, 6, mode)
				dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
				// packs 1 and 2 on a charger (via a dead dropoff), or with Dana
				names := inventory.PackNames{Packs: []string{serial(1), serial(2)}}
				if _, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: names}, dana.Id, 2); err != nil {
					t.Fatal(err)
				}
				sess := ""
				if c.name != "assignment deleted" {
					if _, err := inventory.Dropoff(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{DeadPacks: names.Packs}}, dana.Id, 0, 2); err != nil {
						t.Fatal(err)
					}
					s, _, err := charging.Start(w.App, inventory.Op{Actor: w.admin, Packs: names}, "5A", 2)
					if err != nil {
						t.Fatal(err)
					}
					sess = s.Id
				}
				if _, err := packs.SetState(w.App, serial(1), schema.PackStateQuarantined, "recalled by the maker", w.admin.Id, clock.Now()); err != nil {
					t.Fatal(err)
				}
				if err := c.end(w, sess, dana.Id); err != nil {
					t.Fatalf("%s with a recalled pack there: %v", c.name, err)
				}
				if l := location(t, w.App, serial(1)); l != inventory.KeyQuarantine {
					t.Errorf("recalled pack at %q; want quarantine", l)
				}
				if l := location(t, w.App, serial(2)); l != c.other {
					t.Errorf("the other pack at %q; want %s", l, c.other)
				}
				st, err := inventory.Stats(w.App)
				if err != nil {
					t.Fatal(err)
				}
				if st.Quarantined != 1 || st.Charging != 0 || st.InField != 0 || st.Unaccounted != 0 {
					t.Errorf("stats %+v; want quarantined 1, charging 0, in field 0, unaccounted 0", st)
				}
				sound(t, w.App)
				res, err := system.Recalculate(w.App)
				if err != nil || len(res.Corrections) != 0 || len(res.PackCorrections) != 0 {
					t.Fatalf("recalculate: %v %v %v", res.Corrections, res.PackCorrections, err)
				}
			})
		}
	}
}

// A damage report on a pack in transit to another city records the damage but leaves its
// state: the transition table lets such a pack change only by its transfer (journal.Transitions).
// It was quarantined anyway, so the city it went to could never send it back here (a quarantined
// pack "is already registered here"), and deleting the send put it back in service, the
// quarantine silently gone. A pack quarantined, retired or recycled keeps its state likewise.
func TestFieldSeamsDamageKeepsTheStateTheTableKeeps(t *testing.T) {
	for _, state := range []string{schema.PackStateInTransit, schema.PackStateRetired, schema.PackStateRecycled, schema.PackStateQuarantined} {
		t.Run(state, func(t *testing.T) {
			w := fleet(t, 2, schema.PackTrackingOptional)
			rec, err := w.App.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(1))
			if err != nil {
				t.Fatal(err)
			}
			rec.Set(schema.PackState, state)
			rec.Set(schema.PackLocation, "")
			if err := w.App.Save(rec); err != nil {
				t.Fatal(err)
			}
			before := ledgertest.Capture(t, w.App)
			p, quarantined, err := packs.ReportDamage(w.App, packs.Damage{Serial: serial(1), Note: "dented", Actor: w.admin.Id}, clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			if quarantined || p.State() != state {
				t.Errorf("after the report: %s (quarantined %v); want %s", p.State(), quarantined, state)
			}
			var damages int
			_ = w.App.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE kind = 'damage' AND pack = {:p}").Bind(dbx.Params{"p": rec.Id}).Row(&damages)
			if damages != 1 {
				t.Errorf("%d damage events; want 1", damages)
			}
			ledgertest.AssertUnchanged(t, w.App, before)
			sound(t, w.App)
		})
	}
}

// Deleting the movement that found a lost pack makes it lost again, keeping the state it has
// now: a pack sent to maintenance since the find was put back as lost "in service", so the
// next scan found it in service, the admin's maintenance decision gone without a trace.
func TestFieldSeamsUndoneFindKeepsTheStateSince(t *testing.T) {
	w := fleet(t, 3, schema.PackTrackingOptional)
	dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
	if _, err := packs.SetState(w.App, serial(1), schema.PackStateLost, "not on the shelf", w.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	pick, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, dana.Id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := packs.SetState(w.App, serial(1), schema.PackStateMaintenance, "loose connector", w.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if err := inventory.DeleteMovement(w.App, inventory.Op{Actor: w.admin}, pick.Id); err != nil {
		t.Fatal(err)
	}
	rec, err := w.App.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(1))
	if err != nil {
		t.Fatal(err)
	}
	if st, before := rec.GetString(schema.PackState), rec.GetString(schema.PackStateBefore); st != schema.PackStateLost || before != schema.PackStateMaintenance {
		t.Fatalf("after the find was undone: %s (before %q); want lost, before maintenance", st, before)
	}
	// found again by a scan, it returns to maintenance, not to service
	if _, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, dana.Id, 1); err != nil {
		t.Fatal(err)
	}
	rec, _ = w.App.FindFirstRecordByData(schema.Packs, schema.PackSerial, serial(1))
	if st := rec.GetString(schema.PackState); st != schema.PackStateMaintenance {
		t.Fatalf("found again: %s; want maintenance", st)
	}
	sound(t, w.App)
}
