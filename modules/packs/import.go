package packs

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/csvin"
	"swapbay/lib/schema"
	"swapbay/modules/journal"
)

// MaxImportRows bounds one CSV import.
const MaxImportRows = 5000

// ImportColumns are the CSV's columns (the header row names them, in any order, any case);
// serial and model are required, the rest may be blank or absent.
var ImportColumns = []string{"serial", "model", "chemistry", "nominalWh", "manufacturer", "lot", "manufactured", "inServiceSince", "state"}

// serialPattern is what a serial may be: capitals, digits, dot and dash, up to 40 characters —
// safe in a URL path, on a label and typed by hand.
var serialPattern = regexp.MustCompile(`^[A-Z0-9][A-Z0-9.-]{0,39}$`)

// SerialPattern is what a serial may be (a transfer's manifest is held to it too).
func SerialPattern() *regexp.Regexp { return serialPattern }

// Messages of the import.
var (
	MsgImportEmpty      = "The file has no packs: a header row and at least one pack are needed"
	MsgImportTooMany    = fmt.Sprintf("At most %d packs can be imported at once", MaxImportRows)
	MsgImportHeader     = "The first row must name the columns; serial and model are required (" + strings.Join(ImportColumns, ", ") + ")"
	MsgImportUnreadable = "The file is not readable CSV"
	MsgSerial           = "Serial must be 1 to 40 capital letters, digits, dots or dashes"
	MsgSerialTaken      = "Serial %s is already registered"
	MsgSerialTwice      = "Serial %s is also on line %d"
	MsgInServiceSince   = "In service since must be a date YYYY-MM-DD"
	MsgImportRefused    = "Nothing was imported: %d of %d rows have problems (line %d: %s)"
	MsgImported         = "%d packs imported"
)

// ImportRow is one CSV row as the preview shows it; Errors says why it cannot be imported.
type ImportRow struct {
	Line int `json:"line"`
	Attributes
	Errors []string `json:"errors"`
	since  time.Time
	specs  Specs
	taken  bool // a pack already has the serial
}

// ImportResult is the preview (DryRun) or the outcome of an import.
type ImportResult struct {
	DryRun   bool        `json:"dryRun"`
	Rows     []ImportRow `json:"rows"`
	Valid    int         `json:"valid"`
	Invalid  int         `json:"invalid"`
	Imported int         `json:"imported"`
}

// Import reads text, a CSV of existing packs, checks every row (against the registry and the
// file's other rows) and — unless dryRun — registers them all, with an "imported" event each by
// actor, in one transaction. A file with any bad row imports nothing: a 400 (a 409
// pack_duplicate when a serial is taken) naming the first bad line; the preview names each.
func Import(app core.App, text string, dryRun bool, actor string, now time.Time) (ImportResult, error) {
	rows, err := parseImport(text)
	if err != nil {
		return ImportResult{}, err
	}
	res := ImportResult{DryRun: dryRun}
	err = app.RunInTransaction(func(txApp core.App) error {
		if err := checkTaken(txApp, rows); err != nil {
			return err
		}
		res.Rows, res.Valid, res.Invalid = rows, 0, 0
		var first *ImportRow
		dup := false
		for i := range rows {
			if len(rows[i].Errors) == 0 {
				res.Valid++
				continue
			}
			res.Invalid++
			if first == nil {
				first = &rows[i]
			}
			dup = dup || rows[i].taken
		}
		if dryRun {
			return nil
		}
		if first != nil {
			msg := fmt.Sprintf(MsgImportRefused, res.Invalid, len(rows), first.Line, first.Errors[0])
			if dup {
				return &apierr.Error{Kind: apierr.ErrConflict, Code: apierr.CodePackDuplicate, Message: msg}
			}
			return apierr.Invalid("csv", msg)
		}
		packs, _, err := collections(txApp)
		if err != nil {
			return err
		}
		created := make([]*Pack, 0, len(rows))
		for _, r := range rows {
			p := NewPack(packs)
			p.Set(schema.PackSerial, r.Serial)
			r.specs.Apply(p)
			if !r.since.IsZero() {
				p.Set(schema.PackInServiceSince, r.since)
			}
			if r.State != "" {
				p.Set(schema.PackState, r.State)
			}
			if err := journal.Create(txApp, p.Record, schema.PackEventImported, actor, now); err != nil {
				return err
			}
			created = append(created, p)
		}
		if err := recallNew(txApp, created, actor, now); err != nil {
			return err
		}
		res.Imported = len(rows)
		return nil
	})
	return res, err
}

