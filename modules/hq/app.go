// Package hq is head office (DESIGN.md §15): `swapbay hq serve --dir=HQDIR`, the same binary
// in a second mode, with its own data dir, its own migrations (Migrations: never the city's
// collections), its own users (roles hq_admin and hq_viewer) and its cities, each followed into
// a read-only local copy of the city's replica (modules/hq/follow). A city binary that never
// runs `hq serve` never touches this package.
package hq

import (
	"fmt"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/sqlitedb"
)

// Migrations is head office's own migrations list: pb_migrations/hq registers into it (the
// city's pb_migrations register into PocketBase's core.AppMigrations, which HQ never runs).
var Migrations core.MigrationsList

// App is head office's PocketBase app: a BaseApp whose RunAllMigrations runs PocketBase's
// system migrations and Migrations only (apis.Serve calls it before serving).
type App struct {
	*core.BaseApp
}

// NewApp opens (creating when missing) the HQ data dir dir, on the city's SQLite connections
// (lib/sqlitedb), and runs HQ's migrations.
func NewApp(dir string) (*App, error) {
	a := &App{BaseApp: core.NewBaseApp(sqlitedb.AppConfig(dir))}
	if err := a.Bootstrap(); err != nil {
		return nil, err
	}
	if err := a.refuseOtherDir(dir); err != nil {
		_ = a.ResetBootstrapState()
		return nil, err
	}
	if err := a.RunAllMigrations(); err != nil {
		return nil, err
	}
	return a, nil
}

// refuseOtherDir refuses a data dir where migrations other than PocketBase's and HQ's have
// run: a city's (HQ's migrations would change its users collection), before anything is
// written to it.
func (a *App) refuseOtherDir(dir string) error {
	known := []any{}
	for _, list := range []core.MigrationsList{core.SystemMigrations, Migrations} {
		for _, m := range list.Items() {
			known = append(known, m.File)
		}
	}
	var other string
	err := a.DB().Select("file").From(core.DefaultMigrationsTable).Where(dbx.NotIn("file", known...)).Limit(1).Row(&other)
	if err == nil {
		return fmt.Errorf("%s is not a head-office data dir (it has run %s: a city's?): give head office a dir of its own", dir, other)
	}
	return nil
}

// RunAllMigrations runs PocketBase's system migrations and HQ's own (Migrations), never the
// city's.
func (a *App) RunAllMigrations() error {
	list := core.MigrationsList{}
	list.Copy(core.SystemMigrations)
	list.Copy(Migrations)
	_, err := core.NewMigrationsRunner(a, list).Up()
	return err
}

// IsHQDir reports which of head office's migrations have run in app's data dir ("" when none):
// a city refuses such a dir (pb_app's guard), as HQ refuses a city's (refuseOtherDir).
func IsHQDir(app core.App) string {
	files := []any{}
	for _, m := range Migrations.Items() {
		files = append(files, m.File)
	}
	if len(files) == 0 {
		return ""
	}
	var file string
	if err := app.DB().Select("file").From(core.DefaultMigrationsTable).Where(dbx.In("file", files...)).Limit(1).Row(&file); err != nil {
		return ""
	}
	return file
}
