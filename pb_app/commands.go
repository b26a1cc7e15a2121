package main

import (
	"github.com/pocketbase/pocketbase"
)

// registerCommands adds SwapBay's CLI commands (DESIGN.md §2) to the PocketBase root command.
func registerCommands(app *pocketbase.PocketBase) {
	// each command lives in its own cmd_<name>.go and is added here
	app.RootCmd.AddCommand(newUserCommand(app))
	app.RootCmd.AddCommand(newSeedDemoCommand(app))
	app.RootCmd.AddCommand(newBackupCommand(app))
	app.RootCmd.AddCommand(newRestoreCommand()) // listed in --help; run by runRestoreIfAsked
}
