// Command bench is `make bench`: it builds large SwapBay data sets in temp dirs, serves each
// with the real app (setup.Register) on a loopback port, and measures requests/s and latency
// of GET /api/state and of ledger writes against PocketBase's own record read and create on
// the same database as the reference. It prints the figures and writes BENCHMARKS.md.
// It is a benchmark, not a test: `go run ./internal/bench` (flags below).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"
)

var (
	flagMovements    = flag.Int("movements", 100_000, "movements in the main data set")
	flagUsers        = flag.Int("users", 200, "users in every data set")
	flagHolders      = flag.Int("holders", 50, "users holding batteries at the end of the history")
	flagDuration     = flag.Duration("duration", 8*time.Second, "load duration per measurement")
	flagPacedRate    = flag.Float64("paced-rate", 500, "requests per second of the steady-load latency measurements (all 64 clients together)")
	flagSmall        = flag.Int("small", 1_000, "movements of the small data set (flatness check)")
	flagBig          = flag.Int("big", 1_000_000, "movements of the big data set (flatness check, direct SQL path)")
	flagBigBudget    = flag.Duration("big-budget", 2*time.Minute, "time box for building the big data set")
	flagOut          = flag.String("out", "BENCHMARKS.md", "report file")
	flagPrevious     = flag.String("previous", "", "with -only compare: the previous report")
	flagCPUProfile   = flag.String("cpuprofile", "", "with -only writes or storm: write a CPU profile of the server and load during the ledger writes or the storm (-only packwrites: during the writes naming packs, last round)")
	flagStateProfile = flag.String("stateprofile", "", "with -only writes or big: write a CPU profile of the server and load during GET /api/state with the cache off")
	flagOnly         = flag.String("only", "", "run one part alone and print it on a small data set (ws: the /ws fan-out; first: the first screen on a phone network; earnings: all-earnings on the big data set; big: /api/state with the cache off on the big data set; replication: recovery point over -drills drills, recovery time of -rto-movements, writes with replication on and off; catchup: the replica's catch-up after an outage of -catchup-outage; rto-build / rto-restore: a kept replica and backup archive of -rto-movements, and the restore of each; hostile: RSS growth per hostile request on a real server; labels: the pack label sheet of 1,000 packs; keys: 8 days of Idempotency-Keys at 50,000 keyed writes a day; storm: 500 phones sending 20 queued actions each at once); packwrites: ledger writes naming 4 packs each vs none; scan: the scanner with a fake camera, tap on Scan to the first pack listed and one frame decoded, -scan-runs fresh pages per detector; recall: a 500-pack lot quarantined in one transaction; stocktake: the ready shelf's 1,000 packs reconciled and applied; readings: 10,000 pack readings imported in one transaction; worn: the packs list filtered by worn over 10,000 packs; hq: head office over 50 city copies of 200k movements, built once into -hq-cache; hqlag: head office's copies' lag behind 50 replicating cities writing every second, and a stopped one flagged behind)")
)

