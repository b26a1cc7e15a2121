package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
)

var flagHQRollCache = flag.String("hq-roll-cache", filepath.Join(os.TempDir(), "swapbay_bench_hq1"), "hqroll: the cache dir of the one city copy (built once, kept)")

// hqRollSection is `-only hqroll`: what the rollup job's full reread costs (hq.RollUpAll: every
// day and week, RollupMaxDays back, read again so that an old movement edited or deleted in the
// city reaches head office) against its usual run (the missing and recent days), on one city
// copy of hqMovements movements (the hq section's copy, built once into its own cache).
func hqRollSection() string {
	cache := *flagHQRollCache
	check(hqBuildN(cache, 1))
	dir, err := os.MkdirTemp("", "swapbay_bench_hqroll_*")
	check(err)
	defer os.RemoveAll(dir)
	hq.RollupsEnabled = false
	app, err := hq.NewApp(dir)
	check(err)
	defer app.ResetBootstrapState()
	set := hq.NewSet(context.Background(), app, follow.DefaultOptions())
	defer set.Close()
	rec, err := hq.SaveCity(app, "", hq.CityInput{Name: "City 01", TimeZone: "Europe/Paris", Currency: "EUR",
		ReplicaURL: "file:///nonexistent/city01", Address: "https://city01.example", Token: "t"}, "")
	check(err)
	path := set.CopyPath(rec.Id)
	check(os.MkdirAll(filepath.Dir(path), 0o755))
	check(os.Link(hqCopy(cache, 1), path))
	ctx := context.Background()
	timed := func(f func() (hq.RollupResult, error)) (time.Duration, hq.RollupResult) {
		start := time.Now()
		res, err := f()
		check(err)
		return time.Since(start), res
	}
	now := time.Now()
	first, r1 := timed(func() (hq.RollupResult, error) { return hq.RollUp(ctx, app, set, now) })
	var recent, full []time.Duration
	var rr, rf hq.RollupResult
	for i := range 5 {
		at := now.Add(time.Duration(i+1) * hq.RollupEvery)
		d, r := timed(func() (hq.RollupResult, error) { return hq.RollUp(ctx, app, set, at) })
		recent, rr = append(recent, d), r
		d, r = timed(func() (hq.RollupResult, error) { return hq.RollUpAll(ctx, app, set, at) })
		full, rf = append(full, d), r
	}
	slices.Sort(recent)
	slices.Sort(full)
	load := loadAverage()
	return fmt.Sprintf("hqroll: one copy of %d movements, load %s\n"+
		"first run (every day and week, rows written %d): %s\n"+
		"usual run (missing + last %d days and recent weeks, written %d): median %s of 5 (min %s, max %s)\n"+
		"full reread (hq.RollUpAll, %d days + weeks, written %d): median %s of 5 (min %s, max %s)\n",
		hqMovements, load, r1.Written, first.Round(time.Millisecond),
		hq.RollupRecentDays, rr.Written, recent[2].Round(time.Millisecond), recent[0].Round(time.Millisecond), recent[4].Round(time.Millisecond),
		hq.RollupMaxDays, rf.Written, full[2].Round(time.Millisecond), full[0].Round(time.Millisecond), full[4].Round(time.Millisecond))
}
