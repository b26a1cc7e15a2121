package main

import (
	"bytes"
	"fmt"
	"log"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// The pack ledger's cost (issue 35): keyed driver pickups and dropoffs of 4 batteries that
// name their 4 packs, against the same writes naming none, on one server in one run (tracking
// optional for both, so the difference is the naming). Target: with packs ≥ 85% of without.
// Each client owns 4 packs of its own, picks them up and drops them off again: every scan is
// where the records put it (no discrepancy), as in a day without surprises. The two loads
// alternate twice (without, with, without, with) so a drift of the machine's load falls on
// both; the figures are the sums.

const packsPerWrite = 4

// packWritesPart runs the comparison on the small data set and returns its report section.
func packWritesPart() string {
	ds := smallDataSet()
	check(preparePacks(ds, 64))
	srv := serve(ds)
	defer srv.stop()
	load := loadAverage()
	const rounds = 3
	var without, with []result
	var cpuWithout, cpuWith time.Duration
	for round := 0; round < rounds; round++ {
		r, cpu := measureCPU(func() result { return srv.loadPackWrites(64, false, round) })
		without, cpuWithout = append(without, r), cpuWithout+cpu
		log.Printf("pack writes without packs, round %d: %s, CPU %s%s", round+1, r, cpu, firstError(r))
		stop := profile(*flagCPUProfile) // with -cpuprofile: the writes naming packs
		r, cpu = measureCPU(func() result { return srv.loadPackWrites(64, true, round) })
		stop()
		with, cpuWith = append(with, r), cpuWith+cpu
		log.Printf("pack writes naming %d packs, round %d: %s, CPU %s%s", packsPerWrite, round+1, r, cpu, firstError(r))
	}
	a, b := sumResults(without), sumResults(with)
	perA, perB := perRequest(cpuWithout, without), perRequest(cpuWith, with)
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n## Ledger writes naming their packs (issue 35)\n\n")
	fmt.Fprintf(&sb, "Keyed driver pickups and dropoffs of %d batteries, 64 clients, tracking `optional`, rounds alternating; load average before: %s, after: %s.\n\n", packsPerWrite, load, loadAverage())
	sb.WriteString("| writes | rounds | req/s (all rounds) | CPU per request (server + load, this process) |\n|---|---|---|---|\n")
	fmt.Fprintf(&sb, "| without packs | %s | %.0f | %s |\n", roundsText(without), a, perA)
	fmt.Fprintf(&sb, "| naming %d packs each | %s | %.0f | %s |\n", packsPerWrite, roundsText(with), b, perB)
	fmt.Fprintf(&sb, "\nWith packs / without: **%.0f%%** of the throughput, **%.0f%%** by CPU per request (target ≥ 85%%; on a busy machine the CPU figure is the steadier one).\n",
		100*b/a, 100*float64(perA)/float64(perB))
	return sb.String()
}

// firstError names a load's first failed request, if any.
func firstError(r result) string {
	if r.Errors == 0 {
		return ""
	}
	return "; first error: " + r.FirstError
}

// measureCPU runs f and returns its result and the CPU time (user + system) this process
// spent meanwhile: the server and the load generator share it.
func measureCPU(f func() result) (result, time.Duration) {
	before := processCPU()
	r := f()
	return r, processCPU() - before
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func perRequest(cpu time.Duration, rs []result) time.Duration {
	n := 0
	for _, r := range rs {
		n += r.Requests
	}
	if n == 0 {
		return 0
	}
	return (cpu / time.Duration(n)).Round(time.Microsecond)
}

func roundsText(rs []result) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%.0f", r.RPS)
	}
	return strings.Join(parts, " / ") + " req/s"
}

func sumResults(rs []result) float64 {
	var reqs int
	var secs float64
	for _, r := range rs {
		reqs += r.Requests
		secs += r.Duration.Seconds()
	}
	if secs == 0 {
		return 0
	}
	return float64(reqs) / secs
}

