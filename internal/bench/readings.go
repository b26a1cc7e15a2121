package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/modules/health"
)

// The readings import (issue 46): 10,000 readings of readingsPacks packs imported in one
// transaction (health.ImportReadings: the CSV parsed and checked, the serials resolved, the rows
// in multi-row INSERTs, every named pack re-derived). Target: ≤ 5 s. Side by side, PocketBase's
// own way of writing the same rows: one record save each (core.NewRecord + app.Save, what its
// record create route does per record), in one transaction.
const (
	readingsRows    = health.MaxReadingRows
	readingsPacks   = 1000
	readingsRuns    = 3
	readingsMaxTime = 5 * time.Second
)

// readingsSection builds a registry of readingsPacks packs, imports readingsRuns files of
// 10,000 readings and times the record saves once, and returns the report section.
func readingsSection() string {
	app, done := freshCity("swapbay_bench_readings_*")
	defer done()
	serials := seedReadingsRegistry(app)
	load := loadAverage()
	var imports []time.Duration
	cpuBefore := cpuTime()
	base := time.Now().UTC().Add(-24 * time.Hour)
	size := 0
	for run := 0; run < readingsRuns; run++ {
		csv := readingsCSV(serials, base.Add(-time.Duration(run)*time.Hour))
		size = len(csv)
		start := time.Now()
		_, out, err := health.ImportReadings(app, csv, false, fmt.Sprintf("bench-%d", run), "")
		check(err)
		imports = append(imports, time.Since(start))
		if out.Rows != readingsRows || out.Packs != readingsPacks {
			check(fmt.Errorf("import %d: %d rows, %d packs", run, out.Rows, out.Packs))
		}
	}
	cpu := (cpuTime() - cpuBefore) / readingsRuns
	ref := readingsRecordSaves(app, serials, base.Add(-48*time.Hour))
	median, slowest := medianSlowest(imports)
	var w strings.Builder
	fmt.Fprintf(&w, "\n## Pack readings import (issue 46)\n\n")
	fmt.Fprintf(&w, "%d readings (a %d KB CSV: soh, charge from/to, energy, temperature) of %d packs imported in one transaction, %d runs (the readings table growing to %d rows); load average before: %s, after: %s. ",
		readingsRows, size>>10, readingsPacks, readingsRuns, readingsRows*readingsRuns, load, loadAverage())
	fmt.Fprintf(&w, "Import with every pack re-derived: median %s, slowest %s (CPU time %s a run). PocketBase's record saves of the same %d rows (no checks, no derivation), one transaction: %s. Target ≤ %s: %s.\n",
		median, slowest, cpu.Round(time.Millisecond), readingsRows, ref.Round(time.Millisecond), readingsMaxTime, verdict(median <= readingsMaxTime))
	return w.String()
}

// readingsCSV is 10,000 readings spread over serials, a minute apart before at.
func readingsCSV(serials []string, at time.Time) string {
	var sb strings.Builder
	sb.WriteString("serial,time,source,soh,socFrom,socTo,energyWh,maxTempC\n")
	for i := range readingsRows {
		t := at.Add(-time.Duration(i) * time.Minute).Format(time.RFC3339)
		fmt.Fprintf(&sb, "%s,%s,bms,%.1f,%d,%d,%d,%d\n", serials[i%len(serials)], t, 99-float64(i%200)/10, 10+i%20, 90+i%10, 250+i%60, 25+i%20)
	}
	return sb.String()
}

// readingsRecordSaves writes readingsRows readings as PocketBase record saves in one
// transaction and answers how long it took.
func readingsRecordSaves(app core.App, serials []string, at time.Time) time.Duration {
	var packIds []string
	check(app.DB().Select("id").From(schema.Packs).OrderBy("serial").Column(&packIds))
	col, err := app.FindCollectionByNameOrId(schema.PackReadings)
	check(err)
	start := time.Now()
	check(app.RunInTransaction(func(tx core.App) error {
		for i := range readingsRows {
			r := core.NewRecord(col)
			r.Set(schema.PackReadingPack, packIds[i%len(packIds)])
			r.Set(schema.PackReadingAt, at.Add(-time.Duration(i)*time.Minute))
			r.Set(schema.PackReadingSource, schema.PackReadingSourceBMS)
			figures, _ := json.Marshal(map[string]float64{"soh": 99 - float64(i%200)/10, "socFrom": float64(10 + i%20), "socTo": float64(90 + i%10)})
			r.Set(schema.PackReadingFigures, string(figures))
			if err := tx.Save(r); err != nil {
				return err
			}
		}
		return nil
	}))
	return time.Since(start)
}

// seedReadingsRegistry inserts readingsPacks packs and answers their serials.
func seedReadingsRegistry(app core.App) []string {
	now := types.NowDateTime().String()
	serials := make([]string, readingsPacks)
	check(app.RunInTransaction(func(tx core.App) error {
		for i := range readingsPacks {
			serials[i] = fmt.Sprintf("RDG-%06d", i+1)
			if _, err := tx.DB().Insert(schema.Packs, dbx.Params{
				"id": ids.New(), schema.PackSerial: serials[i], schema.PackState: schema.PackStateInService,
				schema.PackModel: "S48", schema.PackNominalWh: 360, schema.PackChargeCount: 0, schema.Created: now, schema.Updated: now,
			}).Execute(); err != nil {
				return err
			}
		}
		return nil
	}))
	return serials
}
