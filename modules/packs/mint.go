package packs

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/lib/settings"
	"swapbay/modules/journal"
)

// MaxMint is the most packs one mint makes (one label sheet's worth of pages a printer takes).
const MaxMint = 1000

// MaxNominalWh bounds a pack's nominal energy (the collection's own bound).
const MaxNominalWh = 100000

// Messages of the registry's inputs.
var (
	MsgMintCount    = fmt.Sprintf("Number of packs must be a whole number from 1 to %d", MaxMint)
	MsgNominalWh    = fmt.Sprintf("Nominal Wh must be a number from 0 to %d", MaxNominalWh)
	MsgManufactured = "Month of manufacture must be YYYY-MM"
	MsgTextTooLong  = fmt.Sprintf("At most %d characters", schema.MaxPackTextLength)
	MsgModel        = "Model is required"
)

// Specs are the registry facts a mint, an import row or a transfer's manifest gives a pack; the
// tags are the packs collection's field names (a manifest carries them under the same names).
type Specs struct {
	Model        string  `db:"model" json:"model"`
	Chemistry    string  `db:"chemistry" json:"chemistry"`
	NominalWh    float64 `db:"nominalWh" json:"nominalWh"`
	Manufacturer string  `db:"manufacturer" json:"manufacturer"`
	Lot          string  `db:"lot" json:"lot"`
	Manufactured string  `db:"manufactured" json:"manufactured"` // YYYY-MM or ""
}

// Check cleans s (trims, strips control characters) and validates it; the error names the
// field (its JSON name).
func (s Specs) Check() (Specs, error) {
	for _, f := range []struct {
		name string
		v    *string
	}{{schema.PackModel, &s.Model}, {schema.PackChemistry, &s.Chemistry}, {schema.PackManufacturer, &s.Manufacturer}, {schema.PackLot, &s.Lot}} {
		*f.v = strings.TrimSpace(reqx.StripControls(*f.v))
		if len([]rune(*f.v)) > schema.MaxPackTextLength {
			return s, apierr.Invalid(f.name, MsgTextTooLong)
		}
	}
	if s.Model == "" {
		return s, apierr.Invalid(schema.PackModel, MsgModel)
	}
	if s.NominalWh < 0 || s.NominalWh > MaxNominalWh || s.NominalWh != s.NominalWh {
		return s, apierr.Invalid(schema.PackNominalWh, MsgNominalWh)
	}
	s.Manufactured = strings.TrimSpace(s.Manufactured)
	if s.Manufactured != "" && !IsMonth(s.Manufactured) {
		return s, apierr.Invalid(schema.PackManufactured, MsgManufactured)
	}
	return s, nil
}

// IsMonth reports whether text is a month YYYY-MM (years 1900–2999).
func IsMonth(text string) bool {
	t, err := time.Parse("2006-01", text)
	return err == nil && len(text) == 7 && t.Year() >= 1900 && t.Year() < 3000
}

// Apply sets s on the pack p.
func (s Specs) Apply(p *Pack) {
	p.Set(schema.PackModel, s.Model)
	p.Set(schema.PackChemistry, s.Chemistry)
	p.Set(schema.PackNominalWh, s.NominalWh)
	p.Set(schema.PackManufacturer, s.Manufacturer)
	p.Set(schema.PackLot, s.Lot)
	p.Set(schema.PackManufactured, s.Manufactured)
}

// Mint registers count new packs with specs under fresh serials (the prefix setting + the
// next numbers of the stored sequence; a number an imported pack already holds is skipped),
// each in service from now, with a "created" event by actor — all in one transaction. The
// sequence only grows, so no serial is ever handed out twice.
func Mint(app core.App, count int, specs Specs, actor string, now time.Time) ([]*Pack, error) {
	if count < 1 || count > MaxMint {
		return nil, apierr.Invalid("count", MsgMintCount)
	}
	specs, err := specs.Check()
	if err != nil {
		return nil, err
	}
	var out []*Pack
	err = app.RunInTransaction(func(txApp core.App) error {
		out = out[:0]
		vals, err := settings.Load(txApp)
		if err != nil {
			return err
		}
		prefix := Prefix.Get(vals)
		seq, _ := strconv.Atoi(strings.TrimSpace(vals[schema.SettingPackSequence]))
		packs, _, err := collections(txApp)
		if err != nil {
			return err
		}
		for len(out) < count {
			seq++
			serial := Serial(prefix, seq)
			taken, err := serialTaken(txApp, serial)
			if err != nil {
				return err
			}
			if taken {
				continue
			}
			p := NewPack(packs)
			p.Set(schema.PackSerial, serial)
			specs.Apply(p)
			p.Set(schema.PackInServiceSince, now.UTC())
			if err := journal.Create(txApp, p.Record, schema.PackEventCreated, actor, now); err != nil {
				return err
			}
			out = append(out, p)
		}
		if err := recallNew(txApp, out, actor, now); err != nil {
			return err
		}
		return storeSequence(txApp, seq)
	})
	return out, err
}

// collections returns the packs and pack_events collections.
func collections(app core.App) (packs, events *core.Collection, err error) {
	if packs, err = app.FindCachedCollectionByNameOrId(schema.Packs); err != nil {
		return nil, nil, err
	}
	events, err = app.FindCachedCollectionByNameOrId(schema.PackEvents)
	return packs, events, err
}

func serialTaken(app core.App, serial string) (bool, error) {
	var n int
	err := app.DB().Select("count(*)").From(schema.Packs).Where(dbx.HashExp{schema.PackSerial: serial}).Row(&n)
	return n > 0, err
}

// storeSequence keeps the last number minted (a settings row no admin form offers).
func storeSequence(txApp core.App, seq int) error {
	col, err := txApp.FindCachedCollectionByNameOrId(schema.Settings)
	if err != nil {
		return err
	}
	rec, err := txApp.FindFirstRecordByData(col, schema.SettingKey, schema.SettingPackSequence)
	if errors.Is(err, sql.ErrNoRows) {
		rec, err = core.NewRecord(col), nil
		rec.Set(schema.SettingKey, schema.SettingPackSequence)
	}
	if err != nil {
		return err
	}
	rec.Set(schema.SettingValue, strconv.Itoa(seq))
	return txApp.Save(rec)
}
