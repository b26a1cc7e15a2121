package packs

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/journal"
)

// A recall (issue 37 item 3, DESIGN.md §14): an admin chooses a lot, model or manufacturer,
// sees how many packs match and where they are (RecallPreview), and quarantines them all at
// once with a reason (Recall): one transaction of a few statements whatever the lot's size —
// the events in multi-row INSERTs, the packs in one UPDATE — not a record save per pack. The
// recall page (RecallDetail) lists every recalled pack with its place and last holder.

// Messages of a recall.
const (
	MsgRecallBy        = "Recall by lot, model or manufacturer"
	MsgRecallValue     = "Choose the lot, model or manufacturer to recall"
	MsgRecallReason    = "Please give a reason for the recall"
	MsgRecallNoMatch   = "No pack has %s %s"
	MsgRecallNothing   = "Every pack with %s %s is already quarantined, retired or recycled: nothing to recall"
	MsgRecalled        = "%d packs with %s %s quarantined"
	MsgRecallStanding  = "No pack with %s %s is in use here now: the recall stands for the packs that arrive"
	MsgRecallNotFound  = "Recall not found"
	reasonRecallFormat = "Recall of %s %s: %s"
)

// Place labels of the recall page (a person's place is their name).
const (
	PlaceReady      = "Ready"
	PlaceWaiting    = "Waiting to charge"
	PlaceCharging   = "Charging"
	PlaceUnassigned = "In the field (unassigned)"
	PlaceUnknown    = "Unknown"
	PlaceQuarantine = "Quarantine"
)

// recallColumn is the packs column a recall by by matches.
func recallColumn(by string) (string, bool) {
	switch by {
	case schema.PackRecallByLot:
		return schema.PackLot, true
	case schema.PackRecallByModel:
		return schema.PackModel, true
	case schema.PackRecallByManufacturer:
		return schema.PackManufacturer, true
	}
	return "", false
}

// recallTarget checks by and value.
func recallTarget(by, value string) (string, string, error) {
	by = strings.TrimSpace(by)
	col, ok := recallColumn(by)
	if !ok {
		return "", "", apierr.Invalid("by", MsgRecallBy)
	}
	value = strings.TrimSpace(value)
	if value == "" || len([]rune(value)) > schema.MaxPackTextLength {
		return "", "", apierr.Invalid("value", MsgRecallValue)
	}
	return col, value, nil
}

// PlaceCount is how many packs are at one place.
type PlaceCount struct {
	Place string `json:"place"`
	Count int    `json:"count"`
}

// Preview is what a recall would quarantine: Count packs (at Places), AlreadyQuarantined
// matching packs it leaves as they are (retired and recycled ones are not counted).
type Preview struct {
	Count              int          `json:"count"`
	AlreadyQuarantined int          `json:"alreadyQuarantined"`
	Places             []PlaceCount `json:"places"`
}

// recallPlace is how the recall pages name a place: the bay's shelves, a charger, a person.
func recallPlace(kind, name string) string {
	switch kind {
	case schema.AccountKindReady:
		return PlaceReady
	case schema.AccountKindWaiting:
		return PlaceWaiting
	case schema.AccountKindSession, schema.AccountKindUntracked:
		return PlaceCharging
	case schema.AccountKindHolder:
		return nameOr(name)
	case schema.AccountKindUnassigned:
		return PlaceUnassigned
	case schema.AccountKindQuarantine:
		return PlaceQuarantine
	}
	return PlaceUnknown
}

// inBay reports whether an account of kind is in the bay (ready, waiting, quarantine or on a
// charger).
func inBay(kind string) bool {
	return kind == schema.AccountKindReady || kind == schema.AccountKindWaiting || kind == schema.AccountKindQuarantine ||
		kind == schema.AccountKindSession || kind == schema.AccountKindUntracked
}

const stoppedStates = "('" + schema.PackStateQuarantined + "', '" + schema.PackStateRetired + "', '" + schema.PackStateRecycled + "')"

