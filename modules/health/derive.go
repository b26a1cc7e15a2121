package health

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/bulk"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/lib/txutil"
)

// chunk is how many packs one read or write names (well under SQLite's parameter limit).
const chunk = 500

// packRow is what the derivation reads of a pack.
type packRow struct {
	Id          string  `db:"id"`
	Serial      string  `db:"serial"`
	Model       string  `db:"model"`
	NominalWh   float64 `db:"nominalWh"`
	ChargeCount int     `db:"chargeCount"`
	Created     string  `db:"created"`
}

// Model is one pack model's health figures (pack_models, or the defaults when not configured).
type Model struct {
	Model      string  `json:"model"`
	NominalWh  float64 `json:"nominalWh"`
	RatedAh    float64 `json:"ratedAh"`
	Threshold  float64 `json:"threshold"`
	Configured bool    `json:"configured"`
}

// packData is one pack with everything its derivation reads.
type packData struct {
	pack  packRow
	model Model
	in    Input
}

// parseTime reads a stored date ("" or unreadable: the zero time).
func parseTime(s string) time.Time {
	d, err := types.ParseDateTime(s)
	if err != nil {
		return time.Time{}
	}
	return d.Time()
}

// modelsOf reads the configured rows of the named models.
func modelsOf(app core.App, names []string) (map[string]Model, error) {
	out := map[string]Model{}
	if len(names) == 0 {
		return out, nil
	}
	var rows []struct {
		Model     string  `db:"model"`
		NominalWh float64 `db:"nominalWh"`
		RatedAh   float64 `db:"ratedAh"`
		Threshold float64 `db:"threshold"`
	}
	params := dbx.Params{}
	err := app.DB().NewQuery("SELECT [[model]], [[nominalWh]], [[ratedAh]], [[threshold]] FROM " + schema.PackModels +
		" WHERE [[model]] IN " + bulk.In("m", names, params)).Bind(params).All(&rows)
	if err != nil {
		return nil, fmt.Errorf("read pack models: %w", err)
	}
	for _, r := range rows {
		out[r.Model] = Model{Model: r.Model, NominalWh: r.NominalWh, RatedAh: r.RatedAh, Threshold: r.Threshold, Configured: true}
	}
	return out, nil
}

