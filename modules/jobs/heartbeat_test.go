package jobs_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"swapbay/internal/testkit"
	"swapbay/lib/schema"
	"swapbay/modules/jobs"
	"swapbay/modules/replication"
)

// The replication-heartbeat job rewrites its one row while the city replicates (head office then
// reads a silent replica as a stopped city) and writes nothing while replication is off.
func TestHeartbeatOnlyWhileReplicating(t *testing.T) {
	t.Setenv(replication.EnvURL, "")
	app := testkit.NewApp(t)
	defer app.Cleanup()
	rows := func() (int, string) {
		var n int
		var at string
		if err := app.DB().NewQuery("SELECT COUNT(*), COALESCE(MAX(at), '') FROM "+schema.Heartbeat).Row(&n, &at); err != nil {
			t.Fatal(err)
		}
		return n, at
	}
	now := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	if beat, err := jobs.Heartbeat(app, now); err != nil || beat {
		t.Fatalf("replication off: beat %v, %v", beat, err)
	}
	if n, _ := rows(); n != 0 {
		t.Fatalf("replication off: %d rows", n)
	}
	url := "file://" + filepath.Join(t.TempDir(), "replica")
	if _, err := replication.Configure(context.Background(), app, "", replication.Input{Enabled: true, URL: url}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if beat, err := jobs.Heartbeat(app, now.Add(time.Duration(i)*time.Minute)); err != nil || !beat {
			t.Fatalf("replicating: beat %v, %v", beat, err)
		}
	}
	if n, at := rows(); n != 1 || at != "2026-11-28 15:02:00.000Z" {
		t.Fatalf("one row at the last beat: %d %q", n, at)
	}
	if _, err := replication.Configure(context.Background(), app, "", replication.Input{Enabled: false, URL: url}); err != nil {
		t.Fatal(err)
	}
	if beat, _ := jobs.Heartbeat(app, now.Add(time.Hour)); beat {
		t.Fatal("beat after replication was turned off")
	}
	if _, at := rows(); at != "2026-11-28 15:02:00.000Z" {
		t.Fatalf("written while off: %q", at)
	}
}
