package health

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/bulk"
	"swapbay/lib/clock"
	"swapbay/lib/csvin"
	"swapbay/lib/events"
	"swapbay/lib/idempotency"
	"swapbay/lib/ids"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/journal"
)

// Limits of one readings import.
const (
	// MaxReadingRows is the most readings one import takes (the bench imports this many ≤ 5 s).
	MaxReadingRows = 10000
	// MaxReadingsBody is the largest request body of an import: the keyed requests' limit
	// (idempotency.MaxBody, 1 MiB), enough for 10,000 rows of ~100 bytes.
	MaxReadingsBody = idempotency.MaxBody
	// MaxCellLength bounds one CSV cell (a serial is 40, the faults 200).
	MaxCellLength = schema.MaxPackReadingFaultsLength
	// MaxAhead is how far in the future a reading's time may be (clocks drift a little).
	MaxAhead = 5 * time.Minute
	// readingChunk is how many readings one INSERT writes (8 parameters a row).
	readingChunk = 400
)

// localTime is the short time format, read in the operation's time zone.
const localTime = "2006-01-02 15:04"

// Columns of the readings CSV (the header names them, any order, any case, each once).
const (
	ColSerial = "serial"
	ColTime   = "time"
	ColSource = "source"
	ColFaults = "faults"
)

// figureColumn is one optional numeric column and its bounds.
type figureColumn struct {
	name       string
	lo, hi     float64
	whole      bool
	loExcluded bool // lo itself is refused (a capacity of 0)
}

// figureColumns are the optional figures, in the header's documented order.
var figureColumns = []figureColumn{
	{name: schema.PackReadingFigureEnergyWh, lo: 0, hi: 100000},
	{name: schema.PackReadingFigureSocFrom, lo: 0, hi: 100},
	{name: schema.PackReadingFigureSocTo, lo: 0, hi: 100},
	{name: schema.PackReadingFigureFullAh, lo: 0, hi: 10000, loExcluded: true},
	{name: schema.PackReadingFigureDesignAh, lo: 0, hi: 10000, loExcluded: true},
	{name: schema.PackReadingFigureFullWh, lo: 0, hi: 100000, loExcluded: true},
	{name: schema.PackReadingFigureDesignWh, lo: 0, hi: 100000, loExcluded: true},
	{name: schema.PackReadingFigureCycles, lo: 0, hi: 1000000, whole: true},
	{name: schema.PackReadingFigureSoh, lo: 0, hi: 100},
	{name: schema.PackReadingFigureMaxTempC, lo: -60, hi: 200},
}

// ReadingColumns are every column the CSV may have.
func ReadingColumns() []string {
	out := []string{ColSerial, ColTime, ColSource}
	for _, f := range figureColumns {
		out = append(out, f.name)
	}
	return append(out, ColFaults)
}

// Messages of the readings import.
var (
	MsgReadingsEmpty      = "The file has no readings: a header row and at least one reading are needed"
	MsgReadingsTooMany    = fmt.Sprintf("At most %d readings can be imported at once", MaxReadingRows)
	MsgReadingsHeader     = "The first row must name the columns; serial, time and source are required (" + strings.Join(ReadingColumns(), ", ") + ")"
	MsgReadingsUnreadable = "The file is not readable CSV"
	MsgReadingsBody       = fmt.Sprintf("The file is too large: at most %d KB can be imported at once", MaxReadingsBody>>10)
	MsgUnknownColumn      = "Unknown column %q"
	MsgColumnTwice        = "Column %q is named twice: which one holds the readings?"
	MsgCellTooLong        = "A cell is longer than %d characters"
	MsgUnknownSerial      = "No pack has serial %s"
	MsgSerialMissing      = "Serial is required"
	MsgTime               = "Time must be RFC 3339 (2026-11-28T09:30:00Z) or YYYY-MM-DD HH:MM"
	MsgTimeFuture         = "Time %s is in the future"
	MsgTimeTooOld         = "Time must be after 2000"
	MsgSource             = "Source must be charger or bms"
	MsgNotNumber          = "%s must be a number"
	MsgOutOfRange         = "%s must be from %s to %s"
	MsgAboveZero          = "%s must be above 0 and at most %s"
	MsgWhole              = "%s must be a whole number"
	MsgSocOrder           = "socTo must not be below socFrom"
	MsgReadingsRefused    = "Nothing was imported: %d of %d rows have problems (line %d: %s)"
	MsgReadingsImported   = "%d readings imported for %d packs"
	MsgReadingsSkipped    = " (%d already imported: the same pack, time and source)"
)

