// Package follow keeps head office's read-only local copies of the cities' databases
// (DESIGN.md §15): for each city, Litestream's follow restore (v0.5.18, the library the city
// replicates with, run inside the HQ process) applies the city's replica to a copy in HQ's own
// data dir. HQ never opens a live city file and never writes a city's database: it reads the
// replica (s3:// or a directory) and writes only its own copy.
//
// One Follower per city, supervised by a Set under one context: stopping the server cancels it
// and every follower returns. A Follower:
//   - restores the copy in full the first time (copy.db, with Litestream's position file
//     copy.db-txid beside it), then follows: Litestream polls the replica every
//     Options.Interval and applies new LTX files to the copy, writing the position file after
//     each; a restart resumes from the position file.
//   - measures the copy's lag every Options.CheckInterval: the age of the oldest change on the
//     replica the copy has not applied yet (0 when it has all of them), and the age of the newest
//     change on the replica (how long the city has been silent).
//   - restores the copy afresh (a full restore into a new file, swapped in) when follow cannot
//     catch up: the replica has changes the copy lacks and the copy has not moved for
//     Options.StallAfter (Litestream issue #1515: follow stalls silently on a gap it cannot
//     bridge); the copy is ahead of the replica (the replica was deleted and started again: a new
//     history); or the saved position cannot be resumed (history pruned).
//   - is flagged behind when the copy lags more than Options.BehindAfter, or the replica has had
//     no change for Options.SilentAfter (a city whose replication stopped: a replicating city
//     writes a heartbeat every minute, so even a quiet city's replica changes each minute).
//
// Reads of a copy go through Open: a read-only connection (mode=ro, query_only).
package follow

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/benbjohnson/litestream"

	"swapbay/lib/clock"
	"swapbay/modules/replication"
)

// States of a copy.
const (
	StateRestoring = "restoring" // a full restore is running (first start, or afresh)
	StateFollowing = "following" // the copy follows the replica within BehindAfter
	StateBehind    = "behind"    // the copy or the replica is more than BehindAfter old
	StateFailed    = "failed"    // the last attempt failed; retried after a back-off
	StateStopped   = "stopped"   // the follower was stopped
)

// Options are a follower's knobs; DefaultOptions are production's, tests shorten them.
type Options struct {
	// Interval is how often Litestream's follow polls the replica for new LTX files.
	Interval time.Duration
	// CheckInterval is how often the lag is measured (one listing of the replica's level 0).
	CheckInterval time.Duration
	// BehindAfter flags a copy whose lag passes it (5 minutes).
	BehindAfter time.Duration
	// SilentAfter flags a copy whose replica has had no change for it (3 minutes: three of the
	// city's once-a-minute heartbeats missed, so a stopped city is flagged within the 5
	// minutes, check interval included); 0 means BehindAfter.
	SilentAfter time.Duration
	// StallAfter restores the copy afresh when the replica has changes the copy lacks and the
	// copy has not moved for this long (follow cannot catch up).
	StallAfter time.Duration
	// RemoteInterval replaces Interval and CheckInterval for an S3 replica: an idle follow poll
	// lists the replica's level 0 and then levels 1–8 (Litestream's gap filling looks there
	// when level 0 has nothing new), 9 LIST requests a poll, paid per request; 15 s keeps a
	// copy well within the 60 s the issue asks while 50 cities cost ~33 requests/s, not 500
	// (measured: 10 requests per interval for an idle follower, TestFollowsAnS3Replica).
	RemoteInterval time.Duration
	// RetryMin and RetryMax bound the back-off between failed attempts (doubling).
	RetryMin, RetryMax time.Duration
}

// DefaultOptions are the options of a production HQ.
func DefaultOptions() Options {
	return Options{
		Interval:       time.Second,
		CheckInterval:  2 * time.Second,
		BehindAfter:    5 * time.Minute,
		SilentAfter:    3 * time.Minute,
		StallAfter:     2 * time.Minute,
		RemoteInterval: 15 * time.Second,
		RetryMin:       2 * time.Second,
		RetryMax:       time.Minute,
	}
}

