package packs_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/charging"
	"swapbay/modules/custody"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
	"swapbay/modules/packs"
	"swapbay/modules/system"
)

// Worn packs kept off the road (issue 46, DESIGN.md §16).

const wornWhy = "State of health 72% is under the model's 80%"

// markWorn marks the pack with serial worn as modules/health would (a plain UPDATE: only that
// module writes the column), with a state of health of 72%.
func markWorn(t testing.TB, app core.App, serial, reason string) {
	t.Helper()
	if _, err := app.DB().NewQuery("UPDATE packs SET worn = 1, wornReason = {:r}, soh = 72 WHERE serial = {:s}").
		Bind(dbx.Params{"r": reason, "s": serial}).Execute(); err != nil {
		t.Fatal(err)
	}
}

// setWornMode stores the worn mode as the System page does.
func setWornMode(t testing.TB, app core.App, mode string) {
	t.Helper()
	if _, err := system.SaveSettings(app, inventory.Op{}, []system.Setting{{Key: schema.SettingPackWornMode, Value: []byte(`"` + mode + `"`)}}); err != nil {
		t.Fatal(err)
	}
}

// packsSnapshot is every pack's place, state, sighting and charge count, with the number of
// pack events: a refusal changes none of it.
func packsSnapshot(t testing.TB, app core.App) string {
	t.Helper()
	var rows []struct {
		S string `db:"s"`
	}
	if err := app.DB().NewQuery("SELECT serial || '|' || location || '|' || state || '|' || lastSeenAt || '|' || chargeCount AS s FROM packs ORDER BY serial").All(&rows); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM pack_events").Row(&n); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, r := range rows {
		sb.WriteString(r.S + "\n")
	}
	return fmt.Sprintf("%sevents %d", sb.String(), n)
}

func wornMsg(serial string) string { return fmt.Sprintf(journal.MsgPackWorn, serial, wornWhy) }

// wantWorn checks err is the pack_worn refusal of serial, named in data.packs.
func wantWorn(t *testing.T, what string, err error, serial string) {
	t.Helper()
	var de *apierr.Error
	if code(err) != apierr.CodePackWorn || !asErr(err, &de) || de.Message != wornMsg(serial) {
		t.Fatalf("%s: %v; want pack_worn %q", what, err, wornMsg(serial))
	}
	if len(de.Packs) != 1 || de.Packs[0].Serial != serial || de.Packs[0].Code != apierr.CodePackWorn || de.Packs[0].Message != wornMsg(serial) {
		t.Fatalf("%s: data.packs = %+v; want %s pack_worn with its message", what, de.Packs, serial)
	}
	if !errors.Is(err, apierr.ErrConflict) {
		t.Fatalf("%s: %v is not a conflict (409)", what, err)
	}
}

func asErr(err error, de **apierr.Error) bool { return errors.As(err, de) }

