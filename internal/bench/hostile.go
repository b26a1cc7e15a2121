package main

import (
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"swapbay/internal/drill"
	"swapbay/internal/hostile"
)

// hostilePart is `-only hostile` and the "Hostile requests" section of the full report
// (issue 34): the hostile catalogue, each case on a fresh `swapbay serve` child with
// GOMEMLIMIT as on a 1 GB VPS, its RSS read from /proc; the worst single request and the
// concurrent case against their budgets.
func hostilePart() string {
	load := loadAverage()
	started := time.Now()
	work, err := os.MkdirTemp("", "swapbay-bench-hostile-")
	check(err)
	defer os.RemoveAll(work)
	bin, err := drill.Build(work)
	check(err)
	results, err := hostile.RunAll(bin, work, log.Printf)
	if err != nil {
		return fmt.Sprintf("\n## Hostile requests (issue 34)\n\nNot measured: %v\n", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Hostile requests (issue 34)\n\n")
	fmt.Fprintf(&b, "`go run ./internal/bench -only hostile`, %s, load %s before (1/5/15 min); each case on a fresh `swapbay serve` child "+
		"(GOMEMLIMIT=%s, as the server sets itself on a 1 GB VPS) after a warm-up (the ordinary routes, a photo and its thumbnail); "+
		"growth = VmHWM during the case − VmRSS before it, from /proc/<pid>/status. Budget: %d MB a request; %d at once under %d MB of RSS, "+
		"/api/health and /api/state answering within %s meanwhile. Took %s.\n\n",
		started.UTC().Format("2006-01-02 15:04 UTC"), load, hostile.MemLimit, hostile.SingleBudgetMB, hostile.Concurrent,
		hostile.ConcurrentBudgetMB, hostile.ProbeBudget, time.Since(started).Round(time.Second))
	b.WriteString("| case | RSS before | peak | growth | answers | within budget |\n|---|---|---|---|---|---|\n")
	var worst hostile.Result
	for _, r := range results {
		ok := "yes"
		if r.Problem != "" {
			ok = "**no**: " + r.Problem
		}
		fmt.Fprintf(&b, "| %s | %.0f MB | %.0f MB | %.0f MB | %s | %s |\n", r.Name, r.BaseMB, r.PeakMB, r.GrowthMB, r.Note, ok)
		if !r.Concurrent && r.GrowthMB > worst.GrowthMB {
			worst = r
		}
	}
	fmt.Fprintf(&b, "\nWorst single request: **%s, +%.0f MB** (budget %d MB).\n", worst.Name, worst.GrowthMB, hostile.SingleBudgetMB)
	return b.String()
}