// CopyName is the copy's file name in its directory; Litestream keeps its position in
// CopyName+"-txid".
const CopyName = "copy.db"

// Status is what GET /api/hq/cities shows of a city's copy.
type Status struct {
	State         string     `json:"state"`
	LagSeconds    float64    `json:"lagSeconds"`        // age of the oldest replica change the copy lacks
	ReplicaAge    *float64   `json:"replicaAgeSeconds"` // age of the newest change on the replica (nil: unknown)
	LastAppliedAt *time.Time `json:"lastAppliedAt"`     // when the copy last moved (restored or applied)
	CopyTXID      uint64     `json:"copyTxid"`          // the copy's position
	ReplicaTXID   uint64     `json:"replicaTxid"`       // the replica's newest position seen
	Restores      int        `json:"restores"`          // full restores since start (afresh ones included)
	Error         string     `json:"error,omitempty"`   // the last failure, in words
	Warning       string     `json:"warning,omitempty"` // why the copy is flagged
}

// Follower keeps one city's copy.
type Follower struct {
	dir string
	cfg replication.Config
	opt Options
	log *slog.Logger

	mu          sync.Mutex
	st          Status
	lastApplied time.Time
	lastMoved   time.Time // when the copy's position last changed (or following began)
	missing     []seen    // replica positions the copy lacks, oldest first, with when first seen
	newestAt    time.Time // CreatedAt of the newest replica file seen
	restores    int

	afresh chan string // asks the run loop to restore afresh (the reason)
}

// maxMissing bounds Follower.missing (one entry per check that sees a new replica position).
const maxMissing = 10_000

type seen struct {
	txid uint64
	at   time.Time
}

// New is a follower of cfg's replica keeping its copy in dir (created when missing).
func New(dir string, cfg replication.Config, opt Options, logger *slog.Logger) *Follower {
	if logger == nil {
		logger = slog.Default()
	}
	return &Follower{dir: dir, cfg: cfg, opt: opt, log: logger, st: Status{State: StateRestoring}, afresh: make(chan string, 1)}
}

// CopyPath is the copy's database file.
func (f *Follower) CopyPath() string { return filepath.Join(f.dir, CopyName) }

// Status is the copy's state and lag now.
func (f *Follower) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := f.st
	st.Restores = f.restores
	if !f.lastApplied.IsZero() {
		at := f.lastApplied.UTC()
		st.LastAppliedAt = &at
	}
	return st
}

func (f *Follower) set(fn func(st *Status)) {
	f.mu.Lock()
	fn(&f.st)
	f.mu.Unlock()
}

// Run follows until ctx ends: restore (or resume), follow, measure, restore afresh when stuck;
// a failure is retried after a back-off. It returns when ctx is cancelled.
func (f *Follower) Run(ctx context.Context) {
	wait := f.opt.RetryMin
	for ctx.Err() == nil {
		err := f.once(ctx)
		if ctx.Err() != nil {
			break
		}
		if err == nil { // asked to restore afresh: go round at once
			wait = f.opt.RetryMin
			continue
		}
		f.log.Error("hq follow: copy failed", "target", f.cfg.Target(), "error", err.Error())
		f.set(func(st *Status) { st.State, st.Error = StateFailed, explain(err) })
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		wait = min(2*wait, f.opt.RetryMax)
	}
	f.set(func(st *Status) { st.State = StateStopped })
}

// errAfresh ends a follow whose copy must be restored afresh.
var errAfresh = errors.New("restore afresh")

