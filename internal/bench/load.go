package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"swapbay/lib/clock"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
	"swapbay/modules/activity"
	"swapbay/modules/auth"
)

// server is a data set served by the real app on a loopback port.
type server struct {
	runId  int64 // makes Idempotency-Keys unique across runs on one data set
	ds     *dataSet
	base   string
	client *http.Client
	done   chan error
	rate   float64 // requests per second of all clients together; 0 sends back to back
}

// paced returns s driving its loads at rate requests per second in all (open loop): each
// client sends on a fixed schedule, and a request's latency runs from the time it was due,
// so a server that falls behind is charged for the wait (no coordinated omission).
func (s *server) paced(rate float64) *server {
	p := *s
	p.rate = rate
	return &p
}

func startServer(ds *dataSet) (*server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	s := &server{runId: time.Now().UnixNano(), ds: ds, base: "http://" + addr, done: make(chan error, 1),
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConns: 512, MaxIdleConnsPerHost: 512, DisableCompression: true}}}
	go func() { s.done <- apis.Serve(ds.app, apis.ServeConfig{HttpAddr: addr}) }()
	for i := 0; i < 100; i++ {
		res, err := s.client.Get(s.base + "/api/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s, nil
			}
		}
		select {
		case err := <-s.done:
			return nil, fmt.Errorf("serve: %w", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil, errors.New("server did not start")
}

// stop terminates the app (graceful HTTP shutdown, jobs, hub) and removes the data dir.
func (s *server) stop() {
	_ = s.ds.app.OnTerminate().Trigger(&core.TerminateEvent{App: s.ds.app}, func(e *core.TerminateEvent) error {
		return e.App.ResetBootstrapState()
	})
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
	os.RemoveAll(s.ds.dir)
}

// token signs rec in: a superuser gets PocketBase's own token, an app user a session as
// /api/login makes (auth.NewSession), so the measured requests pass the session check.
func (s *server) token(rec *core.Record) string {
	if rec.Collection().Name != schema.Users {
		t, err := rec.NewAuthToken()
		check(err)
		return t
	}
	t, err := auth.NewSession(s.ds.app, rec, "127.0.0.1", "bench")
	check(err)
	return t
}

// result is one load measurement.
type result struct {
	Name       string
	Clients    int
	Requests   int
	Errors     int
	Duration   time.Duration
	RPS        float64
	P50, P99   time.Duration
	FirstError string
}

func (r result) String() string {
	return fmt.Sprintf("%.0f req/s, p50 %s, p99 %s (%d requests, %d errors)", r.RPS, ms(r.P50), ms(r.P99), r.Requests, r.Errors)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

// request is what one worker sends next; n counts the worker's requests so far.
type request func(worker, n int) (*http.Request, error)

// run drives clients workers for d, each sending requests back to back, or on s.rate's
// schedule when it is set.
func (s *server) run(name string, clients int, d time.Duration, next request) result {
	var (
		mu        sync.Mutex
		latencies []time.Duration
		errCount  int
		firstErr  string
		wg        sync.WaitGroup
	)
	// warm up connections and caches briefly
	start := time.Now()
	deadline := start.Add(d + time.Second)
	measureFrom := start.Add(time.Second)
	var every time.Duration // one client's interval between requests on s.rate's schedule
	if s.rate > 0 {
		every = time.Duration(float64(clients) / s.rate * float64(time.Second))
	}
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var local []time.Duration
			errs, first := 0, ""
			for n := 0; time.Now().Before(deadline); n++ {
				req, err := next(w, n)
				if err != nil {
					panic(err)
				}
				t0 := time.Now()
				if every > 0 { // the clients' schedules are spread evenly over one interval
					t0 = start.Add(every*time.Duration(n) + every*time.Duration(w)/time.Duration(clients))
					if !t0.Before(deadline) {
						break
					}
					time.Sleep(time.Until(t0))
				}
				res, err := s.client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode >= 300 {
						err = fmt.Errorf("%s %s: status %d", req.Method, req.URL.Path, res.StatusCode)
					}
				}
				elapsed := time.Since(t0)
				if t0.Before(measureFrom) {
					continue
				}
				local = append(local, elapsed)
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
				}
			}
			mu.Lock()
			latencies = append(latencies, local...)
			errCount += errs
			if firstErr == "" {
				firstErr = first
			}
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	r := result{Name: name, Clients: clients, Requests: len(latencies), Errors: errCount, Duration: d, FirstError: firstErr}
	if len(latencies) > 0 {
		r.RPS = float64(len(latencies)) / d.Seconds()
		r.P50 = latencies[len(latencies)/2]
		r.P99 = latencies[len(latencies)*99/100]
	}
	return r
}

