package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"swapbay/lib/events"
)

// The /ws fan-out measurement: flagWSClients sockets, opened by a child process (this binary
// run with -ws-child, so the server's RSS is this process's alone), all signed in as one
// driver; the server publishes flagWSRounds broadcasts carrying their send time, and the
// child reports the delivery latency of every copy.
var (
	flagWSClients = flag.Int("ws-clients", 10_000, "sockets for the /ws fan-out measurement (0 skips it)")
	flagWSRounds  = flag.Int("ws-rounds", 5, "broadcasts in the /ws fan-out measurement")
	flagWSChild   = flag.Bool("ws-child", false, "internal: run as the /ws client process")
	flagWSURL     = flag.String("ws-url", "", "internal: /ws URL for -ws-child")
	flagWSCookie  = flag.String("ws-cookie", "", "internal: Cookie header for -ws-child")
	flagWSUser    = flag.String("ws-user", "", "internal: user id for -ws-child")
	flagWSJSON    = flag.Bool("ws-json", false, "with -only ws: print the result as one JSON line")
	flagWSProfile = flag.String("ws-cpuprofile", "", "write the server's CPU profile during the broadcasts to this file")
)

// wsResult is the fan-out figure of the report.
type wsResult struct {
	Clients    int
	Connected  int
	Rounds     int
	Delivered  int
	P50, P99   time.Duration
	Max        time.Duration
	RSSBaseMB  float64 // server RSS before the sockets (after a GC returned free memory)
	RSSIdleMB  float64 // server RSS with every socket connected
	RSSPeakMB  float64 // server RSS right after the broadcasts
	ConnectFor time.Duration
	Note       string
}

func (r wsResult) String() string {
	return fmt.Sprintf("%d/%d sockets, %d of %d copies delivered, p50 %s, p99 %s, max %s, server RSS %.0f MB before, %.0f MB idle, %.0f MB after broadcasts",
		r.Connected, r.Clients, r.Delivered, r.Connected*r.Rounds, r.P50, r.P99, r.Max, r.RSSBaseMB, r.RSSIdleMB, r.RSSPeakMB)
}

// loadWSFanout runs the measurement against s, signed in as the data set's first driver.
func (s *server) loadWSFanout(n, rounds int) wsResult {
	res := wsResult{Clients: n, Rounds: rounds}
	driver := s.ds.drivers[0]
	cookie, err := s.login(driver.Email(), benchPassword)
	if err != nil {
		res.Note = "login failed: " + err.Error()
		return res
	}
	runtime.GC()
	debug.FreeOSMemory() // the data set's build garbage is not the server's working set
	res.RSSBaseMB = procStatusMB("VmRSS")
	self, err := os.Executable()
	check(err)
	cmd := exec.Command(self, "-ws-child", "-ws-url", strings.Replace(s.base, "http", "ws", 1)+"/ws",
		"-ws-cookie", cookie, "-ws-user", driver.Id, "-ws-clients", strconv.Itoa(n), "-ws-rounds", strconv.Itoa(rounds))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	lines := bufio.NewScanner(out)
	started := time.Now()
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "READY ") {
		res.Note = "client process failed: " + lines.Text()
		_ = cmd.Process.Kill()
		return res
	}
	res.ConnectFor = time.Since(started)
	res.Connected, _ = strconv.Atoi(strings.TrimPrefix(lines.Text(), "READY "))
	time.Sleep(time.Second)
	res.RSSIdleMB = procStatusMB("VmRSS")
	bus := events.For(s.ds.app)
	if *flagWSProfile != "" {
		f, err := os.Create(*flagWSProfile)
		check(err)
		check(pprof.StartCPUProfile(f))
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	for i := 0; i < rounds; i++ {
		bus.Publish(events.Message{Type: "BENCH_PING", Data: map[string]int64{"t": time.Now().UnixNano()}})
		time.Sleep(700 * time.Millisecond)
	}
	res.RSSPeakMB = procStatusMB("VmRSS")
	if lines.Scan() {
		var child struct {
			Delivered     int
			P50, P99, Max time.Duration
		}
		if err := json.Unmarshal(lines.Bytes(), &child); err == nil {
			res.Delivered, res.P50, res.P99, res.Max = child.Delivered, child.P50, child.P99, child.Max
		}
	}
	_ = cmd.Wait()
	return res
}

