package main

import (
	"fmt"
	"math/rand"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/stocktake"
	"swapbay/modules/system"
)

// The stocktake of a place (issue 42 item 4): an admin scans the 1,000 packs of the ready shelf;
// the scanned list is reconciled with the records (the screen's preview) and applied (one
// stocktake movement moving counts and packs together, in one transaction). Target: reconcile
// and apply ≤ 1 s. The registry holds stocktakeShelf packs in ready and stocktakeWaiting in
// waiting, each with stocktakeEventsPerPack events of history; each run counts the ready shelf
// as it then is with 2 of its packs gone and 1 pack of the waiting shelf on it (2 missing, 1
// unexpected), in a shuffled scan order.
const (
	stocktakeShelf         = 1000 + stocktakeRuns // each run scans one pack fewer: the last scans 1,000
	stocktakeWaiting       = 200
	stocktakeEventsPerPack = 10
	stocktakeRuns          = 5
	stocktakeMaxTime       = time.Second
)

// stocktakeSection builds the registry in a fresh data dir, runs stocktakeRuns stocktakes of
// the ready shelf and returns the report section.
func stocktakeSection() string {
	app, done := freshCity("swapbay_bench_stocktake_*")
	defer done()
	check(seedStocktakeRegistry(app))
	load := loadAverage()
	rng := rand.New(rand.NewSource(42))
	var reconciles, applies, totals []time.Duration
	cpuBefore := cpuTime()
	var scanned []int
	for run := 0; run < stocktakeRuns; run++ {
		ready, waiting := packsAt(app, inventory.KeyReady), packsAt(app, inventory.KeyWaiting)
		list := append(append([]string{}, ready[2:]...), waiting[0])
		rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		scanned = append(scanned, len(list))
		in := stocktake.Input{Place: stocktake.PlaceReady, Serials: list}
		start := time.Now()
		preview, err := stocktake.Reconcile(app, in)
		check(err)
		reconciles = append(reconciles, time.Since(start))
		mid := time.Now()
		res, err := stocktake.Apply(app, inventory.Op{}, in)
		check(err)
		applies = append(applies, time.Since(mid))
		totals = append(totals, time.Since(start))
		for _, r := range []*stocktake.Result{preview, res} {
			if r.Counts.Missing != 2 || r.Counts.Unexpected != 1 || r.Counts.Found != len(list)-1 {
				check(fmt.Errorf("stocktake run %d: %+v, want 2 missing, 1 unexpected", run, r.Counts))
			}
		}
	}
	cpu := (cpuTime() - cpuBefore) / stocktakeRuns
	tm, ts := medianSlowest(totals)
	rm, _ := medianSlowest(reconciles)
	am, _ := medianSlowest(applies)
	var w strings.Builder
	fmt.Fprintf(&w, "\n## Stocktake of a place (issue 42 item 4)\n\n")
	fmt.Fprintf(&w, "%d packs in ready and %d in waiting, %d history events each; the ready shelf counted %d times with %d to %d packs scanned (2 missing, 1 unexpected from waiting), shuffled; load average before: %s, after: %s. ",
		stocktakeShelf, stocktakeWaiting, stocktakeEventsPerPack, stocktakeRuns, scanned[len(scanned)-1], scanned[0], load, loadAverage())
	fmt.Fprintf(&w, "Reconciled and applied: median %s, slowest %s (reconcile %s, apply %s; CPU time %s a run). Target ≤ %s: %s.\n",
		tm, ts, rm, am, cpu.Round(time.Millisecond), stocktakeMaxTime, verdict(tm <= stocktakeMaxTime))
	return w.String()
}

// packsAt returns the serials of the packs at system account key, in serial order.
func packsAt(app core.App, key string) []string {
	acc, err := inventory.SystemAccount(app, key)
	check(err)
	var out []string
	check(app.DB().NewQuery("SELECT serial FROM packs WHERE location = {:a} ORDER BY serial").Bind(dbx.Params{"a": acc.Id}).Column(&out))
	return out
}

// seedStocktakeRegistry puts stocktakeShelf packs in ready and stocktakeWaiting in waiting, with
// their history, the counts to match, and tracking optional.
func seedStocktakeRegistry(app core.App) error {
	if _, err := system.Override(app, inventory.Op{}, stocktakeShelf, stocktakeWaiting, 0, stocktakeShelf+stocktakeWaiting); err != nil {
		return err
	}
	now := types.NowDateTime().String()
	err := app.RunInTransaction(func(tx core.App) error {
		n := 0
		for _, place := range []struct {
			key   string
			count int
		}{{inventory.KeyReady, stocktakeShelf}, {inventory.KeyWaiting, stocktakeWaiting}} {
			acc, err := inventory.SystemAccount(tx, place.key)
			if err != nil {
				return err
			}
			for i := 0; i < place.count; i++ {
				n++
				if err := insertPackAt(tx, dbx.Params{schema.PackSerial: fmt.Sprintf("STK-%06d", n)}, acc.Id, stocktakeEventsPerPack, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = system.SaveSettings(app, inventory.Op{}, []system.Setting{{Key: schema.SettingPackTracking, Value: []byte(`"` + schema.PackTrackingOptional + `"`)}})
	return err
}