func main() {
	flag.Parse()
	log.SetFlags(log.Ltime)
	if *flagWSChild {
		wsChild()
		return
	}
	// the parts -only prints alone (the others below need more than a printed section)
	parts := map[string]func() string{
		// 500 phones send their queues at once against the main data set
		"storm": func() string { return stormPart().markdown() },
		// 8 days of Idempotency-Keys at a busy city's volume: lookup, table and database size
		"keys": func() string { return keysPart().markdown() },
		// the recovery point, the recovery time and the writes with replication on and off
		"replication": func() string { return replicationPart() + "\n" },
		// the hostile catalogue: RSS growth per hostile request on a real server (issue 34)
		"hostile": func() string { return hostilePart() + "\n" },
		// the recovery time alone: a restore of the replica in -replica-dir (with -cpuprofile: its profile)
		"rto-restore":        func() string { return rtoRestore(*flagReplicaDir) + "\n" },
		"replication-writes": replicationWritesPart,
		"labels":             labelsSection,
		// the scanner with a fake camera streaming a label (issue 36)
		"scan": scanPart,
		// a 500-pack lot quarantined in one transaction (issue 37)
		"recall": recallSection,
		// ledger writes naming 4 packs each against the same writes without packs (issue 35)
		"packwrites": packWritesPart,
		// the ready shelf's 1,000 packs counted: reconciled and applied (issue 42 item 4)
		"stocktake": stocktakeSection,
		// 10,000 pack readings imported in one transaction against PocketBase's record saves (issue 46)
		"readings": readingsSection,
		// the packs list filtered by worn over 10,000 packs (issue 46)
		"worn": wornSection,
		// head office over 50 city copies of 200k movements (issue 45); hq-build makes the copies
		"hq":       hqSection,
		"hq-build": func() string { check(hqBuild(*flagHQCache)); return "" },
		// the rollup job's full reread of one city (an old movement edited or deleted) against its usual run
		"hqroll": hqRollSection,
		// head office's copies behind 50 busy replicating cities, and one stopped city flagged (issue 45)
		"hqlag": hqLagSection,
	}
	if part, ok := parts[*flagOnly]; ok {
		fmt.Print(part())
		return
	}
	if *flagOnly == "compare" {
		// recompute the change section of flagOut against the report in flagPrevious
		prev, err := os.ReadFile(*flagPrevious)
		check(err)
		cur, err := os.ReadFile(*flagOut)
		check(err)
		text := string(cur)
		if i := strings.Index(text, "\n## Change from the previous run"); i >= 0 {
			text = text[:i]
		}
		check(os.WriteFile(*flagOut, []byte(text+changesSection(string(prev), text)), 0o644))
		return
	}
	if *flagOnly == "rto-build" {
		// a ledger of -rto-movements shipped to the directory replica -replica-dir, kept there
		check(rtoBuild(*flagReplicaDir))
		return
	}
	if *flagOnly == "catchup" {
		// the replica's catch-up after an S3 outage of -catchup-outage (2 minutes)
		c, err := measureCatchUp()
		check(err)
		fmt.Print(c.row())
		return
	}
	if *flagOnly == "writes" {
		ds := smallDataSet()
		srv := serve(ds)
		stop := profile(*flagCPUProfile) // the profile covers the ledger writes only
		w := srv.loadWrites(64, *flagDuration)
		stop()
		n := srv.loadNativeCreate(64, *flagDuration)
		stop = profile(*flagStateProfile)
		st := srv.loadStateUncached(64, *flagDuration)
		stop()
		r := srv.loadNativeRead(64, *flagDuration)
		cs := srv.loadState(64, *flagDuration)
		fmt.Printf("cached state: %s (%.0f%% of native read)\n", cs, 100*cs.RPS/r.RPS)
		fmt.Printf("%s\n%s\nwrites/native create: %.0f%%\n%s\n%s\nstate uncached/native read: %.0f%%\n", w, n, 100*w.RPS/n.RPS, st, r, 100*st.RPS/r.RPS)
		for _, x := range srv.steady() {
			fmt.Printf("%s at %.0f req/s: %s\n", x.Name, *flagPacedRate, x)
		}
		srv.stop()
		return
	}
	if *flagOnly == "big" {
		// /api/state with the cache off on the big data set (with -stateprofile: its CPU profile)
		ds := bigDataSet()
		srv := serve(ds)
		stop := profile(*flagStateProfile)
		fmt.Printf("%s\ncache off, 64 clients: %s\n", ds.summary, srv.loadStateUncached(64, *flagDuration))
		stop()
		fmt.Printf("cache off, one client: %s\n", srv.loadStateUncached(1, *flagDuration))
		srv.stop()
		return
	}
	if *flagOnly == "earnings" {
		ds := bigDataSet()
		srv := serve(ds)
		fmt.Printf("%s\none client: %s\n64 clients: %s\n", ds.summary, srv.loadEarnings(1, *flagDuration), srv.loadEarnings(64, *flagDuration))
		srv.stop()
		return
	}
	if *flagOnly == "first" {
		ds := smallDataSet()
		srv := serve(ds)
		fmt.Println(firstScreenSection(srv.measureFirstScreen()))
		srv.stop()
		return
	}
	if *flagOnly == "ws" {
		ds := smallDataSet()
		srv := serve(ds)
		res := srv.loadWSFanout(*flagWSClients, *flagWSRounds)
		srv.stop()
		if *flagWSJSON {
			out, err := json.Marshal(res)
			check(err)
			fmt.Println(string(out))
		}
		log.Printf("/ws fan-out: %s", res)
		return
	}
	started := time.Now()

	var rep report
	rep.Date = started.UTC().Format("2006-01-02 15:04 UTC")
	rep.Machine = machine()
	rep.LoadBefore = loadAverage()

	// 1. Main data set through the ledger's own operation functions.
	log.Printf("building %d movements, %d users, %d holders through the ledger functions...", *flagMovements, *flagUsers, *flagHolders)
	main, err := buildDataSet(*flagMovements, *flagUsers, *flagHolders, false, 0)
	check(err)
	rep.MainBuild = main.summary
	log.Printf("built in %s: %s", main.summary.BuildTime.Round(time.Second), main.summary)

	srv, err := startServer(main)
	check(err)
	rep.State = srv.loadState(64, *flagDuration)
	log.Printf("GET /api/state x64: %s", rep.State)
	rep.StateUncached = srv.loadStateUncached(64, *flagDuration)
	rep.StateSingle = srv.loadStateUncached(1, *flagDuration)
	log.Printf("GET /api/state x64, cache off: %s; one client: %s", rep.StateUncached, rep.StateSingle)
	rep.Native = srv.loadNativeRead(64, *flagDuration)
	log.Printf("native record read x64: %s", rep.Native)
	rep.Writes = srv.loadWrites(64, *flagDuration)
	log.Printf("ledger pickup/dropoff x64: %s", rep.Writes)
	rep.Create = srv.loadNativeCreate(64, *flagDuration)
	log.Printf("native record create x64: %s", rep.Create)
	rep.Steady = srv.steady()
	for _, x := range rep.Steady {
		log.Printf("%s x64 at %.0f req/s: %s", x.Name, *flagPacedRate, x)
	}
	rep.Photos, rep.PhotosMem = srv.loadPhotos(8, benchJPEG(1060), "photo upload PUT, 1 MB")
	log.Printf("photo upload PUT x8: %s; %s", rep.Photos, rep.PhotosMem)
	rep.Consistent, rep.ConsistencyNote = main.consistent()
	first := srv.measureFirstScreen()
	log.Printf("first screen: %+v %s", first.Results, first.Err)
	srv.stop()
	var ws wsResult

	// 2. Replication: writes on and off, the recovery point over the drills (the recovery
	// time is measured on the big data set below).
	log.Printf("replication: writes on and off, %d drills...", *flagDrills)
	repl := measureReplication()

	// 2b. The pack ledger: writes naming 4 packs each against writes without (issue 35).
	log.Printf("pack writes: naming %d packs vs none...", packsPerWrite)
	packWrites := packWritesPart()

	// 3. Flatness: /api/state on a small and a big history, same load.
	for _, size := range []struct {
		n    int
		fast bool
	}{{*flagSmall, false}, {*flagBig, true}} {
		log.Printf("building %d movements (direct SQL path: %v)...", size.n, size.fast)
		ds, err := buildDataSet(size.n, *flagUsers, *flagHolders, size.fast, *flagBigBudget)
		check(err)
		log.Printf("built in %s: %s", ds.summary.BuildTime.Round(time.Second), ds.summary)
		s, err := startServer(ds)
		check(err)
		r := s.loadState(64, *flagDuration)
		u := s.loadStateUncached(64, *flagDuration)
		one := s.loadStateUncached(1, *flagDuration)
		log.Printf("GET /api/state x64 at %d movements: %s; cache off: %s", ds.summary.Movements, r, u)
		e := earningsRow{Summary: ds.summary, One: s.loadEarnings(1, *flagDuration), Many: s.loadEarnings(64, *flagDuration)}
		rep.Earnings = append(rep.Earnings, e)
		log.Printf("all-earnings at %d movements: one client %s; x64 %s", ds.summary.Movements, e.One, e.Many)
		ok, note := ds.consistent()
		rep.Flat = append(rep.Flat, flatRow{Summary: ds.summary, Result: r, Uncached: u, Single: one, Consistent: ok, Note: note})
		if size.fast {
			// the recovery time of issue 29 on this big ledger: replicated, then restored
			repl.recoveryTime(ds.dir)
		}
		s.stop()
	}
	log.Printf("scan: a fake camera streaming a label, %d fresh pages per detector...", max(*flagScanRuns, 10))
	scan := scanPart()
	hostileSection := hostilePart()
	log.Printf("keys: 8 days at %d keyed writes a day...", keysPerDay)
	keys := keysPart()
	log.Printf("storm: %d phones × %d queued actions...", stormClients, stormActions)
	storm := stormPart()
	if *flagWSClients > 0 {
		ws = wsLoneServer()
		log.Printf("/ws fan-out: %s", ws)
	}
	rep.Flat = append([]flatRow{rep.Flat[0], {Summary: main.summary, Result: rep.State, Uncached: rep.StateUncached, Single: rep.StateSingle, Consistent: rep.Consistent}}, rep.Flat[1:]...)

	rep.Total = time.Since(started)
	rep.LoadAfter = loadAverage()
	previous, _ := os.ReadFile(*flagOut)
	text := rep.markdown() + firstScreenSection(first) + wsSection(ws) + repl.markdown() + hostileSection + packWrites + labelsSection() + scan + recallSection() + stocktakeSection() + readingsSection() + wornSection() + hqSection() + keys.markdown() + storm.markdown() + uiBundleSection() + measuredDecisions
	text += changesSection(string(previous), text)
	fmt.Println(text)
	check(os.WriteFile(*flagOut, []byte(text), 0o644))
	log.Printf("wrote %s", *flagOut)
}

