package inventory

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/ids"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/lib/txutil"
)

// Op describes who records an operation and when. Seed data passes a past At to write
// history; handlers pass the signed-in user and leave At zero (now).
type Op struct {
	Actor *core.Record // who records it; nil for system operations
	At    time.Time    // when it happened; zero means now
	Notes string       // free text; services clean and check it with CleanNotes
	// NotesRequired, when set, is the message refusing blank notes (forms that require them).
	NotesRequired string
	// Packs are the packs the request named (DESIGN.md §14); each write says which share of
	// its batteries each list carries.
	Packs PackNames
	// KeyAt is when the request's Idempotency-Key (a UUIDv7) was minted (zero: not keyed):
	// an offline action keyed before required tracking was switched on is judged optional.
	KeyAt time.Time
	// Stats, when set, receives the figures as of the commit: services read them inside
	// their transaction (Capture), so an answer built from them cannot fail after the commit.
	Stats *Snapshot
}

// CleanNotes strips control characters and bidi overrides from op.Notes and checks their
// length (reqx.Notes); blank notes are refused with op.NotesRequired when it is set.
func (op *Op) CleanNotes() error {
	notes, err := reqx.Notes("notes", op.Notes, op.NotesRequired)
	if err != nil {
		return err
	}
	op.Notes = notes
	return nil
}

// Capture fills op.Stats (when set) with the figures read inside txApp's transaction; call
// it last in the transaction.
func (op Op) Capture(txApp core.App) error {
	if op.Stats == nil {
		return nil
	}
	s, err := Stats(txApp)
	if err != nil {
		return err
	}
	*op.Stats = s
	return nil
}

// when returns op.At, or now when unset.
func (op Op) when() time.Time {
	if op.At.IsZero() {
		return clock.Now().UTC()
	}
	return op.At.UTC()
}

// ActorId returns the actor's id ("" for system operations).
func (op Op) ActorId() string {
	if op.Actor == nil {
		return ""
	}
	return op.Actor.Id
}

// Posting is one movement to write: its display fields and its entries as account deltas.
// Post aggregates deltas per account, so legs may name an account more than once.
type Posting struct {
	Type        string
	Quantity    int
	Notes       string
	UserId      string
	ActorId     string
	Good, Dead  int
	Discrepancy bool
	SessionId   string
	Meta        map[string]any
	Checkpoint  bool
	At          time.Time
	Legs        []Leg
	// Packs are the packs named for shares of the batteries (DESIGN.md §14), written with
	// the movement by the pack journal.
	Packs []PackGroup
	// KeyAt is when the request's Idempotency-Key was minted (Op.KeyAt).
	KeyAt time.Time
}

// Leg moves Qty batteries from account From to account To.
type Leg struct {
	From, To AccountRef
	Qty      int
}

// Post writes p as a movement with its balanced entries and updates the cached balances,
// all inside txApp's transaction. Any non-outside balance that would go below zero refuses
// the whole posting with apierr.ErrNotEnough. Call it only inside RunInTransaction (txutil.Require
// refuses otherwise).
func Post(txApp core.App, p Posting) (*Movement, error) {
	if err := txutil.Require(txApp, "inventory.Post"); err != nil {
		return nil, err
	}
	plan, legs, err := preparePacks(txApp, p.KeyAt, p.Packs, p.Legs, nil)
	if err != nil {
		return nil, err
	}
	deltas := map[string]int{}
	for _, l := range legs {
		if l.Qty == 0 {
			continue
		}
		deltas[l.From.Id] -= l.Qty
		deltas[l.To.Id] += l.Qty
	}
	if err := ApplyDeltas(txApp, deltas); err != nil {
		return nil, err
	}

	rec, err := records.New(txApp, schema.Movements)
	if err != nil {
		return nil, err
	}
	rec.Id = ids.New()
	setMovementFields(rec, p)
	if err := applyPacks(txApp, rec, plan, deltas, p.KeyAt); err != nil {
		return nil, err
	}
	if err := insertMovement(txApp, rec); err != nil {
		return nil, fmt.Errorf("save movement: %w", err)
	}
	if err := writeEntries(txApp, rec.Id, deltas); err != nil {
		return nil, err
	}
	return &Movement{rec}, nil
}

func setMovementFields(rec *core.Record, p Posting) {
	at := p.At
	if at.IsZero() {
		at = clock.Now().UTC()
	}
	rec.Set(schema.MovementType, p.Type)
	rec.Set(schema.MovementQuantity, p.Quantity)
	rec.Set(schema.MovementNotes, p.Notes)
	rec.Set(schema.MovementUser, p.UserId)
	rec.Set(schema.MovementActor, p.ActorId)
	rec.Set(schema.MovementGood, p.Good)
	rec.Set(schema.MovementDead, p.Dead)
	rec.Set(schema.MovementDiscrepancy, p.Discrepancy)
	rec.Set(schema.MovementSession, p.SessionId)
	if p.Meta != nil {
		rec.Set(schema.MovementMeta, p.Meta)
	}
	rec.Set(schema.MovementCheckpoint, p.Checkpoint)
	rec.Set(schema.MovementOccurredAt, at)
}

