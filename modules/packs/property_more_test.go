package packs_test

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/pocketbase/dbx"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/journal"
	"swapbay/modules/system"
)

// The property test's other writes (issue 42): every battery-moving write and count edit the
// routes take besides pickups, dropoffs, swaps, assignments and charging starts — state
// changes, damage reports, recalls, exchanges, dead transfers, session quantities and deletes,
// stat edits, the override, the clean slate, back-dated and early-keyed actions — and the
// invariant they all keep: a pack out of use moves only toward quarantine.

// packPlace is a pack's place and use before a step.
type packPlace struct {
	location, kind, user string
	outOfUse             bool
}

// places reads every pack's place and whether it is out of use.
func (w *packWorld) places() map[string]packPlace {
	var rows []struct {
		Serial string `db:"serial"`
		State  string `db:"state"`
		Before string `db:"stateBefore"`
		Loc    string `db:"location"`
		Kind   string `db:"kind"`
		User   string `db:"user"`
	}
	if err := w.app.DB().NewQuery("SELECT p.serial, p.state, p.stateBefore, p.location, COALESCE(a.kind, '') AS kind, COALESCE(a.user, '') AS user FROM packs p LEFT JOIN accounts a ON a.id = p.location").All(&rows); err != nil {
		w.t.Fatal(err)
	}
	out := make(map[string]packPlace, len(rows))
	for _, r := range rows {
		out[r.Serial] = packPlace{location: r.Loc, kind: r.Kind, user: r.User, outOfUse: journal.OutOfUse(r.State, r.Before)}
	}
	return out
}

// outOfUseMoves lists the packs out of use after a step that moved anywhere but quarantine
// (or the unknown, or another holding of the same person) during it: the rule every route
// keeps.
func outOfUseMoves(before, after map[string]packPlace) []string {
	var out []string
	for serial, a := range after {
		b := before[serial]
		if !a.outOfUse || a.location == b.location || a.location == "" || a.kind == schema.AccountKindQuarantine {
			continue
		}
		if a.kind == schema.AccountKindHolder && b.kind == schema.AccountKindHolder && a.user == b.user {
			continue // the records' split of one driver's holdings
		}
		out = append(out, fmt.Sprintf("%s (out of use) moved from %s to %s", serial, b.kind, a.kind))
	}
	return out
}

// stateChange sends an admin's state change of a random pack to a state the table allows.
func (w *packWorld) stateChange() (int, bool) {
	serial := fmt.Sprintf("SWB-%06d", 1+w.rng.Intn(38)) // 39 and 40 stay quarantined (badNames)
	var state string
	if err := w.app.DB().NewQuery("SELECT state FROM packs WHERE serial = {:s}").Bind(dbx.Params{"s": serial}).Row(&state); err != nil {
		w.t.Fatal(err)
	}
	next := journal.Transitions[state]
	if len(next) == 0 {
		return 0, true
	}
	to := next[w.rng.Intn(len(next))]
	status, _ := w.keyed(w.admin.Id, "PUT", "/api/admin/packs/"+serial+"/state", fmt.Sprintf(`{"state": %q, "reason": "property"}`, to))
	if status != http.StatusOK {
		w.t.Fatalf("state change %s %s → %s: %d", serial, state, to, status)
	}
	return status, true
}

// damage reports damage on a random pack as the admin.
func (w *packWorld) damage() (int, bool) {
	serial := fmt.Sprintf("SWB-%06d", 1+w.rng.Intn(40))
	status, _ := w.keyed(w.admin.Id, "POST", "/api/packs/"+serial+"/damage", `{"note": "property"}`)
	return status, true
}

// recall recalls one of the lots the test set (runPackSequence): L-1 is SWB-000001…5.
func (w *packWorld) recall() (int, bool) {
	lot := []string{"L-1", "L-2"}[w.rng.Intn(2)]
	status, _ := w.keyed(w.admin.Id, "POST", "/api/admin/packs/recall", fmt.Sprintf(`{"by": "lot", "value": %q, "reason": "property"}`, lot))
	return status, true
}

// exchange swaps packs from one driver to another and back (an exchange's return).
func (w *packWorld) exchange() (int, bool) {
	from, to := w.driver(), w.driver()
	if from.Id == to.Id {
		return 0, true
	}
	out, back := w.heldPacks(from.Id, 1), w.heldPacks(to.Id, 1)
	if len(out) == 0 || len(back) == 0 {
		return 0, true
	}
	status, _ := w.keyed(w.admin.Id, "POST", "/api/admin/driver-swap", fmt.Sprintf(`{"fromUserId": %q, "toUserId": %q, "goodBatteries": 1, "deadBatteries": 0, "goodPacks": %s, `+
		`"isExchange": true, "returnGoodBatteries": 0, "returnDeadBatteries": 1, "returnDeadPacks": %s}`, from.Id, to.Id, jsonList(w.misread(out)), jsonList(back)))
	return status, true
}

