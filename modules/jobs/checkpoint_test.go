package jobs_test

import (
	"context"
	"path/filepath"
	"testing"

	"swapbay/internal/testkit"
	"swapbay/modules/inventory"
	"swapbay/modules/jobs"
	"swapbay/modules/replication"
)

// The wal-checkpoint job leaves data.db to Litestream while it replicates (Litestream owns its
// checkpoints then) and still checkpoints the auxiliary database; with replication off, before
// and after, it checkpoints data.db too, every WAL page copied back.
func TestCheckpointLeavesDataToLitestreamWhileReplicating(t *testing.T) {
	t.Setenv(replication.EnvURL, "")
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	write := func() {
		for i := 0; i < 20; i++ {
			if _, err := inventory.Pickup(app, inventory.Op{Actor: c.Driver, Notes: "checkpoint"}, c.Driver.Id, 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	names := func(got []jobs.Checkpointed) []string {
		out := []string{}
		for _, g := range got {
			out = append(out, g.DB)
		}
		return out
	}
	wantAll := func(when string) {
		t.Helper()
		write()
		got := jobs.Checkpoint(app)
		if len(got) != 2 || got[0].DB != "data" || got[1].DB != "auxiliary" {
			t.Fatalf("%s: checkpointed %v, want data and auxiliary", when, names(got))
		}
		if d := got[0]; d.WALPages == 0 || d.Moved != d.WALPages {
			t.Fatalf("%s: data.db's checkpoint copied %d of %d WAL pages", when, d.Moved, d.WALPages)
		}
	}
	set := func(enabled bool, url string) {
		t.Helper()
		if _, err := replication.Configure(context.Background(), app, "", replication.Input{Enabled: enabled, URL: url}); err != nil {
			t.Fatal(err)
		}
		if replication.Active(app) != enabled {
			t.Fatalf("replication active = %v, want %v", !enabled, enabled)
		}
	}

	wantAll("before replication")

	url := "file://" + filepath.Join(t.TempDir(), "replica")
	set(true, url)
	write()
	if got := jobs.Checkpoint(app); len(got) != 1 || got[0].DB != "auxiliary" {
		t.Fatalf("while replicating: checkpointed %v, want auxiliary only", names(got))
	}
	if err := replication.Of(app).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}

	set(false, url)
	wantAll("after replication was turned off")
}
