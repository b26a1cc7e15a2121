package packs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/pdfqueue"
	"swapbay/lib/ratelimit"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/journal"
)

// Register adds the pack registry's routes (DESIGN.md §14). Writes are keyed like every
// mutation (Idempotency-Key: one transaction with the answer).
//
//	POST /api/admin/packs/mint           admins   {count 1..1000, model, chemistry, nominalWh, manufacturer, lot, manufactured}
//	                                              → {success, message, packs: [{id, serial}], labelsUrl}
//	GET  /api/admin/packs/labels         admins   ?serials=A,B,… or ?from=A&to=B (at most MaxLabels) → the label sheet (PDF),
//	                                              rendered in the PDF queue (lib/pdfqueue), LabelsLimit
//	POST /api/admin/packs/import         admins   {csv, dryRun} → ImportResult (dryRun: the preview, nothing written;
//	                                              else all rows in one transaction, or nothing and the first bad line)
//	PUT  /api/admin/packs/{serial}/state admins   {state, reason} → {success, message, pack}; 409 pack_state
//	GET  /api/packs                      admins, liaison: all; drivers: the packs they hold
//	                                              ?state=&location=&lot=&missing=1&worn=1&q=&page=&perPage= → List
//	                                              (rows carry worn, wornReason and soh, absent when unknown)
//	GET  /api/packs/lookup               approved users ?serials=A,B,… (at most 50; serials or label URLs)
//	                                              → {packs: [{serial, known, model, state}]}: public attributes only
//	GET  /api/packs/out-of-use           approved users → {packs: [{serial, code, message}]}: every out-of-use pack
//	                                              and the refusal naming it for anywhere but quarantine (the
//	                                              scanner judges scans by it, kept offline with the app's reads);
//	                                              in the worn mode refuse, every worn pack too (pack_worn, with why)
//	GET  /api/packs/{serial}             as the list (a driver: a pack they hold) → Detail (with its history)
//	GET  /api/packs/{serial}/health      as GET /api/packs/{serial} → health.Report (DESIGN.md §16; modules/health)
//	POST /api/packs/{serial}/damage      admins: any pack; drivers: a pack they hold or last moved
//	                                              {note, photos: [photoId…] ≤ 10 claimed by the caller, occurredAt?}
//	                                              → {success, message, pack: Detail}; quarantines the pack (ReportDamage)
//	GET  /api/admin/packs/recall-preview admins   ?by=lot|model|manufacturer&value=X → Preview {count, alreadyQuarantined, places}
//	POST /api/admin/packs/recall         admins   {by, value, reason, standing?} → {success, message, recall: RecallInfo};
//	                                              404 no pack matches, 409 none left to quarantine (with
//	                                              standing: recorded all the same, for packs that arrive later)
//	GET  /api/admin/packs/recalls        admins   → [RecallInfo] newest first
//	GET  /api/admin/packs/recalls/{id}   admins   → RecallPage {recall, total, inBay, packs}
//	GET  /api/packs/{serial}/passport    anyone, signed in or not (PassportLimit per address) → Passport: the
//	                                              public attributes; admins also the use-phase ones; 404 unknown
//	GET  /api/admin/packs/{serial}/incidents/{eventId}/report
//	                                     admins   → the incident PDF of a damage report (IncidentLimit)
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		admin := se.Router.Group("/api/admin/packs")
		admin.Bind(httpx.RequireAdmin())
		admin.POST("/mint", httpx.Form(handleMint)).Bind(idempotency.Keyed())
		admin.GET("/labels", handleLabels).Bind(LabelsLimit.Handler())
		admin.POST("/import", httpx.FormUpTo(idempotency.MaxBody, handleImport)).Bind(idempotency.Keyed())
		admin.PUT("/{serial}/state", httpx.Form(handleState)).Bind(idempotency.Keyed())
		admin.GET("/recall-preview", handleRecallPreview)
		admin.POST("/recall", httpx.Form(handleRecall)).Bind(idempotency.Keyed())
		admin.GET("/recalls", handleRecalls)
		admin.GET("/recalls/{id}", handleRecallDetail)
		admin.GET("/{serial}/incidents/{eventId}/report", handleIncidentReport).Bind(IncidentLimit.Handler())

		// the label's QR opens the public page, which reads this: no sign-in
		se.Router.GET("/api/packs/{serial}/passport", handlePassport).Bind(PassportLimit.Handler())

		readers := se.Router.Group("/api/packs")
		readers.Bind(httpx.RequireRoles(roles.Admin, roles.MasterAdmin, roles.Liaison, roles.Driver))
		readers.GET("", handleList)
		readers.GET("/lookup", handleLookup)
		readers.GET("/out-of-use", handleOutOfUse)
		readers.GET("/{serial}", handleDetail)
		readers.GET("/{serial}/health", handleHealth)
		readers.POST("/{serial}/damage", httpx.Form(handleDamage)).Bind(httpx.RequireRoles(roles.Admin, roles.MasterAdmin, roles.Driver), idempotency.Keyed())
		return se.Next()
	})
}

