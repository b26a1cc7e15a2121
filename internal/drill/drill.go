// Package drill is the disaster drill of DESIGN.md §13 (issue 29): a real `swapbay serve`
// child process replicating to an in-process S3 server (gofakes3) or a directory takes keyed
// writes from 8 clients; it is killed with SIGKILL, its data dir deleted, and `swapbay restore
// --from=<replica>` rebuilds a new dir from the replica alone. The result says which
// acknowledged writes came back (exactly once, or lost), how old the oldest lost one was when
// the server died (the recovery point of that drill), the integrity check and the ledger's
// corrections. The test (drill_test.go) and internal/bench (-only replication) run it.
package drill

import (
	"bytes"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	_ "modernc.org/sqlite"

	"swapbay/internal/testbin"
)

const password = "drill-test-secret"

// Clients is how many clients write at once.
const Clients = 8

// Build returns the swapbay binary to run: $SWAPBAY_BIN (the one `make` built) when set, else
// one built into dir (testbin.Path).
func Build(dir string) (string, error) { return testbin.Path(dir) }

// S3 is an in-process S3 server with one bucket.
type S3 struct {
	srv    *httptest.Server
	Bucket string
}

// NewS3 starts an S3 server on a loopback port with the bucket "swapbay".
func NewS3() (*S3, error) {
	backend := s3mem.New()
	if err := backend.CreateBucket("swapbay"); err != nil {
		return nil, err
	}
	faker := gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog()))
	return &S3{srv: httptest.NewServer(faker.Server()), Bucket: "swapbay"}, nil
}

// URL is a replica URL under prefix in the bucket.
func (s *S3) URL(prefix string) string {
	return fmt.Sprintf("s3://%s/%s?endpoint=%s&region=us-east-1&forcePathStyle=true", s.Bucket, prefix, s.srv.URL)
}

// Close stops the server.
func (s *S3) Close() { s.srv.Close() }

// Env is the environment a child process needs for the S3 server (fake credentials).
var Env = []string{"SWAPBAY_REPLICA_ACCESS_KEY_ID=drill", "SWAPBAY_REPLICA_SECRET_ACCESS_KEY=drill-secret"}

// childEnv is this process's environment for a swapbay child, with Env, and without
// AWS_CA_BUNDLE: Litestream v0.5.18's S3 client sets its own HTTP client, and the AWS SDK then
// refuses a CA bundle ("unable to add custom RootCAs HTTPClient, has no WithTransportOptions").
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_CA_BUNDLE=") {
			env = append(env, kv)
		}
	}
	return append(env, Env...)
}

// Options of one drill.
type Options struct {
	Bin      string        // the swapbay binary
	Replica  string        // the replica URL (s3://… or file://…)
	Work     string        // a scratch dir: the data dir and the restored dir go under it
	Duration time.Duration // how long the clients write before the kill, at least
	MinAcked int           // and how many writes must be acknowledged first (a slow machine writes longer)
	Logf     func(format string, args ...any)
}

// Write is one acknowledged keyed write.
type Write struct {
	Key   string
	Acked time.Time
}

// Result is what one drill found.
type Result struct {
	Acked        int           // writes answered 2xx
	Restored     int           // acked writes found in the restored ledger
	Lost         []Write       // acked writes missing from it
	Duplicates   []string      // keys found more than once
	Unacked      int           // keys found whose answer never arrived (the kill cut it)
	OldestLost   time.Duration // age at the kill of the oldest lost write (0: none lost)
	Integrity    string        // "ok"
	Corrections  int           // the ledger's recalculation after the restore
	RestoreTook  time.Duration // wall time of `swapbay restore`
	RestoreOut   string
	WritesPerS   float64
	Refused      int    // writes answered 4xx/5xx before the kill
	FirstRefusal string // the first such answer: status and body
}

// Holds reports whether every write acknowledged more than n before the kill came back.
func (r Result) Holds(n time.Duration) bool { return r.OldestLost <= n }

var keyIn = regexp.MustCompile(`drill-\d+-\d+`)

