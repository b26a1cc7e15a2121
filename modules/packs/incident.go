package packs

import (
	"compress/zlib"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
	"github.com/signintech/gopdf"

	"swapbay/lib/apierr"
	"swapbay/lib/pdffont"
	"swapbay/lib/schema"
	"swapbay/modules/photos"
	"swapbay/modules/system"
)

// The incident report (issue 37 item 5): the battery passport's "accidents" document, one PDF
// per damage report — the pack's identity, the incident (when, who reported it, the note), its
// photos and the pack's history in the IncidentWindow either side of it. Photos print from
// their stored 400x400 thumbnails (photos.Thumb), never the full pictures: ten photos cost
// ten small JPEGs, inside SwapBay's 1 GB memory budget (lib/imagebudget). Times print in the operation's
// time zone (the time zone setting) with the zone's abbreviation, as the app shows them.

// IncidentWindow is how far before and after an incident the report's history reaches.
const IncidentWindow = 14 * 24 * time.Hour

// MaxIncidentHistory bounds the history lines of one report.
const MaxIncidentHistory = 1000

// MsgIncidentNotFound answers a report of an event that is not a damage report of the pack.
const MsgIncidentNotFound = "Incident not found"

const (
	reportMargin  = 18 * mm
	reportWidth   = 210*mm - 2*reportMargin
	reportBottom  = 297*mm - reportMargin
	photoSide     = 52 * mm
	photoGap      = 5 * mm
	reportTime    = "2006-01-02 15:04 MST"
	reportTitle   = 16.0
	reportHeading = 12.0
	reportBody    = 10.0
	reportSmall   = 8.5
)

// WriteIncidentReport writes the incident PDF of the damage report eventId of the pack with
// serial to w and returns its file name. An unknown pack or an event that is not one of its
// damage reports is a 404.
func WriteIncidentReport(app core.App, w io.Writer, serial, eventId string) (name string, err error) {
	p, err := FindBySerial(app, serial)
	if err != nil {
		return "", err
	}
	rec, err := app.FindRecordById(schema.PackEvents, eventId)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (rec.GetString(schema.PackEventPack) != p.Id || rec.GetString(schema.PackEventKind) != schema.PackEventDamage)) {
		return "", apierr.NotFound(MsgIncidentNotFound)
	}
	if err != nil {
		return "", err
	}
	ev := AsEvent(rec)
	loc, err := system.Location(app)
	if err != nil {
		loc = time.UTC
	}
	at := ev.At().Time().In(loc) // printed in the operation's time zone, as the app shows times
	from, _ := types.ParseDateTime(at.Add(-IncidentWindow))
	to, _ := types.ParseDateTime(at.Add(IncidentWindow))
	history, err := queryHistory(app, Viewer{}, " WHERE e.[[pack]] = {:pack} AND e.[[at]] >= {:from} AND e.[[at]] <= {:to}",
		dbx.Params{"pack": p.Id, "from": from.String(), "to": to.String(), "limit": MaxIncidentHistory})
	if err != nil {
		return "", err
	}
	reporter := ""
	if actor := rec.GetString(schema.PackEventActor); actor != "" {
		reporter = "A former user"
		if u, err := app.FindRecordById(schema.Users, actor); err == nil {
			if n := strings.TrimSpace(u.GetString(schema.UserFirstName) + " " + u.GetString(schema.UserLastName)); n != "" {
				reporter = n
			}
		}
	}
	thumbs, err := incidentThumbs(app, rec.GetStringSlice(schema.PackEventPhotos))
	if err != nil {
		return "", err
	}

	defer func() { // gopdf panics on some malformed input: an error, never a crash
		if r := recover(); r != nil {
			err = fmt.Errorf("incident report: %v", r)
		}
	}()
	d, err := newReport()
	if err != nil {
		return "", err
	}
	d.line(reportTitle, true, "Incident report — pack "+p.Serial())
	d.line(reportSmall, false, "SwapBay · "+PassportDataModel+" · negative event (accident) "+ev.Id)
	d.gap(4 * mm)

	d.line(reportHeading, true, "Pack")
	for _, f := range [][2]string{
		{"Serial", p.Serial()},
		{"Model", p.Model()},
		{"Chemistry", p.Chemistry()},
		{"Nominal energy", whOrBlank(p.NominalWh())},
		{"Manufacturer", p.Manufacturer()},
		{"Lot", p.Lot()},
		{"Manufactured", p.Manufactured()},
		{"In service since", yearMonth(p.InServiceSince())},
		{"State now", PassportLabel(p.State())},
		{"Charge count", fmt.Sprint(p.ChargeCount())},
	} {
		if f[1] == "" {
			f[1] = "—"
		}
		d.line(reportBody, false, f[0]+": "+f[1])
	}
	d.gap(4 * mm)

	d.line(reportHeading, true, "Incident")
	d.line(reportBody, false, "When: "+at.Format(reportTime))
	if reporter == "" {
		reporter = "—"
	}
	d.line(reportBody, false, "Reported by: "+reporter)
	note := strings.TrimSpace(ev.GetString(schema.PackEventReason))
	if note == "" {
		note = "—"
	}
	d.line(reportBody, false, "Note: "+note)
	d.gap(4 * mm)

	d.line(reportHeading, true, fmt.Sprintf("Photos (%d)", len(thumbs)))
	if len(thumbs) == 0 {
		d.line(reportBody, false, "No photos were sent with this report.")
	}
	perRow := 3 // photoSide + photoGap three times fits reportWidth
	for i, t := range thumbs {
		if i%perRow == 0 {
			if i > 0 {
				d.y += photoSide + photoGap
			}
			d.ensure(photoSide)
		}
		x := reportMargin + float64(i%perRow)*(photoSide+photoGap)
		if t == nil {
			d.pdf.SetXY(x, d.y+photoSide/2)
			_ = d.pdf.SetFont(pdffont.Family, "", reportSmall)
			_ = d.pdf.Cell(nil, "(photo unavailable)")
			continue
		}
		if err := d.pdf.ImageByHolder(t, x, d.y, &gopdf.Rect{W: photoSide, H: photoSide}); err != nil {
			return "", fmt.Errorf("photo %d: %w", i+1, err)
		}
	}
	if len(thumbs) > 0 {
		d.y += photoSide + photoGap
	}
	d.gap(2 * mm)

	d.line(reportHeading, true, fmt.Sprintf("History %s to %s", at.Add(-IncidentWindow).Format("2006-01-02"), at.Add(IncidentWindow).Format("2006-01-02")))
	for i := len(history) - 1; i >= 0; i-- { // oldest first, as a report reads
		h := history[i]
		t, _ := types.ParseDateTime(h.At)
		line := t.Time().In(loc).Format(reportTime) + " · " + HistoryText(h)
		if h.Actor != nil {
			line += " · " + h.Actor.Name
		}
		if h.Id == ev.Id {
			line = "▶ " + line
		}
		d.line(reportBody, h.Id == ev.Id, line)
		if h.Reason != "" && h.Id != ev.Id {
			d.line(reportSmall, false, "    "+h.Reason)
		}
	}
	if d.err != nil {
		return "", d.err
	}
	if err := d.pdf.Write(w); err != nil {
		return "", err
	}
	return "swapbay-incident-" + p.Serial() + "-" + at.Format("20060102") + ".pdf", nil
}