// loadState: GET /api/state as a mix of callers — 3 in 4 clients drivers, the rest admins
// and liaisons — each with their own session cookie.
func (s *server) loadState(clients int, d time.Duration) result {
	cookies := make([]string, clients)
	for w := range cookies {
		var rec *core.Record
		switch {
		case w%8 == 7:
			rec = s.ds.liaisons[w%len(s.ds.liaisons)]
		case w%4 == 3:
			rec = s.ds.admins[w%len(s.ds.admins)]
		default:
			rec = s.ds.drivers[w%len(s.ds.drivers)]
		}
		cookies[w] = "swapbay_session=" + s.token(rec)
	}
	return s.run("GET /api/state", clients, d, func(w, n int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, s.base+"/api/state", nil)
		if err == nil {
			req.Header.Set("Cookie", cookies[w])
		}
		return req, err
	})
}

// loadStateUncached is loadState with the per-caller state cache off, every request running
// the queries.
func (s *server) loadStateUncached(clients int, d time.Duration) result {
	activity.DisableStateCache.Store(true)
	defer activity.DisableStateCache.Store(false)
	r := s.loadState(clients, d)
	r.Name = "GET /api/state, cache off"
	return r
}

// loadEarnings: admins reading GET /api/admin/all-earnings for the last full week (every
// approved earner's row from that week's movements, the pool, the rates).
func (s *server) loadEarnings(clients int, d time.Duration) result {
	cookies := make([]string, clients)
	for w := range cookies {
		cookies[w] = "swapbay_session=" + s.token(s.ds.admins[w%len(s.ds.admins)])
	}
	lastWeek := clock.WeekStart(time.Now(), time.UTC, -1).Format(time.DateOnly)
	return s.run("GET /api/admin/all-earnings (last week)", clients, d, func(w, n int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, s.base+"/api/admin/all-earnings?weekStart="+lastWeek, nil)
		if err == nil {
			req.Header.Set("Cookie", cookies[w])
		}
		return req, err
	})
}

// loadWrites: each client is a different driver alternating a pickup of 1 and a dropoff of 1,
// each request with its own Idempotency-Key, as the UI sends them.
func (s *server) loadWrites(clients int, d time.Duration) result {
	cookies := make([]string, clients)
	for w := range cookies {
		cookies[w] = "swapbay_session=" + s.token(s.ds.drivers[len(s.ds.drivers)-1-w])
	}
	pickup := []byte(`{"quantity":1,"notes":"Y"}`)
	dropoff := []byte(`{"goodBatteries":1,"deadBatteries":0,"notes":"Quiet shift, no issues."}`)
	return s.run("ledger pickup/dropoff", clients, d, func(w, n int) (*http.Request, error) {
		path, body := "/api/driver/pickup", pickup
		if n%2 == 1 {
			path, body = "/api/driver/dropoff-batteries", dropoff
		}
		req, err := http.NewRequest(http.MethodPost, s.base+path, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Cookie", cookies[w])
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", fmt.Sprintf("bench-%d-%d-%d", s.runId, w, n))
		}
		return req, err
	})
}

// steady measures the latency of the state read (cached and not), the ledger writes and the
// native reference routes at a steady -paced-rate from 64 clients: the latency a user sees
// while the server has headroom, where the back-to-back loads measure it at saturation.
func (s *server) steady() []result {
	p := s.paced(*flagPacedRate)
	d := *flagDuration
	return []result{p.loadState(64, d), p.loadStateUncached(64, d), p.loadNativeRead(64, d), p.loadWrites(64, d), p.loadNativeCreate(64, d)}
}

// loadNativeRead: PocketBase's GET /api/collections/bench_items/records/{id} as a superuser.
func (s *server) loadNativeRead(clients int, d time.Duration) result {
	auth := s.token(s.ds.superuser)
	url := s.base + "/api/collections/bench_items/records/" + s.ds.nativeItem
	return s.run("native record read", clients, d, func(w, n int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err == nil {
			req.Header.Set("Authorization", auth)
		}
		return req, err
	})
}

// loadNativeCreate: PocketBase's POST /api/collections/bench_items/records as a superuser.
func (s *server) loadNativeCreate(clients int, d time.Duration) result {
	auth := s.token(s.ds.superuser)
	url := s.base + "/api/collections/bench_items/records"
	return s.run("native record create", clients, d, func(w, n int) (*http.Request, error) {
		body := fmt.Sprintf(`{"name":"item %d-%d","qty":%d}`, w, n, n)
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
		if err == nil {
			req.Header.Set("Authorization", auth)
			req.Header.Set("Content-Type", "application/json")
		}
		return req, err
	})
}