// MaxBalance bounds every cached balance and entry delta (either sign): far above any real
// fleet (reqx.MaxFleet), far below where SQLite's integer arithmetic overflows into floating
// point. The accounts and entries tables refuse anything else (migration 1764000000).
const MaxBalance = 1_000_000_000

// Refusals shared by the ledger's operations and the modules that plan with balances
// (formats for fmt.Sprintf).
const (
	MsgOnlyReady       = "Not enough batteries: only %d ready"
	MsgOnlyWaiting     = "Not enough batteries: only %d waiting"
	MsgCannotGive      = "%s only has %d batteries, cannot give %d" // holder name, held, asked
	msgAccountNotFound = "Account not found"
)

// Refusals of ApplyDeltas beyond "not enough".
const (
	MsgBalanceLimit   = "That would put more batteries in one place than the system can count"
	MsgBalanceDamaged = "A battery count is damaged: recalculate the inventory to repair it"
)

// balanceUpdate adds {:d} to account {:id}'s balance unless the result leaves its bounds
// (ApplyDeltas); it changes one row or none. One statement per account, not one for all
// of them: an UPDATE with an IN list and RETURNING made SQLite open a temporary table for
// each, held in the write lock (figures: BENCHMARKS.md, measured decisions).
const balanceUpdate = "UPDATE " + schema.Accounts + " SET balance = balance + {:d}, updated = {:now} " +
	"WHERE id = {:id} AND typeof(balance) = 'integer' AND balance + {:d} BETWEEN -{:max} AND {:max} " +
	"AND (kind = {:outside} OR balance + {:d} >= 0)"

// ApplyDeltas adds each delta to its account's cached balance. The deltas are checked in Go
// (each within ±MaxBalance, summing to zero) and a conditional UPDATE per account guards the
// result in SQL: the stored balance must be an integer and stay within ±MaxBalance, and every
// account except outside at zero or above. Decreases go first, and the first account that
// fails refuses with ErrNotEnough (or MsgBalanceLimit / MsgBalanceDamaged); the caller's
// transaction then rolls back.
// Call inside a transaction (txutil.Require refuses otherwise).
func ApplyDeltas(txApp core.App, deltas map[string]int) error {
	if err := txutil.Require(txApp, "inventory.ApplyDeltas"); err != nil {
		return err
	}
	sum := 0

	for _, d := range deltas {
		if d < -MaxBalance || d > MaxBalance {
			return apierr.Conflict(MsgBalanceLimit)
		}
		sum += d
	}
	if sum != 0 {
		return fmt.Errorf("unbalanced deltas: sum %d", sum)
	}
	// decreases first, so a refusal is explained by the first account that cannot give
	ids := make([]string, 0, len(deltas))
	for _, id := range slices.Sorted(maps.Keys(deltas)) {
		if deltas[id] != 0 {
			ids = append(ids, id)
		}
	}
	sort.SliceStable(ids, func(i, j int) bool { return deltas[ids[i]] < deltas[ids[j]] })
	params := dbx.Params{"now": types.NowDateTime().String(), "outside": schema.AccountKindOutside, "max": MaxBalance}
	for _, id := range ids {
		params["id"], params["d"] = id, deltas[id]
		n, err := sqlitedb.ExecAffected(txApp.DB(), balanceUpdate, params)
		if err != nil {
			return fmt.Errorf("update balances: %w", err)
		}
		if n == 0 { // the row kept its balance (the caller's transaction rolls the others back)
			return refusal(txApp, id, deltas[id])
		}
	}
	return nil
}

// refusal explains why adding d to account id was refused.
func refusal(txApp core.App, id string, d int) error {
	var row struct {
		Type string `db:"t"`
	}
	if err := txApp.DB().NewQuery("SELECT typeof(balance) AS t FROM " + schema.Accounts + " WHERE id = {:id}").
		Bind(dbx.Params{"id": id}).One(&row); err != nil {
		return apierr.NotFound(msgAccountNotFound)
	}
	if row.Type != "integer" {
		return apierr.Conflict(MsgBalanceDamaged)
	}
	acc, err := FindAccount(txApp, id)
	if err != nil {
		return err
	}
	if b := acc.Balance() + d; b > MaxBalance || b < -MaxBalance {
		return apierr.Conflict(MsgBalanceLimit)
	}
	return shortMessage(txApp, acc, -d)
}