// In refuse mode a worn pack is refused at pickup (over HTTP: 409, code, message, data.packs),
// assignment, charging start and swap, and nothing changes; in flag mode each passes.
func TestWornRefusedAtHandOut(t *testing.T) {
	s := newSafetyWorld(t, 6)
	app := s.App
	eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	// serial 2 with Dana (to be swapped), serials 3 and 4 dead in waiting (to be charged)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: s.dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(2), serial(3), serial(4)}}}, s.dana.Id, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := inventory.Dropoff(app, inventory.Op{Actor: s.dana, Notes: "n", Packs: inventory.PackNames{DeadPacks: []string{serial(3), serial(4)}}}, s.dana.Id, 0, 2); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3} {
		markWorn(t, app, serial(n), wornWhy)
	}
	setWornMode(t, app, schema.PackWornRefuse)
	before, packsBefore := ledgertest.Capture(t, app), packsSnapshot(t, app)
	unchanged := func(what string) {
		t.Helper()
		ledgertest.AssertUnchanged(t, app, before)
		if got := packsSnapshot(t, app); got != packsBefore {
			t.Fatalf("%s changed the packs:\n%s\nwant\n%s", what, got, packsBefore)
		}
	}

	status, body := s.call(t, s.dana.Id, "POST", "/api/driver/pickup", "", fmt.Sprintf(`{"quantity": 1, "notes": "n", "packs": [%q]}`, serial(1)))
	if status != http.StatusConflict || body["code"] != apierr.CodePackWorn || body["message"] != wornMsg(serial(1)) {
		t.Fatalf("pickup of a worn pack: %d %v; want 409 pack_worn %q", status, body, wornMsg(serial(1)))
	}
	if got := packsData(body); len(got) != 1 || got[serial(1)] != apierr.CodePackWorn {
		t.Fatalf("pickup of a worn pack: data.packs = %v; want %s pack_worn with its message", got, serial(1))
	}
	unchanged("the refused pickup")

	_, _, err := custody.Assign(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{Packs: []string{serial(1)}}}, eve.Id, 1, "delivery")
	wantWorn(t, "assignment of a worn pack", err, serial(1))
	unchanged("the refused assignment")

	_, _, err = charging.Start(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{Packs: []string{serial(3)}}}, "5A", 1)
	wantWorn(t, "charging a worn pack", err, serial(3))
	unchanged("the refused charging start")

	_, err = custody.Swap(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{GoodPacks: []string{serial(2)}}},
		custody.SwapRequest{FromUserId: s.dana.Id, ToUserId: eve.Id, Good: 1})
	wantWorn(t, "swapping a worn pack", err, serial(2))
	unchanged("the refused swap")

	// two worn packs at once: both named, the message counts them
	markWorn(t, app, serial(5), "Lost 4 points of state of health in 30 days")
	status, body = s.call(t, s.dana.Id, "POST", "/api/driver/pickup", "", fmt.Sprintf(`{"quantity": 2, "notes": "n", "packs": [%q, %q]}`, serial(1), serial(5)))
	want := fmt.Sprintf(journal.MsgPacksWorn, 2, serial(1)+", "+serial(5))
	if got := packsData(body); status != http.StatusConflict || body["code"] != apierr.CodePackWorn || body["message"] != want ||
		len(got) != 2 || got[serial(1)] != apierr.CodePackWorn || got[serial(5)] != apierr.CodePackWorn {
		t.Fatalf("pickup of two worn packs: %d %v; want 409 %q naming both", status, body, want)
	}
	unchanged("the refused pickup of two")
	// a worn pack beside a retired one: each named with its own code
	if _, err := packs.SetState(app, serial(6), schema.PackStateRetired, "old", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	_, _, err = custody.Assign(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{Packs: []string{serial(5), serial(6)}}}, eve.Id, 2, "delivery")
	var de *apierr.Error
	if !asErr(err, &de) || len(de.Packs) != 2 || de.Message != fmt.Sprintf(journal.MsgPacksRefused, 2, serial(5)+", "+serial(6)) {
		t.Fatalf("assigning a worn and a retired pack: %v; want both named", err)
	}
	if !strings.Contains(de.Packs[0].Message+de.Packs[1].Message, "Lost 4 points of state of health in 30 days") {
		t.Fatalf("data.packs %+v; want the worn pack's reason", de.Packs)
	}
	sound(t, app)
}

// In flag mode (the default) nothing is refused: the worn pack is handed out.
func TestWornFlaggedOnlyInFlagMode(t *testing.T) {
	s := newSafetyWorld(t, 4)
	app := s.App
	eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	for _, n := range []int{1, 2, 3, 4} {
		markWorn(t, app, serial(n), wornWhy)
	}
	// the default is flag; then flag stored explicitly
	status, body := s.call(t, s.dana.Id, "POST", "/api/driver/pickup", "", fmt.Sprintf(`{"quantity": 1, "notes": "n", "packs": [%q]}`, serial(1)))
	if status != http.StatusOK {
		t.Fatalf("pickup of a worn pack in flag mode (default): %d %v; want 200", status, body)
	}
	setWornMode(t, app, schema.PackWornFlag)
	if _, _, err := custody.Assign(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{Packs: []string{serial(2)}}}, eve.Id, 1, "delivery"); err != nil {
		t.Fatalf("assignment of a worn pack in flag mode: %v", err)
	}
	if _, err := custody.Swap(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{GoodPacks: []string{serial(1)}}},
		custody.SwapRequest{FromUserId: s.dana.Id, ToUserId: eve.Id, Good: 1}); err != nil {
		t.Fatalf("swap of a worn pack in flag mode: %v", err)
	}
	if _, err := system.EditStat(app, inventory.Op{Actor: s.admin}, "waiting", 1, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := charging.Start(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{Packs: []string{serial(3)}}}, "5A", 1); err != nil {
		t.Fatalf("charging a worn pack in flag mode: %v", err)
	}
	sound(t, app)
}

