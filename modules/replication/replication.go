// Package replication runs Litestream (github.com/benbjohnson/litestream, pinned v0.5.18, pure
// Go on modernc.org/sqlite like PocketBase) inside the SwapBay binary: data.db is replicated
// continuously to S3-compatible storage or a directory (DESIGN.md §13), and the replica is one
// of `swapbay restore`'s sources (RestoreDB; modules/restore runs the pipeline).
//
// What is replicated: data.db only. It holds every collection (the ledger, users, sessions,
// agreements and their file names, settings, idempotency answers, PocketBase's own settings
// including the S3 file storage). auxiliary.db holds PocketBase's request logs, which a new
// machine does not need: PocketBase creates an empty one on first start.
//
// Checkpoints: while Litestream replicates it owns data.db's checkpoints. It keeps a read
// transaction open so no other connection can copy WAL frames it has not shipped yet, and
// checkpoints itself (PASSIVE past MinCheckpointPageN pages after a sync, TRUNCATE only past
// TruncatePageN). The wal-checkpoint job (modules/jobs) skips data.db while Active; the
// writer's wal_autocheckpoint (lib/sqlitedb.AutoCheckpointPages, 8000 pages) stays as the
// backstop above Litestream's 1000-page threshold, so Litestream checkpoints first; one that
// runs anyway cannot pass Litestream's read mark.
package replication

import (
	"context"
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
	"github.com/benbjohnson/litestream/file"
	"github.com/benbjohnson/litestream/s3"

	"swapbay/lib/clock"
)

// LitestreamVersion is the pinned Litestream release (go.mod).
const LitestreamVersion = "v0.5.18"

// Environment variables: the replica URL and, for S3, the credentials (AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY are read too when these are unset).
const (
	EnvURL       = "SWAPBAY_REPLICA_URL"
	EnvAccessKey = "SWAPBAY_REPLICA_ACCESS_KEY_ID"
	EnvSecretKey = "SWAPBAY_REPLICA_SECRET_ACCESS_KEY"
)

// LagWarning is the lag past which the System page and /api/debug/info warn.
const LagWarning = 60 * time.Second

// Options are the replication service's knobs. DefaultOptions are production's; pb_app binds
// ServerURL to `serve --replicate=URL`, and tests and internal/bench set their own
// (SetOptions).
type Options struct {
	// ServerURL is `serve --replicate=URL`: it wins over $SWAPBAY_REPLICA_URL, which wins over
	// the System page's settings.
	ServerURL string
	// MonitorInterval is how often the WAL is copied to a local LTX file, SyncInterval how
	// often LTX files are uploaded to the replica: together they bound the recovery point
	// (measured in internal/bench).
	MonitorInterval, SyncInterval time.Duration
	// RetryMax is the longest wait between two uploads while the replica fails. Litestream's
	// own back-off doubles up to 5 minutes (after a 2-minute outage it next tried a minute
	// later); the Replicator retries on its own, from SyncInterval doubling up to RetryMax, so
	// the replica catches up within about RetryMax of coming back.
	RetryMax time.Duration
	// MinCheckpointPageN is the WAL size (pages) past which Litestream checkpoints data.db
	// after a sync (PASSIVE, under a write barrier: writers wait while it copies the WAL back).
	MinCheckpointPageN int
	// ReachTimeout bounds the check that a replica set on the System page answers before it is
	// saved, and each of the Replicator's own retries.
	ReachTimeout time.Duration
}

// DefaultOptions are the options of a production server.
func DefaultOptions() *Options {
	return &Options{
		MonitorInterval:    time.Second,
		SyncInterval:       time.Second,
		RetryMax:           4 * time.Second,
		MinCheckpointPageN: litestream.DefaultMinCheckpointPageN,
		ReachTimeout:       15 * time.Second,
	}
}

// Config is where to replicate and with which credentials. URL is s3://bucket/path (query
// endpoint=, region=, forcePathStyle= for S3-compatible services), file:///abs/dir, or a
// plain directory path.
type Config struct {
	URL             string
	AccessKeyID     string
	SecretAccessKey string
	Source          string // "flag", "env" or "settings": where URL came from
}

// FromEnv is the configuration from the environment (URL blank when unset).
func FromEnv() Config {
	return Config{URL: strings.TrimSpace(os.Getenv(EnvURL)), AccessKeyID: os.Getenv(EnvAccessKey),
		SecretAccessKey: os.Getenv(EnvSecretKey), Source: "env"}
}

