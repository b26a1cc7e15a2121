package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/lib/sqlitedb"
	"swapbay/modules/backups"
	"swapbay/modules/replication"
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

// newRestoreCommand is `swapbay restore --dir=DIR --from=FILE|URL [--force]`. With a backup
// archive FILE: the archive unpacked into DIR, which must be new or empty (with --force an
// existing DIR is moved aside to DIR.replaced-<time>, never deleted), then checked with
// SQLite's integrity check. With a replica URL (s3://bucket/path?…, file:///dir, or a replica
// directory): data.db rebuilt from the replica alone (modules/replication), then the
// integrity check and the ledger's recalculation, whose corrections are printed (none
// expected). Stop the server on DIR first. It runs without opening DIR as an app (see main).
func newRestoreCommand() *cobra.Command {
	var dir, from string
	var force bool
	cmd := &cobra.Command{
		Use:   "restore",
		Short: "Restore a backup archive or a replica into a new data dir (the server must be stopped)",
		Example: "swapbay restore --dir=./pb_data_restored --from=./pb_data/backups/swapbay_20261123_030000.zip\n" +
			"swapbay restore --dir=./pb_data --from='s3://swapbay-paris/db?region=eu-west-3'\n" +
			"swapbay restore --dir=./pb_data --from=file:///mnt/replica/swapbay",
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if from == "" {
				return fmt.Errorf("--from is required: the backup archive (.zip) or the replica URL (s3://…, file://…) to restore")
			}
			if fi, err := os.Stat(from); replication.IsURL(from) || err == nil && fi.IsDir() {
				return restoreReplica(cmd, from, dir, force)
			}
			moved, err := backups.RestoreInto(from, dir, force)
			if moved != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "the previous data was moved to %s\n", moved)
			}
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "restored %s into %s\n", from, dir)
			turnedOff, err := turnOffReplicationIn(dir)
			if err != nil {
				return err
			}
			if turnedOff != "" {
				fmt.Fprintf(out, "the System page's replication (to %s) is turned off in the restored data: turn it on there again once this machine is the one in service\n", turnedOff)
			}
			fmt.Fprintf(out, "start it with: swapbay serve --dir=%s\n", dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "pb_data", "the data dir to restore into (new or empty)")
	cmd.Flags().StringVar(&from, "from", "", "the backup archive (.zip), or the replica: s3://bucket/path?endpoint=…&region=… (credentials from $"+
		replication.EnvAccessKey+" and $"+replication.EnvSecretKey+"), file:///dir or a replica directory")
	cmd.Flags().BoolVar(&force, "force", false, "move an existing data dir aside (to DIR.replaced-<time>) instead of refusing")
	return cmd
}

// restoreReplica is the replica side of `swapbay restore`: it prints what the restore found
// and fails on anything but an intact database with 0 corrections.
func restoreReplica(cmd *cobra.Command, from, dir string, force bool) error {
	cfg := replication.FromEnv()
	cfg.URL = from
	if !replication.IsURL(from) {
		abs, err := filepath.Abs(from)
		if err != nil {
			return err
		}
		cfg.URL = "file://" + abs
	}
	rep, err := replication.Restore(context.Background(), cfg, dir, force)
	if rep.MovedTo != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "the previous data was moved to %s\n", rep.MovedTo)
	}
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "restored %s into %s in %s: transaction %d, %d bytes, %d movements\n",
		cfg.Target(), dir, rep.Took.Round(time.Millisecond), rep.TXID, rep.Bytes, rep.Movements)
	fmt.Fprintf(out, "integrity check: %s (%s)\n", rep.Integrity, rep.Check.Round(time.Millisecond))
	fmt.Fprintf(out, "ledger recalculation: %d corrections\n", len(rep.Corrections))
	for _, c := range rep.Corrections {
		fmt.Fprintf(out, "  %s\n", c)
	}
	if len(rep.Corrections) > 0 {
		return fmt.Errorf("the recalculation corrected %d balances: the replica's cached balances did not match its entries", len(rep.Corrections))
	}
	if rep.SettingsTurnedOff != "" {
		fmt.Fprintf(out, "the System page's replication (to %s) is turned off in the restored data: turn it on there again once this machine is the one in service\n", rep.SettingsTurnedOff)
	}
	fmt.Fprintf(out, "start it with: swapbay serve --dir=%s (add --replicate=URL to replicate again)\n", dir)
	return nil
}

// turnOffReplicationIn opens the restored data dir and turns its stored replication off
// (replication.TurnOffRestored), answering the target it pointed at.
func turnOffReplicationIn(dir string) (string, error) {
	app := core.NewBaseApp(sqlitedb.AppConfig(dir))
	if err := app.Bootstrap(); err != nil {
		return "", fmt.Errorf("open the restored data: %w", err)
	}
	defer app.ResetBootstrapState()
	return replication.TurnOffRestored(app)
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