// deadTransfer moves a dead pack from one driver to another.
func (w *packWorld) deadTransfer() (int, bool) {
	from, to := w.driver(), w.driver()
	list := w.heldPacks(from.Id, 1)
	if from.Id == to.Id || len(list) == 0 {
		return 0, true
	}
	status, _ := w.keyed(w.admin.Id, "POST", "/api/admin/dead-battery-transfer",
		fmt.Sprintf(`{"fromUserId": %q, "toUserId": %q, "deadBatteries": 1, "packs": %s}`, from.Id, to.Id, jsonList(list)))
	return status, true
}

// sessionChange lowers an active session by one (its pack to ready or waiting) or deletes it.
func (w *packWorld) sessionChange() (int, bool) {
	var rows []struct {
		Id  string `db:"id"`
		Qty int    `db:"quantity"`
	}
	if err := w.app.DB().NewQuery("SELECT id, quantity FROM charging_sessions WHERE status = 'active'").All(&rows); err != nil || len(rows) == 0 {
		return 0, true
	}
	s := rows[w.rng.Intn(len(rows))]
	if w.rng.Intn(3) == 0 || s.Qty < 1 {
		status, _ := w.keyed(w.admin.Id, "DELETE", "/api/admin/charging-sessions/"+s.Id, "")
		return status, true
	}
	list := w.packsAt(inventory.SessionKey(s.Id), 1)
	dest := []string{"ready", "waiting"}[w.rng.Intn(2)]
	status, _ := w.keyed(w.admin.Id, "PATCH", "/api/admin/charging-sessions/"+s.Id+"/quantity",
		fmt.Sprintf(`{"quantity": %d, "destination": %q, "packs": %s}`, s.Qty-1, dest, jsonList(list)))
	return status, true
}

// countEdit edits a figure or overrides the counts: refused pack_count in required mode (a
// stocktake names the packs), applied in optional mode.
func (w *packWorld) countEdit() (int, bool) {
	st, err := inventory.Stats(w.app)
	if err != nil {
		w.t.Fatal(err)
	}
	var status int
	var out map[string]any
	switch w.rng.Intn(3) {
	case 0:
		status, out = w.keyed(w.admin.Id, "POST", "/api/admin/update-stats", fmt.Sprintf(`{"stat": "waiting", "value": %d, "from": %d}`, st.Waiting+1, st.Waiting))
	case 1:
		status, out = w.keyed(w.admin.Id, "POST", "/api/admin/emergency-override",
			fmt.Sprintf(`{"ready": %d, "waiting": %d, "charging": %d, "total": %d}`, st.Ready, st.Waiting+1, st.Charging, st.Total+1))
	default:
		// the clean slate (master only: called as the service), in required mode only (in
		// optional mode it would empty the world)
		if w.mode != schema.PackTrackingRequired {
			return 0, true
		}
		if _, err := system.CleanSlate(w.app, inventory.Op{Actor: w.admin}); code(err) != apierr.CodePackCount {
			w.t.Fatalf("clean slate in required mode: %v; want pack_count", err)
		}
		return http.StatusConflict, true
	}
	if w.mode == schema.PackTrackingRequired && (status != http.StatusConflict || out["code"] != apierr.CodePackCount) {
		w.t.Fatalf("count edit in required mode: %d %v; want 409 pack_count", status, out)
	}
	return status, true
}

// keyMinted is a UUIDv7 Idempotency-Key minted at at (its first 48 bits are at's Unix
// milliseconds), as a phone mints one at the tap.
func keyMinted(at time.Time, n int) string {
	b := make([]byte, 16)
	ms := at.UnixMilli()
	for i := 5; i >= 0; i-- {
		b[i] = byte(ms)
		ms >>= 8
	}
	b[6], b[7] = 0x70, byte(n>>8)
	b[8], b[9] = 0x80, byte(n)
	for i := 10; i < 16; i++ {
		b[i] = byte(n * i)
	}
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// backdated sends a pickup naming no pack with occurredAt an hour ago: with a fresh key it is
// judged by the mode (refused in required mode), with a key minted before the mode was set it
// earns the offline grace (and the records still match the counts).
func (w *packWorld) backdated() (int, bool) {
	d := w.driver()
	body := fmt.Sprintf(`{"quantity": 1, "notes": "n", "occurredAt": %q}`, clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339))
	w.keys++
	early := w.rng.Intn(2) == 0
	key := keyMinted(clock.Now(), w.keys)
	if early {
		key = keyMinted(w.modeSet.Add(-time.Minute), w.keys)
	}
	status, out, _ := w.send(d.Id, "POST", "/api/driver/pickup", key, body)
	if w.mode == schema.PackTrackingRequired && !early && (status != http.StatusBadRequest || out["code"] != apierr.CodePackCount) {
		w.t.Fatalf("back-dated pickup without packs in required mode: %d %v; want 400 pack_count", status, out)
	}
	if status == http.StatusOK {
		w.sent = append(w.sent, sentRequest{d.Id, "POST", "/api/driver/pickup", key, body})
	}
	return status, true
}
