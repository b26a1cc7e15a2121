package inventory

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
	"swapbay/modules/journal"
)

// Targets are the figures a stat edit or an emergency override sets; nil leaves one as is.
type Targets struct {
	Ready, Waiting, Charging, InField *int
}

// Adjust writes one adjustment movement that brings ready, waiting, charging and inField to
// the targets: ready and waiting directly, charging through the untracked account and
// inField through the unassigned holder, with outside taking the other side. Charging and
// inField cannot go below what tracked sessions and holders hold (ErrConflict). Returns nil
// when nothing changes. Call inside a transaction (txutil.Require refuses otherwise); the
// caller validates the targets (0 to reqx.MaxFleet) and publishes. A damaged balance (see
// repairDamaged) is rebuilt from its entries first, so the emergency override works even then.
func Adjust(txApp core.App, op Op, t Targets, label string) (*Movement, error) {
	if err := txutil.Require(txApp, "inventory.Adjust"); err != nil {
		return nil, err
	}
	if err := repairDamaged(txApp); err != nil {
		return nil, err
	}
	by, _, err := kindSums(txApp)
	if err != nil {
		return nil, err
	}
	outside, err := SystemAccount(txApp, KeyOutside)
	if err != nil {
		return nil, err
	}
	var legs []Leg
	var changes []string
	net := 0
	set := func(name string, target *int, key string, current, floor int, floorMsg string) error {
		if target == nil || *target == current {
			return nil
		}
		if *target < floor {
			return apierr.Conflict(fmt.Sprintf(floorMsg, floor))
		}
		acc, err := SystemAccount(txApp, key)
		if err != nil {
			return err
		}
		d := *target - current
		legs = append(legs, Leg{From: outside.Ref(), To: acc.Ref(), Qty: d})
		changes = append(changes, fmt.Sprintf("%s %d → %d", name, current, *target))
		net += d
		return nil
	}
	tracked := by[schema.AccountKindSession]
	held := by[schema.AccountKindHolder]
	if err := set("ready", t.Ready, KeyReady, by[schema.AccountKindReady], 0, ""); err != nil {
		return nil, err
	}
	if err := set("waiting", t.Waiting, KeyWaiting, by[schema.AccountKindWaiting], 0, ""); err != nil {
		return nil, err
	}
	if err := set("charging", t.Charging, KeyUntracked, tracked+by[schema.AccountKindUntracked], tracked,
		"Charging cannot be set below %d: that many batteries are in active charging sessions. Change the sessions instead."); err != nil {
		return nil, err
	}
	if err := set("inField", t.InField, KeyUnassigned, held+by[schema.AccountKindUnassigned], held,
		"In Field cannot be set below %d: that many batteries are held by drivers. Delete or change their assignments instead."); err != nil {
		return nil, err
	}
	if len(legs) == 0 {
		return nil, nil
	}
	// in required mode a count changes only with its packs (a stocktake)
	if err := journal.RequireCounted(txApp); err != nil {
		return nil, err
	}
	notes := label + ": " + strings.Join(changes, ", ")
	if op.Notes != "" {
		notes += " - " + op.Notes
	}
	return Post(txApp, Posting{
		Type: TypeAdjustment, Quantity: net, Notes: notes, UserId: op.ActorId(), ActorId: op.ActorId(),
		At: op.when(), Meta: map[string]any{MetaKind: label},
		Legs: legs,
	})
}

// repairDamaged rebuilds from its entries every cached balance that is not an integer
// within ±MaxBalance (written behind the ledger's back: the tables refuse such values since
// migration 1764000000), without reading the damaged figure.
func repairDamaged(txApp core.App) error {
	_, err := txApp.DB().NewQuery(repairSQL).Bind(dbx.Params{"max": MaxBalance}).Execute()
	return err
}