// RowError names one bad row: its line in the file, its serial as written, and why.
type RowError struct {
	Line    int    `json:"line"`
	Serial  string `json:"serial"`
	Message string `json:"message"`
}

// Preview is the dry run's answer: every bad row named, nothing written.
type Preview struct {
	Rows   int        `json:"rows"`
	Packs  int        `json:"packs"`
	Errors []RowError `json:"errors"`
}

// Imported is an import's answer.
type Imported struct {
	Success bool     `json:"success"`
	Message string   `json:"message"`
	Rows    int      `json:"rows"`  // the file's readings
	Added   int      `json:"added"` // those stored: a reading already imported (pack, time, source) is skipped
	Packs   int      `json:"packs"`
	Worn    []string `json:"worn"` // the serials of the imported packs worn after the import
}

// RowsError refuses an import with bad rows: a 400 whose data.rows names each one.
type RowsError struct {
	Message string
	Rows    []RowError
}

func (e *RowsError) Error() string { return e.Message }

// row is one parsed CSV row.
type row struct {
	line    int
	serial  string
	at      time.Time
	source  string
	figures map[string]float64
	faults  string
	packId  string
	errs    []string
}

// ImportReadings checks text, a CSV of readings (serial, time, source and any figures), and —
// unless dryRun — stores every row in one transaction and re-derives the packs it names. A
// file with a bad row writes nothing: a *RowsError naming each. key is the request's
// Idempotency-Key, kept on each reading; actor who imported them.
func ImportReadings(app core.App, text string, dryRun bool, key, actor string) (Preview, Imported, error) {
	if len(text) > MaxReadingsBody {
		return Preview{}, Imported{}, apierr.TooLarge(MsgReadingsBody)
	}
	now := clock.Now().UTC()
	var pre Preview
	var out Imported
	err := app.RunInTransaction(func(txApp core.App) error {
		vals, err := settings.Load(txApp)
		if err != nil {
			return err
		}
		rows, err := parseReadings(text, clock.LocationFor(vals[schema.SettingTimeZone]), now)
		if err != nil {
			return err
		}
		if err := resolveSerials(txApp, rows); err != nil {
			return err
		}
		pre = Preview{Rows: len(rows), Errors: []RowError{}}
		packs := map[string]bool{}
		for _, r := range rows {
			if len(r.errs) > 0 {
				pre.Errors = append(pre.Errors, RowError{Line: r.line, Serial: r.serial, Message: strings.Join(r.errs, "; ")})
				continue
			}
			packs[r.packId] = true
		}
		pre.Packs = len(packs)
		if dryRun {
			return nil
		}
		if len(pre.Errors) > 0 {
			first := pre.Errors[0]
			return &RowsError{Message: fmt.Sprintf(MsgReadingsRefused, len(pre.Errors), len(rows), first.Line, first.Message), Rows: pre.Errors}
		}
		added, err := insertReadings(txApp, rows, key, actor, now)
		if err != nil {
			return err
		}
		ids := make([]string, 0, len(packs))
		for id := range packs {
			ids = append(ids, id)
		}
		if err := Derive(txApp, ids); err != nil {
			return err
		}
		worn, err := wornAmong(txApp, ids)
		if err != nil {
			return err
		}
		msg := fmt.Sprintf(MsgReadingsImported, added, len(ids))
		if skipped := len(rows) - added; skipped > 0 {
			msg += fmt.Sprintf(MsgReadingsSkipped, skipped)
		}
		out = Imported{Success: true, Message: msg, Rows: len(rows), Added: added, Packs: len(ids), Worn: worn}
		events.Publish(txApp, events.InventoryUpdated, events.ActivityUpdated) // the packs list and the attention strip's worn count
		return nil
	})
	return pre, out, err
}

