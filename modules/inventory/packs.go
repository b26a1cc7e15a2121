package inventory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
)

// The ledger names its packs (DESIGN.md §14). Counts stay the truth for stock and pay; the
// packs a movement names are its detail, written in the movement's own transaction by Post
// through the PackLedger that modules/packs registers on the app (UsePackLedger). The write
// paths only say which share of their batteries each named list carries (PackGroup); the
// tracking mode, the refusals, discrepancies and the records' reconciliation with the counts
// live in one place, modules/packs/ledger.go.

// PackNames are the packs a battery-moving request names: Packs where one kind of battery
// moves, GoodPacks and DeadPacks where good and dead are counted apart (dropoffs, swaps).
// A serial may be sent as scanned: bare, or the label's URL <site>/p/<serial>.
type PackNames struct {
	Packs     []string `json:"packs"`
	GoodPacks []string `json:"goodPacks"`
	DeadPacks []string `json:"deadPacks"`
	// Return marks the names of an exchange's return (refusals name returnGoodPacks and
	// returnDeadPacks).
	Return bool `json:"-"`
}

// Request fields that name packs (refusals name the field).
const (
	FieldPacks     = "packs"
	FieldGoodPacks = "goodPacks"
	FieldDeadPacks = "deadPacks"
)

// PackGroup is a share of a posting's batteries and the packs named for it.
type PackGroup struct {
	Field   string   // the request field that named them (refusals name it)
	Serials []string // as sent
	Count   int      // how many batteries of the posting the group carries
	// From is where the records should have these packs (the accounts the batteries leave);
	// FromUser, when set, accepts any holding of that user too. A pack found elsewhere is
	// moved anyway and the difference is recorded as a discrepancy.
	From     []AccountRef
	FromUser string
	To       AccountRef // where they go
	// Implicit: when no pack is named, the packs the records put at From[0] travel (a
	// charging session completed or deleted, an assignment deleted: the whole account moves).
	Implicit bool
	HandOut  bool // a pickup or assignment: quarantined, retired and recycled packs are refused
	Charged  bool // a charge completion: each pack's charge count goes up
}

// PackMove is one pack a movement moved, kept in the movement's meta (MetaPacks) so that a
// correction or a delete can put it back where it was.
type PackMove struct {
	Serial      string `json:"serial"`
	Field       string `json:"field,omitempty"` // the request field that named it ("" for a stand-in or an implicit move)
	From        string `json:"from"`            // account id where the records had it ("" unknown)
	To          string `json:"to"`
	Charged     bool   `json:"charged,omitempty"`
	Discrepancy bool   `json:"discrepancy,omitempty"` // named, but the records had it elsewhere
	StandIn     bool   `json:"standIn,omitempty"`     // not named: moved so the records match the counts
	Found       string `json:"found,omitempty"`       // a lost pack found: the state it returned to
}

// MetaPacks is the meta key of a movement's pack moves ([]PackMove).
const MetaPacks = "packs"

// PackLedger writes the packs of movements. modules/packs provides it (UsePackLedger); without
// one, named packs are ignored and the counts apply (the tracking mode off).
type PackLedger interface {
	// Move applies groups for mv, a movement about to be stored (its id, user, actor, session
	// and occurredAt are set), whose entries are deltas between accounts (each account's ref
	// in accounts). It returns the moves to keep in the movement's meta.
	Move(txApp core.App, mv *Movement, groups []PackGroup, deltas map[string]int, accounts map[string]AccountRef) ([]PackMove, error)
	// Return puts the moves of movement mv back where they were (a correction or a delete by
	// actorId); undo is the reversal of its entries. reason is recorded in each pack's history.
	// It returns the named moves it put back (an edit that names no packs names these again).
	Return(txApp core.App, mv *Movement, moves []PackMove, undo map[string]int, actorId, reason string) ([]PackMove, error)
	// Check compares the packs with the balances (Recalculate) and describes each difference
	// the tracking mode does not allow; it clears locations that name no account.
	Check(txApp core.App) ([]string, error)
}

const packLedgerKey = "inventory.packLedger"

// UsePackLedger makes l write the packs of every movement posted on app.
func UsePackLedger(app core.App, l PackLedger) { app.Store().Set(packLedgerKey, l) }

func packLedger(app core.App) PackLedger {
	l, _ := app.Store().Get(packLedgerKey).(PackLedger)
	return l
}