// load reads the packs ids (at most chunk) and every fact their derivation needs.
func load(app core.App, ids []string, now time.Time) ([]*packData, error) {
	params := dbx.Params{}
	list := bulk.In("p", ids, params)
	var packs []packRow
	err := app.DB().NewQuery("SELECT [[id]], [[serial]], [[model]], COALESCE([[nominalWh]], 0) AS nominalWh, COALESCE([[chargeCount]], 0) AS chargeCount, [[created]] FROM " +
		schema.Packs + " WHERE [[id]] IN " + list).Bind(params).All(&packs)
	if err != nil {
		return nil, fmt.Errorf("read packs: %w", err)
	}
	byId := map[string]*packData{}
	var names []string
	seen := map[string]bool{}
	out := make([]*packData, 0, len(packs))
	for _, p := range packs {
		d := &packData{pack: p, in: Input{Now: now, Charges: p.ChargeCount}}
		byId[p.Id] = d
		out = append(out, d)
		if !seen[p.Model] {
			seen[p.Model] = true
			names = append(names, p.Model)
		}
	}
	models, err := modelsOf(app, names)
	if err != nil {
		return nil, err
	}
	for _, d := range out {
		m, ok := models[d.pack.Model]
		if !ok {
			m = Model{Model: d.pack.Model, Threshold: schema.DefaultPackThreshold}
		}
		d.model = m
		d.in.Threshold = m.Threshold
		d.in.NominalWh = m.NominalWh
		if d.in.NominalWh <= 0 {
			d.in.NominalWh = d.pack.NominalWh
		}
	}

	// readings
	var readings []struct {
		Pack    string `db:"pack"`
		At      string `db:"at"`
		Source  string `db:"source"`
		Figures string `db:"figures"`
		Faults  string `db:"faults"`
	}
	err = app.DB().NewQuery("SELECT [[pack]], [[at]], [[source]], COALESCE([[figures]], '') AS figures, [[faults]] FROM " + schema.PackReadings +
		" WHERE [[pack]] IN " + list + " ORDER BY [[pack]], [[at]]").Bind(params).All(&readings)
	if err != nil {
		return nil, fmt.Errorf("read pack readings: %w", err)
	}
	for _, r := range readings {
		d := byId[r.Pack]
		if d == nil {
			continue
		}
		figures := map[string]float64{}
		if r.Figures != "" && r.Figures != "null" {
			if err := json.Unmarshal([]byte(r.Figures), &figures); err != nil {
				return nil, fmt.Errorf("reading of %s: figures %q: %w", d.pack.Serial, r.Figures, err)
			}
		}
		d.in.Readings = append(d.in.Readings, Reading{At: parseTime(r.At), Source: r.Source, Figures: figures, Faults: r.Faults})
	}

	// charges (completed sessions naming the pack) and damage reports
	var events []struct {
		Pack    string `db:"pack"`
		Kind    string `db:"kind"`
		At      string `db:"at"`
		Reason  string `db:"reason"`
		Session string `db:"session"`
	}
	params["charged"], params["damage"] = schema.PackEventCharged, schema.PackEventDamage
	err = app.DB().NewQuery("SELECT [[pack]], [[kind]], [[at]], [[reason]], [[session]] FROM " + schema.PackEvents +
		" WHERE [[pack]] IN " + list + " AND [[kind]] IN ({:charged}, {:damage}) ORDER BY [[at]]").Bind(params).All(&events)
	if err != nil {
		return nil, fmt.Errorf("read pack events: %w", err)
	}
	sessions := map[string]bool{}
	for _, e := range events {
		if e.Kind == schema.PackEventCharged && e.Session != "" {
			sessions[e.Session] = true
		}
	}
	shares, err := sessionShares(app, sessions)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		d := byId[e.Pack]
		if d == nil {
			continue
		}
		if e.Kind == schema.PackEventDamage {
			d.in.Damages = append(d.in.Damages, Damage{At: parseTime(e.At), Text: e.Reason})
			continue
		}
		d.in.ChargeLog = append(d.in.ChargeLog, Charge{At: parseTime(e.At), EnergyWh: shares[e.Session]})
	}
	return out, nil
}

// sessionShares answers, for each completed session with its charger's energy, the energy of
// one of its packs: the session's energy split evenly over the packs it names (its charged
// events). A session's batteries that no pack names get no share: the split is over the
// packs SwapBay knows were on the charger.
func sessionShares(app core.App, sessions map[string]bool) (map[string]float64, error) {
	out := map[string]float64{}
	ids := make([]string, 0, len(sessions))
	for id := range sessions {
		ids = append(ids, id)
	}
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		params := dbx.Params{"completed": schema.SessionStatusCompleted, "charged": schema.PackEventCharged}
		list := bulk.In("s", part, params)
		var rows []struct {
			Id       string  `db:"id"`
			EnergyWh float64 `db:"energyWh"`
			Packs    int     `db:"packs"`
		}
		err := app.DB().NewQuery("SELECT s.[[id]], s.[[energyWh]], (SELECT COUNT(*) FROM " + schema.PackEvents +
			" e WHERE e.[[session]] = s.[[id]] AND e.[[kind]] = {:charged}) AS packs FROM " + schema.ChargingSessions +
			" s WHERE s.[[id]] IN " + list + " AND s.[[status]] = {:completed} AND s.[[energyWh]] > 0").Bind(params).All(&rows)
		if err != nil {
			return nil, fmt.Errorf("read charging sessions' energy: %w", err)
		}
		for _, r := range rows {
			if r.Packs > 0 {
				out[r.Id] = r.EnergyWh / float64(r.Packs)
			}
		}
	}
	return out, nil
}

