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

	"swapbay/internal/drill"
	"swapbay/modules/replication"
)

var (
	flagDrills        = flag.Int("drills", 10, "with -only replication: disaster drills for the recovery point")
	flagDrillDuration = flag.Duration("drill-duration", 6*time.Second, "with -only replication: how long the 8 clients write before each SIGKILL")
	flagRTOMovements  = flag.Int("rto-movements", 1_000_000, "with -only replication: movements of the ledger whose restore is timed")
)

// replicationPart is `-only replication` (DESIGN.md §13): the ledger writes with replication
// off and on (a directory replica, so the uploads cost what they cost this process), the
// recovery point over *flagDrills drills (a real swapbay child, an in-process S3 server,
// SIGKILL, data dir deleted, restore from the replica alone), and the recovery time of a
// *flagRTOMovements-movement ledger.
func replicationPart() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Replication (issue 29)\n\n%s, load before %s. Aims: recovery point ≤ 5 s, recovery time ≤ 60 s, writes with replication ≥ 80%% of writes without.\n\n", machine(), loadAverage())

	// 1. writes with replication off and on
	off := replicationWrites("")
	rep, err := os.MkdirTemp("", "swapbay-bench-replica-")
	check(err)
	defer os.RemoveAll(rep)
	on := replicationWrites("file://" + rep)
	log.Printf("writes off: %s; on: %s", off, on)
	fmt.Fprintf(&b, "| writes x64 (%s) | req/s | p50 | p99 |\n|---|---|---|---|\n", *flagDuration)
	fmt.Fprintf(&b, "| replication off | %.0f | %s | %s |\n", off.RPS, ms(off.P50), ms(off.P99))
	fmt.Fprintf(&b, "| replication on (directory replica) | %.0f | %s | %s |\n", on.RPS, ms(on.P50), ms(on.P99))
	fmt.Fprintf(&b, "\nWrites with replication: **%.0f%%** of writes without.", 100*on.RPS/off.RPS)
	for _, r := range []result{off, on} {
		if r.Errors > 0 {
			fmt.Fprintf(&b, " %d errors, first: %s.", r.Errors, r.FirstError)
		}
	}
	b.WriteString("\n\n")

	// 2. the recovery point over the drills
	work, err := os.MkdirTemp("", "swapbay-bench-drill-")
	check(err)
	defer os.RemoveAll(work)
	if *flagDrills == 0 {
		return b.String()
	}
	bin, err := drill.Build(work)
	check(err)
	s3, err := drill.NewS3()
	check(err)
	defer s3.Close()
	var oldest []time.Duration
	fmt.Fprintf(&b, "| drill | acknowledged | restored | lost | oldest lost (before the kill) | duplicates | integrity | corrections | restore |\n|---|---|---|---|---|---|---|---|---|\n")
	failed := 0
	for i := 0; i < *flagDrills; i++ {
		dir := filepath.Join(work, fmt.Sprintf("drill-%d", i))
		check(os.MkdirAll(dir, 0o755))
		res, err := drill.Run(drill.Options{Bin: bin, Replica: s3.URL(fmt.Sprintf("drill-%d", i)), Work: dir, Duration: *flagDrillDuration, MinAcked: 100})
		if err != nil {
			log.Printf("drill %d: %v", i, err)
			fmt.Fprintf(&b, "| %d | failed: %s |||||||| \n", i+1, strings.SplitN(err.Error(), "\n", 2)[0])
			failed++
			continue
		}
		oldest = append(oldest, res.OldestLost)
		log.Printf("drill %d: %d acked, %d lost, oldest lost %s, restore %s", i, res.Acked, len(res.Lost), res.OldestLost, res.RestoreTook)
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %s | %d | %s | %d | %s |\n", i+1, res.Acked, res.Restored, len(res.Lost),
			res.OldestLost.Round(10*time.Millisecond), len(res.Duplicates), res.Integrity, res.Corrections, res.RestoreTook.Round(10*time.Millisecond))
		os.RemoveAll(dir)
	}
	if len(oldest) > 0 {
		rpo := slices.Max(oldest)
		fmt.Fprintf(&b, "\nRecovery point over %d drills (S3 replica, %s of writes each): **%s** — every write acknowledged more than that before the SIGKILL came back, exactly once.", len(oldest), *flagDrillDuration, rpo.Round(10*time.Millisecond))
		if failed > 0 {
			fmt.Fprintf(&b, " %d drills failed to run.", failed)
		}
		b.WriteString("\n\n")
	}

	// 3. the recovery time of a big ledger
	if *flagRTOMovements == 0 {
		return b.String()
	}
	log.Printf("building %d movements for the restore...", *flagRTOMovements)
	ds, err := buildDataSet(*flagRTOMovements, *flagUsers, *flagHolders, true, *flagBigBudget)
	check(err)
	bigRep := filepath.Join(work, "big-replica")
	t0 := time.Now()
	r, err := replication.Start(context.Background(), filepath.Join(ds.dir, "data.db"), replication.Config{URL: "file://" + bigRep}, nil)
	check(err)
	check(r.Sync(context.Background()))
	check(r.Close(context.Background()))
	shipped := time.Since(t0)
	fi, _ := os.Stat(filepath.Join(ds.dir, "data.db"))
	_ = ds.app.ResetBootstrapState()
	os.RemoveAll(ds.dir)
	restored := filepath.Join(work, "big-restored")
	res, err := replication.Restore(context.Background(), replication.Config{URL: "file://" + bigRep}, restored, false)
	check(err)
	log.Printf("restore of %d movements: %s (%d corrections)", res.Movements, res.Took, len(res.Corrections))
	fmt.Fprintf(&b, "Recovery time: restore of a %d-movement ledger (data.db %.0f MB, first replicated in %s) from a directory replica: **%s** (replica → data.db %s, integrity check %s, recalculation %s), integrity %s, %d corrections.\n\n",
		res.Movements, float64(fi.Size())/1e6, shipped.Round(100*time.Millisecond), res.Took.Round(100*time.Millisecond),
		res.Fetch.Round(100*time.Millisecond), res.Check.Round(100*time.Millisecond), res.Recalc.Round(100*time.Millisecond), res.Integrity, len(res.Corrections))
	fmt.Fprintf(&b, "Load after: %s. The machine is shared: figures are noisy.\n", loadAverage())
	return b.String()
}

// replicationWrites measures the ledger writes of a small data set, replicated to url when set.
func replicationWrites(url string) result {
	replication.FlagURL = url
	defer func() { replication.FlagURL = "" }()
	ds, err := buildDataSet(*flagSmall, *flagUsers, *flagHolders, false, 0)
	check(err)
	srv, err := startServer(ds)
	check(err)
	defer srv.stop()
	if url != "" && !replication.Active(ds.app) {
		check(fmt.Errorf("replication did not start"))
	}
	return srv.loadWrites(64, *flagDuration)
}