// parseReadings reads the CSV into rows, each checked on its own (serials are resolved after).
func parseReadings(text string, loc *time.Location, now time.Time) ([]*row, error) {
	r, header, err := csvin.Open(text, MsgReadingsEmpty, MsgReadingsUnreadable)
	if err != nil {
		return nil, err
	}
	known := map[string]string{}
	for _, c := range ReadingColumns() {
		known[strings.ToLower(c)] = c
	}
	col := map[string]int{}
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		if name == "" {
			continue
		}
		c, ok := known[name]
		if !ok {
			if len(h) > MaxCellLength {
				h = h[:MaxCellLength] + "…"
			}
			return nil, apierr.Invalid("csv", fmt.Sprintf(MsgUnknownColumn, h)+". "+MsgReadingsHeader)
		}
		if _, twice := col[c]; twice {
			// a second column of the same name would silently replace the first's figures
			return nil, apierr.Invalid("csv", fmt.Sprintf(MsgColumnTwice, c))
		}
		col[c] = i
	}
	for _, need := range []string{ColSerial, ColTime, ColSource} {
		if _, ok := col[need]; !ok {
			return nil, apierr.Invalid("csv", MsgReadingsHeader)
		}
	}
	var rows []*row
	line := 1
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line++
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, apierr.Invalid("csv", fmt.Sprintf("%s (line %d)", MsgReadingsUnreadable, pe.Line))
			}
			return nil, apierr.Invalid("csv", MsgReadingsUnreadable)
		}
		if csvin.Blank(rec) {
			continue
		}
		if len(rows) == MaxReadingRows {
			return nil, apierr.Invalid("csv", MsgReadingsTooMany)
		}
		rows = append(rows, parseRow(rec, col, line, loc, now))
	}
	if len(rows) == 0 {
		return nil, apierr.Invalid("csv", MsgReadingsEmpty)
	}
	return rows, nil
}