// Derive recomputes the health of packIds from their readings, their completed charging
// sessions and their model's figures, and stores it on each pack (soh, sohSource, sohAt,
// sohDrop30, energyThroughputWh, worn, wornReason): the one writer of those columns
// (DESIGN.md §16). Call inside a transaction. Unknown ids are skipped.
func Derive(txApp core.App, packIds []string) error {
	if err := txutil.Require(txApp, "health.Derive"); err != nil {
		return err
	}
	now := clock.Now().UTC()
	ids := unique(packIds)
	for start := 0; start < len(ids); start += chunk {
		data, err := load(txApp, ids[start:min(start+chunk, len(ids))], now)
		if err != nil {
			return err
		}
		for _, d := range data {
			if err := store(txApp, d.pack.Id, Compute(d.in)); err != nil {
				return err
			}
		}
	}
	return nil
}

// store writes h onto the pack's derived columns.
func store(txApp core.App, packId string, h Health) error {
	params := dbx.Params{"id": packId, "soh": 0.0, "source": "", "at": "", "drop": 0.0, "energy": 0.0, "worn": h.Worn, "reason": h.WornReason}
	if h.Soh != nil {
		params["soh"], params["source"], params["at"] = h.Soh.Value, h.Soh.Source, clock.DBText(h.Soh.At)
	}
	if h.Drop30 != nil {
		params["drop"] = *h.Drop30
	}
	if h.EnergyWh != nil {
		params["energy"] = *h.EnergyWh
	}
	return sqlitedb.Exec(txApp.DB(), "UPDATE "+schema.Packs+" SET soh = {:soh}, sohSource = {:source}, sohAt = {:at}, "+
		"sohDrop30 = {:drop}, energyThroughputWh = {:energy}, worn = {:worn}, wornReason = {:reason} WHERE id = {:id}", params)
}

func unique(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// RederiveAll re-derives every pack with a state of health or a worn flag (the nightly job:
// the 30-day window slides, so a pack's trend changes without a new fact). Each chunk of
// packs is its own transaction. It answers how many packs it derived.
func RederiveAll(app core.App) (int, error) {
	var ids []string
	err := app.DB().NewQuery("SELECT [[id]] FROM " + schema.Packs + " WHERE [[soh]] > 0 OR [[worn]] = 1 OR [[sohDrop30]] > 0").Column(&ids)
	if err != nil {
		return 0, fmt.Errorf("list packs with health: %w", err)
	}
	for start := 0; start < len(ids); start += chunk {
		part := ids[start:min(start+chunk, len(ids))]
		if err := app.RunInTransaction(func(txApp core.App) error {
			events.Publish(txApp, events.InventoryUpdated, events.ActivityUpdated) // the packs list, the attention strip
			return Derive(txApp, part)
		}); err != nil {
			return start, err
		}
	}
	return len(ids), nil
}

// RederiveModels re-derives, in one transaction, every pack whose model is one of models (a
// model's figures changed outside SaveModel: a raw edit in /_/, hooks/health.go).
func RederiveModels(app core.App, models ...string) error {
	var names []string
	for _, m := range models {
		if m = strings.TrimSpace(m); m != "" {
			names = append(names, m)
		}
	}
	if len(names) == 0 {
		return nil
	}
	params := dbx.Params{}
	in := sqlitedb.In(params, "m", names)
	var ids []string
	if err := app.DB().NewQuery("SELECT [[id]] FROM " + schema.Packs + " WHERE [[" + schema.PackModel + "]] IN (" + in + ")").Bind(params).Column(&ids); err != nil {
		return fmt.Errorf("list the packs of %v: %w", names, err)
	}
	if len(ids) == 0 {
		return nil
	}
	return app.RunInTransaction(func(txApp core.App) error { return Derive(txApp, ids) })
}
