// Package hq holds head office's migrations (DESIGN.md §15), registered into modules/hq's own
// list (hq.Migrations), never into PocketBase's core.AppMigrations where the city's
// pb_migrations are: `swapbay hq serve` runs PocketBase's system migrations and these only
// (hq.App.RunAllMigrations), so HQ's data dir never gets the city's collections, and a city's
// never gets HQ's. Importing the package registers them. Never edit one that has run.
package hq
