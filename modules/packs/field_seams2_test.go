package packs_test

import (
	"strings"
	"testing"
	"time"

	"swapbay/internal/ledgertest"

	"swapbay/internal/testkit"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/modules/system"
	"swapbay/modules/transfers"
)

// packRow returns the state, stateBefore and charge count of the pack with serial s.
func packRow(t *testing.T, w *testkitApp, s string) (state, before string, charges int) {
	t.Helper()
	rec, err := w.App.FindFirstRecordByData(schema.Packs, schema.PackSerial, s)
	if err != nil {
		t.Fatal(err)
	}
	return rec.GetString(schema.PackState), rec.GetString(schema.PackStateBefore), rec.GetInt(schema.PackChargeCount)
}

// A pack an admin declared lost while the records had it on a charger (or with a driver) is
// found only by a scan (DESIGN.md §14: "a lost pack that is scanned again is found"). Ending
// the place without naming its packs — a session completed, deleted, an assignment deleted —
// is no scan: the lost pack's record follows its place's batteries (as a stand-in would) but
// it stays lost, gets no charge and no sighting. It was found, charged and back in service
// without anyone having seen it. A recalled pack declared lost goes to quarantine with its
// battery, still lost.
func TestFieldSeamsImplicitMoveDoesNotFindALostPack(t *testing.T) {
	ends := []struct {
		name string
		end  func(w *testkitApp, sess, holder string) error
		dest string // where the place's batteries go
	}{
		{"session completed", func(w *testkitApp, sess, _ string) error {
			_, _, err := charging.Complete(w.App, inventory.Op{Actor: w.admin}, sess)
			return err
		}, inventory.KeyReady},
		{"session deleted", func(w *testkitApp, sess, _ string) error {
			_, _, err := charging.Delete(w.App, inventory.Op{Actor: w.admin}, sess)
			return err
		}, inventory.KeyWaiting},
		{"assignment deleted", func(w *testkitApp, _, holder string) error {
			_, err := custody.DeleteAssignment(w.App, inventory.Op{Actor: w.admin}, holder)
			return err
		}, inventory.KeyWaiting},
	}
	for _, mode := range []string{schema.PackTrackingOptional, schema.PackTrackingRequired} {
		for _, recalled := range []bool{false, true} {
			for _, c := range ends {
				name := mode + "/" + c.name
				if recalled {
					name += "/recalled first"
				}
				t.Run(name, func(t *testing.T) {
					w := fleet(t, 6, mode)
					dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
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
					if recalled {
						if _, err := packs.SetState(w.App, serial(1), schema.PackStateQuarantined, "recalled by the maker", w.admin.Id, clock.Now()); err != nil {
							t.Fatal(err)
						}
					}
					if _, err := packs.SetState(w.App, serial(1), schema.PackStateLost, "not on the charger", w.admin.Id, clock.Now()); err != nil {
						t.Fatal(err)
					}
					found := eventsOf(t, w.App, schema.PackEventFound)
					if err := c.end(w, sess, dana.Id); err != nil {
						t.Fatalf("%s with a lost pack there: %v", c.name, err)
					}
					st, before, charges := packRow(t, w, serial(1))
					wantBefore := schema.PackStateInService
					if recalled {
						wantBefore = schema.PackStateQuarantined
					}
					if st != schema.PackStateLost || before != wantBefore || charges != 0 {
						t.Errorf("lost pack after the %s: %s (before %s), %d charges; want lost (before %s), 0 charges", c.name, st, before, charges, wantBefore)
					}
					if n := eventsOf(t, w.App, schema.PackEventFound); n != found {
						t.Errorf("%d found events; want %d (nobody scanned it)", n, found)
					}
					want := c.dest
					if recalled {
						want = inventory.KeyQuarantine
					}
					if l := location(t, w.App, serial(1)); l != want {
						t.Errorf("lost pack's record at %q; want %s (with its place's batteries)", l, want)
					}
					if l := location(t, w.App, serial(2)); l != c.dest {
						t.Errorf("the other pack at %q; want %s", l, c.dest)
					}
					if _, _, n := packRow(t, w, serial(2)); c.name == "session completed" && n != 1 {
						t.Errorf("the other pack has %d charges; want 1", n)
					}
					sound(t, w.App)
					res, err := system.Recalculate(w.App)
					if err != nil || len(res.Corrections) != 0 || len(res.PackCorrections) != 0 {
						t.Fatalf("recalculate: %v %v %v", res.Corrections, res.PackCorrections, err)
					}
					// scanned now, it is found
					if _, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, dana.Id, 1); recalled {
						if code(err) != "pack_quarantined" {
							t.Errorf("pickup of the recalled lost pack: %v; want pack_quarantined", err)
						}
						return
					} else if err != nil {
						t.Fatal(err)
					}
					if st, _, _ := packRow(t, w, serial(1)); st != schema.PackStateInService {
						t.Errorf("scanned at a pickup: %s; want in service", st)
					}
					sound(t, w.App)
				})
			}
		}
	}
}

