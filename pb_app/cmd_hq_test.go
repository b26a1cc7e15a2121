package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/sqlitedb"
	"swapbay/modules/hq"
)

func runHQ(args ...string) (string, error) {
	cmd := newHQCommand()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// `swapbay hq user create` makes the first hq_admin in a new HQ dir, which gets HQ's
// collections and none of the city's (this binary registers the city's migrations too); a bad
// role or a short password is refused naming the flag.
func TestHQUserCreate(t *testing.T) {
	dir := t.TempDir()
	out, err := runHQ("user", "create", "--dir="+dir, "--email=hq@example.com", "--password=long-secret-1", "--role=hq_admin", "--name=Head Office")
	if err != nil || len(strings.TrimSpace(out)) != 15 {
		t.Fatalf("create: %q %v", out, err)
	}
	if _, err := runHQ("user", "create", "--dir="+dir, "--email=x@example.com", "--password=long-secret-1", "--role=master_admin"); err == nil || !strings.Contains(err.Error(), "--role") {
		t.Fatalf("city role: %v", err)
	}
	if _, err := runHQ("user", "create", "--dir="+dir, "--email=y@example.com", "--password=short", "--role=hq_viewer"); err == nil || !strings.Contains(err.Error(), "--password") {
		t.Fatalf("short password: %v", err)
	}
	if _, err := runHQ("user", "create", "--dir="+dir, "--email=hq@example.com", "--password=long-secret-1", "--role=hq_viewer"); err == nil {
		t.Fatal("the same email twice was accepted")
	}
	app, err := hq.NewApp(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer app.ResetBootstrapState()
	if _, err := app.FindCollectionByNameOrId(hq.Cities); err != nil {
		t.Fatal(err)
	}
	for _, city := range []string{"movements", "packs", "settings"} {
		if _, err := app.FindCollectionByNameOrId(city); err == nil {
			t.Errorf("the HQ dir has the city's %s", city)
		}
	}
	u, err := app.FindAuthRecordByEmail(hq.Users, "hq@example.com")
	if err != nil || u.GetString(hq.UserRole) != hq.RoleAdmin || !u.ValidatePassword("long-secret-1") {
		t.Fatalf("the hq_admin: %v %v", u, err)
	}
}

// `swapbay hq superuser upsert` makes a superuser of head office's /_/, then sets its password
// when run again with the same email; missing flags and a short password are refused.
func TestHQSuperuserUpsert(t *testing.T) {
	dir := t.TempDir()
	first, err := runHQ("superuser", "upsert", "--dir="+dir, "--email=root@example.com", "--password=long-secret-1")
	if err != nil || len(strings.TrimSpace(first)) != 15 {
		t.Fatalf("create: %q %v", first, err)
	}
	again, err := runHQ("superuser", "upsert", "--dir="+dir, "--email=root@example.com", "--password=other-secret-2")
	if err != nil || again != first {
		t.Fatalf("update: %q (first %q) %v", again, first, err)
	}
	if _, err := runHQ("superuser", "upsert", "--dir="+dir, "--email=root@example.com"); err == nil || !strings.Contains(err.Error(), "--password") {
		t.Fatalf("no password: %v", err)
	}
	if _, err := runHQ("superuser", "upsert", "--dir="+dir, "--email=short@example.com", "--password=short"); err == nil || !strings.Contains(err.Error(), "password") {
		t.Fatalf("short password: %v", err)
	}
	app, err := hq.NewApp(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer app.ResetBootstrapState()
	root, err := app.FindAuthRecordByEmail(core.CollectionNameSuperusers, "root@example.com")
	if err != nil || !root.ValidatePassword("other-secret-2") {
		t.Fatalf("the superuser: %v %v", root, err)
	}
	if n, _ := app.CountRecords(core.CollectionNameSuperusers); n != 1 {
		t.Fatalf("%d superusers, want 1", n)
	}
}

// A city's data dir is refused as HQDIR before anything is written to it.
func TestHQRefusesACityDir(t *testing.T) {
	city := newCLIApp(t)
	if err := city.RunAllMigrations(); err != nil {
		t.Fatal(err)
	}
	dir := city.DataDir()
	_ = city.ResetBootstrapState()
	_, err := runHQ("user", "create", "--dir="+dir, "--email=hq@example.com", "--password=long-secret-1", "--role=hq_admin")
	if err == nil || !strings.Contains(err.Error(), "not a head-office data dir") {
		t.Fatalf("a city's dir as HQDIR: %v", err)
	}
	if _, err := runHQ("serve", "--dir="+dir, "--http=127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "not a head-office data dir") {
		t.Fatalf("hq serve on a city's dir: %v", err)
	}
}

// The city's app refuses a head-office data dir at bootstrap, before its migrations run; a
// city's own dir bootstraps as before.
func TestCityRefusesAnHQDir(t *testing.T) {
	dir := t.TempDir()
	if _, err := runHQ("user", "create", "--dir="+dir, "--email=hq@example.com", "--password=long-secret-1", "--role=hq_admin"); err != nil {
		t.Fatal(err)
	}
	city := core.NewBaseApp(sqlitedb.AppConfig(dir))
	refuseHQDir(city)
	err := city.Bootstrap()
	_ = city.ResetBootstrapState()
	if err == nil || !strings.Contains(err.Error(), "head office's data dir") {
		t.Fatalf("the city bootstrapped on an HQ dir: %v", err)
	}
	own := core.NewBaseApp(sqlitedb.AppConfig(t.TempDir()))
	refuseHQDir(own)
	if err := own.Bootstrap(); err != nil {
		t.Fatalf("a new city dir: %v", err)
	}
	_ = own.ResetBootstrapState()
}