// RecallPreview answers how many packs a recall by by of value would quarantine and where.
func RecallPreview(app core.App, by, value string) (Preview, error) {
	col, value, err := recallTarget(by, value)
	if err != nil {
		return Preview{}, err
	}
	out := Preview{Places: []PlaceCount{}}
	counts := map[string]int{}
	var order []string
	err = sqlitedb.Query(app.DB(), "SELECT p.state, COALESCE(a.kind, ''), COALESCE(TRIM(u.firstName || ' ' || u.lastName), ''), COUNT(*) FROM "+schema.Packs+" p"+
		" LEFT JOIN "+schema.Accounts+" a ON a.id = p.location AND p.location != ''"+
		" LEFT JOIN "+schema.Users+" u ON u.id = a.user AND a.user != ''"+
		" WHERE p."+col+" = {:v} AND p.state NOT IN ('"+schema.PackStateRetired+"', '"+schema.PackStateRecycled+"')"+
		" GROUP BY p.state = '"+schema.PackStateQuarantined+"', a.kind, a.user ORDER BY COUNT(*) DESC",
		dbx.Params{"v": value}, func(scan func(...any) error) error {
			var state, kind, name string
			var n int
			if err := scan(&state, &kind, &name, &n); err != nil {
				return err
			}
			if state == schema.PackStateQuarantined {
				out.AlreadyQuarantined += n
				return nil
			}
			out.Count += n
			place := recallPlace(kind, name)
			if _, ok := counts[place]; !ok {
				order = append(order, place)
			}
			counts[place] += n
			return nil
		})
	if err != nil {
		return Preview{}, err
	}
	for _, p := range order {
		out.Places = append(out.Places, PlaceCount{Place: p, Count: counts[p]})
	}
	slices.SortStableFunc(out.Places, func(a, b PlaceCount) int { return b.Count - a.Count })
	return out, nil
}

// RecallInfo is a recall as the routes answer it.
type RecallInfo struct {
	Id        string  `json:"id"`
	By        string  `json:"by"`
	Value     string  `json:"value"`
	Reason    string  `json:"reason"`
	At        string  `json:"at"`
	PackCount int     `json:"packCount"`
	Actor     *Person `json:"actor"`
}