// A clean slate (optional tracking; required refuses it in favour of a stocktake) removes the
// holders' and the sessions' accounts: the packs the records had with a driver or on a charger
// pointed at accounts that no longer exist (a broken pack invariant, and the next recalculation
// "corrected" them). They are now unplaced in the clean slate's own transaction, each with a
// history line saying why; recalculation finds nothing.
func TestFieldSeamsCleanSlateUnplacesPacksOfRemovedAccounts(t *testing.T) {
	w := fleet(t, 6, schema.PackTrackingOptional)
	dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1), serial(2), serial(3)}}}, dana.Id, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := inventory.Dropoff(w.App, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{DeadPacks: []string{serial(2), serial(3)}}}, dana.Id, 0, 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := charging.Start(w.App, inventory.Op{Actor: w.admin, Packs: inventory.PackNames{Packs: []string{serial(2)}}}, "5A", 1); err != nil {
		t.Fatal(err)
	}
	moved := eventsOf(t, w.App, schema.PackEventMoved)
	if _, err := system.CleanSlate(w.App, inventory.Op{Actor: w.admin}); err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]string{1: "", 2: "", 3: inventory.KeyWaiting, 4: inventory.KeyReady} {
		if l := location(t, w.App, serial(i)); l != want {
			t.Errorf("%s at %q after the clean slate; want %q", serial(i), l, want)
		}
	}
	if n := eventsOf(t, w.App, schema.PackEventMoved); n != moved+2 {
		t.Errorf("%d moved events written by the clean slate; want 2 (the packs whose place went)", n-moved)
	}
	sound(t, w.App)
	res, err := system.Recalculate(w.App)
	if err != nil || len(res.Corrections) != 0 || len(res.PackCorrections) != 0 {
		t.Fatalf("recalculate: %v %v %v", res.Corrections, res.PackCorrections, err)
	}
	// the pack page still answers, with no place
	d, err := packs.PackDetail(w.App, packs.Viewer{UserId: w.admin.Id}, serial(1))
	if err != nil || d.Location != nil {
		t.Fatalf("pack page after the clean slate: %+v %v", d.Location, err)
	}
}

