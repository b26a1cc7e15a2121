package restore_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tests"
	"github.com/pocketbase/pocketbase/tools/archive"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/lib/sessions"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/backups"
	"swapbay/modules/headoffice"
	"swapbay/modules/inventory"
	"swapbay/modules/replication"
	"swapbay/modules/restore"
	"swapbay/pb_app/setup"
)

// fixture is a live data dir (restored from a backup archive of a test app with movements), a
// directory replica and the archive of the same data.
type fixture struct {
	live, archive, replica string
	movements              int
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	src := testkit.NewApp(t)
	defer src.Cleanup()
	c := testkit.SeedCallers(t, src)
	for i := 0; i < 5; i++ {
		if _, err := inventory.Pickup(src, inventory.Op{Actor: c.Driver, Notes: "before the restore"}, c.Driver.Id, 1); err != nil {
			t.Fatal(err)
		}
	}
	var f fixture
	if err := src.DB().NewQuery("SELECT COUNT(*) FROM movements").Row(&f.movements); err != nil {
		t.Fatal(err)
	}
	b, err := backups.Create(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	f.archive = filepath.Join(t.TempDir(), "backup.zip")
	copyFile(t, filepath.Join(src.DataDir(), core.LocalBackupsDirName, b.Name), f.archive)
	f.replica = filepath.Join(t.TempDir(), "replica")
	r, err := replication.Start(context.Background(), filepath.Join(src.DataDir(), "data.db"), replication.Config{URL: "file://" + f.replica}, *replication.DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// the live dir alone in its parent: a restore must leave nothing beside it either
	f.live = filepath.Join(t.TempDir(), "pb_data")
	rep, err := restore.Run(context.Background(), restore.Archive{Path: f.archive}, f.live, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Integrity != "ok" || rep.Movements != f.movements || len(rep.Corrections) != 0 || rep.MovedTo != "" {
		t.Fatalf("restore of the archive: %+v, want %d movements", rep, f.movements)
	}
	if _, err := os.Stat(filepath.Join(f.live, restore.Marker)); !os.IsNotExist(err) {
		t.Fatalf("the marker stays after a restore: %v", err)
	}
	return f
}

// Issue 33's proof: restore --force from an empty, a missing and a corrupted replica, and from
// a corrupted archive (cut short, or whole but with a damaged database): each fails, the live
// dir is byte-identical afterwards (every file hashed), nothing is left beside it, and a server
// on it answers with the old data. Without --force the same restores are refused first.
func TestAFailedRestoreLeavesTheLiveDirAsItWas(t *testing.T) {
	f := newFixture(t)
	before := hashDir(t, f.live)
	stats := statsOf(t, f.live)

	corruptReplica := filepath.Join(t.TempDir(), "corrupt-replica")
	copyTree(t, f.replica, corruptReplica)
	n := 0
	filepath.WalkDir(corruptReplica, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ltx") {
			scribble(t, p)
			n++
		}
		return nil
	})
	if n == 0 {
		t.Fatal("the replica has no LTX file to damage")
	}

	short := filepath.Join(t.TempDir(), "short.zip")
	raw, err := os.ReadFile(f.archive)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(short, raw[:len(raw)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(t.TempDir(), "damaged.zip")
	unpacked := t.TempDir()
	if err := archive.Extract(f.archive, unpacked); err != nil {
		t.Fatal(err)
	}
	scribble(t, filepath.Join(unpacked, "data.db"))
	if err := archive.Create(unpacked, damaged); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		src  restore.Source
		want error // nil: any error
	}{
		{"empty replica", restore.Replica{Config: replication.Config{URL: "file://" + t.TempDir()}}, replication.ErrNoReplica},
		{"missing replica", restore.Replica{Config: replication.Config{URL: "file://" + filepath.Join(t.TempDir(), "nothing-here")}}, replication.ErrNoReplica},
		{"corrupted replica", restore.Replica{Config: replication.Config{URL: "file://" + corruptReplica}}, nil},
		{"archive cut short", restore.Archive{Path: short}, nil},
		{"archive with a damaged database", restore.Archive{Path: damaged}, nil},
		{"missing archive", restore.Archive{Path: filepath.Join(t.TempDir(), "none.zip")}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := restore.Run(context.Background(), c.src, f.live, false); !errors.Is(err, restore.ErrDirNotEmpty) {
				t.Fatalf("without --force: %v", err)
			}
			rep, err := restore.Run(context.Background(), c.src, f.live, true)
			if err == nil {
				t.Fatalf("restore succeeded: %+v", rep)
			}
			if c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			t.Logf("refused: %v", err)
			if rep.MovedTo != "" {
				t.Fatalf("the report says the live data was moved to %s", rep.MovedTo)
			}
			if after := hashDir(t, f.live); !equal(before, after) {
				t.Fatalf("the live dir changed:\nbefore %v\nafter  %v", before, after)
			}
			if entries, _ := os.ReadDir(filepath.Dir(f.live)); len(entries) != 1 {
				t.Fatalf("left beside the live dir: %v", names(entries))
			}
		})
	}
	if got := statsOf(t, f.live); got != stats {
		t.Fatalf("served after the failed restores:\n got %s\nwant %s", got, stats)
	}
}

// A restore with --force over a live dir from a good replica: the replica's data in place, the
// previous data kept whole at the name the report gives, no marker left.
func TestForcedRestoreKeepsThePreviousData(t *testing.T) {
	f := newFixture(t)
	before := hashDir(t, f.live)
	rep, err := restore.Run(context.Background(), restore.Replica{Config: replication.Config{URL: "file://" + f.replica}}, f.live, true)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Integrity != "ok" || rep.Movements != f.movements || rep.TXID == 0 || !strings.HasPrefix(rep.MovedTo, f.live+".replaced-") {
		t.Fatalf("report: %+v", rep)
	}
	if moved := hashDir(t, rep.MovedTo); !equal(before, moved) {
		t.Fatalf("the previous data changed when moved aside")
	}
	if _, err := os.Stat(filepath.Join(f.live, restore.Marker)); !os.IsNotExist(err) {
		t.Fatalf("the marker stays: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(f.live)); len(entries) != 2 {
		t.Fatalf("beside the live dir: %v (want it and the previous data)", names(entries))
	}
}

// A restore killed half-way leaves its new dir carrying the marker: the server (and every
// command that opens a data dir) refuses it with a message saying what it is, before
// PocketBase opens anything in it; it is never taken for a new, empty system.
func TestServeRefusesARestoresUnfinishedDir(t *testing.T) {
	f := newFixture(t)
	before := hashDir(t, f.live)
	left := filepath.Join(t.TempDir(), "left")
	killed := errors.New("killed")
	_, err := restore.Run(context.Background(), sourceFunc(func(dir string) error {
		if _, err := os.Stat(filepath.Join(dir, restore.Marker)); err != nil {
			t.Errorf("the new dir has no marker while it is built: %v", err)
		}
		if filepath.Dir(dir) != filepath.Dir(f.live) || dir == f.live {
			t.Errorf("built in %s, not beside %s", dir, f.live)
		}
		if err := archive.Extract(f.archive, dir); err != nil {
			return err
		}
		copyTree(t, dir, left) // what a kill at this point leaves behind
		return killed
	}), f.live, true)
	if !errors.Is(err, killed) {
		t.Fatalf("restore: %v", err)
	}
	if !equal(before, hashDir(t, f.live)) {
		t.Fatal("the live dir changed")
	}

	for _, dir := range []string{left, filepath.Join(t.TempDir(), "only-the-marker")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, restore.Marker), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		had := hashDir(t, dir)
		app := core.NewBaseApp(sqlitedb.AppConfig(dir))
		setup.Register(app)
		err := app.Bootstrap()
		if !errors.Is(err, restore.ErrUnfinished) || !strings.Contains(err.Error(), "run `swapbay restore` again") {
			app.ResetBootstrapState()
			t.Fatalf("bootstrap of %s: %v", dir, err)
		}
		if !equal(had, hashDir(t, dir)) {
			t.Fatalf("opening %s changed it", dir)
		}
	}
}

// sourceFunc is a Source that runs fetch.
type sourceFunc func(dir string) error

func (s sourceFunc) String() string { return "test source" }

func (s sourceFunc) Fetch(_ context.Context, dir string) (uint64, error) { return 0, s(dir) }

// statsOf serves a copy of dir (testkit.Open clones it) and answers /api/state's stats as a
// master admin sees them.
func statsOf(t *testing.T, dir string) string {
	t.Helper()
	app := testkit.Open(t, dir)
	defer app.Cleanup()
	srv := testkit.Serve(t, app)
	master := testkit.CreateUser(t, app, "master_admin", "approved")
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/state", nil)
	for k, v := range testkit.Headers(t, master) {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != 200 {
		t.Fatalf("/api/state: %d %v", res.StatusCode, err)
	}
	stats, _ := json.Marshal(body["stats"])
	if !strings.Contains(string(stats), `"`) {
		t.Fatalf("no stats: %s", stats)
	}
	return string(stats)
}

// hashDir is every file under dir (path → SHA-256) and every dir (path → "dir").
func hashDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel] = "dir"
			return nil
		}
		fh, err := os.Open(p)
		if err != nil {
			return err
		}
		defer fh.Close()
		h := sha256.New()
		if _, err := io.Copy(h, fh); err != nil {
			return err
		}
		out[rel] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 2 {
		t.Fatalf("%s holds nothing", dir)
	}
	return out
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// scribble overwrites the middle of the file p (past its header) with garbage.
func scribble(t *testing.T, p string) {
	t.Helper()
	fh, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	fi, _ := fh.Stat()
	at := fi.Size() / 2
	if at < 100 {
		at = min(100, fi.Size()-1)
	}
	if _, err := fh.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", 1024)), at); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// A restored dir has the mode the dir it replaces had (a new one: 0755), not a temp dir's 0700.
func TestRestoredDirKeepsItsMode(t *testing.T) {
	f := newFixture(t)
	if fi, err := os.Stat(f.live); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("a new restored dir: %v %v", fi.Mode(), err)
	}
	if err := os.Chmod(f.live, 0o750); err != nil {
		t.Fatal(err)
	}
	if _, err := restore.Run(context.Background(), restore.Archive{Path: f.archive}, f.live, true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(f.live); err != nil || fi.Mode().Perm() != 0o750 {
		t.Fatalf("a restore over a 0750 dir: %v %v", fi.Mode(), err)
	}
}

// A restore from a backup made before a head-office token was revoked does not bring the token
// back to life: every token the restored data holds active is revoked (the restore cannot know
// which were revoked since), the report names them, each revocation is on the audit list by
// "swapbay restore", and the restored city refuses the token at its door. A token revoked before
// the backup keeps who revoked it. Was: the revoked token opened the restored city's recall and
// pack routes again.
func TestRestoreRevokesTheHeadOfficeTokensItBringsBack(t *testing.T) {
	src := testkit.NewApp(t)
	defer src.Cleanup()
	c := testkit.SeedCallers(t, src)
	issue := func(name string) (string, string) {
		t.Helper()
		var tok headoffice.Token
		var token string
		err := src.RunInTransaction(func(txApp core.App) error {
			var err error
			tok, token, err = headoffice.Issue(txApp, c.Master, name)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return tok.Id, token
	}
	revoke := func(id string) {
		t.Helper()
		if err := src.RunInTransaction(func(txApp core.App) error {
			_, err := headoffice.Revoke(txApp, c.Master, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	oldId, _ := issue("Head office, old")
	revoke(oldId)
	leakedId, leaked := issue("Head office")
	b, err := backups.Create(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	archivePath := filepath.Join(t.TempDir(), "backup.zip")
	copyFile(t, filepath.Join(src.DataDir(), core.LocalBackupsDirName, b.Name), archivePath)
	revoke(leakedId) // after the backup: the token leaked

	dir := filepath.Join(t.TempDir(), "restored")
	rep, err := restore.Run(context.Background(), restore.Archive{Path: archivePath}, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Head office (…" + leaked[len(leaked)-4:] + ")"}; strings.Join(rep.HeadOfficeTokensRevoked, "|") != strings.Join(want, "|") {
		t.Errorf("report names %q, want %q", rep.HeadOfficeTokensRevoked, want)
	}
	restored := testkit.Open(t, dir)
	defer restored.Cleanup()
	srv := testkit.Serve(t, restored)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/packs", nil)
	req.Header.Set("Authorization", "Bearer "+leaked)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the token revoked after the backup answered %d in the restored city, want 401", resp.StatusCode)
	}
	list, err := headoffice.List(restored)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range list {
		switch {
		case tok.RevokedAt == nil:
			t.Errorf("%s still active after the restore", tok.Name)
		case tok.Id == leakedId && *tok.RevokedBy != headoffice.RestoreActor:
			t.Errorf("%s revoked by %q, want %q", tok.Name, *tok.RevokedBy, headoffice.RestoreActor)
		case tok.Id == oldId && *tok.RevokedBy == headoffice.RestoreActor:
			t.Errorf("%s, revoked before the backup, now says the restore revoked it", tok.Name)
		}
	}
	var rows int
	if err := restored.DB().NewQuery("SELECT COUNT(*) FROM audit_log WHERE actor = {:a} AND record = {:r}").
		Bind(dbx.Params{"a": headoffice.RestoreActor, "r": leakedId}).Row(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 1 {
		t.Errorf("%d audit rows of the restore's revocation, want 1", rows)
	}
}

// A restore from a backup made before a session ended does not bring the session back: a
// driver's token and a superuser's, both valid when the backup was made (and ended since in
// the live data), are refused by the restored server; the report counts who signs in again.
// Was: the restored database held the token keys of the backup's time, so every token valid
// then (one ended since by a password change, a sign-out everywhere, a suspension) worked again.
func TestRestoreEndsTheSessionsItBringsBack(t *testing.T) {
	src := testkit.NewApp(t)
	defer src.Cleanup()
	c := testkit.SeedCallers(t, src)
	driverToken, err := sessions.Start(src, schema.AuthSessions, c.Driver, "127.0.0.1", "test")
	if err != nil {
		t.Fatal(err)
	}
	suToken := testkit.SuperuserToken(t, src, "root@restore.test")
	archivePath := backupOf(t, src)
	servers := map[*tests.TestApp]*httptest.Server{}
	call := func(app *tests.TestApp, url, token string) int {
		t.Helper()
		srv := servers[app]
		if srv == nil {
			srv = testkit.Serve(t, app)
			servers[app] = srv
		}
		req, _ := http.NewRequest(http.MethodGet, srv.URL+url, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	// the tokens work in the data the backup was made of
	if got := call(src, "/api/driver/pay-estimate", driverToken); got != http.StatusOK {
		t.Fatalf("the driver's token before the restore: %d", got)
	}

	dir := filepath.Join(t.TempDir(), "restored")
	rep, err := restore.Run(context.Background(), restore.Archive{Path: archivePath}, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	var users int
	if err := src.DB().NewQuery("SELECT COUNT(*) FROM users").Row(&users); err != nil {
		t.Fatal(err)
	}
	if rep.SignedOut["users"] != users || rep.SignedOut[core.CollectionNameSuperusers] < 1 {
		t.Errorf("report: signed out %v, want %d users and the superusers", rep.SignedOut, users)
	}
	restored := testkit.Open(t, dir)
	defer restored.Cleanup()
	if got := call(restored, "/api/driver/pay-estimate", driverToken); got != http.StatusUnauthorized {
		t.Errorf("the driver's token from before the backup answered %d in the restored data, want 401", got)
	}
	if got := call(restored, "/api/collections/"+core.CollectionNameSuperusers+"/records", suToken); got == http.StatusOK {
		t.Errorf("the superuser's token from before the backup answered %d in the restored data", got)
	}
	var left int
	if err := restored.DB().NewQuery("SELECT COUNT(*) FROM auth_sessions").Row(&left); err != nil || left != 0 {
		t.Errorf("%d sessions left in the restored data (%v)", left, err)
	}
}

// A restore whose step of ending the sessions fails (here the restored data refuses a new
// token key) fails whole: the live dir is byte-identical, nothing is left beside it.
func TestARestoreThatCannotEndTheSessionsLeavesTheLiveDir(t *testing.T) {
	f := newFixture(t)
	before := hashDir(t, f.live)
	src := testkit.NewApp(t)
	defer src.Cleanup()
	testkit.SeedCallers(t, src)
	if _, err := src.DB().NewQuery("CREATE TRIGGER refuse_token_key BEFORE UPDATE OF tokenKey ON users BEGIN SELECT RAISE(ABORT, 'no new token key'); END").Execute(); err != nil {
		t.Fatal(err)
	}
	archivePath := backupOf(t, src)
	rep, err := restore.Run(context.Background(), restore.Archive{Path: archivePath}, f.live, true)
	if err == nil || !strings.Contains(err.Error(), "no new token key") {
		t.Fatalf("restore: %+v, %v; want the sessions step's failure", rep, err)
	}
	if rep.MovedTo != "" {
		t.Fatalf("the report says the live data was moved to %s", rep.MovedTo)
	}
	if after := hashDir(t, f.live); !equal(before, after) {
		t.Fatalf("the live dir changed:\nbefore %v\nafter  %v", before, after)
	}
	if entries, _ := os.ReadDir(filepath.Dir(f.live)); len(entries) != 1 {
		t.Fatalf("left beside the live dir: %v", names(entries))
	}
}

// backupOf makes a backup archive of app and returns its path (outside app's data dir).
func backupOf(t *testing.T, app core.App) string {
	t.Helper()
	b, err := backups.Create(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "backup.zip")
	copyFile(t, filepath.Join(app.DataDir(), core.LocalBackupsDirName, b.Name), path)
	return path
}
