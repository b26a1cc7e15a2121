package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/internal/drill"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/backups"
	"swapbay/modules/replication"
	"swapbay/modules/restore"
)

var (
	flagDrills        = flag.Int("drills", 10, "replication: disaster drills for the recovery point (0: none)")
	flagDrillDuration = flag.Duration("drill-duration", 6*time.Second, "replication: how long the 8 clients write before each SIGKILL")
	flagRTOMovements  = flag.Int("rto-movements", 1_000_000, "with -only replication: movements of the ledger whose restore is timed (0: none; the full run times the big data set's)")
	flagReplPages     = flag.Int("repl-checkpoint-pages", 0, "replication: Litestream's MinCheckpointPageN (0: the default)")
	flagReplMonitor   = flag.Duration("repl-monitor", 0, "replication: Litestream's MonitorInterval (0: the default)")
)

// replicationWritesPart is `-only replication-writes`: the ledger writes with replication off
// and on, nothing else (with -cpuprofile: a CPU profile of the writes with replication on).
func replicationWritesPart() string {
	off := replicationWrites("")
	rep, err := os.MkdirTemp("", "swapbay-bench-replica-")
	check(err)
	defer os.RemoveAll(rep)
	stop := profile(*flagCPUProfile)
	on := replicationWrites("file://" + rep)
	stop()
	opt := replicationOptions("")
	return fmt.Sprintf("checkpoint pages %d, monitor %s, load %s\noff: %s\non:  %s\non/off: %.0f%%\n",
		opt.MinCheckpointPageN, opt.MonitorInterval, loadAverage(), off, on, 100*on.RPS/off.RPS)
}

// replicationSection is the report's replication section (DESIGN.md §13, issue 29): the
// ledger writes with replication off and on in the same run (a directory replica, so the
// uploads cost what they cost this process), the recovery point over *flagDrills drills (a
// real swapbay child, an in-process S3 server, SIGKILL, data dir deleted, restore from the
// replica alone), and the recovery time of rto (a big ledger's restore; empty: not measured).
// The figures row of the summary table is what the next run's "Change from the previous run"
// compares.
type replicationFigures struct {
	Off, On     result
	Drills      []drill.Result
	DrillErrors []string
	RTO         *restore.Report
	RTOArchive  *restore.Report // the same ledger restored from a backup archive
	CatchUp     *catchUp
	RTOBytes    int64
	RTOShipped  time.Duration
	LoadBefore  string
}

// measureReplication runs the writes and the drills (the recovery time is measured on a big
// data set by recoveryTime).
func measureReplication() replicationFigures {
	f := replicationFigures{LoadBefore: loadAverage()}
	f.Off = replicationWrites("")
	rep, err := os.MkdirTemp("", "swapbay-bench-replica-")
	check(err)
	defer os.RemoveAll(rep)
	f.On = replicationWrites("file://" + rep)
	log.Printf("writes off: %s; on: %s (%.0f%%)", f.Off, f.On, 100*f.On.RPS/f.Off.RPS)
	if *flagDrills == 0 {
		return f
	}
	work, err := os.MkdirTemp("", "swapbay-bench-drill-")
	check(err)
	defer os.RemoveAll(work)
	bin, err := drill.Build(work)
	check(err)
	s3, err := drill.NewS3()
	check(err)
	defer s3.Close()
	for i := 0; i < *flagDrills; i++ {
		dir := filepath.Join(work, fmt.Sprintf("drill-%d", i))
		check(os.MkdirAll(dir, 0o755))
		res, err := drill.Run(drill.Options{Bin: bin, Replica: s3.URL(fmt.Sprintf("drill-%d", i)), Work: dir, Duration: *flagDrillDuration, MinAcked: 100})
		os.RemoveAll(dir)
		if err != nil {
			log.Printf("drill %d: %v", i, err)
			f.DrillErrors = append(f.DrillErrors, strings.SplitN(err.Error(), "\n", 2)[0])
			continue
		}
		log.Printf("drill %d: %d acked, %d lost, oldest lost %s, restore %s", i, res.Acked, len(res.Lost), res.OldestLost, res.RestoreTook)
		f.Drills = append(f.Drills, res)
	}
	if *flagOutage > 0 {
		c, err := measureCatchUp()
		if err != nil {
			log.Printf("catch-up: %v", err)
		}
		f.CatchUp = c
	}
	return f
}

