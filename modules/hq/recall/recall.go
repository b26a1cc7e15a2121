// Package recall is head office's recall across cities (issue 45 item 5, DESIGN.md §15): an
// hq_admin recalls a lot, model or manufacturer; the recall is recorded first (hq_recalls, and
// one hq_recall_sends row per city), then, once that commits, sent to every city outside any
// transaction — `POST {address}/api/admin/packs/recall` with the token the city issued for head
// office and an Idempotency-Key derived from the recall and the city (Key), so a retry after a
// lost answer, or after head office was stopped mid-way, is answered from the city's stored
// answer and never recalls twice. Progress per city is counted in the city's followed copy:
// the packs matching, those out of use, done when they are equal.
package recall

import (
	"database/sql"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
	"swapbay/modules/packs"
)

// Messages of head office's recall (the city's for by, value and reason: packs.MsgRecall…).
const (
	MsgValueCharacters = "The lot, model or manufacturer cannot contain control or direction-override characters"
	MsgNoMatch         = "No pack in any city matches this recall."
	MsgNothingLeft     = "Every matching pack in every city is already quarantined, retired or recycled: nothing to recall."
	MsgNotFound        = "Recall not found"
	MsgCityNotInRecall = "This city is not part of this recall"
	MsgAlreadySent     = "The city already has this recall: nothing to send again."
	MsgRecallLost      = "The city no longer has this recall: it went back to a backup from before it. Send it again."
	MsgFormerUser      = "A former user"
)

