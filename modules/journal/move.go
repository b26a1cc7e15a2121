package journal

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/bulk"
	"swapbay/lib/clock"
	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/lib/txutil"
)

// A movement's packs (DESIGN.md §14). Every battery-moving write hands its named packs to
// inventory.Post as Groups; Post calls Prepare before its balances (an out-of-use pack
// returned to the bay's stock takes its battery to quarantine instead) and Plan.Apply in the
// movement's own transaction. The rules, in one place:
//
//   - Tracking mode off: named packs are ignored and the counts apply. Optional: a group may
//     name up to as many packs as it carries batteries. Required: exactly as many (pack_count).
//     An offline action whose Idempotency-Key (a UUIDv7, minted at the tap) is older than the
//     last change of the mode is judged optional at most for its count (stand-ins still keep
//     the records equal to the counts), and the batteries it moved without packs are kept in
//     its meta (MetaUnnamed) for the admins' attention strip. occurredAt, which the client
//     sends, earns nothing.
//   - A serial no pack has is refused (pack_unknown, naming it); the same pack twice in one
//     movement is refused (pack_count, naming it); an out-of-use pack (OutOfUse) going
//     anywhere but quarantine is refused (pack_quarantined / pack_retired), every such pack
//     named in the refusal's data.packs — named, implicit or a stand-in alike.
//   - A worn pack (its worn column, DESIGN.md §16) going to a person or a charger (handOut: a
//     holder, the field's unassigned batteries, a charging session, the untracked charger) while
//     the worn mode is refuse is refused (pack_worn, "Pack X is worn and cannot be handed out:
//     <why>"), every such pack named in data.packs beside any out-of-use one — named, implicit
//     or a stand-in alike. Returning it to the bay (ready, waiting, quarantine) is never
//     refused; in flag mode (the default) nothing is refused, the pack is only flagged. A
//     correction or delete (Return) puts a worn pack back where it was: it is the records'
//     undo, not a hand-out.
//   - A scan is a physical fact: a pack the records put elsewhere moves anyway and the
//     difference is recorded (a discrepancy event: where it was scanned, where the records had
//     it, who, which movement). A pack never placed (no location) is seen for the first time,
//     not a discrepancy. A pack named where a discrepancy already put it (two drivers sent it
//     at once: the second finds it where the first left it) is the same difference, recorded
//     once. A lost pack that is named is found: its state returns.
//   - Required mode keeps, for every account, the packs located there equal to its balance: when
//     a named pack came from elsewhere, the movement's count deltas and pack deltas differ by
//     account, and the records move as many other packs (stand-ins, the least recently seen
//     first, never an out-of-use one toward a person, a charger or stock) from the accounts
//     that kept too many packs to those left with too few — the least change that makes the
//     records agree with the counts again, itself in the history. Where the counts would take
//     a named pack's battery from outside (a dropoff's excess over what the driver holds), it
//     comes from the account the records had the pack at instead (Plan.Sourced; the ledger
//     rewrites its legs): no place keeps a battery whose pack left it.
//
// Packs and pack_events are written with plain statements, like the ledger's own rows: no
// PocketBase record hook runs for these writes.

// Refusals of named packs (formats for fmt.Sprintf; each names the pack or the field).
const (
	MsgPackUnknown     = "Unknown pack: %s"
	MsgPackBlank       = "A pack's serial is blank"
	MsgPackTwice       = "Pack %s is named twice"
	MsgPackCountExact  = "Name exactly %s for %s (%d named)" // PackCountMessage fills it
	MsgPackCountAtMost = "Name at most %s for %s (%d named)"
	MsgPackQuarantined = "Pack %s is quarantined and cannot be handed out"
	MsgPackRetired     = "Pack %s is %s and cannot be handed out"
	MsgPacksOutOfUse   = "%d packs are out of use and can only go to quarantine: %s"
	MsgPacksWorn       = "%d packs are worn and cannot be handed out: %s"
	MsgPacksRefused    = "%d packs cannot be handed out: %s"
	MsgPackMovedOn     = "Pack %s has moved on since this movement: correct or delete the later movement first"
	MsgPacksMovedOn    = "This movement's packs have moved on since: correct or delete the later movement first"
	// MsgCountNeedsStocktake refuses a count change that names no packs in required mode.
	MsgCountNeedsStocktake = "Pack tracking is required: counts change only with their packs. Count the place with a stocktake instead"
)

// Reasons recorded in a pack's history by the journal.
const (
	ReasonDiscrepancy = "Scanned where the records did not have it"
	ReasonStandIn     = "Records matched to the counts: another pack named in this movement was found elsewhere"
	ReasonFound       = "Found: named in a movement while lost"
	ReasonFirstSeen   = "First seen"
	ReasonQuarantine  = "Out of use: returned to quarantine"
	// ReasonLostFollows is the history line of a lost pack whose record moved with its place's
	// batteries (a session ended, an assignment deleted, without naming packs): not a scan, so
	// it stays lost.
	ReasonLostFollows = "Still lost: its record moved with the batteries of its place (not scanned)"
)

// row is a pack as the journal reads it, with its location's kind and holder.
type row struct {
	id, serial, state, stateBefore, location, locKind, locUser, lastSeen string
	worn                                                                 bool
	wornReason                                                           string
}

func (r row) outOfUse() bool { return OutOfUse(r.state, r.stateBefore) }

// stock reports whether an account of kind is the bay's stock (an out-of-use pack returned
// there goes to quarantine instead).
func stock(kind string) bool {
	return kind == schema.AccountKindReady || kind == schema.AccountKindWaiting
}

// Mode is the stored tracking mode (off when unset).
func Mode(txApp core.App) (string, error) {
	m, _, err := storedMode(txApp)
	return m, err
}