// recoveryTime replicates dataDir's data.db to a fresh directory replica (nothing writes to it
// meanwhile), then times `swapbay restore`'s work from that replica alone into a new dir: the
// replica → data.db, the integrity check and the ledger's recalculation.
func (f *replicationFigures) recoveryTime(dataDir string) {
	work, err := os.MkdirTemp("", "swapbay-bench-rto-")
	check(err)
	defer os.RemoveAll(work)
	replica := "file://" + filepath.Join(work, "replica")
	t0 := time.Now()
	r, err := replication.Start(context.Background(), filepath.Join(dataDir, "data.db"), replication.Config{URL: replica}, *replication.DefaultOptions(), nil)
	check(err)
	check(r.Sync(context.Background()))
	check(r.Close(context.Background()))
	f.RTOShipped = time.Since(t0)
	if fi, err := os.Stat(filepath.Join(dataDir, "data.db")); err == nil {
		f.RTOBytes = fi.Size()
	}
	res, err := restore.Run(context.Background(), restore.Replica{Config: replication.Config{URL: replica}}, filepath.Join(work, "restored"), false)
	check(err)
	log.Printf("restore of %d movements from the replica: %s (%d corrections)", res.Movements, res.Took, len(res.Corrections))
	f.RTO = &res
	zip := filepath.Join(work, "backup.zip")
	check(rtoArchive(dataDir, zip))
	res, err = restore.Run(context.Background(), restore.Archive{Path: zip}, filepath.Join(work, "restored-archive"), false)
	check(err)
	log.Printf("restore of %d movements from a backup archive: %s (%d corrections)", res.Movements, res.Took, len(res.Corrections))
	f.RTOArchive = &res
}

// rtoArchive makes a backup archive of the data dir dataDir at path, as `swapbay backup` does.
func rtoArchive(dataDir, path string) error {
	t0 := time.Now()
	app, err := sqlitedb.OpenDir(dataDir)
	if err != nil {
		return err
	}
	defer app.ResetBootstrapState()
	b, err := backups.Create(context.Background(), app)
	if err != nil {
		return err
	}
	log.Printf("backup archive of %s in %s", dataDir, time.Since(t0).Round(100*time.Millisecond))
	return os.Rename(filepath.Join(dataDir, core.LocalBackupsDirName, b.Name), path)
}

// rtoRow is a restore's figures as a row of the replication table.
func rtoRow(what string, r *restore.Report, bytes int64) string {
	return fmt.Sprintf("| recovery time (restore of the big ledger from %s) | %s | ≤ 60 s | %d movements, data.db %.0f MB; source → data.db %s, integrity check and ANALYZE %s, recalculation %s; integrity %s, %d corrections |\n",
		what, r.Took.Round(100*time.Millisecond), r.Movements, float64(bytes)/1e6, r.Fetch.Round(100*time.Millisecond),
		r.Check.Round(100*time.Millisecond), r.Recalc.Round(100*time.Millisecond), r.Integrity, len(r.Corrections))
}