// Target is URL without credentials: no user info, no query values that look like secrets.
// It is what the System page and logs show.
func (c Config) Target() string {
	u, err := url.Parse(c.URL)
	if err != nil || u.Scheme == "" {
		return c.URL
	}
	u.User = nil
	q := u.Query()
	for k := range q {
		lk := strings.ToLower(k)
		if strings.Contains(lk, "secret") || strings.Contains(lk, "key") || strings.Contains(lk, "token") || strings.Contains(lk, "password") {
			q.Set(k, "***")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Client is the Litestream replica client of c.
func (c Config) Client() (litestream.ReplicaClient, error) {
	raw := strings.TrimSpace(c.URL)
	if raw == "" {
		return nil, errors.New("no replica URL")
	}
	if !strings.Contains(raw, "://") {
		abs, err := filepath.Abs(raw)
		if err != nil {
			return nil, err
		}
		return file.NewReplicaClient(abs), nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("replica URL: %w", err)
	}
	switch u.Scheme {
	case "file":
		if u.Path == "" {
			return nil, errors.New("replica URL: file:// needs an absolute path, e.g. file:///var/backups/swapbay")
		}
		return file.NewReplicaClient(u.Path), nil
	case "s3":
		client, err := litestream.NewReplicaClientFromURL(raw)
		if err != nil {
			return nil, fmt.Errorf("replica URL: %w", err)
		}
		sc := client.(*s3.ReplicaClient)
		if c.AccessKeyID != "" {
			sc.AccessKeyID = c.AccessKeyID
		}
		if c.SecretAccessKey != "" {
			sc.SecretAccessKey = c.SecretAccessKey
		}
		return sc, nil
	default:
		return nil, fmt.Errorf("replica URL: unsupported scheme %q (use s3://bucket/path or file:///dir)", u.Scheme)
	}
}

// caHint explains the AWS SDK's refusal of AWS_CA_BUNDLE: Litestream's S3 client brings its
// own HTTP client, which the SDK cannot give a CA bundle (litestream issue 639); Go's own
// SSL_CERT_FILE still applies to it.
func caHint(err error) error {
	if err != nil && strings.Contains(err.Error(), "custom RootCAs") && os.Getenv("AWS_CA_BUNDLE") != "" {
		return fmt.Errorf("%w (unset AWS_CA_BUNDLE for swapbay; give a custom CA with SSL_CERT_FILE)", err)
	}
	return err
}

// Replicator replicates one database while the server runs.
type Replicator struct {
	cfg   Config
	opt   Options
	store *litestream.Store
	db    *litestream.DB

	mu        sync.Mutex
	lastErr   string
	lastErrAt time.Time
	missing   lagTracker
	started   time.Time
	stop      chan struct{}
	done      chan struct{}
}

// lagTracker holds, oldest first, the local positions the replica may still lack, each with
// when it was first seen: the first is the oldest change the replica lacks, whose age is the
// lag (not the time since the replica was last fully caught up, which grows without end while
// writes keep coming even though every change is shipped within seconds).
type lagTracker struct{ seen []seen }

// seen is a local position (the last transaction) and when it was first seen.
type seen struct {
	txid uint64
	at   time.Time
}

// maxMissing bounds lagTracker.seen (one entry per watch tick with new writes: 5 a second; a
// day-long outage is 432,000): past it the newest entry takes the new position, so the age of
// the oldest change stays exact.
const maxMissing = 100_000

// observe records the local position local (when it is new) seen at now and drops what the
// replica has (remote): it answers whether the replica lacks anything. Litestream forgets the
// replica's position after a failed upload (0 until the next success): what the replica had
// then stays dropped.
func (l *lagTracker) observe(local, remote uint64, now time.Time) bool {
	if local > remote {
		switch n := len(l.seen); {
		case n > 0 && l.seen[n-1].txid >= local:
		case n >= maxMissing:
			l.seen[n-1].txid = local
		default:
			l.seen = append(l.seen, seen{txid: local, at: now})
		}
	}
	i := 0
	for i < len(l.seen) && l.seen[i].txid <= remote {
		i++
	}
	l.seen = l.seen[i:]
	return len(l.seen) > 0
}

// lag is the age at now of the oldest change the replica lacks (0: none).
func (l *lagTracker) lag(now time.Time) time.Duration {
	if len(l.seen) == 0 {
		return 0
	}
	return max(0, now.Sub(l.seen[0].at))
}

// watchInterval is how often the Replicator compares the local position with the replica's.
const watchInterval = 200 * time.Millisecond

// Start opens dbPath for replication to cfg with the options opt and starts Litestream's
// monitors. The database must exist (the server starts it after its migrations). logger
// receives Litestream's log records.
func Start(ctx context.Context, dbPath string, cfg Config, opt Options, logger *slog.Logger) (*Replicator, error) {
	client, err := cfg.Client()
	if err != nil {
		return nil, err
	}
	r := &Replicator{cfg: cfg, opt: opt, started: clock.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if logger == nil {
		logger = slog.Default()
	}
	log := slog.New(&captureHandler{next: logger.Handler(), r: r})

	db := litestream.NewDB(dbPath)
	db.MonitorInterval = opt.MonitorInterval
	db.MinCheckpointPageN = opt.MinCheckpointPageN
	replica := litestream.NewReplicaWithClient(db, client)
	replica.SyncInterval = opt.SyncInterval
	if fc, ok := client.(*file.ReplicaClient); ok {
		fc.Replica = replica
	}
	db.Replica = replica
	store := litestream.NewStore([]*litestream.DB{db}, litestream.DefaultCompactionLevels)
	store.Logger = log.With("system", "store")
	db.SetLogger(log.With("db", filepath.Base(dbPath)))
	if err := store.Open(ctx); err != nil {
		return nil, fmt.Errorf("start replication to %s: %w", cfg.Target(), caHint(err))
	}
	r.store, r.db = store, db
	go r.watch()
	return r, nil
}

// Close stops the monitors after a last sync to the replica (bounded by ctx).
func (r *Replicator) Close(ctx context.Context) error {
	close(r.stop)
	<-r.done
	return r.store.Close(ctx)
}

// Sync ships everything committed so far to the replica and waits for it.
func (r *Replicator) Sync(ctx context.Context) error { return r.db.SyncAndWait(ctx) }

// Snapshot writes a full snapshot of the database at its current position to the replica now
// (Litestream writes one itself on its snapshot interval): head office's tests use it to give a
// replica with a gap a place for a full restore to start from.
func (r *Replicator) Snapshot(ctx context.Context) error {
	if err := r.Sync(ctx); err != nil {
		return err
	}
	_, err := r.db.Snapshot(ctx)
	return err
}

// watch tracks which local positions the replica lacks and since when, and while uploads
// fail, retries them itself (Options.RetryMax) instead of waiting out Litestream's back-off.
func (r *Replicator) watch() {
	defer close(r.done)
	t := time.NewTicker(watchInterval)
	defer t.Stop()
	var wait time.Duration // between the Replicator's own retries; 0 while uploads succeed
	var next time.Time
	for {
		select {
		case <-r.stop:
			return
		case now := <-t.C:
			behind := r.observe(now)
			if !behind || !r.failing() {
				wait = 0
				continue
			}
			if wait == 0 {
				wait, next = r.opt.SyncInterval, now.Add(r.opt.SyncInterval)
			}
			if now.Before(next) {
				continue
			}
			r.retry()
			wait = min(2*wait, max(r.opt.RetryMax, r.opt.SyncInterval))
			next = clock.Now().Add(wait)
		}
	}
}

// observe compares the local position with the replica's at now: it answers whether the
// replica lacks anything.
func (r *Replicator) observe(now time.Time) bool {
	local, err := r.db.Pos()
	remote := uint64(r.db.Replica.Pos().TXID)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		return r.missing.observe(0, remote, now)
	}
	return r.missing.observe(uint64(local.TXID), remote, now)
}

// failing reports whether the last upload failed (an error after the last successful sync).
func (r *Replicator) failing() bool {
	r.mu.Lock()
	at := r.lastErrAt
	r.mu.Unlock()
	return !at.IsZero() && at.After(r.db.LastSuccessfulSyncAt())
}

// retry uploads what the replica lacks now, bounded by ReachTimeout; a failure is recorded,
// named in plain words (Explain).
func (r *Replicator) retry() {
	ctx, cancel := context.WithTimeout(context.Background(), r.opt.ReachTimeout)
	defer cancel()
	if err := r.db.Replica.Sync(ctx); err != nil {
		r.mu.Lock()
		// a retry that timed out may only have waited for Litestream's own upload (one at a
		// time, each up to the S3 client's 8 attempts): the failure that upload names stays
		if !errors.Is(err, context.DeadlineExceeded) || r.lastErr == "" {
			r.lastErr = Explain(err)
		}
		r.lastErrAt = clock.Now()
		r.mu.Unlock()
	}
}

// Status is what the System page and /api/debug/info show of the replication.
type Status struct {
	Enabled     bool       `json:"enabled"`
	Target      string     `json:"target,omitempty"` // the URL without credentials
	Source      string     `json:"source,omitempty"` // flag, env or settings
	Litestream  string     `json:"litestream,omitempty"`
	LastSync    *time.Time `json:"lastSync,omitempty"` // last successful upload round
	LagSeconds  float64    `json:"lagSeconds"`         // age of the oldest change not yet on the replica
	LocalTXID   uint64     `json:"localTxid"`
	ReplicaTXID uint64     `json:"replicaTxid"`
	LastError   string     `json:"lastError,omitempty"`
	LastErrorAt *time.Time `json:"lastErrorAt,omitempty"`
	Warning     string     `json:"warning,omitempty"`
}

// Status reports the replication now.
func (r *Replicator) Status(now time.Time) Status {
	st := Status{Enabled: true, Target: r.cfg.Target(), Source: r.cfg.Source, Litestream: LitestreamVersion}
	if local, err := r.db.Pos(); err == nil {
		st.LocalTXID = uint64(local.TXID)
	}
	st.ReplicaTXID = uint64(r.db.Replica.Pos().TXID)
	last := r.db.LastSuccessfulSyncAt()
	if !last.IsZero() {
		l := last.UTC()
		st.LastSync = &l
	}
	r.mu.Lock()
	st.LagSeconds = r.missing.lag(now).Seconds()
	lastErr, lastErrAt := r.lastErr, r.lastErrAt
	r.mu.Unlock()
	failing := !lastErrAt.IsZero() && lastErrAt.After(last)
	if failing {
		st.LastError = lastErr
		at := lastErrAt.UTC()
		st.LastErrorAt = &at
	}
	switch {
	case failing:
		st.Warning = "Replication is failing: " + lastErr
	case st.LagSeconds > LagWarning.Seconds():
		st.Warning = fmt.Sprintf("Replication is %d s behind", int(st.LagSeconds))
	case last.IsZero() && now.Sub(r.started) > LagWarning:
		st.Warning = "Replication has not completed a sync yet"
	}
	return st
}

// captureHandler passes Litestream's records on and keeps the last error for Status.
type captureHandler struct {
	next slog.Handler
	r    *Replicator
}

func (h *captureHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError || h.next.Enabled(ctx, l)
}

func (h *captureHandler) Handle(ctx context.Context, rec slog.Record) error {
	if rec.Level >= slog.LevelError {
		msg := rec.Message
		rec.Attrs(func(a slog.Attr) bool {
			if a.Key == "error" {
				if err, ok := a.Value.Any().(error); ok {
					msg = Explain(err)
				} else {
					msg = Explain(errors.New(a.Value.String()))
				}
			}
			return true
		})
		h.r.mu.Lock()
		h.r.lastErr, h.r.lastErrAt = msg, rec.Time
		if h.r.lastErrAt.IsZero() {
			h.r.lastErrAt = clock.Now()
		}
		h.r.mu.Unlock()
	}
	if !h.next.Enabled(ctx, rec.Level) {
		return nil
	}
	out := slog.NewRecord(rec.Time, rec.Level, rec.Message, rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(plain(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

// plain turns durations into text: PocketBase's logger stores attributes as JSON, which has
// no form for a time.Duration ("no default representation"), and drops such a record.
func plain(a slog.Attr) slog.Attr {
	switch a.Value.Kind() {
	case slog.KindDuration:
		return slog.String(a.Key, a.Value.Duration().String())
	case slog.KindGroup:
		attrs := a.Value.Group()
		out := make([]any, len(attrs))
		for i, g := range attrs {
			out[i] = plain(g)
		}
		return slog.Group(a.Key, out...)
	}
	return a
}

func (h *captureHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = plain(a)
	}
	return &captureHandler{next: h.next.WithAttrs(out), r: h.r}
}

func (h *captureHandler) WithGroup(name string) slog.Handler {
	return &captureHandler{next: h.next.WithGroup(name), r: h.r}
}
