// Package replication runs Litestream (github.com/benbjohnson/litestream, pinned v0.5.18, pure
// Go on modernc.org/sqlite like PocketBase) inside the SwapBay binary: data.db is replicated
// continuously to S3-compatible storage or a directory (DESIGN.md §13), and `swapbay restore
// --from=s3://…|file://…` rebuilds a data dir from that replica alone.
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

// Intervals of the replication: WAL → local LTX file every MonitorInterval, LTX files → replica
// every SyncInterval. Together they bound the recovery point (measured in internal/bench).
var (
	MonitorInterval = time.Second
	SyncInterval    = time.Second
)

// MinCheckpointPageN is the WAL size (pages) past which Litestream checkpoints data.db after a
// sync (PASSIVE, under a write barrier: writers wait while it copies the WAL back).
var MinCheckpointPageN = litestream.DefaultMinCheckpointPageN

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
	store *litestream.Store
	db    *litestream.DB

	mu           sync.Mutex
	lastErr      string
	lastErrAt    time.Time
	pendingSince time.Time // when the local position first went ahead of the replica's
	started      time.Time
	stop         chan struct{}
	done         chan struct{}
}

// Start opens dbPath for replication to cfg and starts Litestream's monitors. The database must
// exist (the server starts it after its migrations). logger receives Litestream's log records.
func Start(ctx context.Context, dbPath string, cfg Config, logger *slog.Logger) (*Replicator, error) {
	client, err := cfg.Client()
	if err != nil {
		return nil, err
	}
	r := &Replicator{cfg: cfg, started: clock.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if logger == nil {
		logger = slog.Default()
	}
	log := slog.New(&captureHandler{next: logger.Handler(), r: r})

	db := litestream.NewDB(dbPath)
	db.MonitorInterval = MonitorInterval
	db.MinCheckpointPageN = MinCheckpointPageN
	replica := litestream.NewReplicaWithClient(db, client)
	replica.SyncInterval = SyncInterval
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

// watch tracks how long the replica has been behind the local database.
func (r *Replicator) watch() {
	defer close(r.done)
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case now := <-t.C:
			local, err := r.db.Pos()
			remote := r.db.Replica.Pos()
			r.mu.Lock()
			if err == nil && local.TXID > remote.TXID {
				if r.pendingSince.IsZero() {
					r.pendingSince = now
				}
			} else if err == nil {
				r.pendingSince = time.Time{}
			}
			r.mu.Unlock()
		}
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
	if !r.pendingSince.IsZero() {
		st.LagSeconds = now.Sub(r.pendingSince).Seconds()
	}
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
				msg += ": " + a.Value.String()
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
