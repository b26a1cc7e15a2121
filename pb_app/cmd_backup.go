package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/modules/backups"
	"swapbay/modules/replication"
	"swapbay/modules/restore"
)

// newBackupCommand is `swapbay backup --dir=DIR`: a consistent backup archive of the data dir
// (safe while `serve` runs on it: the databases are copied with VACUUM INTO). It prints the
// archive's path on stdout.
func newBackupCommand(app core.App) *cobra.Command {
	return command("backup", "Back up the data dir now (safe while serving); prints the archive's path", "swapbay backup --dir=./pb_data",
		migrated(app, func(cmd *cobra.Command) error {
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
		}))
}

// newRestoreCommand is `swapbay restore --dir=DIR --from=FILE|URL [--force]`: one pipeline
// (modules/restore) for a backup archive FILE and a replica URL (s3://bucket/path?…,
// file:///dir, or a replica directory): built and checked in a new dir beside DIR (SQLite's
// integrity check, the ledger's recalculation with 0 corrections, the stored replication
// turned off, every head-office token revoked) and put in DIR's place only when good. DIR must be new or empty; with --force an
// existing DIR is moved aside to DIR.replaced-<time>, never deleted. A failed restore leaves
// DIR as it was. Stop the server on DIR first. It runs without opening DIR as an app
// (runBeforeBootstrap).
func newRestoreCommand() *cobra.Command {
	var dir, from string
	var force bool
	cmd := command("restore", "Restore a backup archive or a replica into a data dir (the server must be stopped)",
		"swapbay restore --dir=./pb_data_restored --from=./pb_data/backups/swapbay_20261123_030000.zip\n"+
			"swapbay restore --dir=./pb_data --from='s3://swapbay-paris/db?region=eu-west-3'\n"+
			"swapbay restore --dir=./pb_data --from=file:///mnt/replica/swapbay",
		func(cmd *cobra.Command) error {
			src, err := restore.SourceFor(from)
			if err != nil {
				return err
			}
			rep, err := restore.Run(context.Background(), src, dir, force)
			out := cmd.OutOrStdout()
			if rep.Integrity != "" {
				fmt.Fprintf(out, "integrity check: %s (%s)\n", rep.Integrity, rep.Check.Round(time.Millisecond))
			}
			if rep.Integrity == "ok" {
				fmt.Fprintf(out, "ledger recalculation: %d corrections\n", len(rep.Corrections))
				for _, c := range rep.Corrections {
					fmt.Fprintf(out, "  %s\n", c)
				}
			}
			if err != nil {
				return fmt.Errorf("%w (%s is as it was)", err, rep.Dir)
			}
			fmt.Fprintf(out, "restored %s into %s in %s: transaction %d, %d bytes, %d movements\n",
				rep.From, rep.Dir, rep.Took.Round(time.Millisecond), rep.TXID, rep.Bytes, rep.Movements)
			if rep.MovedTo != "" {
				fmt.Fprintf(out, "the previous data was moved to %s\n", rep.MovedTo)
			}
			if rep.SettingsTurnedOff != "" {
				fmt.Fprintf(out, "the System page's replication (to %s) is turned off in the restored data: turn it on there again once this machine is the one in service\n", rep.SettingsTurnedOff)
			}
			if n := len(rep.HeadOfficeTokensRevoked); n > 0 {
				fmt.Fprintf(out, "%d head-office token(s) revoked in the restored data (one revoked after the backup would work again): %s. "+
					"Issue a new one on the System page and save it on head office's Cities page\n", n, strings.Join(rep.HeadOfficeTokensRevoked, ", "))
			}
			if len(rep.SignedOut) > 0 {
				fmt.Fprintf(out, "every session in the restored data is ended (one ended after the backup would work again): %s sign in again\n",
					signedOut(rep.SignedOut))
			}
			fmt.Fprintf(out, "start it with: swapbay serve --dir=%s (add --replicate=URL to replicate again)\n", rep.Dir)
			return nil
		})
	cmd.Flags().StringVar(&dir, "dir", "pb_data", "the data dir to restore into (new or empty)")
	cmd.Flags().StringVar(&from, "from", "", "the backup archive (.zip), or the replica: s3://bucket/path?endpoint=…&region=… (credentials from $"+
		replication.EnvAccessKey+" and $"+replication.EnvSecretKey+"), file:///dir or a replica directory")
	cmd.Flags().BoolVar(&force, "force", false, "move an existing data dir aside (to DIR.replaced-<time>) instead of refusing")
	return cmd
}

// signedOut names who signs in again after a restore: "3 users and 1 superuser".
func signedOut(by map[string]int) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(by)) {
		n := by[name]
		what := strings.TrimPrefix(strings.TrimSuffix(name, "s"), "_")
		if n != 1 {
			what += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, what))
	}
	return strings.Join(parts, " and ")
}