// The balance queries name the entries' index: with statistics from when the table was small
// (PocketBase runs PRAGMA optimize after its migrations, when entries holds a few rows)
// SQLite chose a full scan of entries per account, and the recalculation of a restored large
// ledger ran for minutes (BENCHMARKS.md, replication).
const (
	repairSQL = `UPDATE ` + schema.Accounts + `
		SET balance = COALESCE((SELECT SUM(e.delta) FROM ` + schema.Entries + ` e INDEXED BY ` + schema.IdxEntriesAccount + ` WHERE e.account = accounts.id), 0)
		WHERE typeof(balance) != 'integer' OR balance NOT BETWEEN -{:max} AND {:max}`
	// recalcSQL reads the cached balance as text and compares it in SQL, so a damaged one (a
	// float, a huge value written behind the ledger's back) cannot stop its own repair
	recalcSQL = `SELECT id, key, kind, user, assignmentType, shown, s FROM (
			SELECT a.id, a.key, a.kind, a.user, a.assignmentType, CAST(a.balance AS TEXT) AS shown,
				typeof(a.balance) AS t, a.balance AS b,
				COALESCE((SELECT SUM(e.delta) FROM ` + schema.Entries + ` e INDEXED BY ` + schema.IdxEntriesAccount + ` WHERE e.account = a.id), 0) AS s
			FROM ` + schema.Accounts + ` a)
			WHERE t != 'integer' OR b != s ORDER BY key`
)

// Recalculation is the outcome of rebuilding balances from the entries.
type Recalculation struct {
	After       Snapshot `json:"after"`
	Corrections []string `json:"corrections"`
	// PackCorrections are the pack records' differences from the balances (journal.Check):
	// empty on a clean ledger.
	PackCorrections []string `json:"packCorrections"`
}

// Recalculate rebuilds every cached balance from SUM(entries) of its account (the sessions'
// quantities follow in the same transaction: system.Recalculate calls charging.SyncQuantities). Corrections lists what changed ("ready: 10 → 12");
// outside an emergency it is empty, and anything else is a bug.
func Recalculate(app core.App) (Recalculation, error) {
	var out Recalculation
	err := app.RunInTransaction(func(txApp core.App) error {
		var rows []struct {
			Id    string `db:"id"`
			Key   string `db:"key"`
			Kind  string `db:"kind"`
			User  string `db:"user"`
			Type  string `db:"assignmentType"`
			Shown string `db:"shown"`
			Sum   int    `db:"s"`
		}
		err := txApp.DB().NewQuery(recalcSQL).All(&rows)
		if err != nil {
			return err
		}
		out.Corrections = []string{}
		for _, r := range rows {
			name := r.Key
			switch r.Kind {
			case schema.AccountKindHolder:
				label := r.User
				if u, err := txApp.FindRecordById(schema.Users, r.User); err == nil {
					label = DisplayName(u)
				}
				name = fmt.Sprintf("inField (%s, %s)", label, r.Type)
			case schema.AccountKindSession:
				name = "charging (" + r.Key + ")"
			case schema.AccountKindUntracked:
				name = "charging (untracked)"
			case schema.AccountKindUnassigned:
				name = "inField (unassigned)"
			}
			out.Corrections = append(out.Corrections, fmt.Sprintf("%s: %s → %d", name, r.Shown, r.Sum))
			if _, err := txApp.DB().Update(schema.Accounts, dbx.Params{schema.AccountBalance: r.Sum}, dbx.HashExp{"id": r.Id}).Execute(); err != nil {
				return err
			}
		}
		if out.PackCorrections, err = journal.Check(txApp); err != nil {
			return err
		}
		if out.After, err = Stats(txApp); err != nil {
			return err
		}
		events.Publish(txApp, events.EmergencyOverride, events.InventoryUpdated, events.ChargingUpdated)
		return nil
	})
	return out, err
}

// WipeResult reports a history wipe.
type WipeResult struct {
	Deleted    int       `json:"deleted"`
	Checkpoint *Movement `json:"checkpoint"`
}

// CountBefore is how many movements occurred before cut (what Wipe would fold away).
func CountBefore(app core.App, cut time.Time) (int, error) {
	dt, err := types.ParseDateTime(cut.UTC())
	if err != nil {
		return 0, err
	}
	var n struct {
		N int `db:"n"`
	}
	err = app.DB().NewQuery("SELECT COUNT(*) AS n FROM " + schema.Movements + " WHERE occurredAt < {:cut}").Bind(dbx.Params{"cut": dt.String()}).One(&n)
	return n.N, err
}