// once restores (or resumes) and follows until ctx ends, the follow fails, or a restore afresh
// is needed (nil: go round again).
func (f *Follower) once(ctx context.Context) error {
	client, err := f.cfg.Client()
	if err != nil {
		return err
	}
	if err := client.Init(ctx); err != nil {
		return fmt.Errorf("open the replica %s: %w", f.cfg.Target(), err)
	}
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return err
	}
	path := f.CopyPath()
	resumed := false
	if _, err := os.Stat(path); err == nil {
		txid, rerr := litestream.ReadTXIDFile(path)
		if rerr != nil || txid == 0 {
			f.log.Warn("hq follow: copy without a position; restoring afresh", "target", f.cfg.Target())
			removeCopy(path)
		} else {
			resumed = true
			f.moved(uint64(txid), false)
		}
	}
	if !resumed {
		f.set(func(st *Status) { st.State = StateRestoring })
	}

	fctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	replica := litestream.NewReplicaWithClient(nil, client)
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = path
	opt.Follow = true
	opt.FollowInterval = f.opt.Interval
	check := f.opt.CheckInterval
	if f.remote() {
		opt.FollowInterval, check = f.opt.RemoteInterval, f.opt.RemoteInterval
	}
	done := make(chan error, 1)
	go func() { done <- replica.Restore(fctx, opt) }()

	t := time.NewTicker(check)
	defer t.Stop()
	for {
		select {
		case err := <-done:
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(context.Cause(fctx), errAfresh) {
				return nil
			}
			if err == nil {
				return errors.New("follow ended")
			}
			if resumed && strings.Contains(err.Error(), "cannot resume follow mode") {
				// the saved position cannot be resumed (pruned history, a replica started
				// again): a new copy from the replica as it is
				f.log.Warn("hq follow: position cannot be resumed; restoring afresh", "target", f.cfg.Target(), "error", err.Error())
				f.restartAfresh("the saved position is no longer on the replica")
				removeCopy(path)
				return nil
			}
			if errors.Is(err, litestream.ErrNoSnapshots) || errors.Is(err, litestream.ErrTxNotAvailable) {
				return fmt.Errorf("restore from %s: %w", f.cfg.Target(), replication.ErrNoReplica)
			}
			return err
		case reason := <-f.afresh:
			f.log.Warn("hq follow: restoring afresh", "target", f.cfg.Target(), "reason", reason)
			cancel(errAfresh)
			<-done
			removeCopy(path)
			return nil
		case now := <-t.C:
			f.check(ctx, replica, now)
		}
	}
}

// remote reports whether the replica is paid per request (S3) and has RemoteInterval.
func (f *Follower) remote() bool {
	return f.opt.RemoteInterval > 0 && strings.HasPrefix(strings.TrimSpace(f.cfg.URL), "s3:")
}

// restartAfresh records that a full restore afresh begins, and why.
func (f *Follower) restartAfresh(reason string) {
	f.mu.Lock()
	f.st.State, f.st.Warning = StateRestoring, "Restoring afresh: "+reason
	f.st.CopyTXID, f.missing = 0, nil
	f.mu.Unlock()
}