func (f replicationFigures) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Replication (issue 29)\n\n%s, load before %s, after %s. Aims: recovery point ≤ 5 s, recovery time ≤ 60 s, writes with replication ≥ 80%% of writes without. The machine is shared: figures are noisy.\n\n",
		machine(), f.LoadBefore, loadAverage())
	fmt.Fprintf(&b, "| replication | figure | aim | detail |\n|---|---|---|---|\n")
	pct := 0.0
	if f.Off.RPS > 0 {
		pct = 100 * f.On.RPS / f.Off.RPS
	}
	fmt.Fprintf(&b, "| writes with replication, share of writes without | %.0f%% | ≥ 80%% | %.0f vs %.0f req/s, 64 clients, %s each |\n", pct, f.On.RPS, f.Off.RPS, *flagDuration)
	if len(f.Drills) > 0 {
		var oldest []time.Duration
		for _, d := range f.Drills {
			oldest = append(oldest, d.OldestLost)
		}
		fmt.Fprintf(&b, "| recovery point (largest over the drills) | %s | ≤ 5 s | %d drills, S3 replica, %s of writes each, %d failed to run |\n",
			slices.Max(oldest).Round(10*time.Millisecond), len(f.Drills), *flagDrillDuration, len(f.DrillErrors))
	}
	if f.RTO != nil {
		b.WriteString(rtoRow("a replica", f.RTO, f.RTOBytes))
	}
	if f.RTOArchive != nil {
		b.WriteString(rtoRow("a backup archive", f.RTOArchive, f.RTOBytes))
	}
	if f.CatchUp != nil {
		b.WriteString(f.CatchUp.row())
	}

	fmt.Fprintf(&b, "\n| writes x64 (%s) | req/s | p50 | p99 | errors |\n|---|---|---|---|---|\n", *flagDuration)
	fmt.Fprintf(&b, "| replication off | %.0f | %s | %s | %d |\n", f.Off.RPS, ms(f.Off.P50), ms(f.Off.P99), f.Off.Errors)
	fmt.Fprintf(&b, "| replication on (directory replica) | %.0f | %s | %s | %d |\n", f.On.RPS, ms(f.On.P50), ms(f.On.P99), f.On.Errors)
	for _, r := range []result{f.Off, f.On} {
		if r.Errors > 0 {
			fmt.Fprintf(&b, "\n%s: first error %s\n", r.Name, r.FirstError)
		}
	}
	if len(f.Drills)+len(f.DrillErrors) > 0 {
		// one row per drill, keyed "drill N" in its own table: the change section compares them too
		fmt.Fprintf(&b, "\n| drill | acknowledged | restored | lost | oldest lost (before the kill) | duplicates | integrity | corrections | restore |\n|---|---|---|---|---|---|---|---|---|\n")
		for i, res := range f.Drills {
			fmt.Fprintf(&b, "| drill %d | %d | %d | %d | %s | %d | %s | %d | %s |\n", i+1, res.Acked, res.Restored, len(res.Lost),
				res.OldestLost.Round(10*time.Millisecond), len(res.Duplicates), res.Integrity, res.Corrections, res.RestoreTook.Round(10*time.Millisecond))
		}
		for _, e := range f.DrillErrors {
			fmt.Fprintf(&b, "\nA drill failed to run: %s\n", e)
		}
		b.WriteString("\nThe recovery point: every write acknowledged more than that before the SIGKILL came back from the replica, exactly once.\n")
	}
	if f.RTO != nil {
		fmt.Fprintf(&b, "\nThe recovery time: the big ledger first shipped to a directory replica in %s, then rebuilt from it alone as `swapbay restore` does; and backed up into an archive (`swapbay backup`), restored through the same pipeline.\n", f.RTOShipped.Round(100*time.Millisecond))
	}
	return b.String()
}

// replicationPart is `-only replication`: the writes, the drills and, on a ledger of
// *flagRTOMovements movements built by direct SQL, the recovery time.
func replicationPart() string {
	f := measureReplication()
	if *flagRTOMovements > 0 {
		log.Printf("building %d movements for the restore...", *flagRTOMovements)
		ds, err := buildDataSet(*flagRTOMovements, *flagUsers, *flagHolders, true, *flagBigBudget)
		check(err)
		log.Printf("built in %s: %s", ds.summary.BuildTime.Round(time.Second), ds.summary)
		f.recoveryTime(ds.dir)
		_ = ds.app.ResetBootstrapState()
		os.RemoveAll(ds.dir)
	}
	return f.markdown()
}

