package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/modules/backups"
)

// newBackupCommand is `swapbay backup --dir=DIR`: a consistent backup archive of the data dir
// (safe while `serve` runs on it: the databases are copied with VACUUM INTO). It prints the
// archive's path on stdout.
func newBackupCommand(app core.App) *cobra.Command {
	return &cobra.Command{
		Use:          "backup",
		Short:        "Back up the data dir now (safe while serving); prints the archive's path",
		Example:      "swapbay backup --dir=./pb_data",
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := app.RunAllMigrations(); err != nil {
				return err
			}
			b, err := backups.Create(context.Background(), app)
			if err != nil {
				return err
			}
			path := filepath.Join(app.DataDir(), core.LocalBackupsDirName, b.Name)
			if app.Settings().Backups.S3.Enabled {
				path = "s3:" + b.Name
			}
			fmt.Fprintln(cmd.OutOrStdout(), path)
			return nil
		},
	}
}

// newRestoreCommand is `swapbay restore --dir=DIR --from=FILE [--force]`: the backup archive
// FILE unpacked into DIR, which must be new or empty (with --force an existing DIR is moved
// aside to DIR.replaced-<time>, never deleted), then checked with SQLite's integrity check.
// Stop the server on DIR first. It runs without opening DIR as an app (see main).
func newRestoreCommand() *cobra.Command {
	var dir, from string
	var force bool
	cmd := &cobra.Command{
		Use:          "restore",
		Short:        "Restore a backup archive into a new data dir (the server must be stopped)",
		Example:      "swapbay restore --dir=./pb_data_restored --from=./pb_data/backups/swapbay_20261123_030000.zip",
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if from == "" {
				return fmt.Errorf("--from is required: the backup archive (.zip) to restore")
			}
			moved, err := backups.RestoreInto(from, dir, force)
			if moved != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "the previous data was moved to %s\n", moved)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "restored %s into %s; start it with: swapbay serve --dir=%s\n", from, dir, dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "pb_data", "the data dir to restore into (new or empty)")
	cmd.Flags().StringVar(&from, "from", "", "the backup archive to restore")
	cmd.Flags().BoolVar(&force, "force", false, "move an existing data dir aside (to DIR.replaced-<time>) instead of refusing")
	return cmd
}

// runRestoreIfAsked runs `swapbay restore` before PocketBase bootstraps: bootstrapping would
// open (and create) the target dir's database, which the restore must write.
func runRestoreIfAsked() (handled bool) {
	if len(os.Args) < 2 || os.Args[1] != "restore" {
		return false
	}
	cmd := newRestoreCommand()
	cmd.SetArgs(os.Args[2:])
	if err := cmd.Execute(); err != nil {
		os.Exit(1)
	}
	return true
}
