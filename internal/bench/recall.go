package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
	"swapbay/pb_app/setup"
)

// The recall of a lot (issue 37): every pack of a 500-pack lot quarantined in one transaction
// (packs.Recall: the recall row, the events in multi-row INSERTs, the packs in one UPDATE).
// Target: ≤ 1 s. The registry holds recallLots lots of recallLotSize packs, each with
// recallEventsPerPack events of history, so the indexes the recall writes to are not empty;
// each run recalls another lot. The preview and the recall page of the lot are timed too.
const (
	recallLotSize       = 500
	recallLots          = 4
	recallEventsPerPack = 20
	recallRuns          = 3
	recallMaxTime       = time.Second
)

// recallSection builds the registry in a fresh data dir, recalls recallRuns lots and returns
// the report section.
func recallSection() string {
	dir, err := os.MkdirTemp("", "swapbay_bench_recall_*")
	check(err)
	defer os.RemoveAll(dir)
	app := core.NewBaseApp(sqlitedb.AppConfig(dir))
	setup.Register(app)
	check(app.Bootstrap())
	check(app.RunAllMigrations())
	defer app.ResetBootstrapState()
	check(seedRecallRegistry(app))
	load := loadAverage()
	var recalls, previews, pages []time.Duration
	cpuBefore := cpuTime()
	for run := 0; run < recallRuns; run++ {
		lot := recallLot(run)
		start := time.Now()
		p, err := packs.RecallPreview(app, schema.PackRecallByLot, lot)
		check(err)
		previews = append(previews, time.Since(start))
		if p.Count != recallLotSize {
			check(fmt.Errorf("preview of %s: %d packs, want %d", lot, p.Count, recallLotSize))
		}
		start = time.Now()
		r, err := packs.Recall(app, packs.RecallForm{By: schema.PackRecallByLot, Value: lot, Reason: "bench: supplier notice"}, "", time.Now())
		check(err)
		recalls = append(recalls, time.Since(start))
		if r.PackCount != recallLotSize {
			check(fmt.Errorf("recall of %s: %d packs, want %d", lot, r.PackCount, recallLotSize))
		}
		start = time.Now()
		page, err := packs.RecallDetail(app, r.Id)
		check(err)
		pages = append(pages, time.Since(start))
		if page.Total != recallLotSize {
			check(fmt.Errorf("recall page of %s: %d packs, want %d", lot, page.Total, recallLotSize))
		}
	}
	cpu := (cpuTime() - cpuBefore) / recallRuns
	med := func(ds []time.Duration) (time.Duration, time.Duration) {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2].Round(time.Millisecond), ds[len(ds)-1].Round(time.Millisecond)
	}
	rm, rs := med(recalls)
	pm, _ := med(previews)
	gm, _ := med(pages)
	var w strings.Builder
	fmt.Fprintf(&w, "\n## Recall of a lot (issue 37)\n\n")
	fmt.Fprintf(&w, "%d packs in %d lots, %d history events each; a lot of %d recalled in one transaction, %d runs (a lot each); load average before: %s, after: %s. ",
		recallLotSize*recallLots, recallLots, recallEventsPerPack, recallLotSize, recallRuns, load, loadAverage())
	fmt.Fprintf(&w, "Recall: median %s, slowest %s (CPU time %s a run, with the preview and the page); preview %s; recall page %s. Target ≤ %s: %s.\n",
		rm, rs, cpu.Round(time.Millisecond), pm, gm, recallMaxTime, verdict(rm <= recallMaxTime))
	return w.String()
}

func recallLot(i int) string { return fmt.Sprintf("BENCH-L%d", i+1) }

// seedRecallRegistry inserts recallLots lots of packs in ready with their history events.
func seedRecallRegistry(app core.App) error {
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		return err
	}
	now := types.NowDateTime().String()
	return app.RunInTransaction(func(tx core.App) error {
		n := 0
		for lot := 0; lot < recallLots; lot++ {
			for i := 0; i < recallLotSize; i++ {
				n++
				id := ids.New()
				if _, err := tx.DB().Insert(schema.Packs, dbx.Params{
					"id": id, schema.PackSerial: fmt.Sprintf("REC-%06d", n), schema.PackState: schema.PackStateInService,
					schema.PackLot: recallLot(lot), schema.PackModel: "S48", schema.PackManufacturer: "Voltcell",
					schema.PackLocation: ready.Id, schema.PackChargeCount: 0, schema.PackLastSeenAt: now, schema.Created: now, schema.Updated: now,
				}).Execute(); err != nil {
					return err
				}
				for e := 0; e < recallEventsPerPack; e++ {
					if _, err := tx.DB().Insert(schema.PackEvents, dbx.Params{
						"id": ids.New(), schema.PackEventPack: id, schema.PackEventKind: schema.PackEventMoved,
						schema.PackEventToAccount: ready.Id, schema.PackEventAt: now, schema.Created: now,
					}).Execute(); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
}