// wsLoneServer runs the fan-out in a fresh bench process (-only ws, the small data set), so
// the server RSS it reports is a server's own, not what this process's earlier measurements
// left behind.
func wsLoneServer() wsResult {
	self, err := os.Executable()
	check(err)
	cmd := exec.Command(self, "-only", "ws", "-ws-json", "-small", strconv.Itoa(*flagSmall),
		"-ws-clients", strconv.Itoa(*flagWSClients), "-ws-rounds", strconv.Itoa(*flagWSRounds), "-ws-cpuprofile", *flagWSProfile)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	res := wsResult{Clients: *flagWSClients, Rounds: *flagWSRounds}
	if err != nil {
		res.Note = "the fan-out process failed: " + err.Error()
		return res
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		res.Note = "the fan-out process's answer was unreadable: " + err.Error()
	}
	return res
}

// login signs in through /api/login and returns the Cookie header value.
func (s *server) login(email, password string) (string, error) {
	res, err := s.client.Post(s.base+"/api/login", "application/json",
		strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)))
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %d", res.StatusCode)
	}
	var parts []string
	for _, c := range res.Cookies() {
		if c.Value != "" {
			parts = append(parts, c.Name+"="+c.Value)
		}
	}
	return strings.Join(parts, "; "), nil
}

// wsChild is the client process: it opens the sockets (200 dials at a time), prints
// "READY <connected>", collects every BENCH_PING's latency and prints one JSON line.
func wsChild() {
	n, rounds := *flagWSClients, *flagWSRounds
	header := http.Header{"Cookie": {*flagWSCookie}}
	dialer := websocket.Dialer{HandshakeTimeout: 30 * time.Second, ReadBufferSize: 512, WriteBufferSize: 256}
	var (
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, n*rounds)
		connected atomic.Int64
		wg        sync.WaitGroup
		gate      = make(chan struct{}, 200)
		ready     sync.WaitGroup
	)
	ready.Add(n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer wg.Done()
			conn, _, err := dialer.Dial(*flagWSURL, header)
			if err != nil {
				<-gate
				ready.Done()
				return
			}
			// The socket stays open until this process exits, after every broadcast: a client
			// closing as soon as it has its copies would make the server's closes compete with
			// the last broadcast's writes, and the measurement would time the goodbyes.
			auth, _ := json.Marshal(map[string]string{"type": "auth", "userId": *flagWSUser})
			if conn.WriteMessage(websocket.TextMessage, auth) != nil {
				<-gate
				ready.Done()
				return
			}
			_, _, err = conn.ReadMessage() // AUTH_OK
			<-gate
			if err != nil {
				ready.Done()
				return
			}
			connected.Add(1)
			ready.Done()
			got := 0
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Minute))
			for got < rounds {
				_, data, err := conn.ReadMessage()
				received := time.Now() // receipt is when the frame is read, before this client decodes it
				if err != nil {
					return
				}
				var msg struct {
					Type string
					Data struct{ T int64 }
				}
				if json.Unmarshal(data, &msg) != nil || msg.Type != "BENCH_PING" {
					continue
				}
				d := time.Duration(received.UnixNano() - msg.Data.T)
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
				got++
			}
		}()
	}
	ready.Wait()
	fmt.Printf("READY %d\n", connected.Load())
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Duration(rounds)*time.Second + 20*time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	pct := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(float64(len(latencies))*p))]
	}
	out, _ := json.Marshal(map[string]any{"Delivered": len(latencies), "P50": pct(0.50), "P99": pct(0.99), "Max": pct(1)})
	fmt.Println(string(out))
	os.Exit(0)
}

// wsSection is the report's /ws fan-out section (aim: 10,000 sockets, p99 ≤ 250 ms, server
// RSS ≤ 300 MB).
func wsSection(r wsResult) string {
	if r.Clients == 0 {
		return ""
	}
	note := ""
	if r.Note != "" {
		note = "\n\nNote: " + r.Note
	}
	return fmt.Sprintf(`
## /ws fan-out

%d sockets opened from a second process, all signed in; %d broadcasts published on the
server's event bus, each carrying its send time; latency = receipt − send, over every copy.
Aim: 10,000 sockets, p99 ≤ 250 ms, server RSS ≤ 300 MB. The server is a fresh process on the
small data set (`+"`go run ./internal/bench -only ws`"+`), so its RSS is a server's alone; the sockets
stay open until every broadcast is delivered, as a client's would.

| sockets connected | copies delivered | p50 | p99 | max | server RSS before | with sockets | after broadcasts | connect time |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| %d | %d / %d | %s | %s | %s | %.0f MB | %.0f MB | %.0f MB | %s |%s
`, r.Clients, r.Rounds, r.Connected, r.Delivered, r.Connected*r.Rounds, r.P50.Round(time.Millisecond),
		r.P99.Round(time.Millisecond), r.Max.Round(time.Millisecond), r.RSSBaseMB, r.RSSIdleMB, r.RSSPeakMB, r.ConnectFor.Round(time.Millisecond), note)
}