// PackMoves returns the packs the movement moved (MetaPacks).
func (m *Movement) PackMoves() []PackMove {
	var meta struct {
		Packs []PackMove `json:"packs"`
	}
	_ = m.UnmarshalJSONField(schema.MovementMeta, &meta)
	return meta.Packs
}

// returnPacks puts movement mv's packs back (a delete or a correction by op's actor); reason
// goes into each pack's history.
// It returns the named moves it put back.
func returnPacks(txApp core.App, op Op, mv *Movement, undo map[string]int, reason string) ([]PackMove, error) {
	l := packLedger(txApp)
	moves := mv.PackMoves()
	if l == nil || len(moves) == 0 {
		return nil, nil
	}
	return l.Return(txApp, mv, moves, undo, op.ActorId(), reason)
}

// movePacks writes the packs of groups for rec, a movement about to be stored with entries
// deltas over the accounts of legs, and keeps the moves in its meta (MetaPacks).
func movePacks(txApp core.App, rec *core.Record, groups []PackGroup, deltas map[string]int, legs []Leg) error {
	l := packLedger(txApp)
	if l == nil || len(groups) == 0 {
		return nil
	}
	accounts := map[string]AccountRef{}
	for _, leg := range legs {
		accounts[leg.From.Id], accounts[leg.To.Id] = leg.From, leg.To
	}
	mv := &Movement{rec}
	moves, err := l.Move(txApp, mv, groups, deltas, accounts)
	if err != nil {
		return err
	}
	meta := mv.Meta()
	if len(moves) > 0 {
		meta[MetaPacks] = moves
	} else {
		delete(meta, MetaPacks)
	}
	rec.Set("meta", meta)
	return nil
}

// Named reports whether the request named packs in any field (an empty list counts: it
// names none on purpose).
func (n PackNames) Named() bool {
	return n.Packs != nil || n.GoodPacks != nil || n.DeadPacks != nil
}

// orPrevious returns n, or when it names nothing, the serials of returned by field (a
// correction that does not name packs names again the packs its movement had, those that had
// not moved on).
func (n PackNames) orPrevious(returned []PackMove) PackNames {
	if n.Named() {
		return n
	}
	var out PackNames
	for _, m := range returned {
		switch f := strings.TrimPrefix(m.Field, "return"); strings.ToLower(f[:min(1, len(f))]) + f[min(1, len(f)):] {
		case FieldPacks:
			out.Packs = append(out.Packs, m.Serial)
		case FieldGoodPacks:
			out.GoodPacks = append(out.GoodPacks, m.Serial)
		case FieldDeadPacks:
			out.DeadPacks = append(out.DeadPacks, m.Serial)
		}
	}
	return out
}

// SerialOf returns the serial in a scanned code: the last path segment after /p/ of a label
// URL, else the code itself, trimmed.
func SerialOf(code string) string {
	code = strings.TrimSpace(code)
	if i := strings.LastIndex(code, "/p/"); i >= 0 {
		code = code[i+3:]
		if j := strings.IndexAny(code, "?#/"); j >= 0 {
			code = code[:j]
		}
	}
	return code
}

// MsgPacksField refuses packs named in a field the write does not take (e.g. packs on a
// dropoff, which names goodPacks and deadPacks).
const MsgPacksField = "This action names its packs as %s"

// MsgPacksNone refuses packs named on a write that moves no batteries.
const MsgPacksNone = "This action moves no batteries: it names no packs"

// Only refuses the fields of n that a write does not take (fields: the ones it does).
func (n PackNames) Only(fields ...string) error {
	sent := map[string][]string{FieldPacks: n.Packs, FieldGoodPacks: n.GoodPacks, FieldDeadPacks: n.DeadPacks}
	for _, f := range []string{FieldPacks, FieldGoodPacks, FieldDeadPacks} {
		if sent[f] == nil || slices.Contains(fields, f) {
			continue
		}
		named := make([]string, len(fields))
		for i, g := range fields {
			named[i] = n.field(g)
		}
		if len(named) == 0 {
			return apierr.Invalid(n.field(f), MsgPacksNone)
		}
		return apierr.Invalid(n.field(f), fmt.Sprintf(MsgPacksField, strings.Join(named, " and ")))
	}
	return nil
}

// field is the request's name of field f (an exchange's return prefixes it).
func (n PackNames) field(f string) string {
	if n.Return {
		return "return" + strings.ToUpper(f[:1]) + f[1:]
	}
	return f
}
