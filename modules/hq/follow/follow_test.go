package follow_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"swapbay/modules/hq/follow"
	"swapbay/modules/replication"
)

// city is a city's database replicated by the city's own replication code (modules/replication)
// to a directory.
type city struct {
	t       *testing.T
	dir     string
	db      *sql.DB
	r       *replication.Replicator
	replica string
	s3      *replication.Config // an S3 replica instead of the directory
}

func newCity(t *testing.T) *city {
	t.Helper()
	return newCityAt(t, filepath.Join(t.TempDir(), "replica"))
}

// newCityAt is a city replicating to the directory replica.
func newCityAt(t *testing.T, replica string) *city {
	t.Helper()
	return newCityTo(t, &city{t: t, dir: t.TempDir(), replica: replica})
}

// newCityTo starts the city c.
func newCityTo(t *testing.T, c *city) *city {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(c.dir, "data.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	c.db = db
	if _, err := db.Exec("CREATE TABLE swaps (id INTEGER PRIMARY KEY, serial TEXT)"); err != nil {
		t.Fatal(err)
	}
	c.start()
	t.Cleanup(func() {
		c.stop()
		db.Close()
	})
	return c
}

func (c *city) cfg() replication.Config {
	if c.s3 != nil {
		return *c.s3
	}
	return replication.Config{URL: "file://" + c.replica}
}

func (c *city) start() {
	opt := *replication.DefaultOptions()
	opt.MonitorInterval, opt.SyncInterval = 50*time.Millisecond, 50*time.Millisecond
	r, err := replication.Start(context.Background(), filepath.Join(c.dir, "data.db"), c.cfg(), opt, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	c.r = r
}

func (c *city) stop() {
	if c.r != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = c.r.Close(ctx)
		c.r = nil
	}
}

// write adds n swaps and waits until the replica has them (when replicating).
func (c *city) write(n int) {
	c.t.Helper()
	for i := 0; i < n; i++ {
		if _, err := c.db.Exec("INSERT INTO swaps (serial) VALUES (?)", fmt.Sprintf("SWB-%06d", i)); err != nil {
			c.t.Fatal(err)
		}
	}
	if c.r != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.r.Sync(ctx); err != nil {
			c.t.Fatal(err)
		}
	}
}

func (c *city) count() int {
	var n int
	if err := c.db.QueryRow("SELECT count(*) FROM swaps").Scan(&n); err != nil {
		c.t.Fatal(err)
	}
	return n
}

func fastOptions() follow.Options {
	return follow.Options{Interval: 100 * time.Millisecond, CheckInterval: 100 * time.Millisecond, BehindAfter: time.Minute,
		StallAfter: time.Minute, RetryMin: 100 * time.Millisecond, RetryMax: time.Second}
}

// copyCount reads the copy read-only (-1: not there yet).
func copyCount(t *testing.T, path string) int {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return -1
	}
	db, err := follow.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM swaps").Scan(&n); err != nil {
		return -1
	}
	return n
}

// waitFor polls cond every 50 ms up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func run(t *testing.T, f *follow.Follower) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { f.Run(ctx); close(done) }()
	return func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the follower did not stop within 10 s of its context's end")
		}
	}
}