// RequireTracking refuses (409, refusal) a write that names packs while pack tracking is off:
// no pack has a place then to move or count.
func RequireTracking(txApp core.App, refusal string) error {
	mode, err := Mode(txApp)
	if err != nil {
		return err
	}
	if mode == schema.PackTrackingOff {
		return apierr.Conflict(refusal)
	}
	return nil
}

// storedMode is the stored mode and when it was last changed.
func storedMode(txApp core.App) (string, time.Time, error) {
	e, err := storedEntry(txApp)
	if err != nil {
		return "", time.Time{}, err
	}
	if !e.found {
		return schema.PackTrackingOff, time.Time{}, nil
	}
	since, _ := types.ParseDateTime(e.updated)
	return Tracking.Get(map[string]string{schema.SettingPackTracking: e.value}), since.Time(), nil
}

// storedEntry reads the tracking mode and the worn mode (one query for both rows), or takes
// them from the cache.
func storedEntry(txApp core.App) (modeEntry, error) {
	c := cacheOf(txApp)
	e, ok, gen := c.get()
	if ok {
		return e, nil
	}
	err := sqlitedb.Query(txApp.DB(), "SELECT key, value, updated FROM "+schema.Settings+" WHERE key IN ({:k}, {:w})",
		dbx.Params{"k": schema.SettingPackTracking, "w": schema.SettingPackWornMode}, func(scan func(...any) error) error {
			var key, value, updated string
			if err := scan(&key, &value, &updated); err != nil {
				return err
			}
			if key == schema.SettingPackWornMode {
				e.worn = value
				return nil
			}
			e.found, e.value, e.updated = true, value, updated
			return nil
		})
	if err != nil {
		return modeEntry{}, fmt.Errorf("read pack tracking: %w", err)
	}
	c.put(gen, e)
	return e, nil
}

// effectiveMode is the tracking mode that applies to a write keyed at keyAt (zero: not keyed):
// the stored mode, except that required is judged optional for an action keyed before it was
// set (graced).
func effectiveMode(txApp core.App, keyAt time.Time) (mode string, graced bool, err error) {
	mode, since, err := storedMode(txApp)
	if err != nil {
		return "", false, err
	}
	if mode == schema.PackTrackingRequired && !keyAt.IsZero() && keyAt.Before(since) {
		return schema.PackTrackingOptional, true, nil
	}
	return mode, false, nil
}

// RequireCounted refuses a count change that cannot name packs (a stat edit, the override,
// an adjustment's edit or delete, the clean slate) in required mode: pack_count, pointing to
// the stocktake.
func RequireCounted(txApp core.App) error {
	mode, _, err := storedMode(txApp)
	if err != nil {
		return err
	}
	if mode == schema.PackTrackingRequired {
		return &apierr.Error{Kind: apierr.ErrConflict, Code: apierr.CodePackCount, Message: MsgCountNeedsStocktake}
	}
	return nil
}

func packErr(status int, field, code, msg string) error {
	kind := apierr.ErrInvalid
	if status == http.StatusConflict {
		kind = apierr.ErrConflict
	}
	return &apierr.Error{Kind: kind, Message: msg, Field: field, Code: code,
		Packs: []apierr.PackRefusal{}}
}

// refusal is one pack refused for where it would go.
func refusal(r row) apierr.PackRefusal { return OutOfUseRefusal(r.serial, r.state, r.stateBefore) }

// OutOfUseRefusal is the refusal of the out-of-use pack serial (OutOfUse(state, stateBefore)) going
// anywhere but quarantine: pack_quarantined (a lost pack that was quarantined too) or
// pack_retired, with its message. The scanner judges a scan by it (GET /api/packs/out-of-use),
// so the phone says what the server would, in its words.
func OutOfUseRefusal(serial, state, stateBefore string) apierr.PackRefusal {
	if state == schema.PackStateQuarantined || state == schema.PackStateLost && stateBefore == schema.PackStateQuarantined {
		return apierr.PackRefusal{Serial: serial, Code: apierr.CodePackQuarantined, Message: fmt.Sprintf(MsgPackQuarantined, serial)}
	}
	if state == schema.PackStateLost {
		state = stateBefore
	}
	return apierr.PackRefusal{Serial: serial, Code: apierr.CodePackRetired, Message: fmt.Sprintf(MsgPackRetired, serial, state)}
}

// outOfUseErr is the refusal of the packs in list (out of use or worn), each named
// (data.packs); the answer's code and message are the first's, or say how many when several.
func outOfUseErr(field string, list []apierr.PackRefusal) error {
	msg := list[0].Message
	if len(list) > 1 {
		serials := make([]string, len(list))
		worn := 0
		for i, p := range list {
			serials[i] = p.Serial
			if p.Code == apierr.CodePackWorn {
				worn++
			}
		}
		transit := 0
		for _, p := range list {
			if p.Code == apierr.CodePackInTransit {
				transit++
			}
		}
		format := MsgPacksOutOfUse
		switch {
		case worn == len(list):
			format = MsgPacksWorn
		case transit == len(list):
			format = MsgPacksInTransit
		case worn > 0 || transit > 0:
			format = MsgPacksRefused
		}
		msg = fmt.Sprintf(format, len(list), strings.Join(serials, ", "))
	}
	return &apierr.Error{Kind: apierr.ErrConflict, Message: msg, Field: field, Code: list[0].Code, Packs: list}
}

