package main

import (
	"github.com/pocketbase/pocketbase"

	"swapbay/modules/replication"
)

// registerCommands adds SwapBay's CLI commands (DESIGN.md §2) to the PocketBase root command.
func registerCommands(app *pocketbase.PocketBase) {
	// each command lives in its own cmd_<name>.go and is added here
	app.RootCmd.AddCommand(newUserCommand(app))
	app.RootCmd.AddCommand(newSeedDemoCommand(app))
	app.RootCmd.AddCommand(newDemoReadingsCommand(app))
	app.RootCmd.AddCommand(newBackupCommand(app))
	app.RootCmd.AddCommand(newRestoreCommand()) // listed in --help; run by runRestoreIfAsked
	app.RootCmd.AddCommand(newHQCommand())      // listed in --help; run by runHQIfAsked
	// `serve --replicate=URL`: replicate data.db continuously (modules/replication); it wins
	// over $SWAPBAY_REPLICA_URL
	opt := replication.DefaultOptions()
	replication.SetOptions(app, opt)
	app.RootCmd.PersistentFlags().StringVar(&opt.ServerURL, "replicate", "",
		"replicate data.db continuously to s3://bucket/path?endpoint=…&region=… or file:///dir (default $"+replication.EnvURL+")")
}