// Wipe deletes every movement that occurred before cut and folds them into one checkpoint
// movement whose entries are their net per account, so the balances still equal the sum of
// the entries. Call inside a transaction (txutil.Require refuses otherwise); the caller publishes.
func Wipe(txApp core.App, op Op, cut time.Time, label string) (WipeResult, error) {
	if err := txutil.Require(txApp, "inventory.Wipe"); err != nil {
		return WipeResult{}, err
	}
	cutStr := types.NowDateTime().String()
	if dt, err := types.ParseDateTime(cut.UTC()); err == nil {
		cutStr = dt.String()
	}
	var res WipeResult
	var count struct {
		N int `db:"n"`
	}
	if err := txApp.DB().NewQuery("SELECT COUNT(*) AS n FROM " + schema.Movements + " WHERE occurredAt < {:cut}").Bind(dbx.Params{"cut": cutStr}).One(&count); err != nil {
		return res, err
	}
	if count.N == 0 {
		return res, nil
	}
	res.Deleted = count.N
	var nets []struct {
		Account string `db:"account"`
		Sum     int    `db:"s"`
	}
	oldSQL := "SELECT id FROM " + schema.Movements + " WHERE occurredAt < {:cut}"
	if err := txApp.DB().NewQuery("SELECT account, SUM(delta) AS s FROM " + schema.Entries + " WHERE movement IN (" + oldSQL + ") GROUP BY account").
		Bind(dbx.Params{"cut": cutStr}).All(&nets); err != nil {
		return res, err
	}
	if err := deleteMovements(txApp, "occurredAt < {:cut}", dbx.Params{"cut": cutStr}); err != nil {
		return res, err
	}
	deltas := map[string]int{}
	outside, err := SystemAccount(txApp, KeyOutside)
	if err != nil {
		return res, err
	}
	for _, n := range nets {
		deltas[n.Account] = n.Sum
	}
	rec, err := records.New(txApp, schema.Movements)
	if err != nil {
		return res, err
	}
	setMovementFields(rec, Posting{
		Type: TypeAdjustment, Quantity: -deltas[outside.Id], Checkpoint: true, ActorId: op.ActorId(),
		Notes: fmt.Sprintf("%s: %d movements folded into this checkpoint", label, count.N),
		At:    cut.Add(-time.Millisecond), Meta: map[string]any{MetaKind: "wipe_checkpoint", "folded": count.N},
	})
	if err := insertMovement(txApp, rec); err != nil {
		return res, err
	}
	if err := writeEntries(txApp, rec.Id, deltas); err != nil {
		return res, err
	}
	res.Checkpoint = &Movement{rec}
	return res, nil
}

// CleanSlate removes every movement, entry and holder/session account (the sessions
// themselves go in the same transaction: system.CleanSlate calls charging.DeleteAll),
// then opens the ledger again with total batteries ready (one checkpoint movement from
// outside). Call inside a transaction (txutil.Require refuses otherwise); the caller publishes.
func CleanSlate(txApp core.App, op Op, total int) (*Movement, error) {
	if err := txutil.Require(txApp, "inventory.CleanSlate"); err != nil {
		return nil, err
	}
	// in required mode every count names its packs: a bay starts again with a stocktake
	if err := journal.RequireCounted(txApp); err != nil {
		return nil, err
	}
	if err := deleteMovements(txApp, "", nil); err != nil {
		return nil, err
	}
	for _, q := range []string{
		"DELETE FROM " + schema.Accounts + " WHERE kind IN ('holder', 'session')",
		"UPDATE " + schema.Accounts + " SET balance = 0",
	} {
		if _, err := txApp.DB().NewQuery(q).Execute(); err != nil {
			return nil, err
		}
	}
	// the packs the records had with a person or on a charger lost their place with it
	if _, err := journal.Unplace(txApp, "Clean slate", op.ActorId(), op.when()); err != nil {
		return nil, err
	}
	outside, err := SystemAccount(txApp, KeyOutside)
	if err != nil {
		return nil, err
	}
	ready, err := SystemAccount(txApp, KeyReady)
	if err != nil {
		return nil, err
	}
	return Post(txApp, Posting{
		Type: TypeAdjustment, Quantity: total, Checkpoint: true, ActorId: op.ActorId(), At: op.when(),
		Notes: fmt.Sprintf("Clean slate: %d batteries ready", total), Meta: map[string]any{MetaKind: "clean_slate"},
		Legs: []Leg{{From: outside.Ref(), To: ready.Ref(), Qty: total}},
	})
}
