// Package ledgertest holds the ledger's test helpers: the invariant check every ledger test
// runs after each operation, and the "nothing changed" comparison for refusals.
package ledgertest

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// State is what a refused request must leave untouched.
type State struct {
	Stats     inventory.Snapshot
	Movements int
	Entries   int
	Sessions  int
}

// Capture reads the current State of app.
func Capture(t testing.TB, app core.App) State {
	t.Helper()
	s, err := inventory.Stats(app)
	if err != nil {
		t.Fatal(err)
	}
	return State{Stats: s, Movements: count(t, app, "movements"), Entries: count(t, app, "entries"), Sessions: count(t, app, "charging_sessions")}
}

func count(t testing.TB, app core.App, table string) int {
	var row struct {
		N int `db:"n"`
	}
	if err := app.DB().NewQuery("SELECT COUNT(*) AS n FROM " + table).One(&row); err != nil {
		t.Fatal(err)
	}
	return row.N
}

// brokenBy are the invariants of Violations a query checks: each row it finds breaks the
// invariant, told by format filled with the row's columns in order.
var brokenBy = []struct{ query, format string }{
	{"SELECT key, balance FROM accounts WHERE kind != 'outside' AND balance < 0", "negative balance %s = %s"},
	{"SELECT movement, SUM(delta) AS s FROM entries GROUP BY movement HAVING SUM(delta) != 0", "movement %s entries sum to %s"},
	// entries are summed in one pass over the table, not once per account (the property
	// tests run this every few steps over a growing history)
	{`SELECT a.key, a.balance, COALESCE(e.s, 0) AS s FROM accounts a
		LEFT JOIN (SELECT account, SUM(delta) AS s FROM entries GROUP BY account) e ON e.account = a.id
		WHERE a.balance != COALESCE(e.s, 0)`, "balance %s = %s but entries sum to %s"},
}

// brokenRows runs query and answers a line per row: format filled with its columns.
func brokenRows(app core.App, query, format string) ([]string, error) {
	rows, err := app.DB().NewQuery(query).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		args := make([]any, len(vals))
		for i, v := range vals {
			args[i] = v.String
		}
		out = append(out, fmt.Sprintf(format, args...))
	}
	return out, rows.Err()
}

// Violations lists every broken ledger invariant (empty when the ledger is sound):
// no negative balance except outside; each movement's entries sum to zero; each cached
// balance equals the sum of its entries; the counted pool equals minus outside (all batteries
// came in through outside); each active session's quantity equals its account's balance and
// ended sessions hold nothing.
func Violations(app core.App) ([]string, error) {
	var out []string
	for _, c := range brokenBy {
		lines, err := brokenRows(app, c.query, c.format)
		if err != nil {
			return nil, err
		}
		out = append(out, lines...)
	}
	var orphan struct {
		N int `db:"n"`
	}
	if err := app.DB().NewQuery("SELECT COUNT(*) AS n FROM entries WHERE movement NOT IN (SELECT id FROM movements)").One(&orphan); err != nil {
		return nil, err
	}
	if orphan.N > 0 {
		out = append(out, fmt.Sprintf("%d entries without a movement", orphan.N))
	}
	s, err := inventory.Stats(app)
	if err != nil {
		return nil, err
	}
	outside, err := inventory.FindAccountByKey(app, inventory.KeyOutside)
	if err != nil {
		return nil, err
	}
	if counted := s.Ready + s.Waiting + s.Charging + s.InField + s.Quarantined; counted != -outside.Balance() {
		out = append(out, fmt.Sprintf("counted pool %d != net inflow from outside %d", counted, -outside.Balance()))
	}
	var sess []struct {
		Id       string `db:"id"`
		Status   string `db:"status"`
		Quantity int    `db:"quantity"`
		Balance  int    `db:"balance"`
	}
	if err := app.DB().NewQuery(`SELECT s.id, s.status, s.quantity, COALESCE(a.balance, 0) AS balance
		FROM charging_sessions s LEFT JOIN accounts a ON a.session = s.id`).All(&sess); err != nil {
		return nil, err
	}
	for _, x := range sess {
		if x.Status == schema.SessionStatusActive && x.Quantity != x.Balance {
			out = append(out, fmt.Sprintf("active session %s quantity %d != account %d", x.Id, x.Quantity, x.Balance))
		}
		if x.Status != schema.SessionStatusActive && x.Balance != 0 {
			out = append(out, fmt.Sprintf("%s session %s still holds %d", x.Status, x.Id, x.Balance))
		}
	}
	return out, nil
}

// AssertSound fails t when any ledger invariant is broken.
func AssertSound(t testing.TB, app core.App) {
	t.Helper()
	v, err := Violations(app)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) > 0 {
		t.Fatalf("ledger invariants broken:\n%v", v)
	}
}