// preparePacks gives the clients' drivers packsPerWrite packs each, in ready, adds as many
// batteries to ready (an emergency override) and sets tracking to optional.
func preparePacks(ds *dataSet, clients int) error {
	app := ds.app
	stats, err := inventory.Stats(app)
	if err != nil {
		return err
	}
	n := clients * packsPerWrite
	if _, err := system.Override(app, inventory.Op{}, stats.Ready+n, stats.Waiting, stats.Charging, stats.Total+n); err != nil {
		return err
	}
	ready, err := inventory.SystemAccount(app, inventory.KeyReady)
	if err != nil {
		return err
	}
	now := types.NowDateTime().String()
	for i := 1; i <= n; i++ {
		_, err := app.DB().Insert(schema.Packs, dbx.Params{
			"id": ids.New(), schema.PackSerial: benchSerial(i), schema.PackState: schema.PackStateInService,
			schema.PackLocation: ready.Id, schema.PackChargeCount: 0, schema.Created: now, schema.Updated: now,
		}).Execute()
		if err != nil {
			return err
		}
	}
	_, err = system.SaveSettings(app, inventory.Op{}, []system.Setting{{Key: schema.SettingPackTracking, Value: []byte(`"optional"`)}})
	return err
}

func benchSerial(i int) string { return fmt.Sprintf("BEN-%06d", i) }

// loadPackWrites: each client alternates a pickup and a dropoff of its packsPerWrite packs,
// naming them when named is set.
func (s *server) loadPackWrites(clients int, named bool, round int) result {
	check(s.settlePacks(clients))
	cookies := make([]string, clients)
	bodies := make([][2][]byte, clients)
	for w := range cookies {
		cookies[w] = "swapbay_session=" + s.token(s.ds.drivers[len(s.ds.drivers)-1-w])
		list := "[]"
		if named {
			serials := make([]string, packsPerWrite)
			for i := range serials {
				serials[i] = fmt.Sprintf("%q", benchSerial(w*packsPerWrite+i+1))
			}
			list = "[" + strings.Join(serials, ",") + "]"
		}
		bodies[w] = [2][]byte{
			[]byte(fmt.Sprintf(`{"quantity":%d,"notes":"Y","packs":%s}`, packsPerWrite, list)),
			[]byte(fmt.Sprintf(`{"goodBatteries":%d,"deadBatteries":0,"notes":"Quiet shift, no issues.","goodPacks":%s}`, packsPerWrite, list)),
		}
	}
	name := "pickup/dropoff without packs"
	if named {
		name = fmt.Sprintf("pickup/dropoff naming %d packs", packsPerWrite)
	}
	return s.run(name, clients, *flagDuration, func(w, n int) (*http.Request, error) {
		path, body := "/api/driver/pickup", bodies[w][0]
		if n%2 == 1 {
			path, body = "/api/driver/dropoff-batteries", bodies[w][1]
		}
		req, err := http.NewRequest(http.MethodPost, s.base+path, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Cookie", cookies[w])
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", fmt.Sprintf("packs-%d-%v-%d-%d-%d", s.runId, named, round, w, n))
		}
		return req, err
	})
}

// settlePacks drops off (unmeasured) what a client still holds from the previous load, which
// may have stopped between its pickup and its dropoff, naming the bench packs it holds: every
// load starts with the packs in ready, where the records put them, and with as many batteries
// ready as the clients pick up. (Settling only the named packs left the batteries a load
// without packs had picked up in the holdings: the next load's first pickups found too few
// ready, were refused during the warm-up, where errors are not counted, and their dropoffs
// then named packs still in ready, a discrepancy on ~3% of the writes naming packs.)
func (s *server) settlePacks(clients int) error {
	for w := 0; w < clients; w++ {
		driver := s.ds.drivers[len(s.ds.drivers)-1-w]
		var held []string
		err := s.ds.app.DB().NewQuery("SELECT p.serial FROM packs p JOIN accounts a ON a.id = p.location WHERE a.kind = 'holder' AND a.user = {:u}").
			Bind(dbx.Params{"u": driver.Id}).Column(&held)
		if err != nil {
			return err
		}
		accs, err := inventory.FindHolderAccounts(s.ds.app, driver.Id)
		if err != nil {
			return err
		}
		count := 0
		for _, a := range accs {
			count += max(0, a.Balance())
		}
		if count == 0 {
			continue
		}
		op := inventory.Op{Actor: driver, Notes: "settle", Packs: inventory.PackNames{GoodPacks: held}}
		if _, err := inventory.Dropoff(s.ds.app, op, driver.Id, max(count, len(held)), 0); err != nil {
			return err
		}
	}
	return nil
}
