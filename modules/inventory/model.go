package inventory

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/lib/txutil"
	"swapbay/modules/journal"
)

// Movement types (spec part 1 §3). Quantities are signed from the bay's point of view:
// batteries leaving the bay to a person are negative, batteries coming back positive.
const (
	TypeDropoff          = "dropoff"
	TypePickup           = "pickup"
	TypeDriverSwapIn     = "driver_swap_in"
	TypeDriverSwapOut    = "driver_swap_out"
	TypeAdjustment       = "adjustment"
	TypeChargeStart      = "charge_start"
	TypeChargeComplete   = "charge_complete"
	TypeInternalTransfer = "internal_transfer"
	TypeRebalance        = "rebalance"
	TypeRetrievesRepairs = "retrieves_repairs_dropoff"
	// TypeStocktake counts a place by its packs (modules/stocktake): neither edited nor deleted,
	// a place is counted again instead.
	TypeStocktake = "stocktake"
	// TypeTransferOut sends packs to another city (modules/transfers): their batteries leave for
	// outside (the fleet shrinks, nothing goes unaccounted). Deleting it brings them back.
	TypeTransferOut = "transfer_out"
	// TypeTransferIn receives packs from another city: their batteries come from outside to
	// ready or waiting. Neither edited nor deleted (the packs would have to go back to the sender).
	TypeTransferIn = "transfer_in"
)

// System account keys; holder and session accounts are keyed by HolderKey and SessionKey.
const (
	KeyReady      = "ready"
	KeyWaiting    = "waiting"
	KeyOutside    = "outside"
	KeyUntracked  = "untracked"
	KeyUnassigned = "unassigned"
	// KeyQuarantine is the bay's quarantine shelf: the batteries of out-of-use packs
	// (DESIGN.md §14; created by migration 1766042000).
	KeyQuarantine = "quarantine"
)

// AssignmentPickup is the holding a driver's own pickups go to (and dropoffs come from first).
const AssignmentPickup = "pickup"

// AssignmentTypes lists every assignment type the assignment form offers (spec part 2 §3).
var AssignmentTypes = []string{
	"pickup", "home_charger", "moving", "in_transit", "maintenance", "delivery",
	"pickup_point", "warehouse", "storage", "repair", "other",
}

// IsAssignmentType reports whether t is one of AssignmentTypes.
func IsAssignmentType(t string) bool {
	for _, a := range AssignmentTypes {
		if a == t {
			return true
		}
	}
	return false
}

// HolderKey is the account key of user's holding of one assignment type.
func HolderKey(userId, assignmentType string) string {
	return "holder:" + userId + ":" + assignmentType
}

// SessionKey is the account key of one charging session.
func SessionKey(sessionId string) string { return "session:" + sessionId }

// Account is a typed proxy of an accounts record: a place batteries can be.
type Account struct{ *core.Record }

// Key is the account's unique key (ready, holder:<user>:<type>, …).
func (a *Account) Key() string { return a.GetString(schema.AccountKey) }

// Kind is one of the schema.AccountKind* values.
func (a *Account) Kind() string { return a.GetString(schema.AccountKind) }

// UserId is the holder's user id (holder accounts only).
func (a *Account) UserId() string { return a.GetString(schema.AccountUser) }

// AssignmentType is the holder's assignment type (holder accounts only).
func (a *Account) AssignmentType() string { return a.GetString(schema.AccountAssignmentType) }

// SessionId is the charging session of a session account.
func (a *Account) SessionId() string { return a.GetString(schema.AccountSession) }

// Ref is the account's reference for a posting's legs (AccountRef).
func (a *Account) Ref() AccountRef {
	return AccountRef{Id: a.Id, Key: a.Key(), Kind: a.Kind()}
}

// AccountRef names an account for a posting's legs: its id, key and kind, and no balance, so
// a reference built without reading the account (accountRef, holderRef) cannot answer a
// balance it never read. Read the account (FindAccount) for its balance.
type AccountRef = journal.AccountRef

// Balance is the cached sum of the account's entries.
func (a *Account) Balance() int { return a.GetInt(schema.AccountBalance) }

// Movement is a typed proxy of a movements record: one recorded operation.
type Movement struct{ *core.Record }

// Type is the movement type (Type* constants).
func (m *Movement) Type() string { return m.GetString(schema.MovementType) }

// Quantity is the signed quantity shown in activity lists.
func (m *Movement) Quantity() int { return m.GetInt(schema.MovementQuantity) }

// Notes is the free text, with the spec's markers.
func (m *Movement) Notes() string { return m.GetString(schema.MovementNotes) }

// UserId is whose activity this is.
func (m *Movement) UserId() string { return m.GetString(schema.MovementUser) }