// incidentThumbs returns the thumbnails of the photos with ids, in that order (nil for a photo
// deleted or whose thumbnail cannot be made: the report still prints).
func incidentThumbs(app core.App, ids []string) ([]gopdf.ImageHolder, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	recs, err := app.FindRecordsByIds(schema.Photos, ids)
	if err != nil {
		return nil, err
	}
	by := make(map[string]*core.Record, len(recs))
	for _, r := range recs {
		by[r.Id] = r
	}
	fsys, err := app.NewFilesystem()
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	out := make([]gopdf.ImageHolder, len(ids))
	for i, id := range ids {
		r := by[id]
		if r == nil {
			continue
		}
		raw, err := photos.Thumb(fsys, r)
		if err != nil {
			continue
		}
		if h, err := gopdf.ImageHolderByBytes(raw); err == nil {
			out[i] = h
		}
	}
	return out, nil
}

// HistoryText is one history line in words, as the pack page says it.
func HistoryText(h HistoryEvent) string {
	place := func(p *Place) string {
		if p == nil {
			return "unknown"
		}
		return p.Label
	}
	switch h.Kind {
	case schema.PackEventCreated:
		return "Registered (minted)"
	case schema.PackEventImported:
		return "Registered (imported)"
	case schema.PackEventMoved:
		if h.From == nil {
			return "Moved to " + place(h.To)
		}
		return "Moved from " + place(h.From) + " to " + place(h.To)
	case schema.PackEventDiscrepancy:
		return "Scanned at " + place(h.To) + "; the records had it at " + place(h.Expected)
	case schema.PackEventState:
		return "State: " + PassportLabel(h.FromState) + " → " + PassportLabel(h.ToState)
	case schema.PackEventFound:
		return "Found: " + PassportLabel(h.FromState) + " → " + PassportLabel(h.ToState)
	case schema.PackEventCharged:
		return "Charged"
	case schema.PackEventDamage:
		return "Damage reported"
	}
	return h.Kind
}

func whOrBlank(wh float64) string {
	if wh <= 0 {
		return ""
	}
	return fmt.Sprintf("%g Wh", wh)
}

// report is an A4 document written top to bottom, a new page when the next line does not fit.
type report struct {
	pdf *gopdf.GoPdf
	y   float64
	err error
}

func newReport() (*report, error) {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	pdf.SetCompressLevel(zlib.DefaultCompression)
	pdf.SetInfo(gopdf.PdfInfo{Title: "SwapBay incident report", Creator: "SwapBay", Producer: "SwapBay (gopdf)"})
	if err := pdf.AddTTFFontDataWithOption(pdffont.Family, pdffont.Regular, gopdf.TtfOption{Style: gopdf.Regular}); err != nil {
		return nil, fmt.Errorf("report font: %w", err)
	}
	if err := pdf.AddTTFFontDataWithOption(pdffont.Family, pdffont.Bold, gopdf.TtfOption{Style: gopdf.Bold}); err != nil {
		return nil, fmt.Errorf("report font: %w", err)
	}
	pdf.AddPage()
	return &report{pdf: pdf, y: reportMargin}, nil
}

// ensure starts a new page unless h more points fit on this one.
func (r *report) ensure(h float64) {
	if r.y+h > reportBottom {
		r.pdf.AddPage()
		r.y = reportMargin
	}
}

func (r *report) gap(h float64) { r.y += h }

// line writes text at size (bold or not), wrapped to the page's width.
func (r *report) line(size float64, bold bool, text string) {
	if r.err != nil {
		return
	}
	style := ""
	if bold {
		style = "B"
	}
	if r.err = r.pdf.SetFont(pdffont.Family, style, size); r.err != nil {
		return
	}
	lines, err := r.pdf.SplitTextWithWordWrap(text, reportWidth)
	if err != nil || len(lines) == 0 {
		lines = []string{text}
	}
	for _, l := range lines {
		r.ensure(size * 1.4)
		r.pdf.SetXY(reportMargin, r.y)
		if r.err = r.pdf.Cell(nil, l); r.err != nil {
			return
		}
		r.y += size * 1.4
	}
}
