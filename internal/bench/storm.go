package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"swapbay/lib/idempotency"
	"swapbay/modules/inventory"
	"swapbay/modules/system"
)

// The reconnect storm (issue 32 #5): a cell tower comes back and every phone of a city sends
// its queue at once.
const (
	stormClients = 500
	stormActions = 20
)

// stormShift is one driver's queued actions in order, repeated: a pickup of two, a rebalance,
// a dropoff of a good one, a recover, a dropoff of a dead one — holdings back to zero, so no
// action of the queue is refused for want of batteries.
var stormShift = []struct{ path, body string }{
	{"/api/driver/pickup", `"quantity":2`},
	{"/api/driver/rebalance", `"quantity":1`},
	{"/api/driver/dropoff-batteries", `"goodBatteries":1,"deadBatteries":0`},
	{"/api/driver/retrieves-repairs-dropoff", `"quantity":1`},
	{"/api/driver/dropoff-batteries", `"goodBatteries":0,"deadBatteries":1`},
}

// stormResult is the storm's figures.
type stormResult struct {
	Summary                 summary
	Clients, Actions        int
	Drain                   time.Duration // from the start to the last answer
	P50, P99, Max           time.Duration // per request
	Sent, OK, Replayed      int
	Refused, ServerErrors   int
	NetErrors               int
	FirstProblem            string
	Movements, Distinct     int // movements the storm recorded, and distinct actions among them
	Single                  result
	Ran, Load               string
	ReadyBefore, ReadyAfter int
}

// stormPart builds the main data set (direct SQL path), then lets stormClients drivers send
// stormActions queued keyed actions each, all started together, each in its order and each
// resending its last action once (its answer lost); then counts the storm's movements in the
// database. Beside it: one client sending the same actions back to back.
func stormPart() stormResult {
	r := stormResult{Clients: stormClients, Actions: stormActions, Ran: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Load: loadAverage()}
	ds, err := buildDataSet(*flagMovements, stormClients+40, *flagHolders, true, *flagBigBudget)
	check(err)
	r.Summary = ds.summary
	srv := serve(ds)
	defer srv.stop()
	app := ds.app
	// stock for every pickup of the storm (the data set's ready batteries may be few)
	st, err := inventory.Stats(app)
	check(err)
	_, err = system.Override(app, inventory.Op{}, st.Ready+10*stormClients, st.Waiting, st.Charging, st.Total+10*stormClients)
	check(err)
	r.ReadyBefore = st.Ready + 10*stormClients

	drivers := ds.drivers
	if len(drivers) < stormClients+1 {
		log.Fatalf("storm: %d drivers, need %d", len(drivers), stormClients+1)
	}
	cookies := make([]string, stormClients+1)
	for i := range cookies {
		cookies[i] = "swapbay_session=" + srv.token(drivers[i])
	}
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConns: 2 * stormClients, MaxIdleConnsPerHost: 2 * stormClients, DisableCompression: true}}
	shiftStart := time.Now().Add(-3 * time.Hour) // the queue was filled while the tower was down
	keys := map[[2]int]string{}                  // the app's UUIDv7 keys, minted at the tap
	var keysMu sync.Mutex
	action := func(c, i int) (*http.Request, error) {
		a := stormShift[i%len(stormShift)]
		at := shiftStart.Add(time.Duration(i%stormActions)*6*time.Minute + time.Duration(c)*time.Second)
		keysMu.Lock()
		key, ok := keys[[2]int{c, i}]
		if !ok {
			key = v7(at)
			keys[[2]int{c, i}] = key
		}
		keysMu.Unlock()
		body := fmt.Sprintf(`{%s,"notes":"storm-%d-%d","occurredAt":%q}`, a.body, c, i, at.UTC().Format(time.RFC3339Nano))
		req, err := http.NewRequest(http.MethodPost, srv.base+a.path, strings.NewReader(body))
		if err == nil {
			req.Header.Set("Cookie", cookies[c])
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(idempotency.Header, key)
		}
		return req, err
	}

	var (
		mu        sync.Mutex
		latencies []time.Duration
		wg        sync.WaitGroup
	)
	start := make(chan struct{})
	send := func(c, i int) {
		req, err := action(c, i)
		check(err)
		t0 := time.Now()
		res, err := client.Do(req)
		elapsed := time.Since(t0)
		mu.Lock()
		defer mu.Unlock()
		r.Sent++
		latencies = append(latencies, elapsed)
		problem := ""
		switch {
		case err != nil:
			r.NetErrors++
			problem = err.Error()
		default:
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			switch {
			case res.StatusCode >= 500:
				r.ServerErrors++
				problem = fmt.Sprintf("%d %s", res.StatusCode, raw)
			case res.StatusCode >= 300:
				r.Refused++
				problem = fmt.Sprintf("%d %s", res.StatusCode, raw)
			default:
				r.OK++
				if res.Header.Get(idempotency.ReplayedHeader) == "true" {
					r.Replayed++
				}
			}
		}
		if problem != "" && r.FirstProblem == "" {
			r.FirstProblem = problem
		}
	}
	for c := 0; c < stormClients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			<-start
			for i := 0; i < stormActions; i++ {
				send(c, i) // the outbox sends in order, one at a time
			}
			send(c, stormActions-1) // the last answer was lost: the app sends it again
		}(c)
	}
	log.Printf("storm: %d clients × %d actions...", stormClients, stormActions)
	stop := profile(*flagCPUProfile) // with -cpuprofile: the server and clients during the storm
	t0 := time.Now()
	close(start)
	wg.Wait()
	r.Drain = time.Since(t0)
	stop()
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	r.P50, r.P99, r.Max = latencies[len(latencies)/2], latencies[len(latencies)*99/100], latencies[len(latencies)-1]

	check(app.DB().NewQuery("SELECT COUNT(*), COUNT(DISTINCT notes) FROM movements WHERE notes LIKE '%storm-%'").Row(&r.Movements, &r.Distinct))
	st, err = inventory.Stats(app)
	check(err)
	r.ReadyAfter = st.Ready

	// one client, the same actions back to back (the single-client throughput beside it)
	one := stormClients
	r.Single = srv.run("one client, keyed driver actions", 1, *flagDuration, func(_, n int) (*http.Request, error) {
		return action(one, n)
	})
	return r
}