// ActorId is who recorded it.
func (m *Movement) ActorId() string { return m.GetString(schema.MovementActor) }

// Good is the good-battery count of dropoffs and swaps.
func (m *Movement) Good() int { return m.GetInt(schema.MovementGood) }

// Dead is the dead-battery count of dropoffs and swaps.
func (m *Movement) Dead() int { return m.GetInt(schema.MovementDead) }

// SessionId is the charging session the movement belongs to, if any.
func (m *Movement) SessionId() string { return m.GetString(schema.MovementSession) }

// Checkpoint reports whether the movement is an opening/folded checkpoint.
func (m *Movement) Checkpoint() bool { return m.GetBool(schema.MovementCheckpoint) }

// OccurredAt is when the operation happened.
func (m *Movement) OccurredAt() time.Time { return m.GetDateTime(schema.MovementOccurredAt).Time() }

// RecordedAt is when the server committed the movement (after OccurredAt for an action sent
// late from the driver app's outbox).
func (m *Movement) RecordedAt() time.Time { return m.GetDateTime(schema.MovementRecordedAt).Time() }

// Meta returns the movement's meta object (empty map when unset).
func (m *Movement) Meta() map[string]any {
	out := map[string]any{}
	_ = m.UnmarshalJSONField(schema.MovementMeta, &out)
	return out
}

// MetaString returns meta[key] as a string ("" when missing).
func (m *Movement) MetaString(key string) string {
	s, _ := m.Meta()[key].(string)
	return s
}

// movementJSON is a movement as PocketBase's Record.MarshalJSON writes it (its PublicExport:
// the collection, the id and every field, when none is hidden).
type movementJSON struct {
	CollectionId   string         `json:"collectionId"`
	CollectionName string         `json:"collectionName"`
	Id             string         `json:"id"`
	Type           string         `json:"type"`
	Quantity       float64        `json:"quantity"`
	Notes          string         `json:"notes"`
	User           string         `json:"user"`
	Actor          string         `json:"actor"`
	Good           float64        `json:"goodBatteries"`
	Dead           float64        `json:"deadBatteries"`
	Discrepancy    bool           `json:"discrepancy"`
	Session        string         `json:"session"`
	Meta           types.JSONRaw  `json:"meta"`
	Checkpoint     bool           `json:"checkpoint"`
	OccurredAt     types.DateTime `json:"occurredAt"`
	Created        types.DateTime `json:"created"`
	Updated        types.DateTime `json:"updated"`
	RecordedAt     types.DateTime `json:"recordedAt"`
}

// movementJSONFields are the fields movementJSON writes, besides the collection's.
var movementJSONFields = []string{"id", schema.MovementType, schema.MovementQuantity, schema.MovementNotes,
	schema.MovementUser, schema.MovementActor, schema.MovementGood, schema.MovementDead, schema.MovementDiscrepancy,
	schema.MovementSession, schema.MovementMeta, schema.MovementCheckpoint, schema.MovementOccurredAt,
	schema.Created, schema.Updated, schema.MovementRecordedAt}

// MarshalJSON writes the movement as Record.MarshalJSON does, field for field, without its
// generic export: a keyed driver write encodes its answer, movement included, inside the
// write transaction, where that generic export cost write-lock time (BENCHMARKS.md). A movement
// whose collection has other fields or a hidden one (marked Hidden in the dashboard), or that
// carries an expand, is written by the record, which leaves hidden fields out. (A field
// hidden on the record alone, Record.Hide, is honoured by marshalling m.Record.)
func (m *Movement) MarshalJSON() ([]byte, error) {
	col := m.Collection()
	if len(m.Expand()) > 0 || !slices.EqualFunc(col.Fields, movementJSONFields, func(f core.Field, name string) bool { return f.GetName() == name && !f.GetHidden() }) {
		return m.Record.MarshalJSON()
	}
	return json.Marshal(movementJSON{
		CollectionId: col.Id, CollectionName: col.Name, Id: m.Id,
		Type: m.GetString(schema.MovementType), Quantity: m.GetFloat(schema.MovementQuantity),
		Notes: m.GetString(schema.MovementNotes), User: m.GetString(schema.MovementUser),
		Actor: m.GetString(schema.MovementActor), Good: m.GetFloat(schema.MovementGood),
		Dead: m.GetFloat(schema.MovementDead), Discrepancy: m.GetBool(schema.MovementDiscrepancy),
		Session: m.GetString(schema.MovementSession), Meta: types.JSONRaw(m.GetString(schema.MovementMeta)),
		Checkpoint: m.GetBool(schema.MovementCheckpoint), OccurredAt: m.GetDateTime(schema.MovementOccurredAt),
		Created: m.GetDateTime(schema.Created), Updated: m.GetDateTime(schema.Updated),
		RecordedAt: m.GetDateTime(schema.MovementRecordedAt),
	})
}