// shortMessage is the generic refusal when acc cannot give need batteries.
func shortMessage(app core.App, acc *Account, need int) error {
	have := acc.Balance()
	switch acc.Kind() {
	case schema.AccountKindReady:
		return apierr.NotEnoughOf(apierr.CodeNotEnoughReady, fmt.Sprintf(MsgOnlyReady, have))
	case schema.AccountKindWaiting:
		return apierr.NotEnoughOf(apierr.CodeNotEnoughWaiting, fmt.Sprintf(MsgOnlyWaiting, have))
	case schema.AccountKindHolder:
		return apierr.NotEnoughOf(apierr.CodeInsufficientHoldings, fmt.Sprintf(MsgCannotGive, accountLabel(app, acc), have, need))
	case schema.AccountKindSession:
		return apierr.NotEnough(fmt.Sprintf("Not enough batteries: the charging session only has %d", have))
	case schema.AccountKindUntracked:
		return apierr.NotEnough(fmt.Sprintf("Not enough batteries: only %d charging outside tracked sessions", have))
	case schema.AccountKindUnassigned:
		return apierr.NotEnough(fmt.Sprintf("Not enough batteries: only %d in the field without a holder", have))
	}
	return apierr.NotEnough(fmt.Sprintf("Not enough batteries: only %d", have))
}

// SystemAccount returns one of the five system accounts (KeyReady, KeyWaiting, …).
func SystemAccount(app core.App, key string) (*Account, error) {
	acc, err := FindAccountByKey(app, key)
	if err != nil {
		return nil, fmt.Errorf("system account %q missing: %w", key, err)
	}
	return acc, nil
}

// systemAccountIds is where an app keeps the ids of its system accounts (app.Store()): they
// are made by the first migration and never deleted (clean slate and history wipes delete
// holder and session accounts only), so a write looks them up once per process.
const systemAccountIds = "inventory.systemAccountIds"

// accountRef returns a reference to system account key for a posting's legs, from the app's
// cache after the first lookup. The guarded balance update refuses what the account cannot
// give; use SystemAccount to read its balance.
func accountRef(txApp core.App, key string) (AccountRef, error) {
	ids := txApp.Store().GetOrSet(systemAccountIds, func() any { return &sync.Map{} }).(*sync.Map)
	if ref, ok := ids.Load(key); ok {
		return ref.(AccountRef), nil
	}
	acc, err := SystemAccount(txApp, key)
	if err != nil {
		return AccountRef{}, err
	}
	ref := acc.Ref()
	ids.Store(key, ref)
	return ref, nil
}

// holderRef returns a reference to userId's holding of assignmentType for a posting's legs
// (as accountRef does for system accounts): one indexed lookup of its id, the account created
// (HolderAccount) when missing.
// Call inside a transaction (txutil.Require refuses otherwise).
func holderRef(txApp core.App, userId, assignmentType string) (AccountRef, error) {
	if err := txutil.Require(txApp, "inventory.holderRef"); err != nil {
		return AccountRef{}, err
	}
	key := HolderKey(userId, assignmentType)
	var id string
	err := sqlitedb.Query(txApp.DB(), "SELECT id FROM "+schema.Accounts+" WHERE key = {:key}", dbx.Params{"key": key},
		func(scan func(...any) error) error { return scan(&id) })
	if err != nil {
		return AccountRef{}, err
	}
	if id == "" {
		acc, err := HolderAccount(txApp, userId, assignmentType)
		if err != nil {
			return AccountRef{}, err
		}
		return acc.Ref(), nil
	}
	return AccountRef{Id: id, Key: key, Kind: schema.AccountKindHolder}, nil
}

// HolderAccount returns userId's holding of assignmentType, creating it (empty) if needed.
// Call inside a transaction (txutil.Require refuses otherwise).
func HolderAccount(txApp core.App, userId, assignmentType string) (*Account, error) {
	if err := txutil.Require(txApp, "inventory.HolderAccount"); err != nil {
		return nil, err
	}
	return ensureAccount(txApp, HolderKey(userId, assignmentType), schema.AccountKindHolder, func(r *core.Record) {
		r.Set(schema.AccountUser, userId)
		r.Set(schema.AccountAssignmentType, assignmentType)
	})
}

// SessionAccount returns the account of charging session sessionId, creating it if needed.
// Call inside a transaction (txutil.Require refuses otherwise).
func SessionAccount(txApp core.App, sessionId string) (*Account, error) {
	if err := txutil.Require(txApp, "inventory.SessionAccount"); err != nil {
		return nil, err
	}
	return ensureAccount(txApp, SessionKey(sessionId), schema.AccountKindSession, func(r *core.Record) {
		r.Set(schema.AccountSession, sessionId)
	})
}

func ensureAccount(txApp core.App, key, kind string, fill func(*core.Record)) (*Account, error) {
	if acc, err := FindAccountByKey(txApp, key); err == nil {
		return acc, nil
	}
	rec, err := records.New(txApp, schema.Accounts)
	if err != nil {
		return nil, err
	}
	rec.Set(schema.AccountKey, key)
	rec.Set(schema.AccountKind, kind)
	rec.Set(schema.AccountBalance, 0)
	fill(rec)
	if err := txApp.SaveNoValidate(rec); err != nil {
		return nil, fmt.Errorf("create account %s: %w", key, err)
	}
	return &Account{rec}, nil
}

// MovementEvents are the messages every movement announces.
var MovementEvents = []string{events.InventoryUpdated, events.ActivityUpdated}