// Run runs one drill.
func Run(o Options) (Result, error) {
	var res Result
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	dir := filepath.Join(o.Work, "pb_data")
	env := childEnv()
	// one driver, signed in once per client (a process start per user would cost seconds)
	cmd := exec.Command(o.Bin, "user", "create", "--dir="+dir, "--email=d@drill.test", "--password="+password,
		"--role=driver", "--first=Drill", "--last=Test")
	if b, err := cmd.CombinedOutput(); err != nil {
		return res, fmt.Errorf("user create: %v %s", err, b)
	}
	addr, err := freePort()
	if err != nil {
		return res, err
	}
	var logBuf bytes.Buffer
	srv := exec.Command(o.Bin, "serve", "--http="+addr, "--dir="+dir, "--replicate="+o.Replica)
	srv.Env = env
	srv.Stdout, srv.Stderr = &logBuf, &logBuf
	if err := srv.Start(); err != nil {
		return res, err
	}
	exited := make(chan struct{})
	go func() { _ = srv.Wait(); close(exited) }()
	defer func() {
		_ = srv.Process.Kill()
		<-exited
	}()
	base := "http://" + addr
	if err := waitHealthy(base, exited); err != nil {
		return res, fmt.Errorf("%v\n%s", err, logBuf.String())
	}
	cookies := make([]string, Clients)
	for c := range cookies {
		if cookies[c], err = login(base, "d@drill.test"); err != nil {
			return res, err
		}
	}

	// 8 clients write keyed pickups and dropoffs until the kill
	client := &http.Client{Timeout: 10 * time.Second}
	var mu sync.Mutex
	var acked []Write
	sent := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := 0; c < Clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("drill-%d-%d", c, i)
				path, body := "/api/driver/pickup", fmt.Sprintf(`{"quantity":1,"notes":%q}`, key)
				if i%2 == 1 {
					path, body = "/api/driver/dropoff-batteries", fmt.Sprintf(`{"goodBatteries":1,"deadBatteries":0,"notes":%q}`, key)
				}
				req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Cookie", cookies[c])
				req.Header.Set("Idempotency-Key", key)
				mu.Lock()
				sent++
				mu.Unlock()
				resp, err := client.Do(req)
				if err != nil {
					return // the server is gone
				}
				answer, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				now := time.Now()
				mu.Lock()
				if resp.StatusCode >= 200 && resp.StatusCode < 300 {
					acked = append(acked, Write{Key: key, Acked: now})
				} else {
					if res.Refused == 0 {
						res.FirstRefusal = fmt.Sprintf("%d %s", resp.StatusCode, answer)
					}
					res.Refused++
				}
				mu.Unlock()
			}
		}(c)
	}
	start := time.Now()
	time.Sleep(o.Duration)
	for waited := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= o.MinAcked {
			break
		}
		if time.Since(waited) > 5*time.Minute {
			return res, fmt.Errorf("only %d writes acknowledged in %s", n, time.Since(start).Round(time.Second))
		}
	}
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		return res, err
	}
	killAt := time.Now()
	<-exited
	close(stop)
	wg.Wait()
	res.Acked = len(acked)
	res.WritesPerS = float64(len(acked)) / killAt.Sub(start).Seconds()
	logf("%d writes acknowledged in %s (%.0f/s), %d refused (first: %s), SIGKILL", res.Acked, killAt.Sub(start).Round(time.Millisecond), res.WritesPerS, res.Refused, res.FirstRefusal)

	// the disk is lost
	if err := os.RemoveAll(dir); err != nil {
		return res, err
	}
	restored := filepath.Join(o.Work, "restored")
	t0 := time.Now()
	cmd = exec.Command(o.Bin, "restore", "--from="+o.Replica, "--dir="+restored)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	res.RestoreTook = time.Since(t0)
	res.RestoreOut = string(out)
	if err != nil {
		return res, fmt.Errorf("restore: %v\n%s", err, out)
	}
	logf("restore took %s:\n%s", res.RestoreTook.Round(time.Millisecond), out)

	db, err := sql.Open("sqlite", "file:"+filepath.Join(restored, "data.db")+"?mode=ro")
	if err != nil {
		return res, err
	}
	defer db.Close()
	found := map[string]int{}
	rows, err := db.Query(`SELECT notes FROM movements WHERE notes LIKE '%drill-%'`)
	if err != nil {
		return res, err
	}
	for rows.Next() {
		var notes string
		if err := rows.Scan(&notes); err != nil {
			rows.Close()
			return res, err
		}
		found[keyIn.FindString(notes)]++
	}
	rows.Close()
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res.Integrity); err != nil {
		return res, err
	}
	ackedKeys := map[string]bool{}
	for _, w := range acked {
		ackedKeys[w.Key] = true
		switch found[w.Key] {
		case 0:
			res.Lost = append(res.Lost, w)
			if age := killAt.Sub(w.Acked); age > res.OldestLost {
				res.OldestLost = age
			}
		default:
			res.Restored++
		}
	}
	for k, n := range found {
		if n > 1 {
			res.Duplicates = append(res.Duplicates, k)
		}
		if !ackedKeys[k] {
			res.Unacked++
		}
	}
	res.Corrections = corrections(res.RestoreOut)
	return res, nil
}

var correctionsLine = regexp.MustCompile(`ledger recalculation: (\d+) corrections`)

func corrections(out string) int {
	m := correctionsLine.FindStringSubmatch(out)
	if m == nil {
		return -1
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitHealthy waits until the server answers /api/health, or its process ends.
func waitHealthy(base string, exited <-chan struct{}) error {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("the server exited before answering")
		default:
		}
		if res, err := http.Get(base + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the server did not answer /api/health in 2 minutes")
}

func login(base, email string) (string, error) {
	res, err := http.Post(base+"/api/login", "application/json",
		strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)))
	if err != nil {
		return "", err
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Value != "" {
			return c.Name + "=" + c.Value, nil
		}
	}
	return "", fmt.Errorf("login %s: %d", email, res.StatusCode)
}