// A city writes; HQ's copy shows the write within a few seconds, read-only; the copy's state
// is following with no lag; a write through the read-only connection is refused.
func TestCopyFollowsTheCity(t *testing.T) {
	c := newCity(t)
	c.write(5)
	f := follow.New(filepath.Join(t.TempDir(), "copy"), c.cfg(), fastOptions(), nil)
	stop := run(t, f)
	defer stop()
	waitFor(t, 10*time.Second, "the copy has the first 5 swaps", func() bool { return copyCount(t, f.CopyPath()) == 5 })
	start := time.Now()
	c.write(7)
	waitFor(t, 5*time.Second, "the copy has the next 7 swaps", func() bool { return copyCount(t, f.CopyPath()) == 12 })
	t.Logf("a write reached HQ's copy in %s", time.Since(start).Round(time.Millisecond))
	waitFor(t, 5*time.Second, "following, no lag", func() bool {
		st := f.Status()
		return st.State == follow.StateFollowing && st.LagSeconds == 0 && st.CopyTXID == st.ReplicaTXID && st.LastAppliedAt != nil
	})
	db, err := follow.Open(f.CopyPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("INSERT INTO swaps (serial) VALUES ('HQ')"); err == nil {
		t.Fatal("a write through the copy's read-only connection was accepted")
	}
}

// HQ stopped and started again resumes from Litestream's position file (no full restore) and
// catches up with what the city wrote meanwhile.
func TestRestartResumes(t *testing.T) {
	c := newCity(t)
	c.write(3)
	dir := filepath.Join(t.TempDir(), "copy")
	f := follow.New(dir, c.cfg(), fastOptions(), nil)
	stop := run(t, f)
	waitFor(t, 10*time.Second, "first copy", func() bool { return copyCount(t, f.CopyPath()) == 3 })
	waitFor(t, 5*time.Second, "one restore", func() bool { return f.Status().Restores == 1 })
	stop()
	if st := f.Status(); st.State != follow.StateStopped {
		t.Fatalf("after stop: %s", st.State)
	}
	c.write(4)
	f2 := follow.New(dir, c.cfg(), fastOptions(), nil)
	stop2 := run(t, f2)
	defer stop2()
	waitFor(t, 10*time.Second, "caught up after the restart", func() bool { return copyCount(t, f2.CopyPath()) == 7 })
	waitFor(t, 5*time.Second, "following", func() bool { return f2.Status().State == follow.StateFollowing })
	if st := f2.Status(); st.Restores != 0 {
		t.Fatalf("restart did %d full restores, want 0 (resume from the position file)", st.Restores)
	}
}

// The replica deleted and started again (a new history whose positions are behind the copy's):
// HQ detects it, restores afresh, and the copy is the city's again.
func TestDeletedReplicaIsRestoredAfresh(t *testing.T) {
	c := newCity(t)
	for i := 0; i < 6; i++ { // six positions on the replica
		c.write(5)
	}
	f := follow.New(filepath.Join(t.TempDir(), "copy"), c.cfg(), fastOptions(), nil)
	stop := run(t, f)
	defer stop()
	waitFor(t, 10*time.Second, "first copy", func() bool { return copyCount(t, f.CopyPath()) == 30 })
	// the city's replica is lost and the city replicates to a new one at the same place, from a
	// fresh database (a city restored from an old backup): fewer positions than the copy has
	c.stop()
	if err := os.RemoveAll(c.replica); err != nil {
		t.Fatal(err)
	}
	c.db.Close()
	for _, s := range []string{"", "-wal", "-shm"} {
		os.Remove(filepath.Join(c.dir, "data.db"+s))
	}
	os.RemoveAll(filepath.Join(c.dir, ".data.db-litestream"))
	db, err := sql.Open("sqlite", "file:"+filepath.Join(c.dir, "data.db")+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	c.db = db
	if _, err := db.Exec("CREATE TABLE swaps (id INTEGER PRIMARY KEY, serial TEXT)"); err != nil {
		t.Fatal(err)
	}
	c.start()
	c.write(2)
	waitFor(t, 15*time.Second, "restored afresh with the new history's 2 swaps", func() bool { return copyCount(t, f.CopyPath()) == 2 })
	waitFor(t, 5*time.Second, "following again after a second full restore", func() bool {
		st := f.Status()
		return st.State == follow.StateFollowing && st.Restores == 2
	})
}

// A gap in the replica that follow cannot bridge (level-0 files missing, nothing compacted over
// them: Litestream #1515): follow stalls; after StallAfter HQ restores afresh from a snapshot
// and the copy has everything again.
func TestGapIsRestoredAfresh(t *testing.T) {
	c := newCity(t)
	c.write(3)
	dir := filepath.Join(t.TempDir(), "copy")
	opt := fastOptions()
	opt.BehindAfter, opt.StallAfter = 300*time.Millisecond, 1500*time.Millisecond
	f := follow.New(dir, c.cfg(), opt, nil)
	stop := run(t, f)
	waitFor(t, 10*time.Second, "first copy", func() bool { return copyCount(t, f.CopyPath()) == 3 })
	stop()
	// the city writes one transaction at a time; the replica then loses the middle ones
	for i := 0; i < 4; i++ {
		c.write(1)
	}
	l0 := filepath.Join(c.replica, "ltx", "0")
	files, err := filepath.Glob(filepath.Join(l0, "*.ltx"))
	if err != nil || len(files) < 4 {
		t.Fatalf("level 0: %v %v", files, err)
	}
	// drop the two before the newest
	for _, p := range files[len(files)-3 : len(files)-1] {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	// a snapshot of the city as it is now, for the full restore to start from
	snapshot(t, c)
	c.write(1)
	f2 := follow.New(dir, c.cfg(), opt, nil)
	stop2 := run(t, f2)
	defer stop2()
	want := c.count()
	// stalled at the gap: flagged behind (the copy's own lag) before StallAfter
	waitFor(t, 10*time.Second, "flagged behind at the gap", func() bool {
		st := f2.Status()
		return st.State == follow.StateBehind && strings.Contains(st.Warning, "behind the city's replica")
	})
	waitFor(t, 20*time.Second, fmt.Sprintf("restored afresh past the gap to %d swaps", want), func() bool { return copyCount(t, f2.CopyPath()) == want })
	// (the city is silent now, longer than the shortened BehindAfter: behind by silence only)
	waitFor(t, 5*time.Second, "a full restore afresh, then no lag", func() bool {
		st := f2.Status()
		return st.Restores == 1 && st.LagSeconds == 0 && st.CopyTXID == st.ReplicaTXID && !strings.Contains(st.Warning, "behind the city's replica")
	})
	t.Logf("status after the gap: %+v", f2.Status())
}

// A city whose replication stops (the city keeps writing, nothing reaches the replica) is
// flagged behind once its replica has been silent for BehindAfter, with the reason in words;
// it follows again when the replication comes back.
func TestStoppedReplicaIsFlagged(t *testing.T) {
	c := newCity(t)
	c.write(2)
	opt := fastOptions()
	opt.BehindAfter = 1500 * time.Millisecond
	f := follow.New(filepath.Join(t.TempDir(), "copy"), c.cfg(), opt, nil)
	stop := run(t, f)
	defer stop()
	waitFor(t, 10*time.Second, "following", func() bool { return f.Status().State == follow.StateFollowing && copyCount(t, f.CopyPath()) == 2 })
	c.stop()
	c.write(3) // never replicated
	waitFor(t, 10*time.Second, "flagged behind", func() bool { return f.Status().State == follow.StateBehind })
	st := f.Status()
	if !strings.Contains(st.Warning, "No change has reached the city's replica") || st.ReplicaAge == nil || *st.ReplicaAge < 1.5 {
		t.Fatalf("behind status = %+v", st)
	}
	c.start()
	c.write(1)
	waitFor(t, 10*time.Second, "following again with all 6", func() bool {
		return f.Status().State == follow.StateFollowing && copyCount(t, f.CopyPath()) == 6
	})
}

// HQ never holds a city's live file open: with the city closed, HQ restores and follows its
// replica, and no file under the city's data dir is open in this process, while the copy is.
func TestNeverOpensTheCityFile(t *testing.T) {
	c := newCity(t)
	c.write(4)
	c.stop()
	c.db.Close()
	replicaBefore := tree(t, c.replica)
	f := follow.New(filepath.Join(t.TempDir(), "copy"), c.cfg(), fastOptions(), nil)
	stop := run(t, f)
	defer stop()
	waitFor(t, 10*time.Second, "copy", func() bool { return copyCount(t, f.CopyPath()) == 4 })
	time.Sleep(300 * time.Millisecond) // a few polls and checks
	if after := tree(t, c.replica); after != replicaBefore {
		t.Errorf("HQ changed the city's replica:\nbefore %s\nafter  %s", replicaBefore, after)
	}
	if after := tree(t, c.dir); !strings.Contains(after, "data.db") {
		t.Errorf("the city's dir: %s", after)
	}
	open := openFiles(t)
	sawCopy := false
	for _, p := range open {
		if strings.HasPrefix(p, c.dir) {
			t.Errorf("HQ holds the city's file %s open", p)
		}
		if strings.HasPrefix(p, f.CopyPath()) {
			sawCopy = true
		}
	}
	if !sawCopy {
		t.Fatalf("the copy %s is not among the open files %v: the check would see nothing", f.CopyPath(), open)
	}
}

// openFiles lists the files this process holds open (Linux /proc).
func openFiles(t *testing.T) []string {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	var out []string
	for _, fd := range fds {
		if p, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// snapshot has the city's replication write a full snapshot to its replica now.
func snapshot(t *testing.T, c *city) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.r.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
}

// A replica with nothing in it yet: the copy is failed, with the reason in words, and retried;
// once the city replicates there it follows.
func TestEmptyReplicaFailsInWordsThenFollows(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "replica")
	f := follow.New(filepath.Join(t.TempDir(), "copy"), replication.Config{URL: "file://" + empty}, fastOptions(), nil)
	stop := run(t, f)
	defer stop()
	waitFor(t, 5*time.Second, "failed", func() bool { return f.Status().State == follow.StateFailed })
	if st := f.Status(); !strings.Contains(st.Error, "nothing has been replicated there") {
		t.Fatalf("error = %q, want it in words", st.Error)
	}
	c := newCityAt(t, empty)
	c.write(2)
	waitFor(t, 10*time.Second, "following once the city replicates", func() bool {
		return f.Status().State == follow.StateFollowing && f.Status().Error == "" && copyCount(t, f.CopyPath()) == 2
	})
}

// The set follows several cities under one context; Close stops every follower (each
// returns, its state stopped); a city moved to another replica gets a new copy; Remove deletes
// the copy.
func TestSetStopsEveryFollower(t *testing.T) {
	a, b := newCity(t), newCity(t)
	a.write(2)
	b.write(3)
	set := follow.NewSet(context.Background(), t.TempDir(), fastOptions(), nil)
	set.Put("a", a.cfg())
	set.Put("b", b.cfg())
	waitFor(t, 10*time.Second, "both copies", func() bool {
		return copyCount(t, set.CopyPath("a")) == 2 && copyCount(t, set.CopyPath("b")) == 3
	})
	waitFor(t, 5*time.Second, "a's first restore counted", func() bool { st, _ := set.Status("a"); return st.Restores == 1 })
	set.Put("a", a.cfg()) // the same replica: left alone
	if st, _ := set.Status("a"); st.Restores != 1 {
		t.Fatalf("restores after the same Put = %d", st.Restores)
	}
	set.Put("a", b.cfg()) // another replica: a new copy of it
	waitFor(t, 10*time.Second, "a follows b's replica", func() bool { return copyCount(t, set.CopyPath("a")) == 3 })
	set.Remove("b")
	if _, err := os.Stat(set.Dir("b")); !os.IsNotExist(err) {
		t.Fatalf("b's copy is still there: %v", err)
	}
	if _, ok := set.Status("b"); ok {
		t.Fatal("b is still followed")
	}
	done := make(chan struct{})
	go func() { set.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return within 10 s")
	}
	if st, _ := set.Status("a"); st.State != follow.StateStopped {
		t.Fatalf("a after Close: %s", st.State)
	}
	set.Put("c", a.cfg()) // after Close: nothing starts
	if _, ok := set.Status("c"); ok {
		t.Fatal("a follower started after Close")
	}
}

// tree lists the files under dir with their sizes and modification times.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d; ", strings.TrimPrefix(p, dir), fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A city replicating to S3 (an in-process S3 server): HQ follows it with the keys, polled every
// RemoteInterval.
func TestFollowsAnS3Replica(t *testing.T) {
	t.Setenv("AWS_CA_BUNDLE", "")
	os.Unsetenv("AWS_CA_BUNDLE")
	backend := s3mem.New()
	if err := backend.CreateBucket("swapbay"); err != nil {
		t.Fatal(err)
	}
	var requests atomic.Int64
	s3h := gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		s3h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cfg := replication.Config{URL: "s3://swapbay/paris?endpoint=" + srv.URL + "&region=us-east-1&forcePathStyle=true",
		AccessKeyID: "AKIAPARIS", SecretAccessKey: "paris-secret"}
	c := newCityTo(t, &city{t: t, dir: t.TempDir(), s3: &cfg})
	c.write(3)
	opt := fastOptions()
	opt.Interval, opt.CheckInterval, opt.RemoteInterval = time.Hour, time.Hour, 100*time.Millisecond
	f := follow.New(filepath.Join(t.TempDir(), "copy"), cfg, opt, nil)
	stop := run(t, f)
	defer stop()
	waitFor(t, 10*time.Second, "the copy of the S3 replica", func() bool { return copyCount(t, f.CopyPath()) == 3 })
	c.write(2)
	waitFor(t, 5*time.Second, "the next write, on RemoteInterval", func() bool { return copyCount(t, f.CopyPath()) == 5 })
	waitFor(t, 5*time.Second, "following", func() bool { return f.Status().State == follow.StateFollowing })
	// what an idle follower costs: requests per poll (the city is stopped: only HQ asks)
	c.stop()
	time.Sleep(300 * time.Millisecond)
	n0 := requests.Load()
	time.Sleep(2 * time.Second)
	t.Logf("an idle S3 follower: %.1f requests per RemoteInterval (follow poll + lag check)", float64(requests.Load()-n0)/20)
}
