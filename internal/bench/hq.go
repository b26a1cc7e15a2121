package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
	"swapbay/modules/inventory"

	_ "swapbay/pb_migrations/hq"
)

// Head office over 50 cities (issue 45 "Proof"): 50 city copies of hqMovements movements each,
// made once into a cache dir with the city's real schema (the city's migrations run into one
// data dir, the history written by the bench's direct SQL path, hqPacks packs inserted; then
// copied 50 times, each copy's serials given its own prefix C01-…C50-), read by head office as
// its followed copies (the files put where its followers keep them; no follower runs, so the
// copies are as a quiet, caught-up city's). Measured through HQ's HTTP routes in this process:
// GET /api/hq/overview and GET /api/hq/packs?q= (p95 aim ≤ 2 s), the process's peak RSS (aim
// ≤ 256 MB: the data is built in a child process, so the peak is head office's), the first
// rollup of 400 days for every city, and PocketBase's own GET /api/health beside them.
const (
	hqCities    = 50
	hqMovements = 200_000
	hqPacks     = 2_000
	hqOverviews = 10
	hqSearches  = 20
	hqAim       = 2 * time.Second
	hqRSSAim    = 256.0
)

var flagHQCache = flag.String("hq-cache", filepath.Join(os.TempDir(), "swapbay_bench_hq_v2"), "hq: the cache dir of the 50 city copies (built once, kept)")

// hqCopy is city i's copy in the cache (i from 1).
func hqCopy(cache string, i int) string { return filepath.Join(cache, fmt.Sprintf("city%02d.db", i)) }

// hqBuild is `-only hq-build`: the 50 copies in cache (skipped when they are there).
func hqBuild(cache string) error { return hqBuildN(cache, hqCities) }

