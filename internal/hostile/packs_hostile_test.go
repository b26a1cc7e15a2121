package hostile_test

import (
	"encoding/base64"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"swapbay/internal/ledgertest"
	"swapbay/internal/testkit"
	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/headoffice"
	"swapbay/modules/journal"
	"swapbay/modules/packs"
	"swapbay/modules/stocktake"
	"swapbay/modules/transfers"
)

// packWorld is a world with registered packs: the other driver holds held[0], the driver
// holds held[1], the rest are on the bay's shelves.
type packWorld struct {
	*world
	master, otherTok string
	serials          []string // every minted serial, in order
	bay              string   // a pack on the shelves
	sent             int
}

func newPackWorld(t *testing.T, mode string) *packWorld {
	t.Helper()
	w := &packWorld{world: newWorld(t)}
	w.master, w.otherTok = testkit.Token(t, w.c.Master), testkit.TokenIn(t, w.app, w.other)
	ledgertest.SetPackTracking(t, w.app, schema.PackTrackingOptional)
	minted, err := packs.Mint(w.app, 6, packs.Specs{Model: "S-48V 15Ah", Manufacturer: "Voltcell", Lot: "L-HOSTILE"}, w.c.Admin.Id, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range minted {
		w.serials = append(w.serials, p.Serial())
	}
	w.bay = w.serials[3]
	for _, c := range []struct{ tok, serial string }{{w.otherTok, w.serials[0]}, {w.driverTok, w.serials[1]}} {
		if status, body := w.do("POST", "/api/driver/pickup", c.tok, `{"quantity":1,"notes":"n","packs":["`+c.serial+`"]}`); status != 200 {
			t.Fatalf("pickup of %s: %d %s", c.serial, status, body)
		}
	}
	ledgertest.SetPackTracking(t, w.app, mode)
	return w
}

// packSnapshot is the world's snapshot and every pack row, event and recall.
type packSnapshot struct {
	snapshot
	packs                  string
	packRows, events, recs int
}

func (w *packWorld) snapshot(t *testing.T) packSnapshot {
	t.Helper()
	var rows []struct {
		Serial, State, Location, LastSeenAt, StateBefore string
	}
	if err := w.app.DB().NewQuery("SELECT serial, state, location, lastSeenAt, stateBefore FROM " + schema.Packs + " ORDER BY serial").All(&rows); err != nil {
		t.Fatal(err)
	}
	var n struct{ P, E, R int }
	if err := w.app.DB().NewQuery("SELECT (SELECT COUNT(*) FROM " + schema.Packs + ") AS p, (SELECT COUNT(*) FROM " + schema.PackEvents +
		") AS e, (SELECT COUNT(*) FROM " + schema.PackRecalls + ") AS r").One(&n); err != nil {
		t.Fatal(err)
	}
	return packSnapshot{snapshot: w.world.snapshot(t), packs: fmt.Sprint(rows), packRows: n.P, events: n.E, recs: n.R}
}

// refusal is one hostile request and what its answer must be.
type refusal struct {
	name                   string
	tok, method, url, body string
	status                 int    // 0: any 4xx
	msg                    string // the message (a substring of the answer's "message"); "" any non-empty
	field                  string // the field the answer names in data ("" none required)
	code                   string // the apierr code ("" none required)
}

// refuse sends r and checks: the status, a JSON answer (never HTML) with a message, the field
// and code, and that nothing changed (before).
func (w *packWorld) refuse(t *testing.T, before packSnapshot, r refusal) {
	t.Helper()
	req := httptest.NewRequest(r.method, r.url, strings.NewReader(r.body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", r.tok)
	rec := httptest.NewRecorder()
	w.handler.ServeHTTP(rec, req)
	w.sent++
	status, answer := rec.Code, rec.Body.String()
	short := answer
	if len(short) > 300 {
		short = short[:300] + "…"
	}
	switch {
	case r.status != 0 && status != r.status, r.status == 0 && (status < 400 || status > 499):
		t.Errorf("%s: %d %s; want %d", r.name, status, short, r.status)
	case !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") || !strings.HasPrefix(answer, "{"):
		t.Errorf("%s: not a JSON answer: %s %s", r.name, rec.Header().Get("Content-Type"), short)
	case !strings.Contains(answer, `"message":"`) || strings.Contains(answer, `"message":""`):
		t.Errorf("%s: no message: %s", r.name, short)
	case r.msg != "" && !strings.Contains(answer, `"message":"`+r.msg):
		t.Errorf("%s: %d %s; want message %q", r.name, status, short, r.msg)
	// (a refusal naming packs lists them as data.packs, DESIGN.md §14: for the field packs
	// that list is what names it)
	case r.field != "" && !strings.Contains(answer, `"`+r.field+`":{`) && !(r.field == "packs" && strings.Contains(answer, `"packs":[`)):
		t.Errorf("%s: %d %s; want it to name %s", r.name, status, short, r.field)
	case r.code != "" && !strings.Contains(answer, `"code":"`+r.code+`"`):
		t.Errorf("%s: %d %s; want code %s", r.name, status, short, r.code)
	}
	if after := w.snapshot(t); after != before {
		t.Fatalf("%s changed the state:\n%+v\n%+v", r.name, before, after)
	}
}

// packReads are the pack GET routes (with the world's readRoutes) that must answer after
// every refusal: 200, or 403 for a driver on an admin route.
func (w *packWorld) assertReadable(t *testing.T) {
	t.Helper()
	w.world.assertReadable(t)
	for _, u := range []string{"/api/packs", "/api/packs/lookup?serials=" + w.serials[0], "/api/packs/" + w.serials[1],
		"/api/packs/" + w.serials[1] + "/passport", "/api/admin/packs/recalls", "/api/packs?missing=1&page=1&perPage=5"} {
		for _, tok := range []string{w.admin, w.driverTok, w.otherTok} {
			status, body := w.do("GET", u, tok, "")
			adminOnly := strings.HasPrefix(u, "/api/admin/")
			theirs := u == "/api/packs/"+w.serials[1] && tok == w.otherTok // B's view of A's pack: 404
			if status != 200 && !(tok != w.admin && adminOnly && status == 403) && !(theirs && status == 404) {
				t.Errorf("GET %s: %d %s", u, status, body)
			}
		}
	}
}

// TestPackHostile sends hostile numbers, shapes and ids to every pack route and to the packs
// that ride on pickups and dropoffs, with pack tracking optional and required: each is a 4xx
// JSON answer with its message (naming the field, with the apierr code where one exists) that
// changes nothing (the ledger, settings, every pack, event and recall); afterwards the ledger
// is sound and every read route answers.
func TestPackHostile(t *testing.T) {
	total := 0
	for _, mode := range []string{schema.PackTrackingOptional, schema.PackTrackingRequired} {
		t.Run(mode, func(t *testing.T) {
			w := newPackWorld(t, mode)
			before := w.snapshot(t)
			for _, r := range w.refusals(t) {
				w.refuse(t, before, r)
			}
			// null is a blank setting: the stored value stays (KeepWhenBlank), nothing is written
			if status, body := w.do("POST", "/api/admin/settings", w.master, `{"settings":[{"key":"`+schema.SettingPackMissingDays+`","value":null}]}`); status != 200 {
				t.Errorf("pack_missing_days null: %d %s", status, body)
			}
			if after := w.snapshot(t); after != before {
				t.Fatalf("pack_missing_days null changed the state:\n%+v\n%+v", before, after)
			}
			// a driver's list holds only their own pack
			if status, body := w.do("GET", "/api/packs?q="+w.serials[0], w.driverTok, ""); status != 200 || strings.Contains(body, w.serials[0]) {
				t.Errorf("driver's list searched for another driver's pack: %d %s", status, body)
			}
			ledgertest.AssertSound(t, w.app)
			w.assertReadable(t)
			// the refused world still works: a real damage report and a real recall succeed
			if status, body := w.do("POST", "/api/packs/"+w.serials[1]+"/damage", w.driverTok, `{"note":"cracked case"}`); status != 200 {
				t.Fatalf("damage after the refusals: %d %s", status, body)
			}
			if status, body := w.do("POST", "/api/admin/packs/recall", w.admin, `{"by":"lot","value":"L-HOSTILE","reason":"supplier notice"}`); status != 200 {
				t.Fatalf("recall after the refusals: %d %s", status, body)
			}
			ledgertest.AssertSound(t, w.app)
			w.assertReadable(t)
			t.Logf("%s: %d hostile requests refused", mode, w.sent)
			total += w.sent
		})
	}
	t.Logf("%d hostile pack requests in all", total)
}

func (w *packWorld) refusals(t *testing.T) []refusal {
	var out []refusal
	add := func(r refusal) { out = append(out, r) }

	// 1. number fields
	for _, v := range hostile {
		add(refusal{name: "mint count " + v.raw, tok: w.admin, method: "POST", url: "/api/admin/packs/mint",
			body: `{"count":` + v.raw + `,"model":"M","lot":"L9"}`, status: 400, msg: packs.MsgMintCount, field: "count"})
		if v.raw != "1.5" && v.raw != "null" { // 1.5 Wh is a nominal energy; null is "not given"
			add(refusal{name: "mint nominalWh " + v.raw, tok: w.admin, method: "POST", url: "/api/admin/packs/mint",
				body: `{"count":1,"model":"M","nominalWh":` + v.raw + `}`, status: 400, msg: packs.MsgNominalWh, field: "nominalWh"})
		}
		for _, p := range []string{"page", "perPage"} {
			for _, tok := range []string{w.admin, w.driverTok} {
				add(refusal{name: "list " + p + "=" + v.raw, tok: tok, method: "GET", url: "/api/packs?" + p + "=" + url.QueryEscape(v.raw),
					status: 400, msg: packs.MsgPage, field: p})
			}
		}
		for _, tok := range []string{w.admin, w.driverTok} {
			add(refusal{name: "list worn=" + v.raw, tok: tok, method: "GET", url: "/api/packs?worn=" + url.QueryEscape(v.raw),
				status: 400, msg: packs.MsgBadFilter, field: "worn"})
		}
		if v.raw != "null" { // null keeps the stored value
			add(refusal{name: "pack_worn_mode " + v.raw, tok: w.master, method: "POST", url: "/api/admin/settings",
				body: `{"settings":[{"key":"` + schema.SettingPackWornMode + `","value":` + v.raw + `}]}`, status: 400, msg: journal.MsgWornMode, field: schema.SettingPackWornMode})
		}
		if v.raw != `"3"` && v.raw != "null" { // settings are text pairs: "3" is 3 days; null keeps the value (checked below)
			add(refusal{name: "pack_missing_days " + v.raw, tok: w.master, method: "POST", url: "/api/admin/settings",
				body: `{"settings":[{"key":"` + schema.SettingPackMissingDays + `","value":` + v.raw + `}]}`, status: 400, msg: packs.MsgMissingDays, field: schema.SettingPackMissingDays})
		}
	}
	// the settings are the master's
	add(refusal{name: "pack_worn_mode by an admin", tok: w.admin, method: "POST", url: "/api/admin/settings",
		body: `{"settings":[{"key":"` + schema.SettingPackWornMode + `","value":"refuse"}]}`, status: 403})
	add(refusal{name: "pack_missing_days by an admin", tok: w.admin, method: "POST", url: "/api/admin/settings",
		body: `{"settings":[{"key":"` + schema.SettingPackMissingDays + `","value":3}]}`, status: 403})

	// 2. wrong shapes where packs ride on movements
	big := strings.Repeat("X", 10<<10)
	many := make([]string, 10_000)
	for i := range many {
		many[i] = fmt.Sprintf(`"SWB-%06d"`, 900000+i)
	}
	short := make([]string, 5_000) // under the body limit: the count refuses them
	for i := range short {
		short[i] = fmt.Sprintf(`"%d"`, i)
	}
	shapes := []struct {
		name, raw, code string
		count           int    // the batteries the movement moves
		field           string // the field the refusal names, if not the list's own
		status          int
	}{
		{"a string", `"` + w.bay + `"`, "", 1, "", 400},
		{"a number", `3`, "", 1, "", 400},
		{"an object", `{"serial":"` + w.bay + `"}`, "", 1, "", 400},
		{"[1]", `[1]`, "", 1, ".0", 400},
		{"[null]", `[null]`, apierr.CodePackUnknown, 1, "", 400},
		{`[""]`, `[""]`, apierr.CodePackUnknown, 1, "", 400},
		{"a 10 KB serial", `["` + big + `"]`, apierr.CodePackUnknown, 1, "", 400},
		{"10,000 serials (over the body limit)", `[` + strings.Join(many, ",") + `]`, "too_large", 1, "-", 413},
		{"5,000 short serials", `[` + strings.Join(short, ",") + `]`, apierr.CodePackCount, 1, "", 400},
		{"the same serial twice", `["` + w.bay + `","` + strings.ToLower(w.bay) + `"]`, apierr.CodePackCount, 2, "", 400},
		{"another operation's serial", `["ACME-000004"]`, apierr.CodePackUnknown, 1, "", 400},
		{"a label URL of another operation", `["https://evil.example/p/ACME-000004"]`, apierr.CodePackUnknown, 1, "", 400},
		{"too many for the count", `["` + w.serials[4] + `","` + w.serials[5] + `"]`, apierr.CodePackCount, 1, "", 400},
	}
	field := func(list, suffix string) string {
		if suffix == "-" { // refused before it is read: no field
			return ""
		}
		return list + suffix
	}
	for _, s := range shapes {
		if s.status == 0 {
			s.status = 400
		}
		add(refusal{name: "pickup packs " + s.name, tok: w.driverTok, method: "POST", url: "/api/driver/pickup",
			body: fmt.Sprintf(`{"quantity":%d,"notes":"n","packs":%s}`, s.count, s.raw), status: s.status, field: field("packs", s.field), code: s.code})
		held := `"` + w.serials[1] + `"`
		if s.name == "the same serial twice" {
			s.raw = `[` + held + `,` + held + `]`
		}
		add(refusal{name: "dropoff goodPacks " + s.name, tok: w.driverTok, method: "POST", url: "/api/driver/dropoff-batteries",
			body: fmt.Sprintf(`{"goodBatteries":%d,"deadBatteries":0,"notes":"n","goodPacks":%s}`, s.count, s.raw), status: s.status, field: field("goodPacks", s.field), code: s.code})
		add(refusal{name: "dropoff deadPacks " + s.name, tok: w.driverTok, method: "POST", url: "/api/driver/dropoff-batteries",
			body: fmt.Sprintf(`{"goodBatteries":0,"deadBatteries":%d,"notes":"n","deadPacks":%s}`, s.count, s.raw), status: s.status, field: field("deadPacks", s.field), code: s.code})
	}
	if w.mode(t) == schema.PackTrackingRequired {
		add(refusal{name: "required: pickup naming none", tok: w.driverTok, method: "POST", url: "/api/driver/pickup",
			body: `{"quantity":2,"notes":"n","packs":[]}`, status: 400, field: "packs", code: apierr.CodePackCount})
		add(refusal{name: "required: pickup naming one of two", tok: w.driverTok, method: "POST", url: "/api/driver/pickup",
			body: `{"quantity":2,"notes":"n","packs":["` + w.bay + `"]}`, status: 400, field: "packs", code: apierr.CodePackCount})
	}

	// 3. the safety routes
	tenK := strings.Repeat("L", 10<<10)
	for _, c := range []struct{ name, by, value, field, msg string }{
		{"by=nonsense", "nonsense", "L-HOSTILE", "by", packs.MsgRecallBy},
		{"by missing", "", "L-HOSTILE", "by", packs.MsgRecallBy},
		{"value empty", "lot", "", "value", packs.MsgRecallValue},
		{"value blank", "lot", "   ", "value", packs.MsgRecallValue},
		{"value 10 KB", "lot", tenK, "value", packs.MsgRecallValue},
	} {
		add(refusal{name: "recall " + c.name, tok: w.admin, method: "POST", url: "/api/admin/packs/recall",
			body: fmt.Sprintf(`{"by":%q,"value":%q,"reason":"supplier notice"}`, c.by, c.value), status: 400, msg: c.msg, field: c.field})
		add(refusal{name: "recall-preview " + c.name, tok: w.admin, method: "GET",
			url: "/api/admin/packs/recall-preview?by=" + url.QueryEscape(c.by) + "&value=" + url.QueryEscape(c.value), status: 400, msg: c.msg, field: c.field})
	}
	add(refusal{name: "recall reason missing", tok: w.admin, method: "POST", url: "/api/admin/packs/recall",
		body: `{"by":"lot","value":"L-HOSTILE"}`, status: 400, msg: packs.MsgRecallReason, field: "reason"})
	add(refusal{name: "recall by a number", tok: w.admin, method: "POST", url: "/api/admin/packs/recall",
		body: `{"by":1,"value":"L-HOSTILE","reason":"r"}`, status: 400, field: "by"})
	add(refusal{name: "recall of a lot nobody has", tok: w.admin, method: "POST", url: "/api/admin/packs/recall",
		body: `{"by":"lot","value":"NO-SUCH-LOT","reason":"r"}`, status: 404})
	// standing (head office's: recorded with no pack in use) must be a JSON boolean
	for _, v := range []string{`"yes"`, `1`, `{}`, `["true"]`} {
		add(refusal{name: "recall standing " + v, tok: w.admin, method: "POST", url: "/api/admin/packs/recall",
			body: `{"by":"lot","value":"NO-SUCH-LOT","reason":"r","standing":` + v + `}`, status: 400, field: "standing", msg: "Standing must be true or false"})
	}
	add(refusal{name: "recall standing false, a lot nobody has", tok: w.admin, method: "POST", url: "/api/admin/packs/recall",
		body: `{"by":"lot","value":"NO-SUCH-LOT","reason":"r","standing":false}`, status: 404})
	add(refusal{name: "recall by a driver", tok: w.driverTok, method: "POST", url: "/api/admin/packs/recall",
		body: `{"by":"lot","value":"L-HOSTILE","reason":"r"}`, status: 403})

	state := "/api/admin/packs/" + w.bay + "/state"
	add(refusal{name: "state unknown", tok: w.admin, method: "PUT", url: state, body: `{"state":"exploded","reason":"r"}`, status: 400, msg: packs.MsgUnknownState, field: "state"})
	add(refusal{name: "state a number", tok: w.admin, method: "PUT", url: state, body: `{"state":3,"reason":"r"}`, status: 400, field: "state"})
	add(refusal{name: "state forbidden transition", tok: w.admin, method: "PUT", url: state, body: `{"state":"recycled","reason":"r"}`, status: 409, code: "pack_state"})
	add(refusal{name: "state the same", tok: w.admin, method: "PUT", url: state, body: `{"state":"in_service","reason":"r"}`, status: 409, code: "pack_state"})
	add(refusal{name: "state reason missing", tok: w.admin, method: "PUT", url: state, body: `{"state":"maintenance"}`, status: 400, msg: packs.MsgReason, field: "reason"})
	add(refusal{name: "state unknown serial", tok: w.admin, method: "PUT", url: "/api/admin/packs/ACME-000004/state", body: `{"state":"maintenance","reason":"r"}`, status: 404})
	add(refusal{name: "state 10 KB serial", tok: w.admin, method: "PUT", url: "/api/admin/packs/" + big + "/state", body: `{"state":"maintenance","reason":"r"}`, status: 404})

	damage := "/api/packs/" + w.serials[1] + "/damage" // the driver holds it
	var eleven []string
	for i := 0; i < 11; i++ {
		eleven = append(eleven, fmt.Sprintf("%q", testkit.ClaimedPhoto(t, w.app, w.c.Driver.Id)))
	}
	theirs := testkit.ClaimedPhoto(t, w.app, w.other.Id)
	add(refusal{name: "damage 11 photos", tok: w.driverTok, method: "POST", url: damage,
		body: `{"note":"swollen","photos":[` + strings.Join(eleven, ",") + `]}`, status: 400, msg: packs.MsgDamagePhotos, field: "photos"})
	add(refusal{name: "damage another user's photo", tok: w.driverTok, method: "POST", url: damage,
		body: `{"note":"swollen","photos":["` + theirs + `"]}`, status: 400, msg: packs.MsgDamagePhoto, field: "photos"})
	add(refusal{name: "damage an unknown photo", tok: w.driverTok, method: "POST", url: damage,
		body: `{"note":"swollen","photos":["nosuchphoto0000"]}`, status: 400, msg: packs.MsgDamagePhoto, field: "photos"})
	add(refusal{name: "damage photos a string", tok: w.driverTok, method: "POST", url: damage,
		body: `{"note":"swollen","photos":"` + theirs + `"}`, status: 400, field: "photos"})
	add(refusal{name: "damage note missing", tok: w.driverTok, method: "POST", url: damage, body: `{}`, status: 400, msg: packs.MsgDamageNote, field: "note"})
	add(refusal{name: "damage note 100 KB", tok: w.driverTok, method: "POST", url: damage,
		body: `{"note":"` + strings.Repeat("n", 100<<10) + `"}`})
	add(refusal{name: "damage note 3 KB", tok: w.driverTok, method: "POST", url: damage,
		body: `{"note":"` + strings.Repeat("n", 3<<10) + `"}`, status: 400, field: "note"})
	add(refusal{name: "damage occurredAt nonsense", tok: w.driverTok, method: "POST", url: damage,
		body: `{"note":"swollen","occurredAt":"yesterday-ish"}`, status: 400, field: "occurredAt"})
	add(refusal{name: "damage a pack another driver holds", tok: w.driverTok, method: "POST", url: "/api/packs/" + w.serials[0] + "/damage",
		body: `{"note":"swollen"}`, status: 404})
	add(refusal{name: "damage a pack on the shelves", tok: w.driverTok, method: "POST", url: "/api/packs/" + w.bay + "/damage",
		body: `{"note":"swollen"}`, status: 404})
	add(refusal{name: "damage an unknown pack", tok: w.admin, method: "POST", url: "/api/packs/ACME-000004/damage",
		body: `{"note":"swollen"}`, status: 404})

	var fiftyOne []string
	for i := 0; i < packs.MaxLookup+1; i++ {
		fiftyOne = append(fiftyOne, fmt.Sprintf("SWB-%06d", i+1))
	}
	add(refusal{name: "lookup 51 serials", tok: w.driverTok, method: "GET", url: "/api/packs/lookup?serials=" + strings.Join(fiftyOne, ","),
		status: 400, msg: packs.MsgLookupTooMany, field: "serials"})
	add(refusal{name: "lookup nothing", tok: w.driverTok, method: "GET", url: "/api/packs/lookup?serials=,,,", status: 400, msg: packs.MsgLookupWhich, field: "serials"})

	for _, u := range []string{
		"/api/packs/ACME-000004/passport",
		"/api/packs/" + url.PathEscape(big) + "/passport",
		"/api/admin/packs/recalls/nosuchrecall00",
		"/api/admin/packs/" + w.serials[1] + "/incidents/nosuchevent0000/report",
		"/api/admin/packs/ACME-000004/incidents/nosuchevent0000/report",
		"/api/packs/ACME-000004",
	} {
		add(refusal{name: "GET " + u[:min(len(u), 80)], tok: w.admin, method: "GET", url: u, status: 404})
	}
	add(refusal{name: "passport unknown, signed out", method: "GET", url: "/api/packs/ACME-000004/passport", status: 404})

	// 4. another user's ids: driver A asks for the pack driver B holds
	add(refusal{name: "driver reads another driver's pack", tok: w.driverTok, method: "GET", url: "/api/packs/" + w.serials[0], status: 404})
	add(refusal{name: "driver reads a shelf pack", tok: w.driverTok, method: "GET", url: "/api/packs/" + w.bay, status: 404})
	// the label sheet and the import (admin routes of the same file)
	var thousandOne []string
	for i := 0; i < packs.MaxMint+1; i++ {
		thousandOne = append(thousandOne, fmt.Sprintf("SWB-%06d", i+1))
	}
	add(refusal{name: "labels 1,001 serials", tok: w.admin, method: "GET", url: "/api/admin/packs/labels?serials=" + strings.Join(thousandOne, ","),
		status: 400, msg: packs.MsgLabelsTooMany, field: "serials"})
	add(refusal{name: "labels nothing named", tok: w.admin, method: "GET", url: "/api/admin/packs/labels?from=" + w.serials[0], status: 400, msg: packs.MsgLabelsWhich, field: "serials"})
	add(refusal{name: "import csv a number", tok: w.admin, method: "POST", url: "/api/admin/packs/import", body: `{"csv":3}`, status: 400, field: "csv"})
	add(refusal{name: "import dryRun a string", tok: w.admin, method: "POST", url: "/api/admin/packs/import", body: `{"csv":"serial,model\nOLD-1,X\n","dryRun":"no"}`, status: 400, field: "dryRun"})
	add(refusal{name: "import a minted serial", tok: w.admin, method: "POST", url: "/api/admin/packs/import", body: `{"csv":"serial,model\n` + w.bay + `,X\n"}`})
	add(refusal{name: "import empty", tok: w.admin, method: "POST", url: "/api/admin/packs/import", body: `{"csv":""}`})
	// hostile numbers (and a few other cells) in an import's CSV: the whole file is refused
	for _, cell := range []struct{ col, v string }{
		{"nominalWh", "9223372036854775807"}, {"nominalWh", "2147483648"}, {"nominalWh", "-1"}, {"nominalWh", "1e6"},
		{"nominalWh", "null"}, {"nominalWh", "NaN"}, {"nominalWh", "Inf"}, {"nominalWh", "-Inf"}, {"nominalWh", "1e309"},
		{"state", "exploded"}, {"inServiceSince", "2026-13-45"}, {"manufactured", "1e6"}, {"serial", "ÄCME-1"},
		{"serial", strings.Repeat("A", 41)}, {"model", strings.Repeat("M", 10<<10)},
	} {
		row := map[string]string{"serial": "OLD-9", "model": "X", "nominalWh": "500", "state": "in_service", "inServiceSince": "", "manufactured": ""}
		row[cell.col] = cell.v
		csv := "serial,model,nominalWh,state,inServiceSince,manufactured\nOLD-1,X,500,in_service,,\n" +
			strings.Join([]string{row["serial"], row["model"], row["nominalWh"], row["state"], row["inServiceSince"], row["manufactured"]}, ",") + "\n"
		add(refusal{name: "import " + cell.col + "=" + cell.v[:min(len(cell.v), 40)], tok: w.admin, method: "POST", url: "/api/admin/packs/import",
			body: fmt.Sprintf(`{"csv":%q}`, csv), status: 400, msg: "Nothing was imported", field: "csv"})
	}
	add(refusal{name: "driver mints", tok: w.driverTok, method: "POST", url: "/api/admin/packs/mint", body: `{"count":1,"model":"M"}`, status: 403})
	add(refusal{name: "driver changes a state", tok: w.driverTok, method: "PUT", url: state, body: `{"state":"maintenance","reason":"r"}`, status: 403})
	add(refusal{name: "driver reads an incident report", tok: w.driverTok, method: "GET", url: "/api/admin/packs/" + w.serials[1] + "/incidents/x/report", status: 403})

	// 4. the stocktake (issue 42 item 4): the apply and its preview alike
	tooMany := make([]string, stocktake.MaxSerials+1)
	for i := range tooMany {
		tooMany[i] = fmt.Sprintf(`"%d"`, i)
	}
	for _, dry := range []string{"false", "true"} {
		for _, c := range []struct{ name, body, msg, field, code string }{
			{"serials a string", `{"place":"ready","serials":"` + w.bay + `"}`, "", "serials", ""},
			{"serials [1]", `{"place":"ready","serials":[1]}`, "", "serials.0", ""},
			{"serials [null]", `{"place":"ready","serials":[null]}`, "", "", apierr.CodePackUnknown},
			{"a 10 KB serial", `{"place":"ready","serials":["` + big + `"]}`, "", "", apierr.CodePackUnknown},
			{"the same pack twice", `{"place":"ready","serials":["` + w.bay + `","https://bay.example/p/` + strings.ToLower(w.bay) + `"]}`, "", "", apierr.CodePackCount},
			{"10,001 serials", `{"place":"ready","serials":[` + strings.Join(tooMany, ",") + `]}`, stocktake.MsgTooMany, "serials", ""},
			{"no serials", `{"place":"ready","serials":[]}`, stocktake.MsgSerials, "serials", ""},
			{"place unknown", `{"place":"roof","serials":["` + w.bay + `"]}`, stocktake.MsgPlace, "place", ""},
			{"place a number", `{"place":3,"serials":["` + w.bay + `"]}`, "", "place", ""},
		} {
			add(refusal{name: "stocktake (dryRun " + dry + ") " + c.name, tok: w.admin, method: "POST", url: "/api/admin/stocktake",
				body: strings.Replace(c.body, `{"place"`, `{"dryRun":`+dry+`,"place"`, 1), status: 400, msg: c.msg, field: c.field, code: c.code})
		}
	}
	add(refusal{name: "stocktake of another operation's serials", tok: w.admin, method: "POST", url: "/api/admin/stocktake",
		body: `{"place":"ready","serials":["` + w.bay + `","ACME-000004","https://evil.example/p/ACME-000005"]}`, status: 400, code: apierr.CodePackUnknown, field: "packs"})
	add(refusal{name: "stocktake over the body limit", tok: w.admin, method: "POST", url: "/api/admin/stocktake",
		body: `{"place":"ready","serials":["` + strings.Repeat("A", 1<<20) + `"]}`, status: 413})
	add(refusal{name: "stocktake by a driver", tok: w.driverTok, method: "POST", url: "/api/admin/stocktake", body: `{"place":"ready","serials":["` + w.bay + `"]}`, status: 403})

	// 6. packs between cities (issue 45 item 6): the send and the receive, with hostile manifests
	const sendURL, receiveURL = "/api/admin/packs/transfers", "/api/admin/packs/transfers/receive"
	manyTransfer := make([]string, schema.MaxPackTransferPacks+1)
	for i := range manyTransfer {
		manyTransfer[i] = fmt.Sprintf(`"P-%d"`, i)
	}
	manifest := func(v string) string {
		return transfers.ManifestPrefix + base64.RawURLEncoding.EncodeToString([]byte(v))
	}
	goodPack := `{"serial":"ZZZ-000001","model":"M"}`
	for _, c := range []struct{ name, body, msg, field, code string }{
		{"no city", `{"serials":["` + w.bay + `"]}`, transfers.MsgCity, "toCity", ""},
		{"a city of 101 characters", `{"toCity":"` + strings.Repeat("é", 101) + `","serials":["` + w.bay + `"]}`, transfers.MsgCityTooLong, "toCity", ""},
		{"a number for a city", `{"toCity":1e309,"serials":["` + w.bay + `"]}`, "", "", ""},
		{"a javascript: address", `{"toCity":"Berlin","toAddress":"javascript:alert(1)","serials":["` + w.bay + `"]}`, transfers.MsgAddress, "toAddress", ""},
		{"serials a string", `{"toCity":"Berlin","serials":"` + w.bay + `"}`, "", "serials", ""},
		{"no serials", `{"toCity":"Berlin","serials":[]}`, transfers.MsgSerials, "serials", ""},
		{"201 serials", `{"toCity":"Berlin","serials":[` + strings.Join(manyTransfer, ",") + `]}`, transfers.MsgTooMany, "serials", ""},
		{"a 10 KB serial", `{"toCity":"Berlin","serials":["` + big + `"]}`, "", "", apierr.CodePackUnknown},
		{"another operation's serial", `{"toCity":"Berlin","serials":["ACME-000004"]}`, "", "", apierr.CodePackUnknown},
		{"the same pack twice", `{"toCity":"Berlin","serials":["` + w.bay + `","https://bay.example/p/` + strings.ToLower(w.bay) + `"]}`, "", "", apierr.CodePackCount},
	} {
		add(refusal{name: "send " + c.name, tok: w.admin, method: "POST", url: sendURL, body: c.body, status: 400, msg: c.msg, field: c.field, code: c.code})
	}
	for _, c := range []struct{ name, manifest, msg string }{
		{"not base64", "SWBT1.***", transfers.MsgManifestRead},
		{"not a manifest", "hello", transfers.MsgManifestRead},
		{"JSON not an object", manifest(`[1,2]`), transfers.MsgManifestRead},
		{"a newer version", manifest(`{"v":2,"ref":"abc","from":{"name":"Paris"},"packs":[` + goodPack + `]}`), transfers.MsgManifestVer},
		{"201 packs", manifest(`{"v":1,"ref":"abc","from":{"name":"Paris"},"packs":[` + strings.TrimSuffix(strings.Repeat(goodPack+",", 201), ",") + `]}`), transfers.MsgManifestPacks},
		{"a serial with a space", manifest(`{"v":1,"ref":"abc","from":{"name":"Paris"},"packs":[{"serial":"ZZZ 1","model":"M"}]}`), ""},
		{"a pack twice", manifest(`{"v":1,"ref":"abc","from":{"name":"Paris"},"packs":[` + goodPack + `,` + goodPack + `]}`), ""},
		{"nominalWh 1e309", manifest(`{"v":1,"ref":"abc","from":{"name":"Paris"},"packs":[{"serial":"ZZZ-000001","model":"M","nominalWh":1e309}]}`), transfers.MsgManifestRead},
		{"a ref of another shape", manifest(`{"v":1,"ref":"../../x","from":{"name":"Paris"},"packs":[` + goodPack + `]}`), transfers.MsgManifestRead},
		{"huge", "SWBT1." + strings.Repeat("A", transfers.MaxManifest), transfers.MsgManifestLong},
	} {
		add(refusal{name: "receive a manifest " + c.name, tok: w.admin, method: "POST", url: receiveURL,
			body: fmt.Sprintf(`{"manifest":%q,"serials":["ZZZ-000001"],"to":"ready"}`, c.manifest), status: 400, msg: c.msg, field: "manifest"})
	}
	good := manifest(`{"v":1,"ref":"abc","from":{"name":"Paris"},"packs":[` + goodPack + `]}`)
	add(refusal{name: "receive to the roof", tok: w.admin, method: "POST", url: receiveURL, body: fmt.Sprintf(`{"manifest":%q,"serials":["ZZZ-000001"],"to":"roof"}`, good), status: 400, msg: transfers.MsgTo, field: "to"})
	add(refusal{name: "receive a pack not in the manifest", tok: w.admin, method: "POST", url: receiveURL, body: fmt.Sprintf(`{"manifest":%q,"serials":["`+w.bay+`"],"to":"ready"}`, good), status: 400, code: apierr.CodePackUnknown})
	add(refusal{name: "receive a serial in service here", tok: w.admin, method: "POST", url: receiveURL,
		body: fmt.Sprintf(`{"manifest":%q,"serials":["`+w.bay+`"],"to":"ready"}`, manifest(`{"v":1,"ref":"abc","from":{"name":"Paris"},"packs":[{"serial":"`+w.bay+`","model":"M"}]}`)), status: 409, code: apierr.CodePackState})
	add(refusal{name: "send over the body limit", tok: w.admin, method: "POST", url: sendURL, body: `{"toCity":"B","serials":["` + strings.Repeat("A", 2<<20) + `"]}`, status: 413})
	add(refusal{name: "receive over the body limit", tok: w.admin, method: "POST", url: receiveURL, body: `{"manifest":"` + strings.Repeat("A", 2<<20) + `"}`, status: 413})
	add(refusal{name: "send by a driver", tok: w.driverTok, method: "POST", url: sendURL, body: `{"toCity":"Berlin","serials":["` + w.bay + `"]}`, status: 403})
	add(refusal{name: "receive by a driver", tok: w.driverTok, method: "POST", url: receiveURL, body: fmt.Sprintf(`{"manifest":%q,"serials":["ZZZ-000001"],"to":"ready"}`, good), status: 403})

	// 5. head office's tokens (issue 45 item 4): issued by a master admin only, a name in bounds,
	// and a token that is not one opens nothing
	const tokens = "/api/admin/head-office/tokens"
	for _, c := range []struct{ name, body, msg string }{
		{"no name", `{}`, headoffice.MsgNameRequired},
		{"a blank name", `{"name":"  \t "}`, headoffice.MsgNameRequired},
		{"a name of 101 characters", `{"name":"` + strings.Repeat("é", 101) + `"}`, fmt.Sprintf(headoffice.MsgNameTooLong, schema.MaxHeadOfficeTokenName)},
		{"a number for a name", `{"name":1e309}`, ""},
		{"a list for a name", `{"name":["HQ"]}`, ""},
	} {
		add(refusal{name: "head-office token with " + c.name, tok: w.master, method: "POST", url: tokens, body: c.body, status: 400, msg: c.msg})
	}
	add(refusal{name: "head-office token over the body limit", tok: w.master, method: "POST", url: tokens, body: `{"name":"` + strings.Repeat("A", 2<<20) + `"}`, status: 413})
	add(refusal{name: "head-office token by an admin", tok: w.admin, method: "POST", url: tokens, body: `{"name":"HQ"}`, status: 403})
	add(refusal{name: "head-office token by a driver", tok: w.driverTok, method: "POST", url: tokens, body: `{"name":"HQ"}`, status: 403})
	add(refusal{name: "revoke an unknown head-office token", tok: w.master, method: "POST", url: tokens + "/nosuchtoken0001/revoke", body: `{}`, status: 404, msg: headoffice.MsgNotFound})
	add(refusal{name: "a recall with a made-up head-office token", tok: "Bearer " + headoffice.Prefix + "made-up", method: "POST", url: "/api/admin/packs/recall",
		body: `{"by":"lot","value":"L-HOSTILE","reason":"x"}`, status: 401, msg: headoffice.MsgInvalid})
	return out
}

// mode is the stored pack tracking mode.
func (w *packWorld) mode(t *testing.T) string {
	t.Helper()
	rec, err := w.app.FindFirstRecordByData(schema.Settings, schema.SettingKey, schema.SettingPackTracking)
	if err != nil {
		t.Fatal(err)
	}
	return rec.GetString(schema.SettingValue)
}