// parseRow checks one row; its problems are in errs.
func parseRow(rec []string, col map[string]int, line int, loc *time.Location, now time.Time) *row {
	cell := func(name string) string {
		i, ok := col[name]
		if !ok || i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	out := &row{line: line, figures: map[string]float64{}}
	for _, c := range rec {
		if len(c) > MaxCellLength {
			out.errs = append(out.errs, fmt.Sprintf(MsgCellTooLong, MaxCellLength))
			out.serial = clip(cell(ColSerial))
			return out
		}
	}
	out.serial = cell(ColSerial)
	if out.serial == "" {
		out.errs = append(out.errs, MsgSerialMissing)
	}
	if at, err := readTime(cell(ColTime), loc); err != nil {
		out.errs = append(out.errs, err.Error())
	} else if at.After(now.Add(MaxAhead)) {
		out.errs = append(out.errs, fmt.Sprintf(MsgTimeFuture, cell(ColTime)))
	} else {
		out.at = at
	}
	switch src := strings.ToLower(cell(ColSource)); src {
	case schema.PackReadingSourceCharger, schema.PackReadingSourceBMS:
		out.source = src
	default:
		out.errs = append(out.errs, MsgSource)
	}
	for _, f := range figureColumns {
		text := cell(f.name)
		if text == "" {
			continue
		}
		v, err := readFigure(f, text)
		if err != nil {
			out.errs = append(out.errs, err.Error())
			continue
		}
		out.figures[f.name] = v
	}
	from, ok1 := out.figures[schema.PackReadingFigureSocFrom]
	to, ok2 := out.figures[schema.PackReadingFigureSocTo]
	if ok1 && ok2 && to < from {
		out.errs = append(out.errs, MsgSocOrder)
	}
	out.faults = reqx.StripControls(cell(ColFaults))
	return out
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// readTime reads RFC 3339, or YYYY-MM-DD HH:MM in loc.
func readTime(text string, loc *time.Location) (time.Time, error) {
	var at time.Time
	var err error
	if strings.ContainsAny(text, "TZ+") || strings.Count(text, "-") > 2 {
		at, err = time.Parse(time.RFC3339, text)
	} else {
		at, err = time.ParseInLocation(localTime, text, loc)
	}
	if err != nil {
		return time.Time{}, errors.New(MsgTime)
	}
	if at.Year() < 2000 {
		return time.Time{}, errors.New(MsgTimeTooOld)
	}
	return at.UTC(), nil
}

// readFigure reads one number within f's bounds: NaN, infinities and numbers out of float64's
// range (1e309) are refused, as are negative figures where none are possible.
func readFigure(f figureColumn, text string) (float64, error) {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf(MsgNotNumber, f.name)
	}
	if f.loExcluded && (v <= f.lo || v > f.hi) {
		return 0, fmt.Errorf(MsgAboveZero, f.name, num(f.hi))
	}
	if v < f.lo || v > f.hi {
		return 0, fmt.Errorf(MsgOutOfRange, f.name, num(f.lo), num(f.hi))
	}
	if f.whole && v != math.Trunc(v) {
		return 0, fmt.Errorf(MsgWhole, f.name)
	}
	return v, nil
}

// resolveSerials finds each row's pack (one query per chunk of serials); an unknown serial is
// the row's error.
func resolveSerials(txApp core.App, rows []*row) error {
	want := map[string]bool{}
	for _, r := range rows {
		if r.serial != "" {
			want[journal.Serial(r.serial)] = true
		}
	}
	list := make([]string, 0, len(want))
	for s := range want {
		if len(s) <= schema.MaxPackSerialLength {
			list = append(list, s)
		}
	}
	sort.Strings(list)
	found := map[string]string{}
	for start := 0; start < len(list); start += chunk {
		part := list[start:min(start+chunk, len(list))]
		params := dbx.Params{}
		var packs []struct {
			Id     string `db:"id"`
			Serial string `db:"serial"`
		}
		err := txApp.DB().NewQuery("SELECT [[id]], [[serial]] FROM " + schema.Packs + " WHERE [[serial]] IN " + bulk.In("s", part, params)).
			Bind(params).All(&packs)
		if err != nil {
			return fmt.Errorf("find packs by serial: %w", err)
		}
		for _, p := range packs {
			found[p.Serial] = p.Id
		}
	}
	for _, r := range rows {
		if r.serial == "" {
			continue
		}
		id, ok := found[journal.Serial(r.serial)]
		if !ok {
			r.errs = append(r.errs, fmt.Sprintf(MsgUnknownSerial, clip(r.serial)))
			continue
		}
		r.packId = id
	}
	return nil
}

// insertReadings stores rows in multi-row INSERTs (lib/bulk, as the journal stores its events): one
// statement per readingChunk rows, not a record save each. A reading already stored (the same
// pack, time and source: idx_pack_readings_fact) is skipped; it answers how many were added.
func insertReadings(txApp core.App, rows []*row, key, actor string, now time.Time) (int, error) {
	ins := bulk.Rows{What: "pack readings", Chunk: readingChunk,
		Into:   "INSERT OR IGNORE INTO " + schema.PackReadings + " (id, pack, at, source, figures, faults, import, actor, created) VALUES ",
		Tuple:  "({:id%[1]s}, {:p%[1]s}, {:at%[1]s}, {:s%[1]s}, {:f%[1]s}, {:x%[1]s}, {:import}, {:actor}, {:created})",
		Shared: dbx.Params{"import": key, "actor": actor, "created": clock.DBText(now)}}
	added, err := ins.Insert(txApp.DB(), len(rows), func(i int, k string, params dbx.Params) error {
		r := rows[i]
		figures, err := json.Marshal(r.figures)
		if err != nil {
			return err
		}
		params["id"+k], params["p"+k], params["at"+k], params["s"+k] = ids.New(), r.packId, clock.DBText(r.at), r.source
		params["f"+k], params["x"+k] = string(figures), r.faults
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int(added), nil
}

// wornAmong answers the serials of the packs ids that are worn, sorted.
func wornAmong(txApp core.App, ids []string) ([]string, error) {
	out := []string{}
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		params := dbx.Params{}
		var serials []string
		err := txApp.DB().NewQuery("SELECT [[serial]] FROM " + schema.Packs + " WHERE [[worn]] = 1 AND [[id]] IN " + bulk.In("p", part, params)).
			Bind(params).Column(&serials)
		if err != nil {
			return nil, fmt.Errorf("read worn packs: %w", err)
		}
		out = append(out, serials...)
	}
	sort.Strings(out)
	return out, nil
}
