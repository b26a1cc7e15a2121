package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"swapbay/lib/sqlitedb"
	"swapbay/modules/replication"
)

var (
	flagOutage        = flag.Duration("catchup-outage", 2*time.Minute, "catchup: how long the S3 replica is down while writes go on (0: not measured)")
	flagOwnRetriesOff = flag.Bool("catchup-litestream-only", false, "catchup: without the Replicator's own retries (RetryMax of a day): Litestream's back-off alone, as before issue 33")
	flagCatchUpDir    = flag.Bool("catchup-dir", false, "catchup: a directory replica made unreachable (a plain file put in its place) instead of an S3 stand-in stopped")
)

// catchUp is `-only catchup` (and a row of the full report's replication section): a data.db
// replicated to a local S3 stand-in (or, with -catchup-dir, a directory) takes a write every
// 100 ms; the stand-in stops for *flagOutage and starts again on the same port (the directory
// is replaced by a plain file, then put back); the figure is the time from its return until
// the replica has every transaction committed before it (issue 33: 57 s after a 120 s outage,
// when only Litestream's back-off, which doubles up to 5 minutes, retried; aim ≤ 10 s).
type catchUp struct {
	Kind       string // what the outage was
	Outage     time.Duration
	Took       time.Duration // back up → the replica has every transaction committed before
	LagShown   float64       // the System page's lag just before the stand-in came back
	LagBack    time.Duration // back up → the lag shown is under lagSettled again
	Warning    string        // and its warning (the failure in plain words)
	Writes     int
	RetryMax   time.Duration
	LoadBefore string
}

// lagSettled is the lag shown under which the replication counts as steady again (steady
// replication shows up to about 2 s: WAL → LTX every second, upload every second).
const lagSettled = 3.0

func (c *catchUp) row() string {
	return fmt.Sprintf("| replica catch-up after a %s outage | %s | ≤ 10 s | %s, a write every 100 ms throughout (%d); lag shown before it came back %.0f s, under %.0f s again %s after; retries every ≤ %s; warning shown: %q |\n",
		c.Outage, c.Took.Round(100*time.Millisecond), c.Kind, c.Writes, c.LagShown, lagSettled, c.LagBack.Round(100*time.Millisecond), c.RetryMax, c.Warning)
}

// s3StandIn is an in-process S3 server that can stop and start again on the same port, its
// objects kept.
type s3StandIn struct {
	handler http.Handler
	addr    string
	srv     *http.Server
}

func newS3StandIn() (*s3StandIn, error) {
	backend := s3mem.New()
	if err := backend.CreateBucket("swapbay"); err != nil {
		return nil, err
	}
	s := &s3StandIn{handler: gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server(), addr: "127.0.0.1:0"}
	return s, s.start()
}

func (s *s3StandIn) start() error {
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	s.addr = l.Addr().String()
	s.srv = &http.Server{Handler: s.handler}
	go s.srv.Serve(l)
	return nil
}

func (s *s3StandIn) stop() { _ = s.srv.Close() }

// measureCatchUp runs the outage once.
func measureCatchUp() (*catchUp, error) {
	os.Unsetenv("AWS_CA_BUNDLE") // Litestream's S3 client cannot take one
	c := &catchUp{Outage: *flagOutage, LoadBefore: loadAverage()}
	dir, err := os.MkdirTemp("", "swapbay-bench-catchup-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	app, err := sqlitedb.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer app.ResetBootstrapState()
	if _, err := app.DB().NewQuery("CREATE TABLE bench_catchup (id INTEGER PRIMARY KEY, at TEXT)").Execute(); err != nil {
		return nil, err
	}
	var cfg replication.Config
	var down, up func() error
	if *flagCatchUpDir {
		c.Kind = "a directory replica made unreachable (a plain file put in its place) and put back"
		replica := filepath.Join(dir, "replica")
		cfg = replication.Config{URL: "file://" + replica}
		down = func() error {
			if err := os.Rename(replica, replica+".away"); err != nil {
				return err
			}
			return os.WriteFile(replica, nil, 0o644)
		}
		up = func() error {
			if err := os.Remove(replica); err != nil {
				return err
			}
			return os.Rename(replica+".away", replica)
		}
	} else {
		c.Kind = "an S3 stand-in stopped and started on the same port"
		s3, err := newS3StandIn()
		if err != nil {
			return nil, err
		}
		defer s3.stop()
		cfg = replication.Config{URL: "s3://swapbay/db?endpoint=http://" + s3.addr + "&region=us-east-1&forcePathStyle=true",
			AccessKeyID: "bench", SecretAccessKey: "bench-secret"}
		down = func() error { s3.stop(); return nil }
		up = s3.start
	}
	opt := replication.DefaultOptions()
	if *flagOwnRetriesOff {
		opt.RetryMax = 24 * time.Hour
	}
	c.RetryMax = opt.RetryMax
	r, err := replication.Start(context.Background(), filepath.Join(dir, "data.db"), cfg, *opt, catchupLogger())
	if err != nil {
		return nil, err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = r.Close(ctx)
	}()
	stopWrites := make(chan struct{})
	wrote := make(chan int)
	go func() {
		n := 0
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopWrites:
				wrote <- n
				return
			case now := <-t.C:
				if _, err := app.DB().NewQuery("INSERT INTO bench_catchup (at) VALUES ({:at})").Bind(map[string]any{"at": now.String()}).Execute(); err == nil {
					n++
				}
			}
		}
	}()
	if err := r.Sync(context.Background()); err != nil {
		return nil, err
	}
	time.Sleep(3 * time.Second) // replicating normally
	log.Printf("catchup: the replica is unreachable for %s", c.Outage)
	if err := down(); err != nil {
		return nil, err
	}
	time.Sleep(c.Outage)
	st := r.Status(time.Now())
	c.LagShown, c.Warning = st.LagSeconds, st.Warning
	want := st.LocalTXID
	if err := up(); err != nil {
		return nil, err
	}
	back := time.Now()
	log.Printf("catchup: back after %s (lag shown %.0f s, %q); waiting for transaction %d", c.Outage, c.LagShown, c.Warning, want)
	for r.Status(time.Now()).ReplicaTXID < want {
		if time.Since(back) > 10*time.Minute {
			return nil, fmt.Errorf("the replica did not catch up within 10 minutes")
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.Took = time.Since(back)
	// the lag the System page shows, back to what steady replication shows (the writes go on)
	for r.Status(time.Now()).LagSeconds >= lagSettled {
		if time.Since(back) > 10*time.Minute {
			return nil, fmt.Errorf("the lag shown did not settle within 10 minutes")
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.LagBack = time.Since(back)
	close(stopWrites)
	c.Writes = <-wrote
	log.Printf("catchup: caught up in %s", c.Took.Round(100*time.Millisecond))
	return c, nil
}

// catchupLogger is where Litestream's records go during -only catchup: nowhere, unless
// CATCHUP_LOG is set (then stderr, at Info).
func catchupLogger() *slog.Logger {
	if os.Getenv("CATCHUP_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.DiscardHandler)
}
