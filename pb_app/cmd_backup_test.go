package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/backups"
	"swapbay/modules/replication"
)

// A backup archive restored into a new dir comes back with the System page's replication
// turned off (as a replica's restore does): the copy must not write into the replica the
// machine in service replicates to until a master admin turns it on there.
func TestRestoreOfABackupTurnsItsReplicationOff(t *testing.T) {
	app := newCLIApp(t)
	if err := app.RunAllMigrations(); err != nil {
		t.Fatal(err)
	}
	target := "file://" + filepath.Join(t.TempDir(), "replica")
	col, err := app.FindCollectionByNameOrId(schema.ReplicationSettings)
	if err != nil {
		t.Fatal(err)
	}
	rec := core.NewRecord(col)
	rec.Id = schema.ReplicationSettingsRowID
	rec.Set(schema.ReplicationEnabled, true)
	rec.Set(schema.ReplicationURL, target)
	if err := app.Save(rec); err != nil {
		t.Fatal(err)
	}
	b, err := backups.Create(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}

	dir := filepath.Join(t.TempDir(), "restored")
	cmd := newRestoreCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"--dir=" + dir, "--from=" + filepath.Join(app.DataDir(), core.LocalBackupsDirName, b.Name)})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("restore: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "replication (to "+target+") is turned off in the restored data") {
		t.Fatalf("the restore does not say it turned replication off:\n%s", out.String())
	}
	restored := core.NewBaseApp(sqlitedb.AppConfig(dir))
	if err := restored.Bootstrap(); err != nil {
		t.Fatal(err)
	}
	defer restored.ResetBootstrapState()
	s, err := replication.LoadStored(restored)
	if err != nil || s.Enabled || s.URL != target {
		t.Fatalf("restored settings: %+v %v (want off, the target kept)", s, err)
	}
	if s, _ := replication.LoadStored(app); !s.Enabled {
		t.Fatal("the source's own settings changed")
	}
}

// `swapbay restore --force` from a replica with nothing in it fails, says the data dir is as it
// was, and leaves it so (modules/restore holds the full proof).
func TestRestoreCommandFailsWithoutTouchingTheDir(t *testing.T) {
	app := newCLIApp(t)
	if err := app.RunAllMigrations(); err != nil {
		t.Fatal(err)
	}
	dir := app.DataDir()
	before, err := os.ReadFile(filepath.Join(dir, "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := newRestoreCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs([]string{"--dir=" + dir, "--force", "--from=file://" + t.TempDir()})
	err = cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), "nothing has been replicated there") || !strings.Contains(err.Error(), dir+" is as it was") {
		t.Fatalf("restore from an empty replica: %v\n%s", err, out.String())
	}
	after, err := os.ReadFile(filepath.Join(dir, "data.db"))
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("data.db changed: %v", err)
	}
}