type mintForm struct {
	Count        reqx.Int        `json:"count"`
	Model        string          `json:"model"`
	Chemistry    string          `json:"chemistry"`
	NominalWh    json.RawMessage `json:"nominalWh"` // a JSON number; null or absent: not given
	Manufacturer string          `json:"manufacturer"`
	Lot          string          `json:"lot"`
	Manufactured string          `json:"manufactured"`
}

// Messages of a mint.
const (
	MsgMinted         = "%d packs registered: %s to %s"
	MsgMintedOne      = "1 pack registered: %s"
	MsgMintedRecalled = " (%d quarantined: this city has recalled their lot, model or manufacturer)"
)

func handleMint(e *core.RequestEvent, f *mintForm) error {
	count, err := f.Count.In("count", 1, MaxMint, MsgMintCount)
	if err != nil {
		return apierr.Response(e, err)
	}
	specs := Specs{Model: f.Model, Chemistry: f.Chemistry, Manufacturer: f.Manufacturer, Lot: f.Lot, Manufactured: f.Manufactured}
	if specs.NominalWh, err = nominalWh(f.NominalWh); err != nil {
		return apierr.Response(e, err)
	}
	minted, err := Mint(e.App, count, specs, e.Auth.Id, clock.Now())
	if err != nil {
		return apierr.Response(e, err)
	}
	out := make([]map[string]string, len(minted))
	quarantined := 0
	for i, p := range minted {
		out[i] = map[string]string{"id": p.Id, "serial": p.Serial(), "state": p.GetString(schema.PackState)}
		if p.GetString(schema.PackState) == schema.PackStateQuarantined {
			quarantined++
		}
	}
	first, last := minted[0].Serial(), minted[len(minted)-1].Serial()
	msg := fmt.Sprintf(MsgMinted, len(minted), first, last)
	if len(minted) == 1 {
		msg = fmt.Sprintf(MsgMintedOne, first)
	}
	if quarantined > 0 {
		// a recall of this city names their lot, model or manufacturer: they start quarantined
		msg += fmt.Sprintf(MsgMintedRecalled, quarantined)
	}
	return e.JSON(http.StatusOK, map[string]any{
		"success":   true,
		"message":   msg,
		"packs":     out,
		"labelsUrl": "/api/admin/packs/labels?from=" + url.QueryEscape(first) + "&to=" + url.QueryEscape(last),
	})
}

// nominalWh reads the mint's nominalWh: a JSON number (Specs.Check bounds it); null or absent
// is 0 (not given). Anything else ("3", true, {}) is refused with the field's own message, not
// the decoder's generic one.
func nominalWh(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var wh float64
	if raw[0] == '"' || json.Unmarshal(raw, &wh) != nil {
		return 0, apierr.Invalid(schema.PackNominalWh, MsgNominalWh)
	}
	return wh, nil
}

// Messages of the label route.
var (
	MsgLabelsWhich   = "Name the packs: serials=A,B,… or from=A&to=B"
	MsgLabelsTooMany = fmt.Sprintf("At most %d labels at a time", MaxLabels)
)

func handleLabels(e *core.RequestEvent) error {
	q := e.Request.URL.Query()
	var packs []*Pack
	var err error
	switch {
	case strings.TrimSpace(q.Get("serials")) != "":
		serials := SplitSerials(q.Get("serials"))
		if len(serials) > MaxLabels {
			return apierr.Response(e, apierr.Invalid("serials", MsgLabelsTooMany))
		}
		packs, err = Serials(e.App, serials)
	case q.Get("from") != "" && q.Get("to") != "":
		packs, err = SerialRange(e.App, journal.Serial(q.Get("from")), journal.Serial(q.Get("to")), MaxLabels)
		if err == nil && len(packs) > MaxLabels {
			err = apierr.Invalid("to", MsgLabelsTooMany)
		}
	default:
		err = apierr.Invalid("serials", MsgLabelsWhich)
	}
	if err != nil {
		return apierr.Response(e, err)
	}
	labels := make([]Label, len(packs))
	for i, p := range packs {
		labels[i] = Label{Serial: p.Serial(), Model: p.Model(), Lot: p.Lot()}
	}
	var buf bytes.Buffer
	// one PDF at a time in the process (lib/pdfqueue): a sheet of MaxLabels holds ~65 MB
	if err := pdfqueue.Do(e.Request.Context(), func() error { return WriteLabels(&buf, site(e), labels) }); err != nil {
		return apierr.Response(e, err)
	}
	h := e.Response.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", `attachment; filename="swapbay-pack-labels.pdf"`)
	h.Set("Cache-Control", "no-store")
	return e.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}

// SplitSerials splits typed or listed serials (commas, spaces, new lines) into normalized
// serials, dropping blanks.
func SplitSerials(text string) []string {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		if s := journal.Serial(f); s != "" {
			out = append(out, s)
		}
	}
	return out
}

type importForm struct {
	CSV    string `json:"csv"`
	DryRun bool   `json:"dryRun"`
}