// A send to another city whose pack has come back since (the other city received it and sent
// it back; this city received it again) cannot be deleted: the pack is here by the receive, and
// deleting the send counted its battery a second time (ready one too high, the total one too
// high: a battery that does not exist, with nothing unaccounted to show it). Refused in any
// tracking mode (in required mode it always was: the pack moved on), nothing changed.
func TestFieldSeamsSendOfAPackThatCameBackIsKept(t *testing.T) {
	for _, mode := range []string{schema.PackTrackingOptional, schema.PackTrackingRequired} {
		t.Run(mode, func(t *testing.T) {
			paris := fleet(t, 3, mode)
			berlin := fleet(t, 1, mode)
			// Berlin's own pack has Berlin's prefix
			if _, err := berlin.App.DB().NewQuery("UPDATE packs SET serial = 'BER-000001'").Execute(); err != nil {
				t.Fatal(err)
			}
			if _, err := paris.App.DB().NewQuery("UPDATE packs SET model = 'M1', manufactured = '2025-03', nominalWh = 960, lot = 'L1'").Execute(); err != nil {
				t.Fatal(err)
			}
			out, err := transfers.Send(paris.App, inventory.Op{Actor: paris.admin}, transfers.SendInput{ToCity: "Berlin", Serials: []string{serial(1)},
				From: transfers.City{Name: "Paris"}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := transfers.Receive(berlin.App, inventory.Op{Actor: berlin.admin}, transfers.ReceiveInput{Manifest: out.Manifest, Serials: []string{serial(1)}, To: inventory.KeyReady}); err != nil {
				t.Fatal(err)
			}
			back, err := transfers.Send(berlin.App, inventory.Op{Actor: berlin.admin}, transfers.SendInput{ToCity: "Paris", Serials: []string{serial(1)},
				From: transfers.City{Name: "Berlin"}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := transfers.Receive(paris.App, inventory.Op{Actor: paris.admin}, transfers.ReceiveInput{Manifest: back.Manifest, Serials: []string{serial(1)}, To: inventory.KeyReady}); err != nil {
				t.Fatal(err)
			}
			before := ledgertest.Capture(t, paris.App)
			err = inventory.DeleteMovement(paris.App, inventory.Op{Actor: paris.admin}, out.Movement)
			if err == nil || !strings.Contains(err.Error(), serial(1)) {
				t.Errorf("delete of the send after the pack came back: %v; want a refusal naming %s", err, serial(1))
			}
			ledgertest.AssertUnchanged(t, paris.App, before)
			st, err := inventory.Stats(paris.App)
			if err != nil {
				t.Fatal(err)
			}
			if st.Ready != 3 || st.Total != 3 || st.Unaccounted != 0 {
				t.Errorf("Paris %+v; want ready 3, total 3", st)
			}
			sound(t, paris.App)
			// sent again (to Lisbon): in transit once more, but by the second send — deleting the
			// first would put it back here while the second still says it left
			again, err := transfers.Send(paris.App, inventory.Op{Actor: paris.admin}, transfers.SendInput{ToCity: "Lisbon", Serials: []string{serial(1)},
				From: transfers.City{Name: "Paris"}})
			if err != nil {
				t.Fatal(err)
			}
			before = ledgertest.Capture(t, paris.App)
			if err := inventory.DeleteMovement(paris.App, inventory.Op{Actor: paris.admin}, out.Movement); err == nil || !strings.Contains(err.Error(), serial(1)) {
				t.Errorf("delete of the first send after a second: %v; want a refusal naming %s", err, serial(1))
			}
			ledgertest.AssertUnchanged(t, paris.App, before)
			// the second send, which never left, is undone
			if err := inventory.DeleteMovement(paris.App, inventory.Op{Actor: paris.admin}, again.Movement); err != nil {
				t.Fatalf("delete of the second send: %v", err)
			}
			if l := location(t, paris.App, serial(1)); l != inventory.KeyReady {
				t.Errorf("pack at %q after the second send was deleted; want ready", l)
			}
			sound(t, paris.App)
		})
	}
}

// Batteries a late offline action moved without packs in required mode (its key minted before
// the switch) are on the attention strip for 7 days from when the server recorded them, not
// from the tap: an action tapped 6½ days before it reached the server left the strip half a
// day later, before an admin could see it and count the place.
func TestFieldSeamsUnnamedBatteriesCountFromTheirRecording(t *testing.T) {
	w := fleet(t, 4, schema.PackTrackingOff)
	dana := testkit.CreateUser(t, w.App, roles.Driver, roles.Approved)
	tap := clock.Now().UTC().Add(-(6*24 + 12) * time.Hour)
	ledgertest.SetPackTracking(t, w.App, schema.PackTrackingRequired)
	if _, err := inventory.Pickup(w.App, inventory.Op{Actor: dana, Notes: "n", At: tap, KeyAt: tap}, dana.Id, 1); err != nil {
		t.Fatalf("an action keyed before required: %v", err)
	}
	for _, c := range []struct {
		after time.Duration
		want  int
	}{{0, 1}, {24 * time.Hour, 1}, {6 * 24 * time.Hour, 1}, {7*24*time.Hour + time.Hour, 0}} {
		a, err := packs.CountAttention(w.App, clock.Now().Add(c.after))
		if err != nil {
			t.Fatal(err)
		}
		if a.UnnamedBatteries != c.want {
			t.Errorf("%v after the recording: %d unnamed batteries; want %d", c.after, a.UnnamedBatteries, c.want)
		}
	}
}