// Entry is a typed proxy of an entries record: one ledger line of a movement.
type Entry struct{ *core.Record }

// AccountId is the account the entry moves batteries into (delta > 0) or out of.
func (e *Entry) AccountId() string { return e.GetString(schema.EntryAccount) }

// Delta is the signed change to the account.
func (e *Entry) Delta() int { return e.GetInt(schema.EntryDelta) }

// FindAccountByKey returns the account with key, or ErrNotFound (MsgBalanceDamaged when its
// balance is damaged, see checked).
func FindAccountByKey(app core.App, key string) (*Account, error) {
	rec, err := app.FindFirstRecordByData(schema.Accounts, schema.AccountKey, key)
	if err != nil {
		return nil, apierr.NotFound(msgAccountNotFound)
	}
	return checked(rec)
}

// FindAccount returns the account with id, or ErrNotFound (MsgBalanceDamaged when its
// balance is damaged, see checked).
func FindAccount(app core.App, id string) (*Account, error) {
	rec, err := app.FindRecordById(schema.Accounts, id)
	if err != nil {
		return nil, apierr.NotFound(msgAccountNotFound)
	}
	return checked(rec)
}

// checked refuses an account whose stored balance is not a whole number within ±MaxBalance
// (written behind the ledger's back; the tables refuse it since migration 1764000000), so
// no operation plans with a garbage figure: recalculation or the override repairs it.
func checked(rec *core.Record) (*Account, error) {
	b, ok := rec.Get(schema.AccountBalance).(float64)
	if !ok || b != math.Trunc(b) || b > MaxBalance || b < -MaxBalance {
		if n, isInt := rec.Get(schema.AccountBalance).(int); !isInt || n > MaxBalance || n < -MaxBalance {
			return nil, apierr.Conflict(MsgBalanceDamaged)
		}
	}
	return &Account{rec}, nil
}

// FindHolding returns holder account id (an assignment as GET /api/admin/battery-holders lists
// it), or ok false when id is no holder account.
func FindHolding(app core.App, id string) (acc *Account, ok bool, err error) {
	rec, err := app.FindRecordById(schema.Accounts, id)
	if err != nil || rec.GetString(schema.AccountKind) != schema.AccountKindHolder {
		return nil, false, nil
	}
	acc, err = checked(rec)
	return acc, err == nil, err
}

// FindHolderAccounts returns userId's holder accounts with a positive balance, the pickup
// holding first, then the others by assignment type.
func FindHolderAccounts(app core.App, userId string) ([]*Account, error) {
	// one lean query (a dropoff runs it inside the write transaction): the columns a plan
	// needs, not PocketBase's record query and filter machinery
	type row struct {
		Id, Key, User, AssignmentType string
		Balance                       float64
	}
	var rows []row
	err := sqlitedb.Query(app.DB(), "SELECT id, key, user, assignmentType, balance FROM "+
		schema.Accounts+" WHERE kind = {:kind} AND user = {:user} AND balance > 0",
		dbx.Params{"kind": schema.AccountKindHolder, "user": userId},
		func(scan func(...any) error) error {
			var r row
			err := scan(&r.Id, &r.Key, &r.User, &r.AssignmentType, &r.Balance)
			rows = append(rows, r)
			return err
		})
	if err != nil {
		return nil, err
	}
	col, err := app.FindCachedCollectionByNameOrId(schema.Accounts)
	if err != nil {
		return nil, err
	}
	out := make([]*Account, 0, len(rows))
	for _, r := range rows {
		rec := core.NewRecord(col)
		rec.Id = r.Id
		rec.Set(schema.AccountKey, r.Key)
		rec.Set(schema.AccountKind, schema.AccountKindHolder)
		rec.Set(schema.AccountUser, r.User)
		rec.Set(schema.AccountAssignmentType, r.AssignmentType)
		rec.Set(schema.AccountBalance, r.Balance)
		acc, err := checked(rec) // a damaged balance is refused, as for every account read
		if err != nil {
			return nil, err
		}
		out = append(out, acc)
	}
	sortHoldings(out)
	return out, nil
}

// sortHoldings orders holdings pickup first, then by assignment type (stable, deterministic).
func sortHoldings(accs []*Account) {
	rank := func(a *Account) string {
		if a.AssignmentType() == AssignmentPickup {
			return ""
		}
		return a.AssignmentType()
	}
	for i := 1; i < len(accs); i++ {
		for j := i; j > 0 && rank(accs[j]) < rank(accs[j-1]); j-- {
			accs[j], accs[j-1] = accs[j-1], accs[j]
		}
	}
}

