package main

import (
	"fmt"
	"strings"
	"time"
)

type flatRow struct {
	Summary    summary
	Result     result
	Uncached   result
	Single     result // one client, cache off: the latency without queueing
	Consistent bool
	Note       string
}

// report collects a run's figures and renders BENCHMARKS.md.
type report struct {
	Date, Machine   string
	LoadBefore      string
	LoadAfter       string
	MainBuild       summary
	State, Native   result
	StateUncached   result
	StateSingle     result
	Writes, Create  result
	Steady          []result // state, state cache off, native read, writes, native create at -paced-rate
	Photos          result   // 1 MB photo PUTs, 8 uploaders
	PhotosMem       string   // the process RSS after the photo run and its peak
	Consistent      bool
	ConsistencyNote string
	Flat            []flatRow
	Earnings        []earningsRow // GET /api/admin/all-earnings per history size
	Total           time.Duration
}

// earningsRow is the all-earnings read on one data set: one client (latency) and 64.
type earningsRow struct {
	Summary   summary
	One, Many result
}

func ratio(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*a/b)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**not met**"
}

func (r report) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("# SwapBay benchmarks")
	w("")
	w("Produced by `make bench` (`go run ./internal/bench`) on %s.", r.Date)
	w("")
	w("Machine: %s. Client and server share the machine (loopback HTTP, keep-alive).", r.Machine)
	w("")
	w("Load average (1 / 5 / 15 min) at the start: %s; at the end: %s. The machine was shared with other", r.LoadBefore, r.LoadAfter)
	w("work during the run; a load above the CPU count inflates every latency here, the reference's too, so")
	w("the ratios to the native API say more than the absolute figures.")
	w("")
	w("Main data set: %s, built in %s. Ledger check after the run: %s.", r.MainBuild, r.MainBuild.BuildTime.Round(time.Second), r.ConsistencyNote)
	w("")
	w("## Throughput and latency (main data set)")
	w("")
	w("| measurement | clients | requests/s | p50 | p99 | requests | errors |")
	w("|---|---:|---:|---:|---:|---:|---:|")
	r.StateSingle.Name = "GET /api/state, cache off, one client"
	for _, x := range []result{r.State, r.StateUncached, r.StateSingle, r.Native, r.Writes, r.Create, r.Photos} {
		w("| %s | %d | %.0f | %s | %s | %d | %d |", x.Name, x.Clients, x.RPS, ms(x.P50), ms(x.P99), x.Requests, x.Errors)
	}
	w("")
	if len(r.Steady) > 0 {
		w("### At a steady load (64 clients, %.0f requests/s in all)", *flagPacedRate)
		w("")
		w("The loads above send back to back, so they measure latency at saturation: with 64 clients in a closed loop the")
		w("mean latency is 64 ÷ requests/s (Little's law), whatever the server does. Here the same 64 clients send on a fixed")
		w("schedule, %.0f requests/s together, and each latency runs from the time the request was due, so a server that falls", *flagPacedRate)
		w("behind is charged for the wait. This is the latency a user sees while the server has headroom.")
		w("")
		w("| measurement | clients | requests/s | p50 | p99 | requests | errors |")
		w("|---|---:|---:|---:|---:|---:|---:|")
		for _, x := range r.Steady {
			w("| %s, steady | %d | %.0f | %s | %s | %d | %d |", x.Name, x.Clients, x.RPS, ms(x.P50), ms(x.P99), x.Requests, x.Errors)
		}
		w("")
	}
	w("Photo uploads (PUT of a ~1 MB JPEG to a signed URL: streamed to disk, type sniffed, EXIF dropped, re-encoded, stored): %s.", r.PhotosMem)
	w("")
	w("`/api/state` answers are cached per caller until the next change notification (modules/activity/cache.go);")
	w("\"cache off\" is the same load with the cache disabled, every request running the queries.")
	w("")
	w("`GET /api/state` callers: 3 in 4 clients are drivers, the others admins and liaisons, each with its own session")
	w("cookie. Ledger writes: each client is its own driver alternating `POST /api/driver/pickup` (1 battery) and")
	w("`POST /api/driver/dropoff-batteries` (1 good). The reference is PocketBase's own record API on the same database,")
	w("as a superuser, on a one-field collection (`bench_items`); each create also writes its row on the System page's")
	w("audit list in the same transaction (hooks/audit.go), as every raw write does.")
	w("")
	w("## Aims")
	w("")
	w("| aim | figure | |")
	w("|---|---|---|")
	w("| /api/state ≥ 50%% of the native single-record read | %s | %s |", ratio(r.State.RPS, r.Native.RPS), verdict(r.State.RPS >= r.Native.RPS/2))
	w("| same, cache off | %s | %s |", ratio(r.StateUncached.RPS, r.Native.RPS), verdict(r.StateUncached.RPS >= r.Native.RPS/2))
	w("| ledger writes ≥ 50%% of native create | %s | %s |", ratio(r.Writes.RPS, r.Create.RPS), verdict(r.Writes.RPS >= r.Create.RPS/2))
	w("| /api/state p99 < 25 ms (64 clients) | %s (native read: %s) | %s |", ms(r.State.P99), ms(r.Native.P99), verdict(r.State.P99 < 25*time.Millisecond))
	w("| same, cache off | %s | %s |", ms(r.StateUncached.P99), verdict(r.StateUncached.P99 < 25*time.Millisecond))
	w("| same, cache off, one client | %s | %s |", ms(r.StateSingle.P99), verdict(r.StateSingle.P99 < 25*time.Millisecond))
	w("| ledger writes p99 < 25 ms (64 clients) | %s (native create: %s) | %s |", ms(r.Writes.P99), ms(r.Create.P99), verdict(r.Writes.P99 < 25*time.Millisecond))
	if len(r.Steady) == 5 {
		state, uncached, read, writes, create := r.Steady[0], r.Steady[1], r.Steady[2], r.Steady[3], r.Steady[4]
		w("| /api/state p99 < 25 ms, 64 clients at a steady %.0f requests/s | %s (native read: %s) | %s |", *flagPacedRate, ms(state.P99), ms(read.P99), verdict(state.P99 < 25*time.Millisecond))
		w("| same, cache off | %s | %s |", ms(uncached.P99), verdict(uncached.P99 < 25*time.Millisecond))
		w("| ledger writes p99 < 25 ms, 64 clients at a steady %.0f requests/s | %s (native create: %s) | %s |", *flagPacedRate, ms(writes.P99), ms(create.P99), verdict(writes.P99 < 25*time.Millisecond))
	}
	if len(r.Flat) >= 2 {
		// The baseline is the shortest history that fills the two-week window the state counts
		// (today, this week, last week): a shorter one has less recent activity, not just less
		// history, and the comparison would measure the activity.
		first, last := r.Flat[0], r.Flat[len(r.Flat)-1]
		for _, row := range r.Flat {
			if row.Summary.Span >= 14*24*time.Hour {
				first = row
				break
			}
		}
		f := float64(last.Result.P50) / float64(first.Result.P50)
		w("| /api/state flat within 1.5× from %.0f to %.0f days of history (p50) | %.2f× | %s |", first.Summary.Span.Hours()/24, last.Summary.Span.Hours()/24, f, verdict(f <= 1.5))
		f = float64(last.Uncached.P50) / float64(first.Uncached.P50)
		w("| same, cache off | %.2f× | %s |", f, verdict(f <= 1.5))
		f = float64(last.Single.P50) / float64(first.Single.P50)
		w("| same, cache off, one client | %.2f× | %s |", f, verdict(f <= 1.5))
	}
	for _, e := range r.Earnings {
		if e.Summary.Movements >= 1_000_000 {
			w("| all-earnings p50 < 50 ms for %d users over %d movements (one client) | %s (p99 %s) | %s |", e.Summary.Users, e.Summary.Movements,
				ms(e.One.P50), ms(e.One.P99), verdict(e.One.P50 < 50*time.Millisecond))
		}
	}
	w("")
	w("## /api/state against history size (64 clients)")
	w("")
	w("| movements | entries | history | built by | build time | requests/s | p50 | p99 | cache off: requests/s | p50 | p99 | one client, cache off: p50 | p99 | ledger check |")
	w("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, f := range r.Flat {
		check := "consistent"
		if !f.Consistent {
			check = "INCONSISTENT: " + f.Note
		}
		w("| %d | %d | %.0f days | %s | %s | %.0f | %s | %s | %.0f | %s | %s | %s | %s | %s |", f.Summary.Movements, f.Summary.Entries, f.Summary.Span.Hours()/24,
			f.Summary.Path, f.Summary.BuildTime.Round(time.Second), f.Result.RPS, ms(f.Result.P50), ms(f.Result.P99),
			f.Uncached.RPS, ms(f.Uncached.P50), ms(f.Uncached.P99), ms(f.Single.P50), ms(f.Single.P99), check)
	}
	for _, f := range r.Flat {
		if f.Summary.Note != "" {
			w("")
			w("Note (%d movements): %s.", f.Summary.Movements, f.Summary.Note)
		}
	}
	if len(r.Earnings) > 0 {
		w("")
		w("## Earnings against history size")
		w("")
		w("`GET /api/admin/all-earnings?weekStart=<last week>`: every approved earner's row (counts from that week's")
		w("movements, one grouped query over the (type, occurredAt) index), the pool and the rates, as admins.")
		w("")
		w("| movements | users | one client: p50 | p99 | 64 clients: requests/s | p50 | p99 | errors |")
		w("|---:|---:|---:|---:|---:|---:|---:|---:|")
		for _, e := range r.Earnings {
			w("| %d | %d | %s | %s | %.0f | %s | %s | %d |", e.Summary.Movements, e.Summary.Users, ms(e.One.P50), ms(e.One.P99),
				e.Many.RPS, ms(e.Many.P50), ms(e.Many.P99), e.One.Errors+e.Many.Errors)
		}
	}
	w("")
	w("Histories grow in time at a fixed rate (about %d movements a day), as a real bay's would: a bigger", movementsPerDay)
	w("history is a longer one. The big set is written with direct multi-row SQL inserts of the same rows the")
	w("ledger writes (movements, netted entries, accounts, sessions, cached balances), then checked: every")
	w("balance equals the sum of its entries. The other sets go through the ledger's operation functions.")
	w("The flatness aims start from the shortest history that spans the two weeks the state counts (today, this")
	w("week, last week): the smallest set's one day holds less recent activity, not only less history.")
	for _, x := range []result{r.State, r.StateUncached, r.Native, r.Writes, r.Create} {
		if x.FirstError != "" {
			w("")
			w("First error in %q: %s", x.Name, x.FirstError)
		}
	}
	w("")
	w("Whole run: %s.", r.Total.Round(time.Second))
	return b.String()
}
