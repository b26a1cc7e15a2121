package main

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"syscall"
	"time"

	"swapbay/modules/packs"
)

// Targets of the label sheet (issue 35): 1,000 labels in at most 2 s and 2 MB.
const (
	labelsCount     = 1000
	labelsMaxTime   = 2 * time.Second
	labelsMaxBytes  = 2 << 20
	labelsRuns      = 3
	labelsBenchSite = "https://swapbay.example.com"
)

// labelsSection renders the label sheet of 1,000 packs (what GET /api/admin/packs/labels writes
// after its one query) labelsRuns times and reports the median time, the slowest and the size.
func labelsSection() string {
	ls := make([]packs.Label, labelsCount)
	for i := range ls {
		ls[i] = packs.Label{Serial: packs.Serial(packs.DefaultPrefix, i+1), Model: "S-48V 15Ah", Lot: "L2026-03"}
	}
	var times []time.Duration
	size := 0
	cpuBefore := cpuTime()
	for range labelsRuns {
		var b bytes.Buffer
		start := time.Now()
		check(packs.WriteLabels(&b, labelsBenchSite, ls))
		times = append(times, time.Since(start))
		size = b.Len()
	}
	cpu := (cpuTime() - cpuBefore) / labelsRuns // the work itself, whatever else the machine runs
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	median, slowest := times[len(times)/2], times[len(times)-1]
	var w strings.Builder
	fmt.Fprintf(&w, "\n## Pack label sheet\n\n")
	fmt.Fprintf(&w, "%d labels (A4, 3×8 a page, QR ECC High of %s/p/<serial>), %d runs: median %s, slowest %s (CPU time %s a sheet), %.2f MB. ",
		labelsCount, labelsBenchSite, labelsRuns, median.Round(time.Millisecond), slowest.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(size)/(1<<20))
	fmt.Fprintf(&w, "Target ≤ %s: %s; ≤ 2 MB: %s.\n", labelsMaxTime, verdict(median <= labelsMaxTime), verdict(size <= labelsMaxBytes))
	return w.String()
}

// cpuTime is the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
