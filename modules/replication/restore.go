package replication

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/clock"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/system"
)

// ErrDirNotEmpty refuses a restore over existing data.
var ErrDirNotEmpty = errors.New("the data dir is not empty: restore into a new, empty dir, or pass --force to move the existing data aside first")

// ErrNoReplica is a replica URL with nothing replicated at it.
var ErrNoReplica = errors.New("nothing has been replicated there (no snapshot found): check the URL and the credentials")

// Report is what a restore did.
type Report struct {
	Dir         string        `json:"dir"`
	MovedTo     string        `json:"movedTo,omitempty"` // the previous contents, with --force
	TXID        uint64        `json:"txid"`              // the replica's last transaction restored
	Bytes       int64         `json:"bytes"`             // data.db's size
	Integrity   string        `json:"integrity"`         // PRAGMA integrity_check: "ok"
	Corrections []string      `json:"corrections"`       // the ledger's recalculation: none expected
	Movements   int           `json:"movements"`
	Took        time.Duration `json:"took"`
	// the parts of Took: the replica to data.db, the integrity check, the recalculation
	Fetch, Check, Recalc time.Duration
	// SettingsTurnedOff is the System page's replica (its target) that the restored data had
	// on: the restore turns it off, so a restored copy never writes into the replica it came
	// from until a master admin turns it on again (or serve gets --replicate)
	SettingsTurnedOff string `json:"settingsTurnedOff,omitempty"`
}

// IsURL reports whether from names a replica (s3://…, file://…) rather than a backup archive.
func IsURL(from string) bool {
	return strings.HasPrefix(from, "s3://") || strings.HasPrefix(from, "file://")
}

// Restore builds the data dir dir from the replica cfg alone: data.db at the replica's latest
// position, then SQLite's integrity check and the ledger's recalculation (Report.Corrections,
// empty when the replica is whole). dir must be new or empty; with force a non-empty dir is
// moved aside to DIR.replaced-<time>, never deleted. Photos and agreement PDFs stored on S3
// (PocketBase's file storage setting, itself in data.db) stay there and are served from there.
func Restore(ctx context.Context, cfg Config, dir string, force bool) (Report, error) {
	start := clock.Now()
	rep := Report{Dir: dir, Corrections: []string{}}
	client, err := cfg.Client()
	if err != nil {
		return rep, err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		if !force {
			return rep, ErrDirNotEmpty
		}
		rep.MovedTo = strings.TrimRight(dir, string(os.PathSeparator)) + ".replaced-" + clock.Now().UTC().Format("20060102_150405")
		if err := os.Rename(dir, rep.MovedTo); err != nil {
			return rep, fmt.Errorf("move the existing data aside: %w", err)
		}
	} else if err != nil && !os.IsNotExist(err) {
		return rep, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return rep, err
	}
	if err := client.Init(ctx); err != nil {
		return rep, fmt.Errorf("open the replica %s: %w", cfg.Target(), caHint(err))
	}
	replica := litestream.NewReplicaWithClient(nil, client)
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = filepath.Join(dir, "data.db")
	if err := replica.Restore(ctx, opt); err != nil {
		if errors.Is(err, litestream.ErrTxNotAvailable) || errors.Is(err, litestream.ErrNoSnapshots) {
			return rep, fmt.Errorf("restore from %s: %w", cfg.Target(), ErrNoReplica)
		}
		return rep, fmt.Errorf("restore from %s: %w", cfg.Target(), err)
	}
	// the plan Restore followed (the replica only grows meanwhile: nothing writes to it now)
	if infos, err := litestream.CalcRestorePlan(ctx, client, 0, time.Time{}, slog.New(slog.DiscardHandler)); err == nil && len(infos) > 0 {
		rep.TXID = uint64(infos[len(infos)-1].MaxTXID)
	}
	if fi, err := os.Stat(opt.OutputPath); err == nil {
		rep.Bytes = fi.Size()
	}
	rep.Fetch = clock.Since(start)
	if err := check(dir, &rep); err != nil {
		return rep, err
	}
	rep.Took = clock.Since(start)
	return rep, nil
}

// check opens the restored dir as an app (PocketBase creates a fresh auxiliary.db), runs
// PRAGMA integrity_check and the ledger's recalculation.
func check(dir string, rep *Report) error {
	app := core.NewBaseApp(sqlitedb.AppConfig(dir))
	if err := app.Bootstrap(); err != nil {
		return fmt.Errorf("open the restored data: %w", err)
	}
	defer app.ResetBootstrapState()
	t0 := clock.Now()
	// The check reads every page and index many times: with the server's 32 MB page cache a
	// 560 MB data.db (1M movements) re-read 200 GB from the OS and took over 20 minutes on a
	// loaded 2-core machine; with a cache the size of the file, 1.5 minutes (BENCHMARKS.md).
	// The one connection of NonconcurrentDB runs both statements.
	one := app.NonconcurrentDB()
	if _, err := one.NewQuery(fmt.Sprintf("PRAGMA cache_size = -%d", checkCacheKiB(rep.Bytes))).Execute(); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if err := one.NewQuery("PRAGMA integrity_check").Row(&rep.Integrity); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if rep.Integrity != "ok" {
		return fmt.Errorf("integrity check of the restored database failed: %s", rep.Integrity)
	}
	// statistics for the query planner from the data as it is now: the replica carries the
	// source's, which may date from when its tables were small (a bounded ANALYZE: 0.1 s on 1M
	// movements)
	if _, err := one.NewQuery("PRAGMA analysis_limit = 1000").Execute(); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	if _, err := one.NewQuery("ANALYZE").Execute(); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM movements").Row(&rep.Movements); err != nil {
		return fmt.Errorf("count movements: %w", err)
	}
	rep.Check = clock.Since(t0)
	t0 = clock.Now()
	rec, err := system.Recalculate(app)
	rep.Recalc = clock.Since(t0)
	if err != nil {
		return fmt.Errorf("recalculate the ledger: %w", err)
	}
	rep.Corrections = rec.Corrections
	rep.SettingsTurnedOff, err = TurnOffRestored(app)
	return err
}

// TurnOffRestored turns off the System page's replication in restored data (a replica's or a
// backup archive's) and answers the target it pointed at ("" when it was off): a restored copy
// never writes into the replica its data came from until a master admin turns it on again.
// Data older than the settings table has nothing to turn off.
func TurnOffRestored(app core.App) (string, error) {
	s, err := LoadStored(app)
	if err != nil || !s.Enabled {
		return "", nil
	}
	s.Enabled = false
	if err := saveStored(app, s, "restore"); err != nil {
		return "", fmt.Errorf("turn off the restored data's replication settings: %w", err)
	}
	return s.Target(), nil
}

// MaxCheckCache bounds the page cache of the restore's integrity check (bytes).
const MaxCheckCache = 2 << 30

// checkCacheKiB is the integrity check's page cache in KiB: the database's size and 64 MB
// more, at most MaxCheckCache (pages are allocated as they are read).
func checkCacheKiB(dbBytes int64) int64 {
	return min(dbBytes+64<<20, MaxCheckCache) >> 10
}