func (r stormResult) markdown() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	total := r.Clients * r.Actions
	w("\n## Reconnect storm (`-only storm`, issue 32 #5)\n")
	w("%d phones each send %d queued keyed driver actions (pickup, rebalance, dropoff, recovers, dead dropoff, in order; `occurredAt` 3 hours back down to the present), all started together, each resending its last action once as if its answer was lost, against %s. Ran %s, load average %s (1/5/15 min) at its start.\n",
		r.Clients, r.Actions, r.Summary, r.Ran, r.Load)
	w("| measure | figure | aim |")
	w("|---|---|---|")
	w("| all drained | %s | ≤ 10 s: %s |", r.Drain.Round(10*time.Millisecond), verdict(r.Drain <= 10*time.Second))
	w("| per request | p50 %s, p99 %s, max %s | p99 ≤ 2 s: %s |", ms(r.P50), ms(r.P99), ms(r.Max), verdict(r.P99 <= 2*time.Second))
	w("| requests | %d sent: %d answered 2xx (%d of them replays), %d refused (4xx), %d 5xx, %d network errors | 0 5xx: %s |", r.Sent, r.OK, r.Replayed, r.Refused, r.ServerErrors, r.NetErrors, verdict(r.ServerErrors == 0 && r.NetErrors == 0))
	w("| movements recorded (from the database) | %d, %d distinct actions, of %d queued and %d accepted; %d resends all replays: %v | 0 duplicates: %s |", r.Movements, r.Distinct, total, r.OK-r.Replayed, r.Clients, r.Replayed == r.Clients,
		verdict(r.Movements == r.Distinct && r.Movements == r.OK-r.Replayed && r.Replayed == r.Clients))
	w("| throughput during the storm | %.0f actions/s | |", float64(r.Sent)/r.Drain.Seconds())
	w("| one client, same actions back to back | %s | |", r.Single)
	if r.FirstProblem != "" {
		w("\nFirst problem answer: `%s`", truncate(r.FirstProblem, 200))
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