// Form is what POST /api/hq/recalls sends.
type Form struct {
	By     string `json:"by"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// Person names who made a recall.
type Person struct {
	Name string `json:"name"`
}

// CityStatus is a recall's way to one city and its progress there.
type CityStatus struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Send is pending (not answered yet: being sent, or retried after a failure), sent (the city
	// answered: its recall made, or nothing there to recall) or failed (the city refused; Error
	// says why, and the retry route sends it again).
	Send         string `json:"send"`
	Attempts     int    `json:"attempts"`
	Error        string `json:"error"`
	CityRecallID string `json:"cityRecallId"`
	SentAt       string `json:"sentAt"`
	// Matching and Quarantined are counted in the city's copy: the packs matching the recall
	// (those sent to another city aside: they are counted where they arrive) and
	// those of them out of use (quarantined, retired or recycled, or lost while one of those).
	Matching    int  `json:"matching"`
	Quarantined int  `json:"quarantined"`
	Done        bool `json:"done"`
	// Lost: the send was answered, but the city's copy, caught up past the answer, no longer has
	// the city's recall (the city was restored from a backup made before it): Error says so, the
	// city is not done, and the retry route sends it again.
	Lost bool `json:"lost"`
	// CopyOK is false when the city's copy could not be read (CopyError says why in words):
	// the counts are then 0 and the city is not done.
	CopyOK    bool   `json:"copyOk"`
	CopyError string `json:"copyError"`
}

// HQRecall is a recall as the routes answer it.
type HQRecall struct {
	ID     string       `json:"id"`
	By     string       `json:"by"`
	Value  string       `json:"value"`
	Reason string       `json:"reason"`
	At     string       `json:"at"`
	Actor  Person       `json:"actor"`
	Done   bool         `json:"done"`
	Cities []CityStatus `json:"cities"`
}

// clean checks f by the city's rules (packs' recall: by one of lot, model, manufacturer; a
// value of 1..schema.MaxPackTextLength characters; a reason as the city's notes) and answers it
// trimmed. A value holding a control or direction-override character is refused (a pack's lot,
// model and manufacturer never hold one: the registry strips them).
func clean(f Form) (Form, error) {
	var out Form
	out.By = strings.TrimSpace(f.By)
	if column(out.By) == "" {
		return out, apierr.Invalid("by", packs.MsgRecallBy)
	}
	out.Value = strings.TrimSpace(f.Value)
	if out.Value == "" || utf8.RuneCountInString(out.Value) > schema.MaxPackTextLength {
		return out, apierr.Invalid("value", packs.MsgRecallValue)
	}
	if !utf8.ValidString(out.Value) || reqx.StripControls(out.Value) != out.Value {
		return out, apierr.Invalid("value", MsgValueCharacters)
	}
	reason, err := reqx.Notes("reason", f.Reason, packs.MsgRecallReason)
	if err != nil {
		return out, err
	}
	out.Reason = reason
	return out, nil
}

// CityPreview is one city's part of a preview.
type CityPreview struct {
	ID                 string `json:"id"`
	Name               string `json:"name"`
	Count              int    `json:"count"`
	AlreadyQuarantined int    `json:"alreadyQuarantined"`
	OK                 bool   `json:"ok"`
	Error              string `json:"error"`
}

// Preview is what a recall would quarantine in every city, counted in the copies (as each
// city's own preview counts: Count packs a recall would quarantine, AlreadyQuarantined left as
// they are; retired and recycled packs in neither).
type Preview struct {
	Total              int           `json:"total"`
	AlreadyQuarantined int           `json:"alreadyQuarantined"`
	Cities             []CityPreview `json:"cities"`
	matching           int           // every matching pack in the copies read, out of use or not
	unread             int           // cities whose copy could not be read
}

// PreviewOf counts by/value in every city's copy.
func PreviewOf(app core.App, set *follow.Set, by, value string) (Preview, error) {
	f, err := clean(Form{By: by, Value: value, Reason: "preview"})
	if err != nil {
		return Preview{}, err
	}
	cities, err := hq.ListCities(app)
	if err != nil {
		return Preview{}, err
	}
	c := newCopies(set)
	defer c.Close()
	return preview(c, cities, f), nil
}

func preview(c *copies, cities []*core.Record, f Form) Preview {
	out := Preview{Cities: []CityPreview{}}
	for _, city := range cities {
		n, msg := c.count(city.Id, f.By, f.Value)
		p := CityPreview{ID: city.Id, Name: city.GetString(hq.CityName), Count: n.ToQuarantine, AlreadyQuarantined: n.AlreadyQuarantined, OK: msg == "", Error: msg}
		out.Total += p.Count
		out.AlreadyQuarantined += p.AlreadyQuarantined
		out.matching += n.Matching
		if msg != "" {
			out.unread++
		}
		out.Cities = append(out.Cities, p)
	}
	return out
}

// Create records a recall of f by the HQ user actor at now, and one pending send per city
// (txApp: the keyed route's transaction; the sends go once it commits). Refused: a bad field
// (400, named); no pack matches in any copy, every copy read (404); every matching pack is
// already out of use, every copy read (409). A city whose copy cannot be read is sent the recall
// all the same (the city decides: no pack there is done).
func Create(txApp core.App, set *follow.Set, f Form, actor string, now time.Time) (*core.Record, error) {
	f, err := clean(f)
	if err != nil {
		return nil, err
	}
	cities, err := hq.ListCities(txApp)
	if err != nil {
		return nil, err
	}
	c := newCopies(set)
	p := preview(c, cities, f)
	c.Close()
	if p.unread == 0 {
		if p.matching == 0 {
			return nil, apierr.NotFound(MsgNoMatch)
		}
		if p.Total == 0 {
			return nil, apierr.Conflict(MsgNothingLeft)
		}
	}
	col, err := txApp.FindCachedCollectionByNameOrId(Recalls)
	if err != nil {
		return nil, err
	}
	rec := core.NewRecord(col)
	rec.Set(RecallBy, f.By)
	rec.Set(RecallValue, f.Value)
	rec.Set(RecallReason, f.Reason)
	rec.Set(RecallActor, actor)
	rec.Set(RecallAt, now.UTC())
	if err := txApp.Save(rec); err != nil {
		return nil, err
	}
	sends, err := txApp.FindCachedCollectionByNameOrId(Sends)
	if err != nil {
		return nil, err
	}
	for _, city := range cities {
		s := core.NewRecord(sends)
		s.Set(SendRecall, rec.Id)
		s.Set(SendCity, city.Id)
		s.Set(SendCityName, city.GetString(hq.CityName))
		s.Set(SendState, SendPending)
		if err := txApp.Save(s); err != nil {
			return nil, err
		}
	}
	return rec, nil
}

// AddCity records a pending send of every recall head office has made to city, just added
// (txApp: the city's save, hq.OnCityAdded), and answers their ids (sent once the save commits).
// A recall stands: every matching pack out of use wherever it is, and arriving quarantined
// (DESIGN.md §14, §15), so a city followed after the recall was made is sent it like the
// others, and the recall is not done until that city's copy shows its packs out of use (was:
// never sent there, and the recall read done).
func AddCity(txApp core.App, city *core.Record) ([]string, error) {
	var recalls []string
	if err := txApp.DB().Select("id").From(Recalls).OrderBy(RecallAt, "id").Column(&recalls); err != nil {
		return nil, err
	}
	if len(recalls) == 0 {
		return nil, nil
	}
	col, err := txApp.FindCachedCollectionByNameOrId(Sends)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(recalls))
	for _, r := range recalls {
		s := core.NewRecord(col)
		s.Set(SendRecall, r)
		s.Set(SendCity, city.Id)
		s.Set(SendCityName, city.GetString(hq.CityName))
		s.Set(SendState, SendPending)
		if err := txApp.Save(s); err != nil {
			return nil, err
		}
		ids = append(ids, s.Id)
	}
	return ids, nil
}

// Retry sends recall id to city cityId again (a failed send: after the city issued a new token
// and it was saved; a pending one: now rather than after its back-off; a sent one the city no
// longer has, its copy says: after the city went back to an older backup). A send already
// answered, the city still holding it, is a 409.
func Retry(txApp core.App, set *follow.Set, id, cityId string) (*core.Record, error) {
	if _, err := find(txApp, id); err != nil {
		return nil, err
	}
	if cityId == "" || len(cityId) > 50 {
		return nil, apierr.NotFound(MsgCityNotInRecall)
	}
	s, err := txApp.FindFirstRecordByFilter(Sends, SendRecall+" = {:r} && "+SendCity+" = {:c}", dbx.Params{"r": id, "c": cityId})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apierr.NotFound(MsgCityNotInRecall)
	} else if err != nil {
		return nil, err
	}
	switch s.GetString(SendState) {
	case SendSent:
		c := newCopies(set)
		lost := c.lost(cityId, s.GetString(SendCityRecallID), s.GetDateTime(SendSentAt).Time())
		c.Close()
		if !lost {
			return nil, apierr.Conflict(MsgAlreadySent)
		}
		s.Set(SendState, SendPending)
		s.Set(SendError, "")
		s.Set(SendCityRecallID, "")
		s.Set(SendSentAt, nil)
		if err := txApp.Save(s); err != nil {
			return nil, err
		}
	case SendFailed:
		s.Set(SendState, SendPending)
		s.Set(SendError, "")
		if err := txApp.Save(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// find is recall id (404 when none).
func find(app core.App, id string) (*core.Record, error) {
	return hq.FindRecord(app, Recalls, id, MsgNotFound)
}

// MaxList bounds GET /api/hq/recalls (the newest).
const MaxList = 200

// List is the newest MaxList recalls, newest first, each with its cities' progress.
func List(app core.App, set *follow.Set) ([]HQRecall, error) {
	recs, err := app.FindRecordsByFilter(Recalls, "", "-"+RecallAt+",-id", MaxList, 0)
	if err != nil {
		return nil, err
	}
	return views(app, set, recs)
}

// Get is recall id with its cities' progress.
func Get(app core.App, set *follow.Set, id string) (HQRecall, error) {
	rec, err := find(app, id)
	if err != nil {
		return HQRecall{}, err
	}
	out, err := views(app, set, []*core.Record{rec})
	if err != nil {
		return HQRecall{}, err
	}
	return out[0], nil
}

// views answers recs as the routes do: each city's send and its counts in the city's copy. A
// city removed from head office since is listed with its send and MsgCityRemoved, and no longer
// holds the recall back from done.
func views(app core.App, set *follow.Set, recs []*core.Record) ([]HQRecall, error) {
	out := make([]HQRecall, 0, len(recs))
	if len(recs) == 0 {
		return out, nil
	}
	ids := make([]any, 0, len(recs))
	for _, r := range recs {
		ids = append(ids, r.Id)
	}
	sends := []*core.Record{}
	if err := app.RecordQuery(Sends).Where(dbx.In(SendRecall, ids...)).OrderBy(SendCityName, "id").All(&sends); err != nil {
		return nil, err
	}
	byRecall := map[string][]*core.Record{}
	for _, s := range sends {
		byRecall[s.GetString(SendRecall)] = append(byRecall[s.GetString(SendRecall)], s)
	}
	names := map[string]string{}
	cities, err := hq.ListCities(app)
	if err != nil {
		return nil, err
	}
	for _, c := range cities {
		names[c.Id] = c.GetString(hq.CityName)
	}
	people := map[string]string{}
	c := newCopies(set)
	defer c.Close()
	for _, r := range recs {
		v := HQRecall{ID: r.Id, By: r.GetString(RecallBy), Value: r.GetString(RecallValue), Reason: r.GetString(RecallReason),
			At: r.GetDateTime(RecallAt).Time().UTC().Format(time.RFC3339), Actor: Person{Name: actorName(app, people, r.GetString(RecallActor))},
			Cities: []CityStatus{}}
		v.Done = len(byRecall[r.Id]) > 0
		for _, s := range byRecall[r.Id] {
			cs := CityStatus{ID: s.GetString(SendCity), Name: s.GetString(SendCityName), Send: s.GetString(SendState),
				Attempts: s.GetInt(SendAttempts), Error: s.GetString(SendError), CityRecallID: s.GetString(SendCityRecallID)}
			if at := s.GetDateTime(SendSentAt); !at.IsZero() {
				cs.SentAt = at.Time().UTC().Format(time.RFC3339)
			}
			name, followed := names[cs.ID]
			if !followed {
				// removed from head office since: listed as it was, no longer counted
				cs.CopyError = MsgCityRemoved
				v.Cities = append(v.Cities, cs)
				continue
			}
			cs.Name = name
			n, msg := c.count(cs.ID, v.By, v.Value)
			// a pack this city sent to another city stays in transit in its registry for good: it
			// is counted where it arrives, quarantined there by that city's standing recall
			cs.Matching, cs.Quarantined, cs.CopyOK, cs.CopyError = n.Matching-n.InTransit, n.OutOfUse, msg == "", msg
			if cs.Send == SendSent && cs.CopyOK && c.lost(cs.ID, cs.CityRecallID, s.GetDateTime(SendSentAt).Time()) {
				cs.Lost, cs.Error = true, MsgRecallLost
			}
			cs.Done = cs.CopyOK && !cs.Lost && cs.Matching == cs.Quarantined
			v.Done = v.Done && cs.Done
			v.Cities = append(v.Cities, cs)
		}
		out = append(out, v)
	}
	return out, nil
}

// actorName is HQ user id's name (their email when they have none; "A former user" once gone).
func actorName(app core.App, cache map[string]string, id string) string {
	if id == "" {
		return MsgFormerUser
	}
	if n, ok := cache[id]; ok {
		return n
	}
	n := MsgFormerUser
	if u, err := app.FindRecordById(hq.Users, id); err == nil {
		n = strings.TrimSpace(u.GetString(hq.UserName))
		if n == "" {
			n = u.Email()
		}
	}
	cache[id] = n
	return n
}