// A worn pack returned to the bay (a dropoff, a charge completed to ready) passes in both modes.
func TestWornReturnedToTheBay(t *testing.T) {
	for _, mode := range []string{schema.PackWornFlag, schema.PackWornRefuse} {
		t.Run(mode, func(t *testing.T) {
			s := newSafetyWorld(t, 4)
			app := s.App
			if _, err := inventory.Pickup(app, inventory.Op{Actor: s.dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1), serial(2)}}}, s.dana.Id, 2); err != nil {
				t.Fatal(err)
			}
			if _, err := inventory.Dropoff(app, inventory.Op{Actor: s.dana, Notes: "n", Packs: inventory.PackNames{DeadPacks: []string{serial(3)}}}, s.dana.Id, 0, 0); err == nil {
				t.Log("(a dead pack not held is a discrepancy, not a refusal)")
			}
			if _, err := system.EditStat(app, inventory.Op{Actor: s.admin}, "waiting", 1, 0); err != nil {
				t.Fatal(err)
			}
			sess, _, err := charging.Start(app, inventory.Op{Actor: s.admin, Packs: inventory.PackNames{Packs: []string{serial(3)}}}, "5A", 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 2, 3} {
				markWorn(t, app, serial(n), wornWhy)
			}
			setWornMode(t, app, mode)
			if _, err := inventory.Dropoff(app, inventory.Op{Actor: s.dana, Notes: "n", Packs: inventory.PackNames{GoodPacks: []string{serial(1)}, DeadPacks: []string{serial(2)}}}, s.dana.Id, 1, 1); err != nil {
				t.Fatalf("dropoff of worn packs in %s mode: %v", mode, err)
			}
			if _, _, err := charging.Complete(app, inventory.Op{Actor: s.admin}, sess.Id); err != nil {
				t.Fatalf("completing a charge of a worn pack in %s mode: %v", mode, err)
			}
			for n, want := range map[int]string{1: "ready", 2: "waiting", 3: "ready"} {
				if l := location(t, app, serial(n)); l != want {
					t.Fatalf("%s at %s; want %s", serial(n), l, want)
				}
			}
			sound(t, app)
		})
	}
}