// check measures the copy against the replica at now and asks for a restore afresh when follow
// cannot catch up.
func (f *Follower) check(ctx context.Context, replica *litestream.Replica, now time.Time) {
	if len(f.afresh) > 0 {
		return // a restore afresh is on its way
	}
	path := f.CopyPath()
	txid, err := litestream.ReadTXIDFile(path)
	if err != nil || txid == 0 {
		return // still restoring
	}
	remote, newestAt, err := newest(ctx, replica)
	if err != nil {
		f.set(func(st *Status) { st.Error = explain(err) })
		return
	}
	local := uint64(txid)
	f.moved(local, true)

	f.mu.Lock()
	defer f.mu.Unlock()
	if f.st.State == StateRestoring {
		f.st.State = StateFollowing
		f.st.Warning = ""
	}
	f.st.Error = ""
	f.st.ReplicaTXID = remote
	if !newestAt.IsZero() {
		f.newestAt = newestAt
		age := max(0, now.Sub(newestAt)).Seconds()
		f.st.ReplicaAge = &age
	}
	// the replica positions the copy lacks, with when first seen: the oldest one's age is the lag
	// (bounded: past maxMissing the newest entry takes the new position, so the oldest's age
	// stays exact)
	if n := len(f.missing); remote > local && (n == 0 || f.missing[n-1].txid < remote) {
		if n >= maxMissing {
			f.missing[n-1].txid = remote
		} else {
			f.missing = append(f.missing, seen{txid: remote, at: now})
		}
	}
	i := 0
	for i < len(f.missing) && f.missing[i].txid <= local {
		i++
	}
	f.missing = f.missing[i:]
	lag := time.Duration(0)
	if len(f.missing) > 0 {
		lag = max(0, now.Sub(f.missing[0].at))
	}
	f.st.LagSeconds = lag.Seconds()

	switch {
	case remote != 0 && local > remote:
		f.askAfresh(fmt.Sprintf("the copy (position %d) is ahead of the replica (position %d): the replica was started again", local, remote))
	case remote > local && now.Sub(f.lastMoved) > f.opt.StallAfter:
		f.askAfresh(fmt.Sprintf("follow has not moved for %s while the replica has newer changes (positions %d → %d)", now.Sub(f.lastMoved).Round(time.Second), local, remote))
	}

	silentAfter := f.opt.SilentAfter
	if silentAfter == 0 {
		silentAfter = f.opt.BehindAfter
	}
	silent := !f.newestAt.IsZero() && now.Sub(f.newestAt) > silentAfter
	switch {
	case lag > f.opt.BehindAfter:
		f.st.State = StateBehind
		f.st.Warning = fmt.Sprintf("The copy is %s behind the city's replica", lag.Round(time.Second))
	case silent:
		f.st.State = StateBehind
		f.st.Warning = fmt.Sprintf("No change has reached the city's replica for %s: its replication has stopped (a replicating city writes a heartbeat every minute)", now.Sub(f.newestAt).Round(time.Second))
	case f.st.State == StateBehind || f.st.State == StateFailed:
		f.st.State, f.st.Warning = StateFollowing, ""
	}
}

// askAfresh asks the run loop for a restore afresh (once; f.mu held).
func (f *Follower) askAfresh(reason string) {
	select {
	case f.afresh <- reason:
		f.st.State, f.st.Warning = StateRestoring, "Restoring afresh: "+reason
		f.st.CopyTXID, f.missing = 0, nil
	default:
	}
}

// moved records the copy's position local; fromCheck is false at a resume.
func (f *Follower) moved(local uint64, fromCheck bool) {
	now := clock.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.st.CopyTXID != local || f.lastMoved.IsZero() {
		if f.st.CopyTXID == 0 && fromCheck {
			f.restores++ // a full restore finished
		}
		f.st.CopyTXID = local
		f.lastApplied, f.lastMoved = now, now
	}
	if !fromCheck {
		f.lastMoved = now // resuming: the stall clock starts now
	}
}

// newest is the replica's newest position and when that file was written, from level 0 (the
// newest changes), falling back to the compacted levels and the snapshots when level 0 is empty.
func newest(ctx context.Context, replica *litestream.Replica) (uint64, time.Time, error) {
	for _, level := range []int{0, 1, 2, 3, litestream.SnapshotLevel} {
		info, err := replica.MaxLTXFileInfo(ctx, level)
		if err != nil {
			return 0, time.Time{}, err
		}
		if info.MaxTXID != 0 {
			return uint64(info.MaxTXID), info.CreatedAt, nil
		}
	}
	return 0, time.Time{}, nil
}

// removeCopy deletes a copy and its position file (and SQLite's side files).
func removeCopy(path string) {
	for _, p := range []string{path, litestream.TXIDPath(path), path + "-wal", path + "-shm", path + "-journal", path + ".tmp"} {
		_ = os.Remove(p)
	}
}

// Open opens a copy read-only (mode=ro, query_only): HQ reads it, only Litestream writes it.
func Open(path string) (*sql.DB, error) {
	u := url.URL{Scheme: "file", Path: path}
	dsn := u.String() + "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
	return sql.Open("sqlite", dsn)
}

// explain names a follower's failure in words: modules/replication's Explain, and the cases
// only a follower meets.
func explain(err error) string {
	switch {
	case errors.Is(err, replication.ErrNoReplica):
		return replication.ErrNoReplica.Error()
	case strings.Contains(err.Error(), "cannot resume follow mode"):
		return "the copy's saved position is no longer on the replica"
	}
	return replication.Explain(err)
}