// Plan is a movement's packs, read before its balances are written (Prepare) and applied
// with the movement (Apply).
type Plan struct {
	mode     string
	groups   []Group
	found    map[string]row // the named packs by serial
	implicit map[int][]row  // the packs an implicit group moves, by group index
	named    map[string]bool
	// wornRefuse: the worn mode is refuse (a worn pack goes to no person or charger)
	wornRefuse bool
	// Redirected are the batteries, by the stock account they were bound for, that go to
	// quarantine instead: an out-of-use pack returned to the bay (the caller moves them).
	Redirected map[string]int
	// Unnamed is how many batteries the movement moves without packs under the offline grace
	// of required mode (MetaUnnamed).
	Unnamed int
	// Sourced are, in required mode, the named packs the records put somewhere the movement
	// does not take its batteries from, by that account (id): a dropoff's excess over what the
	// driver holds is taken from there rather than from outside (the caller's legs), so that
	// the records' place of each pack keeps as many batteries as packs (a pack already on the
	// ready shelf brought back by a driver adds no battery to it).
	Sourced map[string]int
}

// Prepare checks the counts of groups for a movement keyed at mv.KeyAt and reads their packs
// (one query for the named ones, one per implicit group). An out-of-use pack bound for the
// bay's stock (ready, waiting) is split off to quarantine (the Redirected batteries). Call it
// inside the movement's transaction, before its balances.
func Prepare(txApp core.App, mv Movement, groups []Group, quarantine AccountRef) (*Plan, error) {
	p := &Plan{groups: slices.Clone(groups), named: map[string]bool{}, implicit: map[int][]row{}}
	if len(groups) == 0 {
		return p, nil
	}
	mode, graced, err := effectiveMode(txApp, mv.KeyAt)
	if err != nil {
		return nil, err
	}
	p.mode = mode
	if graced {
		// the grace spares the write its count, not the records: stand-ins still keep the
		// packs equal to the counts (Apply's reconcile)
		p.mode = schema.PackTrackingRequired
	}
	if mode == schema.PackTrackingOff {
		// only the journal's own movements (Always) move packs; named packs are ignored
		var always []Group
		for _, g := range groups {
			if g.Always {
				always = append(always, g)
			}
		}
		if p.groups = always; len(always) == 0 {
			return p, nil
		}
	}
	if p.wornRefuse, err = WornRefused(txApp); err != nil {
		return nil, err
	}
	// the serials, checked for count and repeats before any lookup
	var all []string
	for _, g := range p.groups {
		if g.Implicit && len(g.Serials) == 0 {
			continue
		}
		n := len(g.Serials)
		if graced && n < g.Count {
			p.Unnamed += g.Count - n
		}
		if !g.Always && mode == schema.PackTrackingRequired && n != g.Count {
			return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackCount, PackCountMessage(MsgPackCountExact, g.Count, n))
		}
		if n > g.Count {
			return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackCount, PackCountMessage(MsgPackCountAtMost, g.Count, n))
		}
		for _, code := range g.Serials {
			serial := Serial(code)
			if serial == "" {
				return nil, packErr(http.StatusBadRequest, g.Field, apierr.CodePackUnknown, MsgPackBlank)
			}
			if len(serial) > schema.MaxPackSerialLength {
				e := packErr(http.StatusBadRequest, g.Field, apierr.CodePackUnknown, fmt.Sprintf(MsgPackUnknown, serial[:schema.MaxPackSerialLength]+"…"))
				e.(*apierr.Error).Packs = []apierr.PackRefusal{{Serial: serial[:schema.MaxPackSerialLength], Code: apierr.CodePackUnknown, Message: e.Error()}}
				return nil, e
			}
			if p.named[serial] {
				e := packErr(http.StatusBadRequest, g.Field, apierr.CodePackCount, fmt.Sprintf(MsgPackTwice, serial))
				e.(*apierr.Error).Packs = []apierr.PackRefusal{{Serial: serial, Code: apierr.CodePackCount, Message: e.Error()}}
				return nil, e
			}
			p.named[serial] = true
			all = append(all, serial)
		}
	}
	if p.found, err = bySerial(txApp, all); err != nil {
		return nil, err
	}
	var split []Group
	for i, g := range p.groups {
		var rows []row
		if g.Implicit && len(g.Serials) == 0 {
			if len(g.From) == 0 || g.Count <= 0 {
				continue
			}
			if rows, err = locatedAt(txApp, g.From[0].Id, g.Count, nil, false, false); err != nil {
				return nil, err
			}
			p.implicit[i] = rows
		}
		if !stock(g.To.Kind) || quarantine.Id == "" {
			continue
		}
		// an out-of-use pack returned to stock goes to quarantine, with its battery
		var keep []string
		var off []string
		if g.Implicit && len(g.Serials) == 0 {
			var in []row
			for _, r := range rows {
				if r.outOfUse() {
					// split off below as a named group: Apply finds it by its serial
					off = append(off, r.serial)
					p.found[r.serial] = r
				} else {
					in = append(in, r)
				}
			}
			p.implicit[i] = in
		} else {
			for _, code := range g.Serials {
				if r, ok := p.found[Serial(code)]; ok && r.outOfUse() {
					off = append(off, code)
				} else {
					keep = append(keep, code)
				}
			}
		}
		if len(off) == 0 {
			continue
		}
		if p.Redirected == nil {
			p.Redirected = map[string]int{}
		}
		p.Redirected[g.To.Id] += len(off)
		q := g
		q.Serials, q.Count, q.To, q.Implicit = off, len(off), quarantine, false
		q.unseen = g.Implicit && len(g.Serials) == 0
		split = append(split, q)
		p.groups[i].Count -= len(off)
		if !g.Implicit || len(g.Serials) > 0 {
			p.groups[i].Serials = keep
		}
	}
	p.groups = append(p.groups, split...)
	if p.mode == schema.PackTrackingRequired {
		p.source()
	}
	return p, nil
}