// In required mode a stand-in never takes a worn pack to a person in refuse mode: the records
// follow the counts with a pack in use, and when only worn ones are left the movement is
// refused naming them.
func TestWornNeverStandsInTowardAPerson(t *testing.T) {
	w := fleet(t, 3, schema.PackTrackingRequired)
	app := w.App
	dana := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	eve := testkit.CreateUser(t, app, roles.Driver, roles.Approved)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: dana, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, dana.Id, 1); err != nil {
		t.Fatal(err)
	}
	markWorn(t, app, serial(2), wornWhy)
	markWorn(t, app, serial(3), wornWhy)
	setWornMode(t, app, schema.PackWornRefuse)
	before, packsBefore := ledgertest.Capture(t, app), packsSnapshot(t, app)
	// Eve picks up one battery naming Dana's pack (a scan is a fact: it moves from Dana to Eve);
	// the counts take a battery from ready to Eve, so the records owe Dana a pack from ready —
	// and only worn ones are left there
	_, err := inventory.Pickup(app, inventory.Op{Actor: eve, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, eve.Id, 1)
	if code(err) != apierr.CodePackWorn {
		t.Fatalf("a pickup whose stand-in could only be a worn pack toward a person: %v; want pack_worn", err)
	}
	var de *apierr.Error
	if asErr(err, &de); len(de.Packs) == 0 {
		t.Fatalf("refusal names no pack: %+v", de)
	}
	for _, p := range de.Packs {
		if p.Code != apierr.CodePackWorn || (p.Serial != serial(2) && p.Serial != serial(3)) {
			t.Fatalf("data.packs = %+v; want the worn packs in ready", de.Packs)
		}
	}
	ledgertest.AssertUnchanged(t, app, before)
	if got := packsSnapshot(t, app); got != packsBefore {
		t.Fatalf("the refused pickup changed the packs")
	}
	// in flag mode the worn pack stands in
	setWornMode(t, app, schema.PackWornFlag)
	if _, err := inventory.Pickup(app, inventory.Op{Actor: eve, Notes: "n", Packs: inventory.PackNames{Packs: []string{serial(1)}}}, eve.Id, 1); err != nil {
		t.Fatalf("the same pickup in flag mode: %v", err)
	}
	sound(t, app)
}

