package replication_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"swapbay/internal/testkit"
	"swapbay/modules/inventory"
	"swapbay/modules/replication"
	"swapbay/modules/restore"
)

func TestTargetNeverShowsCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"s3://AKIA:secret@bucket/paris?region=eu-west-3":           "s3://bucket/paris?region=eu-west-3",
		"s3://bucket/db?endpoint=https://s3.example&secretKey=abc": "s3://bucket/db?endpoint=https%3A%2F%2Fs3.example&secretKey=%2A%2A%2A",
		"file:///mnt/replica": "file:///mnt/replica",
	} {
		if got := (replication.Config{URL: in}).Target(); got != want {
			t.Errorf("Target(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains((replication.Config{URL: in}).Target(), "secret") && !strings.Contains(in, "secretKey") {
			t.Errorf("Target(%q) shows the secret", in)
		}
	}
}

func TestUnsupportedSchemeIsRefused(t *testing.T) {
	if _, err := (replication.Config{URL: "ftp://host/x"}).Client(); err == nil || !strings.Contains(err.Error(), "unsupported scheme") {
		t.Fatalf("ftp: %v", err)
	}
}

// A served database replicated to a directory: the status is on and catches up; a restore
// into a new dir from the replica alone has every movement, integrity ok and 0 corrections; a
// non-empty dir is refused without --force and moved aside with it.
func TestReplicateThenRestore(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	replica := "file://" + filepath.Join(t.TempDir(), "replica")
	r, err := replication.Start(context.Background(), filepath.Join(app.DataDir(), "data.db"), replication.Config{URL: replica, Source: "env"}, *replication.DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if _, err := inventory.Pickup(app, inventory.Op{Actor: c.Driver, Notes: "replicated"}, c.Driver.Id, 1); err != nil {
			t.Fatal(err)
		}
	}
	var want int
	if err := app.DB().NewQuery("SELECT COUNT(*) FROM movements").Row(&want); err != nil {
		t.Fatal(err)
	}
	if err := r.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := r.Status(time.Now())
	if !st.Enabled || st.Target != replica || st.LastSync == nil || st.ReplicaTXID == 0 || st.ReplicaTXID != st.LocalTXID || st.Warning != "" {
		t.Fatalf("status after a sync: %+v", st)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	dir := filepath.Join(t.TempDir(), "restored")
	rep, err := restore.Run(context.Background(), restore.Replica{Config: replication.Config{URL: replica}}, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Integrity != "ok" || len(rep.Corrections) != 0 || rep.Movements != want || rep.TXID == 0 {
		t.Fatalf("restore: %+v, want %d movements", rep, want)
	}

	if _, err := restore.Run(context.Background(), restore.Replica{Config: replication.Config{URL: replica}}, dir, false); !errors.Is(err, restore.ErrDirNotEmpty) {
		t.Fatalf("over a restored dir without --force: %v", err)
	}
	rep, err = restore.Run(context.Background(), restore.Replica{Config: replication.Config{URL: replica}}, dir, true)
	if err != nil || rep.MovedTo == "" {
		t.Fatalf("with --force: %v %+v", err, rep)
	}
	if _, err := os.Stat(filepath.Join(rep.MovedTo, "data.db")); err != nil {
		t.Fatalf("the previous data was not kept: %v", err)
	}
}

func TestRestoreFromAnEmptyReplicaSaysSo(t *testing.T) {
	_, err := restore.Run(context.Background(), restore.Replica{Config: replication.Config{URL: "file://" + t.TempDir()}}, filepath.Join(t.TempDir(), "new"), false)
	if !errors.Is(err, replication.ErrNoReplica) {
		t.Fatalf("empty replica: %v", err)
	}
}

// An S3 replica that stops answering: the status turns into a warning naming the failure (the
// System page and /api/debug/info show it), and the lag counts from the first write the
// replica did not get.
func TestFailingUploadsWarn(t *testing.T) {
	t.Setenv("AWS_CA_BUNDLE", "")
	os.Unsetenv("AWS_CA_BUNDLE") // Litestream's S3 client cannot take one (see caHint)
	backend := s3mem.New()
	if err := backend.CreateBucket("swapbay"); err != nil {
		t.Fatal(err)
	}
	s3srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	cfg := replication.Config{URL: "s3://swapbay/city?endpoint=" + s3srv.URL + "&region=us-east-1", AccessKeyID: "k", SecretAccessKey: "s"}
	r, err := replication.Start(context.Background(), filepath.Join(app.DataDir(), "data.db"), cfg, *replication.DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = r.Close(ctx)
	}()
	if err := r.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := r.Status(time.Now()); st.Warning != "" || st.LastSync == nil {
		t.Fatalf("healthy: %+v", st)
	}
	s3srv.Close()
	if _, err := inventory.Pickup(app, inventory.Op{Actor: c.Driver, Notes: "not shipped"}, c.Driver.Id, 1); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	var st replication.Status
	for time.Now().Before(deadline) {
		if st = r.Status(time.Now()); strings.HasPrefix(st.Warning, "Replication is failing: ") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.HasPrefix(st.Warning, "Replication is failing: ") || st.LastError == "" || st.LastErrorAt == nil {
		t.Fatalf("no warning while uploads fail: %+v", st)
	}
	// 70 s later with the replica still behind, the lag passes the 60 s mark
	if later := r.Status(time.Now().Add(70 * time.Second)); later.LagSeconds < 60 {
		t.Fatalf("lag with the replica behind: %+v", later)
	}
}

// What the S3 replica writes is what README's bucket layout shows (lifecycle rules are written
// from it): PREFIX/0000/<min>-<max>.ltx for every transaction, 0001…0003 for the compactions,
// 0009 for snapshots; never ltx/0/ (that is the directory replica's layout).
func TestS3ReplicaLayoutIsREADMEs(t *testing.T) {
	os.Unsetenv("AWS_CA_BUNDLE") // Litestream's S3 client cannot take one (see caHint)
	t.Setenv("AWS_CA_BUNDLE", "")
	os.Unsetenv("AWS_CA_BUNDLE")
	backend := s3mem.New()
	if err := backend.CreateBucket("swapbay"); err != nil {
		t.Fatal(err)
	}
	s3srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	defer s3srv.Close()
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	cfg := replication.Config{URL: "s3://swapbay/paris/db?endpoint=" + s3srv.URL + "&region=us-east-1&forcePathStyle=true", AccessKeyID: "k", SecretAccessKey: "s"}
	r, err := replication.Start(context.Background(), filepath.Join(app.DataDir(), "data.db"), cfg, *replication.DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inventory.Pickup(app, inventory.Op{Actor: c.Driver, Notes: "layout"}, c.Driver.Id, 1); err != nil {
		t.Fatal(err)
	}
	if err := r.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	list, err := backend.ListBucket("swapbay", nil, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	key := regexp.MustCompile(`^paris/db/(000[0-39])/[0-9a-f]{16}-[0-9a-f]{16}\.ltx$`)
	levels := map[string]bool{}
	for _, o := range list.Contents {
		m := key.FindStringSubmatch(o.Key)
		if m == nil {
			t.Fatalf("the replica wrote %s, which README's layout does not show", o.Key)
		}
		levels[m[1]] = true
	}
	if !levels["0000"] {
		t.Fatalf("no transaction under paris/db/0000/: %v", levels)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"paris/db/0000/", "paris/db/0009/"} {
		if !strings.Contains(string(readme), want) {
			t.Fatalf("README's bucket layout does not show %s", want)
		}
	}
}