// source fills p.Sourced: where the records put each named pack that its group does not take
// its batteries from (a known account, not outside; a pack in transit is refused by Apply). A
// charging session is left out: its quantity follows its account only through the charging
// module, so its battery stays counted there (the stand-ins match the records as before).
func (p *Plan) source() {
	for _, g := range p.groups {
		if g.Implicit && len(g.Serials) == 0 {
			continue
		}
		for _, code := range g.Serials {
			r, ok := p.found[Serial(code)]
			if !ok || r.location == "" || r.locKind == schema.AccountKindOutside || r.locKind == schema.AccountKindSession ||
				r.state == schema.PackStateInTransit || expected(r, g) {
				continue
			}
			if p.Sourced == nil {
				p.Sourced = map[string]int{}
			}
			p.Sourced[r.location]++
		}
	}
}

// Apply writes the packs of movement mv (its id, user, actor, session and time set), whose
// entries are deltas between accounts, and returns the moves to keep in its meta. See the
// package comment for the rules.
func (p *Plan) Apply(txApp core.App, mv Movement, deltas map[string]int) ([]Move, error) {
	if p == nil || len(p.groups) == 0 {
		return nil, nil
	}
	w := writer{txApp: txApp, mv: mv.Id, session: mv.SessionId, at: mv.At, actor: mv.ActorId, wornRefuse: p.wornRefuse}
	if w.actor == "" {
		w.actor = mv.UserId
	}
	packD := map[string]int{}
	var moves []Move
	var refused []apierr.PackRefusal
	refusedField := ""
	for i, g := range p.groups {
		var rows []row
		implicit := g.Implicit && len(g.Serials) == 0
		if implicit {
			rows = p.implicit[i]
		} else {
			for _, code := range g.Serials {
				serial := Serial(code)
				r, ok := p.found[serial]
				if !ok {
					e := packErr(http.StatusBadRequest, g.Field, apierr.CodePackUnknown, fmt.Sprintf(MsgPackUnknown, serial))
					e.(*apierr.Error).Packs = []apierr.PackRefusal{{Serial: serial, Code: apierr.CodePackUnknown, Message: e.Error()}}
					return nil, e
				}
				rows = append(rows, r)
			}
		}
		for _, r := range rows {
			if r.state == schema.PackStateInTransit {
				// sent to another city: in use nowhere here, whatever the route
				refused = append(refused, TransitRefusal(r.serial))
				if refusedField == "" {
					refusedField = g.Field
				}
				continue
			}
			if r.outOfUse() && g.To.Kind != schema.AccountKindQuarantine {
				refused = append(refused, refusal(r))
				if refusedField == "" {
					refusedField = g.Field
				}
				continue
			}
			if p.wornRefuse && r.worn && handOut(g.To.Kind) {
				refused = append(refused, WornRefusal(r.serial, r.wornReason))
				if refusedField == "" {
					refusedField = g.Field
				}
				continue
			}
			from := r.location
			if r.locKind == schema.AccountKindOutside {
				from = ""
			}
			m := Move{Serial: r.serial, Field: g.Field, From: from, To: g.To.Id, Charged: g.Charged}
			if implicit {
				m.Field = ""
			}
			if m.Discrepancy = from != "" && !expected(r, g); m.Discrepancy && from == m.To {
				// already where this movement puts it: if a discrepancy put it there, this is the
				// same difference seen from the other side (two drivers sent the same pack),
				// recorded once
				seen, err := lastWasDiscrepancy(txApp, r.id)
				if err != nil {
					return nil, err
				}
				m.Discrepancy = !seen
			}
			lostFollows := false
			switch {
			case r.state == schema.PackStateLost && (implicit || g.unseen):
				// not scanned: the records' place follows the batteries, as a stand-in's would;
				// it stays lost, unseen and uncharged (found only when a scan names it)
				m.StandIn, m.Charged, m.Discrepancy, m.Field = true, false, false, ""
				lostFollows = true
			case r.state == schema.PackStateLost:
				m.Found = r.stateBefore
				if m.Found == "" || m.Found == schema.PackStateLost {
					m.Found = schema.PackStateInService
				}
			}
			if err := w.move(r, m, g); err != nil {
				return nil, err
			}
			if lostFollows {
				w.events[len(w.events)-1].reason = ReasonLostFollows
			}
			packD[from]--
			packD[m.To]++
			moves = append(moves, m)
		}
	}
	if len(refused) > 0 {
		return nil, outOfUseErr(refusedField, refused)
	}
	if p.mode == schema.PackTrackingRequired {
		extra, err := w.reconcile(deltas, packD, p.named)
		if err != nil {
			return nil, err
		}
		moves = append(moves, extra...)
	}
	return moves, w.flush()
}

// lastWasDiscrepancy reports whether pack's latest move in its history is a discrepancy.
func lastWasDiscrepancy(txApp core.App, pack string) (bool, error) {
	var kind string
	err := sqlitedb.Query(txApp.DB(), "SELECT kind FROM "+schema.PackEvents+" WHERE pack = {:p} AND kind IN ({:moved}, {:disc}, {:charged}) ORDER BY rowid DESC LIMIT 1",
		dbx.Params{"p": pack, "moved": schema.PackEventMoved, "disc": schema.PackEventDiscrepancy, "charged": schema.PackEventCharged},
		func(scan func(...any) error) error { return scan(&kind) })
	return kind == schema.PackEventDiscrepancy, err
}

// lastTransit is the movement of pack's latest send or receive between cities ("" none).
func lastTransit(txApp core.App, pack string) (string, error) {
	var mv string
	err := sqlitedb.Query(txApp.DB(), "SELECT movement FROM "+schema.PackEvents+" WHERE pack = {:p} AND kind IN ({:sent}, {:received}) ORDER BY rowid DESC LIMIT 1",
		dbx.Params{"p": pack, "sent": schema.PackEventTransferred, "received": schema.PackEventReceived},
		func(scan func(...any) error) error { return scan(&mv) })
	return mv, err
}

