// Package restore is `swapbay restore`: one pipeline for both sources, a backup archive (.zip)
// and a replica (s3://…, file://…, a replica directory). The data is built and checked in a
// new dir beside the target and swapped in only when good, so a failed restore leaves the
// live dir exactly as it was, with or without --force:
//
//  1. the target is refused when it holds anything, unless force (ErrDirNotEmpty);
//  2. a new dir DIR.restoring-<time> beside it, with the Marker written first;
//  3. the source writes data.db (and, from an archive, the stored files) into it;
//  4. SQLite's integrity check with a page cache the size of the database, a bounded
//     ANALYZE, the ledger's recalculation (0 corrections, or the restore fails), the stored
//     replication turned off (a copy never writes into the replica its data came from),
//     every head-office token revoked (one revoked after the backup would work again) and
//     every session ended (a new token key for every account, users and superusers: one
//     ended after the backup would work again);
//  5. the new dir takes the target's place: with force the two dirs are exchanged in one step
//     (the previous data then sits at DIR.replaced-<time>, never deleted); the Marker is
//     removed last.
//
// A failure at any step removes the new dir and leaves the target untouched. A dir that still
// carries the Marker (a restore killed half-way) is refused by every command that opens it,
// serve included (Register): it is never taken for a new, empty system, where the first
// registrant would become the master admin.
package restore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/archive"

	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/lib/sessions"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/headoffice"
	"swapbay/modules/replication"
	"swapbay/modules/system"
)

// Marker is the file a restore writes first into the dir it builds and removes last.
const Marker = ".swapbay-restore-unfinished"

// ErrDirNotEmpty refuses a restore over existing data.
var ErrDirNotEmpty = errors.New("the data dir is not empty: restore into a new, empty dir, or pass --force to move the existing data aside first")

// ErrUnfinished is a data dir that carries the Marker.
var ErrUnfinished = errors.New("this data dir is a restore's unfinished work (it carries " + Marker + "), not a data dir to serve")

// Source is where a restore's data comes from.
type Source interface {
	// String names the source as the report shows it (never credentials).
	String() string
	// Fetch writes the source's data.db (and whatever else it holds) into the new, empty data
	// dir dir and answers the last transaction it restored (0 when the source has none).
	Fetch(ctx context.Context, dir string) (txid uint64, err error)
}

// SourceFor is the source --from names: a replica URL (s3://…, file://…) or a replica
// directory, else a backup archive. A replica's S3 credentials come from the environment.
func SourceFor(from string) (Source, error) {
	if from == "" {
		return nil, errors.New("--from is required: the backup archive (.zip) or the replica URL (s3://…, file://…) to restore")
	}
	if fi, err := os.Stat(from); replication.IsURL(from) || err == nil && fi.IsDir() {
		cfg := replication.FromEnv()
		cfg.URL = from
		if !replication.IsURL(from) {
			abs, err := filepath.Abs(from)
			if err != nil {
				return nil, err
			}
			cfg.URL = "file://" + abs
		}
		return Replica{Config: cfg}, nil
	}
	return Archive{Path: from}, nil
}

// Replica is a Litestream replica (modules/replication): data.db at its latest position.
type Replica struct{ replication.Config }

func (r Replica) String() string { return r.Target() }

// Fetch rebuilds data.db in dir from the replica alone.
func (r Replica) Fetch(ctx context.Context, dir string) (uint64, error) {
	return replication.RestoreDB(ctx, r.Config, filepath.Join(dir, "data.db"))
}

// Archive is a backup archive (PocketBase's zip: the databases and the stored files).
type Archive struct{ Path string }

func (a Archive) String() string { return a.Path }

// Fetch unpacks the archive into dir.
func (a Archive) Fetch(_ context.Context, dir string) (uint64, error) {
	if _, err := os.Stat(a.Path); err != nil {
		return 0, fmt.Errorf("backup archive: %w", err)
	}
	if err := archive.Extract(a.Path, dir); err != nil {
		return 0, fmt.Errorf("extract %s: %w", a.Path, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "data.db")); err != nil {
		return 0, fmt.Errorf("%s is not a SwapBay/PocketBase backup: no data.db inside", a.Path)
	}
	return 0, nil
}