// AssertUnchanged fails t when app's State differs from before or the ledger is unsound.
func AssertUnchanged(t testing.TB, app core.App, before State) {
	t.Helper()
	if after := Capture(t, app); after != before {
		t.Fatalf("a refused request changed the state:\nbefore %+v\nafter  %+v", before, after)
	}
	AssertSound(t, app)
}

// Body decodes a JSON response body into a map.
func Body(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("response is not JSON: %v: %s", err, raw)
	}
	return m
}

// Held returns userId's balance in assignmentType (0 when the holding does not exist).
func Held(t testing.TB, app core.App, userId, assignmentType string) int {
	t.Helper()
	acc, err := inventory.FindAccountByKey(app, inventory.HolderKey(userId, assignmentType))
	if err != nil {
		return 0
	}
	return acc.Balance()
}

// MovementsOfType counts movements of type typ.
func MovementsOfType(t testing.TB, app core.App, typ string) int {
	t.Helper()
	var row struct {
		N int `db:"n"`
	}
	if err := app.DB().NewQuery("SELECT COUNT(*) AS n FROM movements WHERE type = {:t}").Bind(dbx.Params{"t": typ}).One(&row); err != nil {
		t.Fatal(err)
	}
	return row.N
}

// Must(v, err)(t) returns v, failing t on err: for seeding with the services' (value, error)
// answers in one line.
func Must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// PickupBy creates a driver on app and records a pickup of held batteries by them, returning
// both (the movement the correction routes' tests edit or delete).
func PickupBy(t testing.TB, app core.App, held int) (*core.Record, *inventory.Movement) {
	t.Helper()
	driver := NewUser(t, app, roles.Driver)
	return driver, Must(inventory.Pickup(app, inventory.Op{Actor: driver}, driver.Id, held))(t)
}

// MintPacks registers n packs SWB-000001… at account location (an account id, "" unknown)
// for tests of the pack ledger.
func MintPacks(t testing.TB, app core.App, n int, location string) []string {
	t.Helper()
	col, err := app.FindCachedCollectionByNameOrId(schema.Packs)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, n)
	for i := 1; i <= n; i++ {
		rec := core.NewRecord(col)
		rec.Set(schema.PackSerial, fmt.Sprintf("SWB-%06d", i))
		rec.Set(schema.PackState, schema.PackStateInService)
		rec.Set(schema.PackLocation, location)
		if err := app.Save(rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec.GetString(schema.PackSerial))
	}
	return out
}

// SetPackTracking stores the pack tracking mode (off, optional, required).
func SetPackTracking(t testing.TB, app core.App, mode string) {
	t.Helper()
	col, err := app.FindCachedCollectionByNameOrId(schema.Settings)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := app.FindFirstRecordByData(schema.Settings, schema.SettingKey, schema.SettingPackTracking)
	if err != nil {
		rec = core.NewRecord(col)
		rec.Set(schema.SettingKey, schema.SettingPackTracking)
	}
	rec.Set(schema.SettingValue, mode)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
}

// PackViolations lists every broken pack invariant (empty when sound): a pack located at an
// account that does not exist, an event of a pack that does not exist, and in required mode
// an account whose packs differ from its balance (DESIGN.md §14). A pack is in one place by
// construction (one location column); the crash and property tests check it did not get lost.
func PackViolations(app core.App) ([]string, error) {
	var out []string
	var rows []struct {
		Serial string `db:"serial"`
		Loc    string `db:"location"`
	}
	if err := app.DB().NewQuery("SELECT serial, location FROM packs WHERE location != '' AND location NOT IN (SELECT id FROM accounts)").All(&rows); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out = append(out, fmt.Sprintf("pack %s at missing account %s", r.Serial, r.Loc))
	}
	var orphans int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM pack_events WHERE pack NOT IN (SELECT id FROM packs)").Row(&orphans); err != nil {
		return nil, err
	}
	if orphans > 0 {
		out = append(out, fmt.Sprintf("%d pack events of no pack", orphans))
	}
	var mode string
	_ = app.DB().NewQuery("SELECT value FROM settings WHERE key = {:k}").Bind(dbx.Params{"k": schema.SettingPackTracking}).Row(&mode)
	if mode != schema.PackTrackingRequired {
		return out, nil
	}
	var diff []struct {
		Key     string `db:"key"`
		Balance int    `db:"balance"`
		Packs   int    `db:"packs"`
	}
	if err := app.DB().NewQuery(`SELECT a.key, a.balance, COUNT(p.id) AS packs FROM accounts a LEFT JOIN packs p ON p.location = a.id
		WHERE a.kind != 'outside' GROUP BY a.id HAVING COUNT(p.id) != a.balance`).All(&diff); err != nil {
		return nil, err
	}
	for _, d := range diff {
		out = append(out, fmt.Sprintf("%s holds %d batteries but %d packs", d.Key, d.Balance, d.Packs))
	}
	return out, nil
}