// profile starts a CPU profile written to path (nothing when path is empty) and returns its stop.
func profile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	check(err)
	check(pprof.StartCPUProfile(f))
	return func() {
		pprof.StopCPUProfile()
		check(f.Close())
	}
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute figures: other work on the machine
// skews every number here, so the report shows how busy it was.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " / ")
}

// smallDataSet builds the small data set (-small movements; fatal when it cannot).
func smallDataSet() *dataSet {
	ds, err := buildDataSet(*flagSmall, *flagUsers, *flagHolders, false, 0)
	check(err)
	return ds
}

// bigDataSet builds the big data set (-big movements, direct SQL, within -big-budget).
func bigDataSet() *dataSet {
	ds, err := buildDataSet(*flagBig, *flagUsers, *flagHolders, true, *flagBigBudget)
	check(err)
	return ds
}

// serve starts a server on ds (fatal when it cannot).
func serve(ds *dataSet) *server {
	srv, err := startServer(ds)
	check(err)
	return srv
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

// machine describes where the run happened.
func machine() string {
	model := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "model name") {
				model = strings.TrimSpace(strings.SplitN(line, ":", 2)[1])
				break
			}
		}
	}
	mem := ""
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		line := strings.SplitN(string(data), "\n", 2)[0]
		mem = strings.Join(strings.Fields(line)[1:], " ")
	}
	return fmt.Sprintf("%s/%s, %d CPUs (%s), memory %s, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), model, mem, runtime.Version())
}

// uiBundleSection returns ui/BUNDLE.md (written by `node ui/scripts/bundle-size.mjs --write`
// after a UI build) as a section of the report, so one file holds every measured figure.
func uiBundleSection() string {
	raw, err := os.ReadFile("ui/BUNDLE.md")
	if err != nil {
		return ""
	}
	body := string(raw)
	if i := strings.Index(body, "\n"); strings.HasPrefix(body, "# ") && i >= 0 {
		body = body[i+1:]
	}
	return "\n## UI bundle: initial JavaScript of the sign-in route\n" + body
}