// replicationOptions are the replication's options for the bench's server (the -repl-* flags
// over the defaults), replicating to url when set.
func replicationOptions(url string) *replication.Options {
	opt := replication.DefaultOptions()
	opt.ServerURL = url
	if *flagReplPages > 0 {
		opt.MinCheckpointPageN = *flagReplPages
	}
	if *flagReplMonitor > 0 {
		opt.MonitorInterval = *flagReplMonitor
	}
	return opt
}

// replicationWrites measures the ledger writes of a small data set, replicated to url when set.
func replicationWrites(url string) result {
	ds := smallDataSet()
	replication.SetOptions(ds.app, replicationOptions(url))
	srv := serve(ds)
	defer srv.stop()
	if url != "" && !replication.Active(ds.app) {
		check(fmt.Errorf("replication did not start"))
	}
	r := srv.loadWrites(64, *flagDuration)
	if url == "" {
		r.Name = "replication off"
	} else {
		r.Name = "replication on"
	}
	return r
}

var flagReplicaDir = flag.String("replica-dir", "", "with -only rto-build / rto-restore: the directory replica of the big ledger, kept between runs")

// rtoBuild is `-only rto-build`: a ledger of *flagRTOMovements movements (direct SQL) shipped to
// the directory replica dir, which is kept, so rtoRestore can time restores of it again and again.
func rtoBuild(dir string) error {
	if dir == "" {
		return fmt.Errorf("-replica-dir is required")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	ds, err := buildDataSet(*flagRTOMovements, *flagUsers, *flagHolders, true, *flagBigBudget)
	if err != nil {
		return err
	}
	defer os.RemoveAll(ds.dir)
	log.Printf("built in %s: %s", ds.summary.BuildTime.Round(time.Second), ds.summary)
	_ = ds.app.ResetBootstrapState()
	t0 := time.Now()
	r, err := replication.Start(context.Background(), filepath.Join(ds.dir, "data.db"), replication.Config{URL: "file://" + dir}, *replication.DefaultOptions(), nil)
	if err != nil {
		return err
	}
	if err := r.Sync(context.Background()); err != nil {
		return err
	}
	if err := r.Close(context.Background()); err != nil {
		return err
	}
	log.Printf("shipped to %s in %s", dir, time.Since(t0).Round(100*time.Millisecond))
	return rtoArchive(ds.dir, archiveBeside(dir))
}

// archiveBeside is where rtoBuild keeps the backup archive of the replica dir's ledger.
func archiveBeside(dir string) string { return filepath.Clean(dir) + ".zip" }

// rtoRestore is `-only rto-restore`: restore.Run of the directory replica dir, and of the backup
// archive rtoBuild kept beside it, each into a new dir removed afterwards; the report's parts
// (fetch, integrity check, recalculation).
func rtoRestore(dir string) string {
	work, err := os.MkdirTemp("", "swapbay-bench-rto-")
	check(err)
	defer os.RemoveAll(work)
	var out strings.Builder
	for i, src := range []restore.Source{restore.Replica{Config: replication.Config{URL: "file://" + dir}}, restore.Archive{Path: archiveBeside(dir)}} {
		if a, ok := src.(restore.Archive); ok {
			if _, err := os.Stat(a.Path); err != nil {
				fmt.Fprintf(&out, "no backup archive at %s (made by -only rto-build)\n", a.Path)
				continue
			}
		}
		stop := profile(*flagCPUProfile)
		res, err := restore.Run(context.Background(), src, filepath.Join(work, fmt.Sprintf("restored-%d", i)), false)
		stop()
		check(err)
		fmt.Fprintf(&out, "load %s: restore of %d movements (%d bytes) from %s took %s: source → data.db %s, integrity check %s (%s), recalculation %s, %d corrections\n",
			loadAverage(), res.Movements, res.Bytes, res.From, res.Took.Round(100*time.Millisecond), res.Fetch.Round(100*time.Millisecond),
			res.Check.Round(100*time.Millisecond), res.Integrity, res.Recalc.Round(100*time.Millisecond), len(res.Corrections))
	}
	return out.String()
}