// HeldBy returns the total number of batteries userId holds across all assignment types.
func HeldBy(app core.App, userId string) (int, error) {
	var row struct {
		N int `db:"n"`
	}
	err := app.DB().NewQuery("SELECT COALESCE(SUM(balance),0) AS n FROM " + schema.Accounts + " WHERE kind = {:kind} AND user = {:user}").
		Bind(dbx.Params{"kind": schema.AccountKindHolder, "user": userId}).One(&row)
	return row.N, err
}

// Meta keys of a deleted user's movements: who they were (first name, last name, role).
const (
	MetaFormerUser  = "formerUser"  // the movement's user was deleted
	MetaFormerActor = "formerActor" // the movement's actor was deleted
)

// FormerUser is who a deleted user was, as their movements keep it (KeepFormerUser) under
// MetaFormerUser / MetaFormerActor: their name and role, and since users could be deleted
// with their pay kept (was: a deleted user's weeks vanished from the earnings) their id,
// email, pay reduction and pool withholding. Movements of users deleted before that have the
// name and role only.
type FormerUser struct {
	Id                     string   `json:"id,omitempty"`
	FirstName              string   `json:"firstName"`
	LastName               string   `json:"lastName"`
	Email                  string   `json:"email,omitempty"`
	Role                   string   `json:"role"`
	PayReductionPercentage *float64 `json:"payReductionPercentage,omitempty"`
	Withholding            *float64 `json:"withholding,omitempty"`
}

func ptr(f float64) *float64 { return &f }

// KeepFormerUser prepares deleting user: every movement they were the user or the actor of
// keeps who they were (FormerUser, under MetaFormerUser / MetaFormerActor in its meta) and
// lets go of the reference, in two statements. Without it PocketBase would clear the
// references one movement at a time while the user is deleted, and the history would name
// nobody. Call inside the transaction that deletes user (txutil.Require refuses otherwise).
func KeepFormerUser(txApp core.App, user *core.Record) error {
	if err := txutil.Require(txApp, "inventory.KeepFormerUser"); err != nil {
		return err
	}
	who, err := json.Marshal(FormerUser{
		Id:        user.Id,
		FirstName: user.GetString(schema.UserFirstName),
		LastName:  user.GetString(schema.UserLastName),
		Email:     user.Email(),
		Role:      user.GetString(schema.UserRole),
		// their pay, for the weeks they are still paid for (modules/earnings)
		PayReductionPercentage: ptr(user.GetFloat(schema.UserPayReductionPercentage)),
		Withholding:            ptr(user.GetFloat(schema.UserAdminPoolWithholdingPct)),
	})
	if err != nil {
		return err
	}
	for field, key := range map[string]string{schema.MovementUser: MetaFormerUser, schema.MovementActor: MetaFormerActor} {
		if err := releaseUser(txApp, field, key, string(who), user.Id); err != nil {
			return fmt.Errorf("keep the former %s on movements: %w", field, err)
		}
	}
	return nil
}

// FindMovement returns the movement with id, or ErrNotFound.
func FindMovement(app core.App, id string) (*Movement, error) {
	rec, err := app.FindRecordById(schema.Movements, id)
	if err != nil {
		return nil, apierr.NotFound("Movement not found")
	}
	return &Movement{rec}, nil
}

// FindEntries returns the entries of movementId.
func FindEntries(app core.App, movementId string) ([]*Entry, error) {
	recs, err := app.FindAllRecords(schema.Entries, dbx.HashExp{schema.EntryMovement: movementId})
	if err != nil {
		return nil, err
	}
	out := make([]*Entry, 0, len(recs))
	for _, r := range recs {
		out = append(out, &Entry{r})
	}
	return out, nil
}

// DisplayName is how messages name a user: "First Last", else the email.
func DisplayName(user *core.Record) string {
	if user == nil {
		return "Unknown"
	}
	name := strings.TrimSpace(user.GetString(schema.UserFirstName) + " " + user.GetString(schema.UserLastName))
	if name == "" {
		name = user.Email()
	}
	return name
}

// accountLabel names an account in refusal messages.
func accountLabel(app core.App, a *Account) string {
	switch a.Kind() {
	case schema.AccountKindHolder:
		if u, err := app.FindRecordById(schema.Users, a.UserId()); err == nil {
			return DisplayName(u)
		}
		return "The holder"
	case schema.AccountKindSession:
		return "The charging session"
	default:
		return fmt.Sprintf("%s", a.Kind())
	}
}
