package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/packs"
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
	app, done := freshCity("swapbay_bench_recall_*")
	defer done()
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
	rm, rs := medianSlowest(recalls)
	pm, _ := medianSlowest(previews)
	gm, _ := medianSlowest(pages)
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
				fields := dbx.Params{schema.PackSerial: fmt.Sprintf("REC-%06d", n), schema.PackLot: recallLot(lot)}
				if err := insertPackAt(tx, fields, ready.Id, recallEventsPerPack, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