// Report is what a restore did.
type Report struct {
	Dir         string        `json:"dir"`
	From        string        `json:"from"`              // the source, without credentials
	MovedTo     string        `json:"movedTo,omitempty"` // the previous contents, with force
	TXID        uint64        `json:"txid"`              // a replica's last transaction restored
	Bytes       int64         `json:"bytes"`             // data.db's size
	Integrity   string        `json:"integrity"`         // PRAGMA integrity_check: "ok"
	Corrections []string      `json:"corrections"`       // the ledger's recalculation: none expected
	Movements   int           `json:"movements"`
	Took        time.Duration `json:"took"`
	// the parts of Took: the source to data.db, the integrity check (with ANALYZE), the
	// recalculation
	Fetch, Check, Recalc time.Duration
	// SettingsTurnedOff is the System page's replica (its target) that the restored data had
	// on: the restore turns it off, so a restored copy never writes into the replica it came
	// from until a master admin turns it on again (or serve gets --replicate)
	SettingsTurnedOff string `json:"settingsTurnedOff,omitempty"`
	// HeadOfficeTokensRevoked names the head-office tokens the restored data held active ("name
	// (…hint)"): the restore revokes them all (headoffice.RevokeRestored), since one revoked
	// after the backup would otherwise work again; the master admin issues a new one
	HeadOfficeTokensRevoked []string `json:"headOfficeTokensRevoked,omitempty"`
	// SignedOut counts, per auth collection (users, _superusers), the accounts whose sessions
	// the restore ended (sessions.RevokeRestored): a new token key each, so a session ended
	// after the backup (a password change, a sign-out everywhere, a suspension) does not work
	// again; everyone signs in again
	SignedOut map[string]int `json:"signedOut,omitempty"`
}

// Run restores src into the data dir dir (see the package comment). The server must not be
// running on dir.
func Run(ctx context.Context, src Source, dir string, force bool) (Report, error) {
	start := clock.Now()
	dir = filepath.Clean(dir)
	rep := Report{Dir: dir, From: src.String(), Corrections: []string{}}
	taken, err := holdsData(dir)
	if err != nil {
		return rep, err
	}
	if taken && !force {
		return rep, ErrDirNotEmpty
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return rep, err
	}
	stamp := clock.Now().UTC().Format("20060102_150405")
	build, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".restoring-"+stamp+"-")
	if err != nil {
		return rep, fmt.Errorf("make the new dir beside %s: %w", dir, err)
	}
	swapped := false
	defer func() {
		if !swapped {
			_ = os.RemoveAll(build)
		}
	}()
	// the mode the data dir has (or PocketBase gives a new one), not MkdirTemp's 0700
	mode := os.FileMode(0o755)
	if fi, err := os.Stat(dir); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(build, mode); err != nil {
		return rep, err
	}
	if err := writeMarker(build); err != nil {
		return rep, err
	}
	if rep.TXID, err = src.Fetch(ctx, build); err != nil {
		return rep, err
	}
	if fi, err := os.Stat(filepath.Join(build, "data.db")); err == nil {
		rep.Bytes = fi.Size()
	}
	rep.Fetch = clock.Since(start)
	if err := check(build, &rep); err != nil {
		return rep, err
	}
	if len(rep.Corrections) > 0 {
		return rep, fmt.Errorf("the ledger's recalculation corrected %d balances: the source's cached balances do not match its entries; nothing was restored", len(rep.Corrections))
	}
	if taken {
		rep.MovedTo = dir + ".replaced-" + stamp
	}
	if err := swapIn(build, dir, rep.MovedTo); err != nil {
		rep.MovedTo = ""
		return rep, err
	}
	swapped = true
	if err := os.Remove(filepath.Join(dir, Marker)); err != nil {
		return rep, fmt.Errorf("the restore is in place but its marker stays (remove %s by hand): %w", filepath.Join(dir, Marker), err)
	}
	syncDir(filepath.Dir(dir))
	rep.Took = clock.Since(start)
	return rep, nil
}

// holdsData reports whether dir exists with anything in it.
func holdsData(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read the data dir: %w", err)
	}
	return len(entries) > 0, nil
}

// writeMarker writes the Marker into dir and makes it durable before anything else is.
func writeMarker(dir string) error {
	text := "swapbay restore started " + clock.Now().UTC().Format(time.RFC3339) +
		": this dir is its unfinished work. A finished restore removes this file.\n"
	f, err := os.OpenFile(filepath.Join(dir, Marker), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("mark the new dir: %w", err)
	}
	_, err = f.WriteString(text)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("mark the new dir: %w", err)
	}
	syncDir(dir)
	return nil
}

// swapIn puts the checked dir build in dir's place. With aside (dir holds data) the two are
// exchanged in one step where the system can (Linux's renameat2 RENAME_EXCHANGE: dir is never
// missing), then the previous data is renamed to aside; otherwise dir (missing or empty) is
// replaced by build.
func swapIn(build, dir, aside string) error {
	syncDir(build)
	if aside == "" {
		// an empty dir is replaced by rename(2); a missing one is created by it
		if err := os.Rename(build, dir); err != nil {
			return fmt.Errorf("move the restored data into %s: %w%s", dir, err, mountHint(dir))
		}
		return nil
	}
	if err := exchange(build, dir); err == nil {
		// build now holds the previous data
		if err := os.Rename(build, aside); err != nil {
			return fmt.Errorf("the restore is in place; the previous data stays at %s: %w", build, err)
		}
		return nil
	} else if !errors.Is(err, errNoExchange) {
		return fmt.Errorf("swap the restored data into %s: %w%s", dir, err, mountHint(dir))
	}
	// no atomic exchange here: two renames, the first undone if the second fails
	if err := os.Rename(dir, aside); err != nil {
		return fmt.Errorf("move the existing data aside: %w%s", err, mountHint(dir))
	}
	if err := os.Rename(build, dir); err != nil {
		if uerr := os.Rename(aside, dir); uerr != nil {
			return fmt.Errorf("move the restored data in: %w; and moving the previous data back from %s failed: %v", err, aside, uerr)
		}
		return fmt.Errorf("move the restored data in: %w", err)
	}
	return nil
}