func handleImport(e *core.RequestEvent, f *importForm) error {
	res, err := Import(e.App, f.CSV, f.DryRun, e.Auth.Id, clock.Now())
	return httpx.Reply(e, res, err)
}

type stateForm struct {
	State  string `json:"state"`
	Reason string `json:"reason"`
}

func handleState(e *core.RequestEvent, f *stateForm) error {
	p, err := SetState(e.App, e.Request.PathValue("serial"), f.State, f.Reason, e.Auth.Id, clock.Now())
	if err != nil {
		return apierr.Response(e, err)
	}
	d, err := PackDetail(e.App, Viewer{UserId: e.Auth.Id}, p.Serial())
	return httpx.Reply(e, map[string]any{"success": true, "message": MsgStateChanged, "pack": d}, err)
}

func viewer(e *core.RequestEvent) Viewer {
	role := e.Auth.GetString(schema.UserRole)
	return Viewer{UserId: e.Auth.Id, Driver: role == roles.Driver, Liaison: role == roles.Liaison}
}

// MsgPage refuses a page or perPage that is not a whole number from 1.
const MsgPage = "Must be a whole number from 1"

func handleList(e *core.RequestEvent) error {
	q := e.Request.URL.Query()
	f := Filter{State: q.Get("state"), Location: strings.TrimSpace(q.Get("location")), Lot: strings.TrimSpace(q.Get("lot")),
		Search: q.Get("q")}
	var err error
	if f.Missing, err = yesNo(q, "missing"); err != nil {
		return apierr.Response(e, err)
	}
	if f.Worn, err = yesNo(q, "worn"); err != nil {
		return apierr.Response(e, err)
	}
	for _, p := range []struct {
		name string
		dst  *int
	}{{"page", &f.Page}, {"perPage", &f.PerPage}} {
		if raw := q.Get(p.name); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n < 1 || n > 1_000_000 {
				return apierr.Response(e, apierr.Invalid(p.name, MsgPage))
			}
			*p.dst = n
		}
	}
	list, err := ListPacks(e.App, viewer(e), f)
	return httpx.Reply(e, list, err)
}

// yesNo reads the list's yes/no filter name: 1 or true, else 0, false or absent.
func yesNo(q url.Values, name string) (bool, error) {
	switch q.Get(name) {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, apierr.Invalid(name, MsgBadFilter)
}

func handleDetail(e *core.RequestEvent) error {
	d, err := PackDetail(e.App, viewer(e), e.Request.PathValue("serial"))
	return httpx.Reply(e, d, err)
}

// PassportLimit bounds the public passport reads per client address (anyone may ask, signed
// in or not): a person scans a label now and then; a bay's phones share one address.
var PassportLimit = ratelimit.Limit{Name: "GET /api/packs/passport",
	PerAccount: ratelimit.Rule{N: 120, Window: time.Minute}, PerIP: ratelimit.Rule{N: 120, Window: time.Minute}}

// MaxLabels is the most labels one sheet prints: one mint's worth (MaxMint), about 65 MB
// while it renders, one sheet at a time (lib/pdfqueue).
const MaxLabels = MaxMint

// LabelsLimit bounds the label sheets per account and per address: an admin prints a mint's
// sheet, maybe again after a paper jam; each sheet renders alone in the PDF queue, so a burst
// would only queue behind itself.
var LabelsLimit = ratelimit.Limit{Name: "GET /api/admin/packs/labels",
	PerAccount: ratelimit.Rule{N: 10, Window: time.Minute}, PerIP: ratelimit.Rule{N: 30, Window: time.Minute}}

// IncidentLimit bounds the incident PDFs (each prints up to 10 photo thumbnails).
var IncidentLimit = ratelimit.Limit{Name: "GET /api/admin/packs/incidents/report",
	PerAccount: ratelimit.Rule{N: 30, Window: time.Minute}, PerIP: ratelimit.Rule{N: 120, Window: time.Minute}}

// site is the scheme and host the request came to (the links a passport gives).
func site(e *core.RequestEvent) string {
	return httpx.RequestScheme(e.Request) + "://" + e.Request.Host
}

func handlePassport(e *core.RequestEvent) error {
	admin := httpx.IsAppUser(e) && httpx.Blocked(e) == nil && roles.IsAdmin(e.Auth.GetString(schema.UserRole))
	p, err := PackPassport(e.App, e.Request.PathValue("serial"), admin, site(e))
	if err != nil {
		return apierr.Response(e, err)
	}
	if admin { // the use-phase attributes must not sit in a shared cache
		e.Response.Header().Set("Cache-Control", "private, no-store")
	}
	return e.JSON(http.StatusOK, p)
}

func handleIncidentReport(e *core.RequestEvent) error {
	var buf bytes.Buffer
	var name string
	err := pdfqueue.Do(e.Request.Context(), func() (err error) {
		name, err = WriteIncidentReport(e.App, &buf, e.Request.PathValue("serial"), e.Request.PathValue("eventId"))
		return err
	})
	if err != nil {
		return apierr.Response(e, err)
	}
	h := e.Response.Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	return e.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}
