package main

import (
	"fmt"
	"os"

	"github.com/pocketbase/pocketbase"
	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/modules/replication"
)

// registerCommands adds SwapBay's CLI commands (DESIGN.md §2) to the PocketBase root command.
func registerCommands(app *pocketbase.PocketBase) {
	// each command lives in its own cmd_<name>.go and is added here
	app.RootCmd.AddCommand(newUserCommand(app))
	app.RootCmd.AddCommand(newSeedDemoCommand(app))
	app.RootCmd.AddCommand(newDemoReadingsCommand(app))
	app.RootCmd.AddCommand(newBackupCommand(app))
	app.RootCmd.AddCommand(newRestoreCommand()) // listed in --help; run by runBeforeBootstrap
	app.RootCmd.AddCommand(newHQCommand())      // listed in --help; run by runBeforeBootstrap
	// `serve --replicate=URL`: replicate data.db continuously (modules/replication); it wins
	// over $SWAPBAY_REPLICA_URL
	opt := replication.DefaultOptions()
	replication.SetOptions(app, opt)
	app.RootCmd.PersistentFlags().StringVar(&opt.ServerURL, "replicate", "",
		"replicate data.db continuously to s3://bucket/path?endpoint=…&region=… or file:///dir (default $"+replication.EnvURL+")")
}

// command is a SwapBay command: flags only (no arguments), and no usage printed when it fails
// (its error goes to stderr with a non-zero exit, for scripts).
func command(use, short, example string, run func(cmd *cobra.Command) error) *cobra.Command {
	return &cobra.Command{
		Use:          use,
		Short:        short,
		Example:      example,
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE:         func(cmd *cobra.Command, _ []string) error { return run(cmd) },
	}
}

// runMigrations runs SwapBay's migrations on app: custom commands run before serve, so a fresh
// --dir has only PocketBase's system tables after bootstrap.
func runMigrations(app core.App) error {
	if err := app.RunAllMigrations(); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return nil
}

// migrated is run, after runMigrations.
func migrated(app core.App, run func(cmd *cobra.Command) error) func(cmd *cobra.Command) error {
	return func(cmd *cobra.Command) error {
		if err := runMigrations(app); err != nil {
			return err
		}
		return run(cmd)
	}
}

// runBeforeBootstrap runs `swapbay <name> …` (newCmd's command) when it is the command asked
// for, before PocketBase bootstraps the city's app: bootstrapping would open (and create) a
// data dir the command must not touch (restore writes it; head office never opens a city's).
func runBeforeBootstrap(name string, newCmd func() *cobra.Command) (handled bool) {
	if len(os.Args) < 2 || os.Args[1] != name {
		return false
	}
	cmd := newCmd()
	cmd.SetArgs(os.Args[2:])
	if err := cmd.Execute(); err != nil {
		os.Exit(1)
	}
	return true
}