// GET /api/packs/out-of-use lists the worn packs (pack_worn, with why) in refuse mode only; an
// out-of-use worn pack keeps its own refusal.
func TestWornInOutOfUseList(t *testing.T) {
	s := newSafetyWorld(t, 4)
	app := s.App
	markWorn(t, app, serial(1), wornWhy)
	markWorn(t, app, serial(3), wornWhy)
	if _, err := packs.SetState(app, serial(2), schema.PackStateRetired, "old", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := packs.SetState(app, serial(3), schema.PackStateQuarantined, "dented", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	read := func() map[string]string {
		body := s.ok(t, s.dana.Id, "GET", "/api/packs/out-of-use", "")
		out := map[string]string{}
		for _, p := range body["packs"].([]any) {
			m := p.(map[string]any)
			out[m["serial"].(string)] = m["code"].(string) + ": " + m["message"].(string)
		}
		return out
	}
	got := read()
	if len(got) != 2 || !strings.HasPrefix(got[serial(2)], apierr.CodePackRetired) || !strings.HasPrefix(got[serial(3)], apierr.CodePackQuarantined) {
		t.Fatalf("out-of-use in flag mode: %v; want only the retired and the quarantined pack", got)
	}
	setWornMode(t, app, schema.PackWornRefuse)
	got = read()
	if len(got) != 3 || got[serial(1)] != apierr.CodePackWorn+": "+wornMsg(serial(1)) || !strings.HasPrefix(got[serial(3)], apierr.CodePackQuarantined) {
		t.Fatalf("out-of-use in refuse mode: %v; want the worn pack with its reason beside the other two", got)
	}
	list, err := packs.OutOfUseList(app)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(list); i++ {
		if list[i-1].Serial >= list[i].Serial {
			t.Fatalf("out-of-use list not by serial: %+v", list)
		}
	}
}

// GET /api/packs?worn=1 lists the worn packs; every row carries worn, wornReason and soh
// (absent when unknown); a bad value is a 400. The attention strip counts worn packs in service.
func TestWornListFilterAndAttention(t *testing.T) {
	s := newSafetyWorld(t, 5)
	app := s.App
	markWorn(t, app, serial(2), wornWhy)
	markWorn(t, app, serial(4), "Lost 4 points of state of health in 30 days")
	markWorn(t, app, serial(5), wornWhy)
	if _, err := packs.SetState(app, serial(5), schema.PackStateRetired, "worn out", s.admin.Id, clock.Now()); err != nil {
		t.Fatal(err)
	}
	body := s.ok(t, s.admin.Id, "GET", "/api/packs?worn=1", "")
	rows := body["packs"].([]any)
	if body["total"] != 3.0 || len(rows) != 3 {
		t.Fatalf("worn=1: total %v, %d rows; want 3", body["total"], len(rows))
	}
	first := rows[0].(map[string]any)
	if first["serial"] != serial(2) || first["worn"] != true || first["wornReason"] != wornWhy || first["soh"] != 72.0 {
		t.Fatalf("worn row: %v; want %s worn, its reason, soh 72", first, serial(2))
	}
	all := s.ok(t, s.admin.Id, "GET", "/api/packs", "")
	plain := all["packs"].([]any)[0].(map[string]any)
	if _, has := plain["soh"]; has || plain["worn"] != false || plain["wornReason"] != "" || all["total"] != 5.0 {
		t.Fatalf("a pack with no health: %v; want worn false, no reason, no soh", plain)
	}
	for _, bad := range []string{"2", "yes", "%00"} {
		if status, out := s.call(t, s.admin.Id, "GET", "/api/packs?worn="+bad, "", ""); status != http.StatusBadRequest {
			t.Fatalf("worn=%s: %d %v; want 400", bad, status, out)
		}
	}
	a, err := activity.AttentionAt(app, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if a.WornPacks != 2 || asMap(t, a)["wornPacks"] != 2.0 {
		t.Fatalf("attention wornPacks = %d; want 2 (the retired one is not in service)", a.WornPacks)
	}
	att := s.ok(t, s.admin.Id, "GET", "/api/admin/attention", "")
	if att["wornPacks"] != 2.0 {
		t.Fatalf("GET /api/admin/attention: %v; want wornPacks 2", att)
	}
}

// The worn mode is flag or refuse, stored lowercase; anything else is a 400 naming the key, on
// the settings route and through the raw door alike, and changes nothing. A plain admin may
// not set it (master only, like the tracking mode).
func TestWornModeSetting(t *testing.T) {
	s := newSafetyWorld(t, 1)
	app := s.App
	master := testkit.CreateUser(t, app, roles.MasterAdmin, roles.Approved)
	s.tokens[master.Id] = testkit.TokenIn(t, app, master)
	stored := func() string {
		var v string
		_ = app.DB().NewQuery("SELECT value FROM settings WHERE key = {:k}").Bind(dbx.Params{"k": schema.SettingPackWornMode}).Row(&v)
		return v
	}
	for _, bad := range []string{`"maybe"`, `"refused"`, `1`, `true`, `"` + strings.Repeat("r", 10000) + `"`, `["refuse"]`, `{"a": 1}`, `1e309`} {
		status, out := s.call(t, master.Id, "POST", "/api/admin/settings", "", `{"settings": [{"key": "pack_worn_mode", "value": `+bad+`}]}`)
		if status != http.StatusBadRequest {
			t.Fatalf("worn mode %.40s: %d %v; want 400", bad, status, out)
		}
		if stored() != "" {
			t.Fatalf("worn mode %.40s stored %q", bad, stored())
		}
	}
	if status, out := s.call(t, s.admin.Id, "POST", "/api/admin/settings", "", `{"settings": [{"key": "pack_worn_mode", "value": "refuse"}]}`); status != http.StatusForbidden {
		t.Fatalf("an admin setting the worn mode: %d %v; want 403", status, out)
	}
	s.ok(t, master.Id, "POST", "/api/admin/settings", `{"settings": [{"key": "pack_worn_mode", "value": "Refuse"}]}`)
	if stored() != schema.PackWornRefuse {
		t.Fatalf("stored %q; want refuse", stored())
	}
	if on, err := journal.WornRefused(app); err != nil || !on {
		t.Fatalf("WornRefused after saving refuse: %v %v", on, err)
	}
	// a blank keeps the stored value
	s.ok(t, master.Id, "POST", "/api/admin/settings", `{"settings": [{"key": "pack_worn_mode", "value": ""}]}`)
	if stored() != schema.PackWornRefuse {
		t.Fatalf("a blank changed the mode to %q", stored())
	}
	s.ok(t, master.Id, "POST", "/api/admin/settings", `{"settings": [{"key": "pack_worn_mode", "value": "flag"}]}`)
	if on, _ := journal.WornRefused(app); on {
		t.Fatal("WornRefused after saving flag")
	}
}