// RecallForm is a recall as an admin asks for it.
type RecallForm struct {
	By     string `json:"by"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
	// Standing records the recall even when no pack here matches, or every match is already
	// out of use: it then stands for the packs that arrive later (RecallArrivals). Head office
	// sends it (a pack in transit during its recall arrives in a city that had none of them).
	Standing bool `json:"standing"`
}

// Recall quarantines every pack matching f that is not already quarantined, retired or
// recycled, in one transaction: the recall row, a "state" event per pack naming the recall,
// and the packs' state in one UPDATE. A recall that matches no pack (404), or only packs
// already out of use (409), is refused and writes nothing, unless f.Standing: then its row is
// written with the packs it quarantined (maybe none). Every recall row stands for the packs
// received later (RecallArrivals).
func Recall(app core.App, f RecallForm, actor string, now time.Time) (RecallInfo, error) {
	col, value, err := recallTarget(f.By, f.Value)
	if err != nil {
		return RecallInfo{}, err
	}
	by := strings.TrimSpace(f.By)
	reason, err := reqx.Notes("reason", f.Reason, MsgRecallReason)
	if err != nil {
		return RecallInfo{}, err
	}
	var out RecallInfo
	err = app.RunInTransaction(func(txApp core.App) error {
		total, n, err := journal.RecallCandidates(txApp, col, value)
		if err != nil {
			return err
		}
		if total == 0 && !f.Standing {
			return apierr.NotFound(fmt.Sprintf(MsgRecallNoMatch, by, value))
		}
		if n == 0 && !f.Standing {
			return apierr.Conflict(fmt.Sprintf(MsgRecallNothing, by, value))
		}
		rec, err := records.New(txApp, schema.PackRecalls)
		if err != nil {
			return err
		}
		rec.Set(schema.PackRecallBy, by)
		rec.Set(schema.PackRecallValue, value)
		rec.Set(schema.PackRecallReason, reason)
		rec.Set(schema.PackRecallActor, actor)
		rec.Set(schema.PackRecallAt, now.UTC())
		rec.Set(schema.PackRecallPackCount, n)
		if err := txApp.Save(rec); err != nil {
			return err
		}
		at, _ := types.ParseDateTime(now.UTC())
		evReason := truncate(fmt.Sprintf(reasonRecallFormat, by, value, reason), schema.MaxNotesLength)
		changes, _, err := journal.Recall(txApp, col, value, rec.Id, evReason, actor, now)
		if err != nil {
			return err
		}
		if len(changes) != n {
			return fmt.Errorf("recall: %d packs quarantined, %d expected", len(changes), n)
		}
		// the recalled packs in ready or waiting go to quarantine with their batteries
		if err := shelve(txApp, actor, now, changes); err != nil {
			return err
		}
		toQuarantine := changes
		events.Publish(txApp, events.InventoryUpdated, events.ActivityUpdated)
		out = RecallInfo{Id: rec.Id, By: by, Value: value, Reason: reason, At: at.String(), PackCount: len(toQuarantine)}
		if actor != "" {
			out.Actor = &Person{Id: actor}
		}
		return nil
	})
	if err != nil {
		return RecallInfo{}, err
	}
	if out.Actor != nil {
		out.Actor.Name = userName(app, out.Actor.Id)
	}
	return out, nil
}

// userName is a user's full name ("A former user" when gone).
func userName(app core.App, id string) string {
	var name string
	_ = sqlitedb.Query(app.DB(), "SELECT TRIM(firstName || ' ' || lastName) FROM "+schema.Users+" WHERE id = {:id}",
		dbx.Params{"id": id}, func(scan func(...any) error) error { return scan(&name) })
	return nameOr(name)
}

const recallSelect = "SELECT r.id, r.by, r.value, r.reason, r.at, r.packCount, r.actor, COALESCE(TRIM(u.firstName || ' ' || u.lastName), '') FROM " +
	schema.PackRecalls + " r LEFT JOIN " + schema.Users + " u ON u.id = r.actor AND r.actor != ''"

func scanRecall(out *[]RecallInfo) func(scan func(...any) error) error {
	return func(scan func(...any) error) error {
		var r RecallInfo
		var actor, name string
		if err := scan(&r.Id, &r.By, &r.Value, &r.Reason, &r.At, &r.PackCount, &actor, &name); err != nil {
			return err
		}
		if actor != "" {
			r.Actor = &Person{Id: actor, Name: nameOr(name)}
		}
		*out = append(*out, r)
		return nil
	}
}

// Recalls lists every recall, newest first.
func Recalls(app core.App) ([]RecallInfo, error) {
	out := []RecallInfo{}
	err := sqlitedb.Query(app.DB(), recallSelect+" ORDER BY r.at DESC, r.id DESC", nil, scanRecall(&out))
	return out, err
}

// RecalledPack is one pack of a recall as its page lists it.
type RecalledPack struct {
	Serial     string  `json:"serial"`
	State      string  `json:"state"`
	Place      string  `json:"place"`
	LastHolder *Person `json:"lastHolder"`
	LastSeenAt string  `json:"lastSeenAt"`
	InBay      bool    `json:"inBay"`
}

// RecallPage is a recall with its packs: Total of them, InBay back in the bay (ready,
// waiting or on a charger); the packs still out first.
type RecallPage struct {
	Recall RecallInfo     `json:"recall"`
	Total  int            `json:"total"`
	InBay  int            `json:"inBay"`
	Packs  []RecalledPack `json:"packs"`
}

// RecallDetail answers the recall page of recall id.
func RecallDetail(app core.App, id string) (RecallPage, error) {
	var list []RecallInfo
	if err := sqlitedb.Query(app.DB(), recallSelect+" WHERE r.id = {:id}", dbx.Params{"id": id}, scanRecall(&list)); err != nil {
		return RecallPage{}, err
	}
	if len(list) == 0 {
		return RecallPage{}, apierr.NotFound(MsgRecallNotFound)
	}
	out := RecallPage{Recall: list[0], Packs: []RecalledPack{}}
	q := "SELECT p.id, p.serial, p.state, COALESCE(a.kind, ''), COALESCE(TRIM(hu.firstName || ' ' || hu.lastName), ''), p.lastSeenAt" +
		" FROM " + schema.Packs + " p" +
		" LEFT JOIN " + schema.Accounts + " a ON a.id = p.location AND p.location != ''" +
		" LEFT JOIN " + schema.Users + " hu ON hu.id = a.user AND a.user != ''" +
		" WHERE p.id IN (SELECT pack FROM " + schema.PackEvents + " WHERE recall = {:id})" +
		" ORDER BY p.serial"
	var packIds []string
	err := sqlitedb.Query(app.DB(), q, dbx.Params{"id": id}, func(scan func(...any) error) error {
		var r RecalledPack
		var packId, kind, name string
		if err := scan(&packId, &r.Serial, &r.State, &kind, &name, &r.LastSeenAt); err != nil {
			return err
		}
		r.Place, r.InBay = recallPlace(kind, name), inBay(kind)
		packIds = append(packIds, packId)
		out.Total++
		if r.InBay {
			out.InBay++
		}
		out.Packs = append(out.Packs, r)
		return nil
	})
	if err != nil {
		return RecallPage{}, err
	}
	// the last holder: the person holding it now, else the last person a pack event put it with
	holders, err := lastHolders(app, packIds)
	if err != nil {
		return RecallPage{}, err
	}
	for i := range out.Packs {
		out.Packs[i].LastHolder = holders[packIds[i]]
	}
	slices.SortStableFunc(out.Packs, func(a, b RecalledPack) int {
		if a.InBay != b.InBay {
			if a.InBay {
				return 1
			}
			return -1
		}
		return 0
	})
	return out, nil
}

// RecallRef names the recall that quarantined a pack (its latest state change).
type RecallRef struct {
	Id     string `json:"id"`
	Reason string `json:"reason"`
}

// recallRefs reads the recalls named by ids (id → its reference).
func recallRefs(app core.App, recallIds map[string]bool) (map[string]*RecallRef, error) {
	out := map[string]*RecallRef{}
	if len(recallIds) == 0 {
		return out, nil
	}
	params := dbx.Params{}
	var holders []string
	for id := range recallIds {
		k := "r" + strconv.Itoa(len(holders))
		params[k] = id
		holders = append(holders, "{:"+k+"}")
	}
	err := sqlitedb.Query(app.DB(), "SELECT id, reason FROM "+schema.PackRecalls+" WHERE id IN ("+strings.Join(holders, ", ")+")",
		params, func(scan func(...any) error) error {
			var r RecallRef
			if err := scan(&r.Id, &r.Reason); err != nil {
				return err
			}
			out[r.Id] = &r
			return nil
		})
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	return out, err
}

// RecallArrivals quarantines the packs among serials that have just come into this city's
// registry — received from another city (or back from one), minted, imported — whose lot,
// model or manufacturer this city has recalled: a recall stands for the packs that come after
// it. A pack in transit during a recall is passed over by the sender's (journal.Recall) and
// reached here, on arrival. Each goes by the newest recall matching it, with the recall's event
// reason; one in ready or waiting takes its battery to quarantine (shelve). Call it in the
// transaction that registered the packs.
func RecallArrivals(txApp core.App, serials []string, actor string, at time.Time) ([]journal.Change, error) {
	if len(serials) == 0 {
		return nil, nil
	}
	params := dbx.Params{}
	in := sqlitedb.In(params, "s", serials)
	type standing struct{ id, by, value, reason string }
	recalls := map[string]standing{} // recall id → recall
	bySerial := map[string]string{}  // serial → the newest recall matching it
	var order []string
	var match []string
	for _, by := range schema.PackRecallBys {
		col, _ := recallColumn(by)
		params["by"+by] = by
		match = append(match, "(r."+schema.PackRecallBy+" = {:by"+by+"} AND r."+schema.PackRecallValue+" = p."+col+")")
	}
	err := sqlitedb.Query(txApp.DB(), "SELECT p."+schema.PackSerial+", r.id, r."+schema.PackRecallBy+", r."+schema.PackRecallValue+", r."+schema.PackRecallReason+
		" FROM "+schema.Packs+" p JOIN "+schema.PackRecalls+" r ON "+strings.Join(match, " OR ")+
		" WHERE p."+schema.PackSerial+" IN ("+in+") ORDER BY r."+schema.PackRecallAt+" DESC, r.id", params,
		func(scan func(...any) error) error {
			var serial string
			var r standing
			if err := scan(&serial, &r.id, &r.by, &r.value, &r.reason); err != nil {
				return err
			}
			if _, ok := bySerial[serial]; ok {
				return nil // an older recall of the same pack
			}
			if _, ok := recalls[r.id]; !ok {
				recalls[r.id] = r
				order = append(order, r.id)
			}
			bySerial[serial] = r.id
			return nil
		})
	if err != nil || len(bySerial) == 0 {
		return nil, err
	}
	var changes []journal.Change
	for _, id := range order {
		r := recalls[id]
		var list []string
		for _, s := range serials {
			if bySerial[s] == id {
				list = append(list, s)
			}
		}
		reason := truncate(fmt.Sprintf(reasonRecallFormat, r.by, r.value, r.reason), schema.MaxNotesLength)
		c, err := journal.RecallSerials(txApp, list, id, reason, actor, at)
		if err != nil {
			return nil, err
		}
		if len(c) > 0 {
			// the recall's "N packs quarantined" counts those it reached on arrival too
			if _, err := txApp.DB().NewQuery("UPDATE " + schema.PackRecalls + " SET " + schema.PackRecallPackCount + " = " + schema.PackRecallPackCount +
				" + {:n} WHERE id = {:id}").Bind(dbx.Params{"n": len(c), "id": id}).Execute(); err != nil {
				return nil, err
			}
		}
		changes = append(changes, c...)
	}
	return changes, shelve(txApp, actor, at, changes)
}

// recallNew applies RecallArrivals to packs just minted or imported, and sets the state of those
// it quarantined on the records the caller answers with.
func recallNew(txApp core.App, created []*Pack, actor string, at time.Time) error {
	serials := make([]string, len(created))
	for i, p := range created {
		serials[i] = p.GetString(schema.PackSerial)
	}
	changes, err := RecallArrivals(txApp, serials, actor, at)
	if err != nil || len(changes) == 0 {
		return err
	}
	to := map[string]string{}
	for _, c := range changes {
		to[c.Serial] = c.To
	}
	for _, p := range created {
		if state, ok := to[p.GetString(schema.PackSerial)]; ok {
			p.Set(schema.PackState, state)
		}
	}
	return nil
}