// parseImport reads the CSV into rows, each checked on its own and against the rows above it.
func parseImport(text string) ([]ImportRow, error) {
	r, header, err := csvin.Open(text, MsgImportEmpty, MsgImportUnreadable)
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range header {
		for _, c := range ImportColumns {
			if strings.EqualFold(strings.TrimSpace(h), c) {
				col[c] = i
			}
		}
	}
	if _, ok := col["serial"]; !ok {
		return nil, apierr.Invalid("csv", MsgImportHeader)
	}
	if _, ok := col["model"]; !ok {
		return nil, apierr.Invalid("csv", MsgImportHeader)
	}
	var rows []ImportRow
	seen := map[string]int{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, apierr.Invalid("csv", MsgImportUnreadable+": "+err.Error())
		}
		line, _ := r.FieldPos(0)
		get := func(c string) string {
			if i, ok := col[c]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if csvin.Blank(rec) {
			continue
		}
		if len(rows) == MaxImportRows {
			return nil, apierr.TooLarge(MsgImportTooMany)
		}
		rows = append(rows, checkRow(line, get, seen))
	}
	if len(rows) == 0 {
		return nil, apierr.Invalid("csv", MsgImportEmpty)
	}
	return rows, nil
}

func checkRow(line int, get func(string) string, seen map[string]int) ImportRow {
	row := ImportRow{Line: line, Attributes: Attributes{Serial: journal.Serial(get("serial"))}, Errors: []string{}}
	if !serialPattern.MatchString(row.Serial) {
		row.Errors = append(row.Errors, MsgSerial)
	} else if at, ok := seen[row.Serial]; ok {
		row.Errors = append(row.Errors, fmt.Sprintf(MsgSerialTwice, row.Serial, at))
	} else {
		seen[row.Serial] = line
	}
	specs := Specs{Model: get("model"), Chemistry: get("chemistry"), Manufacturer: get("manufacturer"), Lot: get("lot"), Manufactured: get("manufactured")}
	if wh := get("nominalWh"); wh != "" {
		v, err := strconv.ParseFloat(wh, 64)
		if err != nil {
			v = -1
		}
		specs.NominalWh = v
	}
	// Check stops at the first problem; a row's every problem is wanted, so each field alone
	for _, one := range []Specs{
		{Model: specs.Model},
		{Model: "m", Chemistry: specs.Chemistry},
		{Model: "m", Manufacturer: specs.Manufacturer},
		{Model: "m", Lot: specs.Lot},
		{Model: "m", NominalWh: specs.NominalWh},
		{Model: "m", Manufactured: specs.Manufactured},
	} {
		if _, err := one.Check(); err != nil {
			row.Errors = append(row.Errors, err.Error())
		}
	}
	row.specs, _ = specs.Check()
	if row.specs.Model == "" {
		row.specs = specs
	}
	row.Model, row.Chemistry, row.NominalWh = row.specs.Model, row.specs.Chemistry, row.specs.NominalWh
	row.Manufacturer, row.Lot, row.Manufactured = row.specs.Manufacturer, row.specs.Lot, row.specs.Manufactured
	if s := get("inServiceSince"); s != "" {
		row.InServiceSince = s
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			row.Errors = append(row.Errors, MsgInServiceSince)
		}
		row.since = t
	}
	if s := strings.ToLower(get("state")); s != "" {
		row.State = strings.ReplaceAll(strings.ReplaceAll(s, " ", "_"), "-", "_")
		if !IsState(row.State) {
			row.Errors = append(row.Errors, MsgUnknownState)
		}
	}
	return row
}

// checkTaken adds "already registered" to each row whose serial a pack already has.
func checkTaken(app core.App, rows []ImportRow) error {
	const batch = 500
	for lo := 0; lo < len(rows); lo += batch {
		hi := min(lo+batch, len(rows))
		vals := make([]any, 0, hi-lo)
		for _, r := range rows[lo:hi] {
			vals = append(vals, r.Serial)
		}
		var taken []string
		if err := app.DB().Select(schema.PackSerial).From(schema.Packs).Where(dbx.In(schema.PackSerial, vals...)).Column(&taken); err != nil {
			return err
		}
		set := map[string]bool{}
		for _, s := range taken {
			set[s] = true
		}
		for i := lo; i < hi; i++ {
			if set[rows[i].Serial] {
				rows[i].Errors = append(rows[i].Errors, fmt.Sprintf(MsgSerialTaken, rows[i].Serial))
				rows[i].taken = true
			}
		}
	}
	return nil
}