// mountHint explains a failed rename of a data dir that is a mount point (a Docker volume):
// the restore builds beside the target and renames it into place, which a mount point refuses.
func mountHint(dir string) string {
	return " (if " + dir + " is a mount point, such as a Docker volume, restore into a new dir inside it, e.g. --dir=" +
		filepath.Join(dir, "restored") + ", and serve that dir)"
}

// syncDir makes the renames and creations in dir durable (best effort: not every system can
// sync a directory).
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		_ = f.Sync()
		_ = f.Close()
	}
}

// CheckDir refuses a data dir that carries the Marker: a restore's unfinished work.
func CheckDir(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, Marker)); err == nil {
		return fmt.Errorf("%s: %w. Its data may be incomplete: run `swapbay restore` again (with --force over it), or serve the data dir you had. "+
			"Only if you know this dir's data is whole, remove %s", dir, ErrUnfinished, filepath.Join(dir, Marker))
	} else if !os.IsNotExist(err) {
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}

// Register makes every command that opens a data dir (serve, user, migrate…) refuse one that
// carries the Marker, before PocketBase opens or creates anything in it.
func Register(app core.App) {
	app.OnBootstrap().BindFunc(func(e *core.BootstrapEvent) error {
		if err := CheckDir(e.App.DataDir()); err != nil {
			return err
		}
		return e.Next()
	})
}

// check opens the new dir as an app (PocketBase creates a fresh auxiliary.db when the source
// has none), runs PRAGMA integrity_check with a page cache the size of the database, a bounded
// ANALYZE, the ledger's recalculation, and turns the stored replication off.
func check(dir string, rep *Report) error {
	app, err := sqlitedb.OpenDir(dir)
	if err != nil {
		return fmt.Errorf("open the restored data: %w", err)
	}
	defer app.ResetBootstrapState()
	t0 := clock.Now()
	// The check reads every page and index many times: with the server's 32 MB page cache a
	// 560 MB data.db (1M movements) re-read 200 GB from the OS on a loaded 2-core machine;
	// with a cache the size of the file it reads it once (BENCHMARKS.md). The one connection
	// of NonconcurrentDB runs every statement.
	one := app.NonconcurrentDB()
	if _, err := one.NewQuery(fmt.Sprintf("PRAGMA cache_size = -%d", checkCacheKiB(rep.Bytes))).Execute(); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	var found []string // "ok", or the first problems found
	if err := one.NewQuery("PRAGMA integrity_check(10)").Column(&found); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	rep.Integrity = strings.Join(found, "; ")
	if rep.Integrity != "ok" {
		return fmt.Errorf("integrity check of the restored database failed: %s", rep.Integrity)
	}
	// statistics for the query planner from the data as it is now: the source carries its own,
	// which may date from when its tables were small (a bounded ANALYZE)
	if _, err := one.NewQuery("PRAGMA analysis_limit = 1000").Execute(); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	if _, err := one.NewQuery("ANALYZE").Execute(); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM " + schema.Movements).Row(&rep.Movements); err != nil {
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
	if rep.SettingsTurnedOff, err = replication.TurnOffRestored(app); err != nil {
		return err
	}
	// a token revoked after the backup (or the replica's last change) would work again
	revoked, err := headoffice.RevokeRestored(app)
	if err != nil {
		return fmt.Errorf("revoke the restored head-office tokens: %w", err)
	}
	for _, t := range revoked {
		rep.HeadOfficeTokensRevoked = append(rep.HeadOfficeTokensRevoked, fmt.Sprintf("%s (…%s)", t.Name, t.Hint))
	}
	// and so would every session ended after it: everyone signs in again
	ended, err := sessions.RevokeRestored(app, schema.AuthSessions, hqSessions)
	if err != nil {
		return fmt.Errorf("end the restored sessions: %w", err)
	}
	rep.SignedOut = ended.Accounts
	return nil
}

// hqSessions is head office's sessions table (modules/hq), in a restored head-office data dir.
const hqSessions = "hq_sessions"

// MaxCheckCache bounds the page cache of the restore's integrity check (bytes).
const MaxCheckCache = 2 << 30

// checkCacheKiB is the integrity check's page cache in KiB: the database's size and 64 MB
// more, at most MaxCheckCache (pages are allocated as they are read).
func checkCacheKiB(dbBytes int64) int64 {
	return min(dbBytes+64<<20, MaxCheckCache) >> 10
}

// errNoExchange is a system or file system without an atomic exchange of two dirs.
var errNoExchange = errors.New("no atomic exchange of two dirs here")
