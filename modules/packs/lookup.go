package packs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/schema"
	"swapbay/modules/journal"
)

// MaxLookup is how many serials one GET /api/packs/lookup checks: a scanner's list.
const MaxLookup = 50

// Messages of the lookup route.
var (
	MsgLookupWhich   = "Name the packs: serials=A,B,…"
	MsgLookupTooMany = fmt.Sprintf("At most %d serials at a time", MaxLookup)
)

// Lookup is what the scanner may know of a scanned serial before it is sent: whether the
// registry knows it and its public attributes (model, state; DESIGN.md §14 The passport's
// public view) — never its location or a person, which a driver may not see of a pack they
// do not hold.
type Lookup struct {
	Serial string `json:"serial"`
	Known  bool   `json:"known"`
	Model  string `json:"model,omitempty"`
	State  string `json:"state,omitempty"`
}

// LookupSerials answers each of codes (serials or label URLs, as scanned) once, in the order
// first named, with what the registry knows of it.
func LookupSerials(app core.App, codes []string) ([]Lookup, error) {
	out := make([]Lookup, 0, len(codes))
	seen := make(map[string]bool, len(codes))
	vals := make([]any, 0, len(codes))
	for _, c := range codes {
		s := journal.Serial(c)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, Lookup{Serial: s})
		vals = append(vals, s)
	}
	if len(vals) == 0 {
		return out, nil
	}
	var rows []struct {
		Serial string `db:"serial"`
		Model  string `db:"model"`
		State  string `db:"state"`
	}
	err := app.DB().Select(schema.PackSerial+" AS serial", schema.PackModel+" AS model", schema.PackState+" AS state").
		From(schema.Packs).Where(dbx.In(schema.PackSerial, vals...)).All(&rows)
	if err != nil {
		return nil, err
	}
	by := make(map[string]int, len(out))
	for i, l := range out {
		by[l.Serial] = i
	}
	for _, r := range rows {
		if i, ok := by[r.Serial]; ok {
			out[i] = Lookup{Serial: r.Serial, Known: true, Model: r.Model, State: r.State}
		}
	}
	return out, nil
}

func handleLookup(e *core.RequestEvent) error {
	raw := e.Request.URL.Query().Get("serials")
	codes := strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
	switch {
	case len(codes) == 0:
		return apierr.Response(e, apierr.Invalid("serials", MsgLookupWhich))
	case len(codes) > MaxLookup:
		return apierr.Response(e, apierr.Invalid("serials", MsgLookupTooMany))
	}
	packs, err := LookupSerials(e.App, codes)
	return httpx.Reply(e, map[string]any{"packs": packs}, err)
}

// OutOfUseList is every out-of-use pack (journal.OutOfUse: quarantined, retired or recycled,
// or lost from one of those) with the refusal the journal gives it when it is named for
// anywhere but quarantine (journal.OutOfUseRefusal), every pack in transit to another city
// (pack_in_transit: named anywhere), and, while the worn mode is refuse, every
// worn pack with its pack_worn refusal at hand-out (journal.WornRefusal), by serial. Public attributes only: a serial and
// why it is refused, never where it is. The phone keeps it with its offline data and judges
// each scan by it at the moment of the scan, online or not (issue 42 item 6).
func OutOfUseList(app core.App) ([]apierr.PackRefusal, error) {
	out := []apierr.PackRefusal{}
	var rows []struct {
		Serial      string `db:"serial"`
		State       string `db:"state"`
		StateBefore string `db:"stateBefore"`
	}
	out3 := []any{schema.PackStateQuarantined, schema.PackStateRetired, schema.PackStateRecycled}
	err := app.DB().Select(schema.PackSerial+" AS serial", schema.PackState+" AS state", schema.PackStateBefore+" AS stateBefore").
		From(schema.Packs).
		Where(dbx.Or(
			dbx.In(schema.PackState, out3...),
			dbx.And(dbx.HashExp{schema.PackState: schema.PackStateLost}, dbx.In(schema.PackStateBefore, out3...)),
		)).
		OrderBy(schema.PackSerial).All(&rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if journal.OutOfUse(r.State, r.StateBefore) {
			out = append(out, journal.OutOfUseRefusal(r.Serial, r.State, r.StateBefore))
		}
	}
	// a pack sent to another city moves nowhere here (pack_in_transit)
	transit, err := journal.InTransit(app)
	if err != nil {
		return nil, err
	}
	for _, s := range transit {
		out = append(out, journal.TransitRefusal(s))
	}
	slices.SortFunc(out, func(a, b apierr.PackRefusal) int { return strings.Compare(a.Serial, b.Serial) })
	refuse, err := journal.WornRefused(app)
	if err != nil || !refuse {
		return out, err
	}
	// the worn mode is refuse: every worn pack still in use is refused at hand-out (pack_worn)
	var worn []struct {
		Serial      string `db:"serial"`
		Reason      string `db:"reason"`
		State       string `db:"state"`
		StateBefore string `db:"stateBefore"`
	}
	if err := app.DB().NewQuery("SELECT [[serial]] AS serial, COALESCE([[wornReason]], '') AS reason, [[state]] AS state, [[stateBefore]] AS stateBefore" +
		" FROM {{packs}} WHERE [[worn]] = 1 ORDER BY [[serial]]").All(&worn); err != nil {
		return nil, err
	}
	for _, r := range worn {
		if !journal.OutOfUse(r.State, r.StateBefore) {
			out = append(out, journal.WornRefusal(r.Serial, r.Reason))
		}
	}
	slices.SortFunc(out, func(a, b apierr.PackRefusal) int { return strings.Compare(a.Serial, b.Serial) })
	return out, nil
}

func handleOutOfUse(e *core.RequestEvent) error {
	packs, err := OutOfUseList(e.App)
	return httpx.Reply(e, map[string]any{"packs": packs}, err)
}