// expected reports whether the records had pack r where group g takes its batteries from.
func expected(r row, g Group) bool {
	for _, a := range g.From {
		if a.Id == r.location {
			return true
		}
	}
	return g.FromUser != "" && r.locKind == schema.AccountKindHolder && r.locUser == g.FromUser
}

// Return puts a corrected or deleted movement's packs back where they were: each pack still
// where the movement put it goes back (a pack that has moved on since stays: its later
// movement is the truth), its charge and its find are undone, and in required mode the records
// are matched to the counts again.
//
// An out-of-use pack is never put back with a person, on a charger or in stock: such a
// return is refused (pack_quarantined / pack_retired, naming each pack) whatever the tracking
// mode — off too: the moves being undone (a quarantine, a dropoff redirected there) were
// written with their packs, and undoing them would put a recalled pack and its battery back
// in use.
func Return(txApp core.App, mv Movement, moves []Move, undo map[string]int, actorId, reason string) ([]Move, error) {
	serials := make([]string, len(moves))
	for i, m := range moves {
		serials[i] = m.Serial
	}
	found, err := bySerial(txApp, serials)
	if err != nil {
		return nil, err
	}
	mode, err := Mode(txApp)
	if err != nil {
		return nil, err
	}
	dest := map[string]int{}
	for _, m := range moves {
		dest[m.From] = 1
	}
	kinds, err := accountKinds(txApp, dest)
	if err != nil {
		return nil, err
	}
	w := writer{txApp: txApp, mv: mv.Id, session: mv.SessionId, at: clock.Now().UTC(), actor: actorId, reason: reason, returning: true}
	var refused []apierr.PackRefusal
	packD := map[string]int{}
	named := map[string]bool{}
	var returned []Move
	for i := len(moves) - 1; i >= 0; i-- {
		m := moves[i]
		r, ok := found[m.Serial]
		if !ok || named[m.Serial] {
			continue
		}
		if m.Transit == TransitOut {
			// sent away and back here since (received again, perhaps sent again): the receive
			// counts it, so undoing the send would count its battery twice — whatever the mode
			last, err := lastTransit(txApp, r.id)
			if err != nil {
				return nil, err
			}
			if last != mv.Id || r.state != schema.PackStateInTransit {
				return nil, &apierr.Error{Kind: apierr.ErrConflict, Code: apierr.CodePackState, Message: fmt.Sprintf(MsgSendCameBack, m.Serial),
					Packs: []apierr.PackRefusal{{Serial: m.Serial, Code: apierr.CodePackState, Message: fmt.Sprintf(MsgSendCameBack, m.Serial)}}}
			}
		}
		if r.location != m.To {
			if mode == schema.PackTrackingRequired && !m.StandIn {
				// like its batteries, a pack that has moved on cannot be put back: the later
				// movement would lose it
				return nil, apierr.Conflict(fmt.Sprintf(MsgPackMovedOn, m.Serial))
			}
			continue // it moved on: its later movement is the truth (a stand-in: reconciled below)
		}
		if r.outOfUse() && kinds[m.From] != schema.AccountKindQuarantine {
			refused = append(refused, refusal(r))
			continue
		}
		named[m.Serial] = true
		back := Move{Serial: m.Serial, From: m.To, To: m.From, Charged: m.Charged, Found: m.Found, Transit: m.Transit}
		if err := w.move(r, back, Group{}); err != nil {
			return nil, err
		}
		packD[back.From]--
		packD[back.To]++
		if !m.StandIn && m.Field != "" {
			returned = append(returned, m)
		}
	}
	if len(refused) > 0 {
		return nil, outOfUseErr("", refused)
	}
	if mode == schema.PackTrackingRequired {
		// where a pack is put back is the records' old guess, not a scan: any pack may stand in
		if _, err := w.reconcile(undo, packD, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	return returned, w.flush()
}

// bySerial reads the packs with the given serials, with their location's kind and holder.
func bySerial(txApp core.App, serials []string) (map[string]row, error) {
	out := map[string]row{}
	if len(serials) == 0 {
		return out, nil
	}
	params := dbx.Params{}
	err := sqlitedb.Query(txApp.DB(), selectRows+" WHERE p.serial IN ("+sqlitedb.In(params, "s", serials)+")", params, scanRow(out))
	return out, err
}

// locatedAt reads up to n packs the records put at account, the least recently seen first,
// leaving out the serials in skip (and the out-of-use packs when inUseOnly, the worn ones when
// unworn).
func locatedAt(txApp core.App, account string, n int, skip map[string]bool, inUseOnly, unworn bool) ([]row, error) {
	out := map[string]row{}
	where := " WHERE p.location = {:a}"
	if inUseOnly {
		where += " AND p.state NOT IN ('quarantined', 'retired', 'recycled') AND NOT (p.state = 'lost' AND p.stateBefore IN ('quarantined', 'retired', 'recycled'))"
	}
	if unworn {
		where += " AND COALESCE(p.worn, 0) = 0"
	}
	// a few more than asked, so the skipped ones cannot leave the answer short
	err := sqlitedb.Query(txApp.DB(), selectRows+where+" ORDER BY p.lastSeenAt, p.id LIMIT {:n}",
		dbx.Params{"a": account, "n": n + len(skip)}, scanRow(out))
	if err != nil {
		return nil, err
	}
	rows := make([]row, 0, len(out))
	for _, r := range out {
		if !skip[r.serial] {
			rows = append(rows, r)
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].lastSeen != rows[j].lastSeen {
			return rows[i].lastSeen < rows[j].lastSeen
		}
		return rows[i].id < rows[j].id
	})
	return rows[:min(n, len(rows))], nil
}

const selectRows = "SELECT p.id, p.serial, p.state, p.stateBefore, p.location, COALESCE(a.kind, ''), COALESCE(a.user, ''), p.lastSeenAt, " +
	"COALESCE(p.worn, 0), COALESCE(p.wornReason, '') " +
	"FROM " + schema.Packs + " p LEFT JOIN " + schema.Accounts + " a ON a.id = p.location"

func scanRow(out map[string]row) func(scan func(...any) error) error {
	return func(scan func(...any) error) error {
		var r row
		if err := scan(&r.id, &r.serial, &r.state, &r.stateBefore, &r.location, &r.locKind, &r.locUser, &r.lastSeen, &r.worn, &r.wornReason); err != nil {
			return err
		}
		out[r.serial] = r
		return nil
	}
}

// writer writes one movement's pack changes: an UPDATE per pack and the events in one INSERT.
type writer struct {
	txApp     core.App
	mv        string // the movement's id ("" for a state change, a damage report, a recall)
	session   string // its charging session ("" none)
	at        time.Time
	actor     string
	reason    string // for every event (a return); "" picks each event's own
	returning bool   // putting packs back: the charge and the find are undone
	// wornRefuse: the worn mode is refuse, so a worn pack stands in toward no person or charger
	// (never set for a Return: an undo is not a hand-out)
	wornRefuse bool
	events     []event
	updates    map[string]*update // pending pack UPDATEs by what they set
	order      []string           // their keys in the order first seen
	atStr      string             // atText, once formatted
	nowStr     string             // nowText, once read
}

// update is one pending UPDATE of packs: what it sets, with which values, on which packs.
type update struct {
	set    string
	params dbx.Params
	ids    []string
}

// queue adds pack id to the pending UPDATE filed under key: packs that change alike share one
// statement (flushUpdates). set and params are the first filed under the key.
func (w *writer) queue(key, set string, params dbx.Params, id string) {
	u, ok := w.updates[key]
	if !ok {
		if w.updates == nil {
			w.updates = map[string]*update{}
		}
		u = &update{set: set, params: params}
		w.updates[key] = u
		w.order = append(w.order, key)
	}
	u.ids = append(u.ids, id)
}

// flushUpdates runs the pending pack UPDATEs, one statement per kind of change.
func (w *writer) flushUpdates() error {
	for _, key := range w.order {
		u := w.updates[key]
		q := "UPDATE " + schema.Packs + " SET " + u.set + " WHERE id IN (" + sqlitedb.In(u.params, "id", u.ids) + ")"
		if err := sqlitedb.Exec(w.txApp.DB(), q, u.params); err != nil {
			return fmt.Errorf("move packs: %w", err)
		}
	}
	w.updates, w.order = nil, nil
	return nil
}

type event struct {
	pack, kind, from, to, expected, reason, fromState, toState string
	photos, recall                                             string // a damage report's photos (JSON), a recall's id
}

// atText is the movement's time as PocketBase stores dates (formatted once per writer).
func (w *writer) atText() string {
	if w.atStr == "" {
		at, _ := types.ParseDateTime(w.at)
		w.atStr = at.String()
	}
	return w.atStr
}

// nowText is the time of the write as PocketBase stores dates (read once per writer: every
// row the movement changes has the same updated and created).
func (w *writer) nowText() string {
	if w.nowStr == "" {
		w.nowStr = types.NowDateTime().String()
	}
	return w.nowStr
}

// move records pack r's move m (of group g; zero for a return or a stand-in).
func (w *writer) move(r row, m Move, g Group) error {
	params := dbx.Params{"to": m.To, "now": w.nowText(), "at": w.atText(), "by": w.actor, "mv": w.mv, "charge": 0}
	set := []string{"location = {:to}", "updated = {:now}"}
	seen := !m.StandIn && !w.returning
	if seen {
		set = append(set, "lastSeenAt = {:at}", "lastSeenBy = {:by}", "lastSeenMovement = {:mv}")
	}
	if w.returning {
		// the movement is no longer the pack's last sighting
		set = append(set, "lastSeenMovement = CASE WHEN lastSeenMovement = {:mv} THEN '' ELSE lastSeenMovement END")
	}
	if m.Charged {
		params["charge"] = 1
		if w.returning {
			params["charge"] = -1
		}
		set = append(set, "chargeCount = MAX(0, COALESCE(chargeCount, 0) + {:charge})")
	}
	if m.Transit != "" {
		// a transfer between cities: the state goes with the place (TransitOut: in transit while
		// away; TransitIn: in service once here), and back when the movement is undone
		params["state"], params["before"] = transitState(m.Transit, w.returning), ""
		set = append(set, "state = {:state}", "stateBefore = {:before}")
		if w.returning {
			w.events = append(w.events, event{pack: r.id, kind: schema.PackEventState, fromState: r.state, toState: params["state"].(string)})
		}
	}
	if m.Found != "" {
		if w.returning {
			// lost again, keeping the state it has now (an admin may have changed it since the
			// find) for its next find
			before := r.state
			if before == "" || before == schema.PackStateLost {
				before = m.Found
			}
			params["state"], params["before"] = schema.PackStateLost, before
			w.events = append(w.events, event{pack: r.id, kind: schema.PackEventState, fromState: r.state, toState: schema.PackStateLost})
		} else {
			params["state"], params["before"] = m.Found, ""
			w.events = append(w.events, event{pack: r.id, kind: schema.PackEventFound, reason: ReasonFound, fromState: r.state, toState: m.Found})
		}
		set = append(set, "state = {:state}", "stateBefore = {:before}")
	}
	// packs that change alike (same place, same flags) share one UPDATE (flushUpdates)
	stmt := strings.Join(set, ", ")
	state, _ := params["state"].(string)
	before, _ := params["before"].(string)
	key := stmt + "|" + m.To + "|" + strconv.Itoa(params["charge"].(int)) + "|" + state + "|" + before
	w.queue(key, stmt, params, r.id)
	e := event{pack: r.id, kind: schema.PackEventMoved, from: m.From, to: m.To}
	switch {
	case m.StandIn:
		e.reason = ReasonStandIn
	case m.Discrepancy:
		// where it was scanned (the movement's source), and where the records had it
		e.kind, e.reason, e.expected = schema.PackEventDiscrepancy, ReasonDiscrepancy, m.From
		e.from = ""
		if len(g.From) > 0 {
			e.from = g.From[0].Id
		}
	case m.Charged && !w.returning:
		e.kind = schema.PackEventCharged
	case m.From == "" && !w.returning:
		e.reason = ReasonFirstSeen
	}
	w.events = append(w.events, e)
	return nil
}

// reconcile moves stand-ins so that, for every account the movement touched, the packs it
// gained or lost equal the batteries it gained or lost (required mode; see the package comment).
// countD are the movement's entries, packD what its named packs did; named packs are not
// stand-ins.
func (w *writer) reconcile(countD, packD map[string]int, named map[string]bool) ([]Move, error) {
	if err := w.flushUpdates(); err != nil { // the reads below see the named moves
		return nil, err
	}
	diff := map[string]int{}
	for acc, d := range packD {
		diff[acc] += d
	}
	for acc, d := range countD {
		diff[acc] -= d
	}
	// the unknown place and outside only take packs the records can no longer place
	kinds, users, err := accountsOf(w.txApp, diff)
	if err != nil {
		return nil, err
	}
	sink := 0
	var surplus, deficit []string
	for _, acc := range slices.Sorted(maps.Keys(diff)) {
		d := diff[acc]
		if acc == "" || kinds[acc] == schema.AccountKindOutside {
			if acc == "" {
				sink += packD[""]
			}
			continue
		}
		if d > 0 {
			surplus = append(surplus, acc)
		} else if d < 0 {
			deficit = append(deficit, acc)
		}
	}
	if sink < 0 { // named packs came out of the unknown: as many recorded packs go there
		deficit = append(deficit, "")
		diff[""] = sink
	}
	var out []Move
	for _, src := range surplus {
		for diff[src] > 0 && len(deficit) > 0 {
			dst := deficit[0]
			n := min(diff[src], -diff[dst])
			if err := w.flushUpdates(); err != nil {
				return nil, err
			}
			// an out-of-use pack stands in only toward quarantine, the unknown, or another
			// holding of the same person (the records' split of what one driver holds)
			sameHands := kinds[src] == schema.AccountKindHolder && kinds[dst] == schema.AccountKindHolder && users[src] != "" && users[src] == users[dst]
			inUseOnly := dst != "" && kinds[dst] != schema.AccountKindQuarantine && !sameHands
			// …and a worn one, in refuse mode, toward no person or charger
			unworn := w.wornRefuse && dst != "" && handOut(kinds[dst]) && !sameHands
			rows, err := locatedAt(w.txApp, src, n, named, inUseOnly, unworn)
			if err != nil {
				return nil, err
			}
			if (inUseOnly || unworn) && len(rows) < n {
				// only out-of-use (or worn) packs are left to stand in: the records cannot follow
				// the counts without taking one to a person, a charger or stock — refused, naming them
				all, err := locatedAt(w.txApp, src, n, named, false, false)
				if err != nil {
					return nil, err
				}
				var refused []apierr.PackRefusal
				for _, r := range all {
					if inUseOnly && r.outOfUse() {
						refused = append(refused, refusal(r))
					} else if unworn && r.worn {
						refused = append(refused, WornRefusal(r.serial, r.wornReason))
					}
				}
				if len(refused) > 0 {
					return nil, outOfUseErr("", refused)
				}
			}
			if len(rows) == 0 {
				if w.returning {
					// a correction or delete whose packs have moved on, and no other pack is
					// where the records need one: the later movements are the truth
					return nil, apierr.Conflict(MsgPacksMovedOn)
				}
				break // the records had none left there to give
			}
			for _, r := range rows {
				m := Move{Serial: r.serial, From: src, To: dst, StandIn: true}
				if err := w.move(r, m, Group{}); err != nil {
					return nil, err
				}
				named[r.serial] = true
				out = append(out, m)
			}
			diff[src] -= len(rows)
			diff[dst] += len(rows)
			if diff[dst] == 0 {
				deficit = deficit[1:]
			}
		}
	}
	return out, nil
}

// accountKinds reads the kinds of the accounts with a non-zero entry in diff.
func accountKinds(txApp core.App, diff map[string]int) (map[string]string, error) {
	kinds, _, err := accountsOf(txApp, diff)
	return kinds, err
}

// accountsOf reads the kinds and holders (users) of the accounts with a non-zero entry in diff.
func accountsOf(txApp core.App, diff map[string]int) (kinds, users map[string]string, err error) {
	out, users := map[string]string{}, map[string]string{}
	params := dbx.Params{}
	var holders []string
	for acc, d := range diff {
		if acc == "" || d == 0 {
			continue
		}
		k := "a" + strconv.Itoa(len(holders))
		params[k] = acc
		holders = append(holders, "{:"+k+"}")
	}
	if len(holders) == 0 {
		return out, users, nil
	}
	err = sqlitedb.Query(txApp.DB(), "SELECT id, kind, COALESCE(user, '') FROM "+schema.Accounts+" WHERE id IN ("+strings.Join(holders, ", ")+")", params,
		func(scan func(...any) error) error {
			var id, kind, user string
			if err := scan(&id, &kind, &user); err != nil {
				return err
			}
			out[id], users[id] = kind, user
			return nil
		})
	return out, users, err
}

// eventChunk is how many pack events one INSERT writes (at most 11 parameters a row, well
// under SQLite's limit on parameters).
const eventChunk = 500

// flush runs the pending UPDATEs and stores the events in multi-row INSERTs: the one writer
// of pack_events.
func (w *writer) flush() error {
	if err := w.flushUpdates(); err != nil {
		return err
	}
	ins := bulk.Rows{What: "pack events", Chunk: eventChunk,
		Into:   "INSERT INTO " + schema.PackEvents + " (id, pack, kind, movement, session, fromAccount, toAccount, expectedAccount, actor, reason, fromState, toState, at, created, photos, recall) VALUES ",
		Tuple:  "({:id%[1]s}, {:p%[1]s}, {:k%[1]s}, {:mv}, {:session}, {:f%[1]s}, {:t%[1]s}, {:e%[1]s}, {:actor}, {:r%[1]s}, {:fs%[1]s}, {:ts%[1]s}, {:at}, {:created}, {:ph%[1]s}, {:rc%[1]s})",
		Shared: dbx.Params{"mv": w.mv, "session": w.session, "actor": w.actor, "at": w.atText(), "created": w.nowText()}}
	_, err := ins.Insert(w.txApp.DB(), len(w.events), func(i int, k string, params dbx.Params) error {
		e := w.events[i]
		reason := e.reason
		if w.reason != "" {
			reason = w.reason
		}
		photos := e.photos
		if photos == "" {
			photos = "[]"
		}
		params["id"+k], params["p"+k], params["k"+k] = ids.New(), e.pack, e.kind
		params["f"+k], params["t"+k], params["e"+k], params["r"+k] = e.from, e.to, e.expected, reason
		params["fs"+k], params["ts"+k], params["ph"+k], params["rc"+k] = e.fromState, e.toState, photos, e.recall
		return nil
	})
	if err != nil {
		return err
	}
	w.events = nil
	return nil
}

// ReasonPlaceGone is the history line of a pack whose place an operation removed (its
// label: "Clean slate").
const ReasonPlaceGone = "%s: the place the records had it at was removed; place unknown"

// Unplace clears the location of every pack whose account no longer exists (label's operation
// removed it: the clean slate deletes the holders' and the sessions' accounts), each with a
// "moved" event saying why, by actor at at, in the caller's transaction. It returns how many.
func Unplace(txApp core.App, label, actor string, at time.Time) (int, error) {
	if err := txutil.Require(txApp, "journal.Unplace"); err != nil {
		return 0, err
	}
	rows, err := stateRows(txApp, "p.location != '' AND a.id IS NULL", dbx.Params{})
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	w := writer{txApp: txApp, at: at.UTC(), actor: actor}
	reason := fmt.Sprintf(ReasonPlaceGone, label)
	for _, r := range rows {
		w.queue("gone", "location = '', updated = {:now}", dbx.Params{"now": w.nowText()}, r.id)
		w.events = append(w.events, event{pack: r.id, kind: schema.PackEventMoved, from: r.location, reason: reason})
	}
	return len(rows), w.flush()
}

// Check compares the packs with the balances for system.Recalculate. A location naming an
// account that no longer exists (a clean slate or a history wipe removed it) is cleared: the
// pack's place is unknown. In required mode, every account whose packs differ from its
// balance is described ("ready: 12 batteries, 11 packs"); a clean ledger has none. The other
// modes allow unnamed batteries, so they report only the cleared locations.
func Check(txApp core.App) ([]string, error) {
	out := []string{}
	n, err := sqlitedb.ExecAffected(txApp.DB(), "UPDATE "+schema.Packs+" SET location = '', updated = {:now} "+
		"WHERE location != '' AND location NOT IN (SELECT id FROM "+schema.Accounts+")", dbx.Params{"now": types.NowDateTime().String()})
	if err != nil {
		return nil, err
	}
	if n > 0 {
		out = append(out, fmt.Sprintf("packs: %d locations named a place that no longer exists → unknown", n))
	}
	mode, err := Mode(txApp)
	if err != nil || mode != schema.PackTrackingRequired {
		return out, err
	}
	var exists int
	if err := txApp.DB().NewQuery("SELECT EXISTS (SELECT 1 FROM " + schema.Packs + ")").Row(&exists); err != nil || exists == 0 {
		return out, err // no pack registered yet: nothing to compare
	}
	err = sqlitedb.Query(txApp.DB(), "SELECT a.key, a.balance, COUNT(p.id) FROM "+schema.Accounts+" a LEFT JOIN "+schema.Packs+" p ON p.location = a.id "+
		"WHERE a.kind != {:outside} GROUP BY a.id HAVING COUNT(p.id) != a.balance ORDER BY a.key",
		dbx.Params{"outside": schema.AccountKindOutside}, func(scan func(...any) error) error {
			var key string
			var balance, packs int
			if err := scan(&key, &balance, &packs); err != nil {
				return err
			}
			out = append(out, fmt.Sprintf("packs at %s: %d batteries, %d packs", key, balance, packs))
			return nil
		})
	return out, err
}

// PackCountMessage is a pack_count refusal for count batteries with n packs named, in words
// ("Name exactly 1 pack for 1 battery (2 named)", "… 3 packs for 3 batteries …").
func PackCountMessage(format string, count, n int) string {
	packs, batteries := fmt.Sprintf("%d packs", count), fmt.Sprintf("%d batteries", count)
	if count == 1 {
		packs, batteries = "1 pack", "1 battery"
	}
	return fmt.Sprintf(format, packs, batteries, n)
}
