package main

import (
	"os"
	"sort"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/ids"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/pb_app/setup"
)

// freshCity makes a city's app in a new temp data dir (named by pattern, as os.MkdirTemp),
// bootstrapped with every migration run; done resets the app and removes the dir.
func freshCity(pattern string) (app core.App, done func()) {
	dir, err := os.MkdirTemp("", pattern)
	check(err)
	base := core.NewBaseApp(sqlitedb.AppConfig(dir))
	setup.Register(base)
	check(base.Bootstrap())
	check(base.RunAllMigrations())
	return base, func() {
		base.ResetBootstrapState()
		os.RemoveAll(dir)
	}
}

// medianSlowest sorts ds and answers its median and its slowest, to the millisecond.
func medianSlowest(ds []time.Duration) (median, slowest time.Duration) {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2].Round(time.Millisecond), ds[len(ds)-1].Round(time.Millisecond)
}

// insertPackAt inserts a pack in service at the account location with events "moved" events
// of history to it; fields adds the pack's serial and whatever else it carries (its lot).
func insertPackAt(tx core.App, fields dbx.Params, location string, events int, now string) error {
	id := ids.New()
	row := dbx.Params{
		"id": id, schema.PackState: schema.PackStateInService,
		schema.PackModel: "S48", schema.PackManufacturer: "Voltcell",
		schema.PackLocation: location, schema.PackChargeCount: 0, schema.PackLastSeenAt: now, schema.Created: now, schema.Updated: now,
	}
	for k, v := range fields {
		row[k] = v
	}
	if _, err := tx.DB().Insert(schema.Packs, row).Execute(); err != nil {
		return err
	}
	for e := 0; e < events; e++ {
		if _, err := tx.DB().Insert(schema.PackEvents, dbx.Params{
			"id": ids.New(), schema.PackEventPack: id, schema.PackEventKind: schema.PackEventMoved,
			schema.PackEventToAccount: location, schema.PackEventAt: now, schema.Created: now,
		}).Execute(); err != nil {
			return err
		}
	}
	return nil
}
