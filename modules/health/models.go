package health

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
)

// ModelRow is one line of the models list: a model's figures and how many packs (and worn
// packs) carry it.
type ModelRow struct {
	Model
	Packs int `json:"packs"`
	Worn  int `json:"worn"`
}

// Messages of the models routes.
var (
	MsgModelName      = fmt.Sprintf("Model is required (at most %d characters)", schema.MaxPackTextLength)
	MsgModelNominalWh = "Nominal energy must be a number from 0 to 100000 Wh"
	MsgModelRatedAh   = "Rated capacity must be a number from 0 to 10000 Ah"
	MsgModelThreshold = "The end-of-life threshold must be a number from 1 to 100 (%)"
	MsgModelSaved     = "Model %s saved"
)

// ModelInput is what PUT /api/admin/packs/models takes.
type ModelInput struct {
	Model     string
	NominalWh *float64
	RatedAh   *float64
	Threshold *float64
}

// Models lists every distinct non-empty pack model and every configured one: a model not
// configured shows the default threshold and its packs' most common nominal Wh.
func Models(app core.App) ([]ModelRow, error) {
	var counts []struct {
		Model string `db:"model"`
		Packs int    `db:"packs"`
		Worn  int    `db:"worn"`
	}
	err := app.DB().NewQuery("SELECT [[model]], COUNT(*) AS packs, SUM(CASE WHEN [[worn]] = 1 THEN 1 ELSE 0 END) AS worn FROM " +
		schema.Packs + " WHERE [[model]] != '' GROUP BY [[model]]").All(&counts)
	if err != nil {
		return nil, fmt.Errorf("count packs by model: %w", err)
	}
	var commonWh []struct {
		Model     string  `db:"model"`
		NominalWh float64 `db:"nominalWh"`
		N         int     `db:"n"`
	}
	err = app.DB().NewQuery("SELECT [[model]], COALESCE([[nominalWh]], 0) AS nominalWh, COUNT(*) AS n FROM " + schema.Packs +
		" WHERE [[model]] != '' AND [[nominalWh]] > 0 GROUP BY [[model]], [[nominalWh]]").All(&commonWh)
	if err != nil {
		return nil, fmt.Errorf("read packs' nominal energy: %w", err)
	}
	best := map[string]struct {
		wh float64
		n  int
	}{}
	for _, c := range commonWh {
		if b, ok := best[c.Model]; !ok || c.N > b.n || (c.N == b.n && c.NominalWh > b.wh) {
			best[c.Model] = struct {
				wh float64
				n  int
			}{c.NominalWh, c.N}
		}
	}
	var configured []struct {
		Model     string  `db:"model"`
		NominalWh float64 `db:"nominalWh"`
		RatedAh   float64 `db:"ratedAh"`
		Threshold float64 `db:"threshold"`
	}
	if err := app.DB().NewQuery("SELECT [[model]], [[nominalWh]], [[ratedAh]], [[threshold]] FROM " + schema.PackModels).All(&configured); err != nil {
		return nil, fmt.Errorf("read pack models: %w", err)
	}
	rows := map[string]*ModelRow{}
	for _, c := range counts {
		rows[c.Model] = &ModelRow{Model: Model{Model: c.Model, NominalWh: best[c.Model].wh, Threshold: schema.DefaultPackThreshold}, Packs: c.Packs, Worn: c.Worn}
	}
	for _, c := range configured {
		r, ok := rows[c.Model]
		if !ok {
			r = &ModelRow{}
			rows[c.Model] = r
		}
		r.Model = Model{Model: c.Model, NominalWh: c.NominalWh, RatedAh: c.RatedAh, Threshold: c.Threshold, Configured: true}
	}
	out := make([]ModelRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model.Model < out[j].Model.Model })
	return out, nil
}

// checkFigure checks an optional number in [lo, hi]; absent is 0.
func checkFigure(field string, v *float64, lo, hi float64, msg string, required bool) (float64, error) {
	if v == nil {
		if required {
			return 0, apierr.Invalid(field, msg)
		}
		return 0, nil
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < lo || *v > hi {
		return 0, apierr.Invalid(field, msg)
	}
	return *v, nil
}

// SaveModel stores a model's figures (creating its row the first time) and re-derives its
// packs in the same transaction: a new threshold may wear them or clear them.
func SaveModel(app core.App, in ModelInput) (ModelRow, error) {
	name := strings.TrimSpace(reqx.StripControls(in.Model))
	if name == "" || len([]rune(name)) > schema.MaxPackTextLength {
		return ModelRow{}, apierr.Invalid("model", MsgModelName)
	}
	wh, err := checkFigure("nominalWh", in.NominalWh, 0, 100000, MsgModelNominalWh, false)
	if err != nil {
		return ModelRow{}, err
	}
	ah, err := checkFigure("ratedAh", in.RatedAh, 0, 10000, MsgModelRatedAh, false)
	if err != nil {
		return ModelRow{}, err
	}
	threshold, err := checkFigure("threshold", in.Threshold, 1, 100, MsgModelThreshold, true)
	if err != nil {
		return ModelRow{}, err
	}
	var out ModelRow
	err = app.RunInTransaction(func(txApp core.App) error {
		col, err := txApp.FindCachedCollectionByNameOrId(schema.PackModels)
		if err != nil {
			return err
		}
		rec, err := txApp.FindFirstRecordByData(col, schema.PackModelName, name)
		if errors.Is(err, sql.ErrNoRows) {
			rec, err = core.NewRecord(col), nil
			rec.Set(schema.PackModelName, name)
		}
		if err != nil {
			return err
		}
		rec.Set(schema.PackModelNominalWh, wh)
		rec.Set(schema.PackModelRatedAh, ah)
		rec.Set(schema.PackModelThreshold, threshold)
		if err := txApp.Save(rec); err != nil {
			return err
		}
		var ids []string
		if err := txApp.DB().Select("id").From(schema.Packs).Where(dbx.HashExp{schema.PackModel: name}).Column(&ids); err != nil {
			return err
		}
		if err := Derive(txApp, ids); err != nil {
			return err
		}
		out = ModelRow{Model: Model{Model: name, NominalWh: wh, RatedAh: ah, Threshold: threshold, Configured: true}, Packs: len(ids)}
		if err := txApp.DB().NewQuery("SELECT COUNT(*) FROM " + schema.Packs + " WHERE [[model]] = {:m} AND [[worn]] = 1").
			Bind(dbx.Params{"m": name}).Row(&out.Worn); err != nil {
			return err
		}
		events.Publish(txApp, events.InventoryUpdated, events.ActivityUpdated) // the packs list and the attention strip's worn count
		return nil
	})
	return out, err
}