// hqBuildN makes cities copies in cache (skipped when they are there).
func hqBuildN(cache string, cities int) error {
	if _, err := os.Stat(hqCopy(cache, cities)); err == nil {
		return nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	started := time.Now()
	ds, err := buildDataSet(hqMovements, 200, 50, true, 0)
	if err != nil {
		return err
	}
	defer os.RemoveAll(ds.dir)
	app := ds.app
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		return err
	}
	now := types.NowDateTime().String()
	err = app.RunInTransaction(func(tx core.App) error {
		// pay rates in force for the whole history (the overview's pay then multiplies real counts)
		if _, err := tx.DB().Insert(schema.PayRates, dbx.Params{"id": ids.New(), schema.PayRateDeadBattery: 150, schema.PayRateMove: 75,
			schema.PayRateRecover: 310, schema.PayRateEffectiveAt: types.NowDateTime().AddDate(-2, 0, 0).String(), schema.Created: now,
		}).Execute(); err != nil {
			return err
		}
		for i := 1; i <= hqPacks; i++ {
			if _, err := tx.DB().Insert(schema.Packs, dbx.Params{
				"id": ids.New(), schema.PackSerial: fmt.Sprintf("CXX-%06d", i), schema.PackState: schema.PackStateInService,
				schema.PackLot: fmt.Sprintf("L%d", i%20), schema.PackModel: "S48", schema.PackManufacturer: "Voltcell",
				schema.PackLocation: ready.Id, schema.PackChargeCount: 0, schema.PackLastSeenAt: now, schema.Created: now, schema.Updated: now,
			}).Execute(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	base := filepath.Join(cache, "base.db")
	_ = os.Remove(base)
	if _, err := app.DB().NewQuery("VACUUM INTO '" + base + "'").Execute(); err != nil {
		return err
	}
	_ = app.ResetBootstrapState()
	for i := 1; i <= cities; i++ {
		path := hqCopy(cache, i)
		if err := copyFile(base, path+".tmp"); err != nil {
			return err
		}
		db, err := sql.Open("sqlite", path+".tmp")
		if err != nil {
			return err
		}
		_, err = db.Exec(fmt.Sprintf("UPDATE packs SET serial = 'C%02d' || substr(serial, 4)", i))
		db.Close()
		if err != nil {
			return err
		}
		if err := os.Rename(path+".tmp", path); err != nil {
			return err
		}
	}
	_ = os.Remove(base)
	log.Printf("hq: %d copies of %d movements built in %s (%s)", cities, hqMovements, time.Since(started).Round(time.Second), cache)
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// hqSection is `-only hq`: the copies built (in a child process) when missing, then read.
func hqSection() string {
	cache := *flagHQCache
	if _, err := os.Stat(hqCopy(cache, hqCities)); err != nil {
		self, err := os.Executable()
		check(err)
		cmd := exec.Command(self, "-only", "hq-build", "-hq-cache", cache)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		check(cmd.Run())
	}
	var size int64
	for i := 1; i <= hqCities; i++ {
		st, err := os.Stat(hqCopy(cache, i))
		check(err)
		size += st.Size()
	}
	load := loadAverage()
	dir, err := os.MkdirTemp("", "swapbay_bench_hqdir_*")
	check(err)
	defer os.RemoveAll(dir)
	hq.RollupsEnabled = false
	app, err := hq.NewApp(dir)
	check(err)
	defer app.ResetBootstrapState()
	set := hq.NewSet(context.Background(), app, follow.DefaultOptions())
	defer set.Close()
	hq.Register(app, set)
	viewer, err := hq.CreateUser(app, hq.NewUser{Email: "viewer@hq.bench", Password: "bench-password-1", Role: hq.RoleViewer})
	check(err)
	token, err := viewer.NewAuthToken()
	check(err)
	// serve first: serve starts a follower for every city saved before it, and a follower of
	// these cities (no replica) would take their copies away
	r, err := apis.NewRouter(app)
	check(err)
	var mux http.Handler
	check(app.OnServe().Trigger(&core.ServeEvent{App: app, Router: r}, func(e *core.ServeEvent) error {
		m, err := e.Router.BuildMux()
		mux = m
		return err
	}))
	for i := 1; i <= hqCities; i++ {
		rec, err := hq.SaveCity(app, "", hq.CityInput{Name: fmt.Sprintf("City %02d", i), TimeZone: "Europe/Paris", Currency: "EUR",
			ReplicaURL: fmt.Sprintf("file:///nonexistent/city%02d", i), Address: fmt.Sprintf("https://city%02d.example", i), Token: "t"}, "")
		check(err)
		path := set.CopyPath(rec.Id)
		check(os.MkdirAll(filepath.Dir(path), 0o755))
		check(os.Link(hqCopy(cache, i), path))
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string, auth bool) (time.Duration, int) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if auth {
			req.Header.Set("Authorization", token)
		}
		start := time.Now()
		res, err := http.DefaultClient.Do(req)
		check(err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(start), res.StatusCode
	}
	times := func(n int, path func(i int) string, auth bool) ([]float64, float64) {
		var xs []float64
		for i := 0; i < n; i++ {
			d, code := get(path(i), auth)
			if code != http.StatusOK {
				check(fmt.Errorf("GET %s: %d", path(i), code))
			}
			xs = append(xs, ms2f(d))
		}
		return xs, quantile(xs, 0.95)
	}
	// every city is read (a copy that could not be would answer at once, ok:false)
	o, err := hq.ReadOverview(context.Background(), app, set, time.Now())
	check(err)
	for _, c := range o.Cities {
		if !c.Ok || c.Stock.Ready+c.Stock.Waiting+c.Stock.Field == 0 {
			check(fmt.Errorf("hq: %s not read: %s", c.Name, c.Error))
		}
	}
	if len(o.Cities) != hqCities {
		check(fmt.Errorf("hq: %d cities read", len(o.Cities)))
	}
	// as at start: no rollup yet, every figure from the copies
	first, _ := get("/api/hq/overview", true)
	// the rollup job's first run (at start it writes every city's 400 days and 58 weeks)
	rollStart := time.Now()
	res, err := hq.RollUp(context.Background(), app, set, time.Now())
	check(err)
	rollTime := time.Since(rollStart)
	if res.Cities != hqCities {
		check(fmt.Errorf("hq: rollup of %d cities: %+v", hqCities, res))
	}
	rollStart = time.Now()
	res2, err := hq.RollUp(context.Background(), app, set, time.Now())
	check(err)
	rollAgain := time.Since(rollStart)
	cpu0 := cpuTime()
	ov, ovP95 := times(hqOverviews, func(int) string { return "/api/hq/overview" }, true)
	cpuOverview := (cpuTime() - cpu0) / hqOverviews
	queries := func(i int) string {
		switch i % 4 {
		case 0:
			return fmt.Sprintf("/api/hq/packs?q=C%02d-%06d", i%hqCities+1, i*37%hqPacks+1) // one exact serial
		case 1:
			return fmt.Sprintf("/api/hq/packs?q=C%02d-00", i%hqCities+1) // a prefix: 50 of one city's
		case 2:
			return "/api/hq/packs?q=https://city01.example/p/C17-000123" // a label URL
		}
		return "/api/hq/packs?q=NOPE-1" // in no city
	}
	ps, psP95 := times(hqSearches, queries, true)
	_, transitP95 := times(5, func(int) string { return "/api/hq/transit" }, true)
	_, healthP95 := times(200, func(int) string { return "/api/health" }, false)
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	_, histP95 := times(10, func(int) string { return "/api/hq/history?weeks=52" }, true)
	rss := procStatusMB("VmHWM")

	var w strings.Builder
	fmt.Fprintf(&w, "\n## Head office over 50 cities (issue 45)\n\n")
	fmt.Fprintf(&w, "`go run ./internal/bench -only hq`, %s UTC, load average before %s, after %s. %d city copies of %d movements each "+
		"(%d M movements, %d packs each, %.0f MB in all; the city's schema, history by the bench's direct SQL path, built once into %s), "+
		"read by head office as its followed copies (reads.Open: read-only), %d at a time, through its HTTP routes in this process as an "+
		"hq_viewer. Copies are read from the OS page cache (warm: built or read before). The previous figures are \"new\": this is the first run.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04"), load, loadAverage(), hqCities, hqMovements, hqCities*hqMovements/1_000_000, hqPacks,
		float64(size)/1e6, cache, hq.ReadParallel)
	fmt.Fprintf(&w, "| measurement | runs | p50 | p95 | previous | aim |\n|---|---:|---:|---:|---|---|\n")
	fmt.Fprintf(&w, "| GET /api/hq/overview (50 cities: stock, 30 days of swaps, 8 weeks of pay, recalls, missing packs), rollups written | %d | %.0f ms | %.0f ms | new | ≤ 2 s: %s |\n",
		len(ov), quantile(ov, 0.5), ovP95, verdict(ovP95 <= ms2f(hqAim)))
	fmt.Fprintf(&w, "| GET /api/hq/overview before any rollup (every figure from the copies: a new HQ's first minutes) | 1 | %.0f ms | — | new | — |\n", ms2f(first))
	fmt.Fprintf(&w, "| GET /api/hq/packs?q= (exact, prefix, label URL, none) | %d | %.0f ms | %.0f ms | new | ≤ 2 s: %s |\n",
		len(ps), quantile(ps, 0.5), psP95, verdict(psP95 <= ms2f(hqAim)))
	fmt.Fprintf(&w, "| GET /api/hq/transit (no pack_transfers yet) | 5 | — | %.0f ms | new | — |\n", transitP95)
	fmt.Fprintf(&w, "| GET /api/hq/history?weeks=52 (from city_days) | 10 | — | %.1f ms | new | — |\n", histP95)
	fmt.Fprintf(&w, "| PocketBase GET /api/health (reference) | 200 | — | %.2f ms | new | — |\n\n", healthP95)
	fmt.Fprintf(&w, "Head office's peak RSS (VmHWM, this process, the copies built in a child process): **%.0f MB** (aim ≤ %.0f MB: %s); "+
		"Go heap in use %.0f MB. CPU time per overview %s. The rollup job's first run (every city's 400 days and their weeks, %d rows, "+
		"%d cities) took %s; a second run (the last 8 days and 7 weeks of every city re-read, %d rows changed) %s.\n",
		rss, hqRSSAim, verdict(rss <= hqRSSAim), float64(mem.HeapInuse)/1e6, cpuOverview.Round(time.Millisecond),
		res.Written, res.Cities, rollTime.Round(time.Millisecond), res2.Written, rollAgain.Round(time.Millisecond))
	return w.String()
}
