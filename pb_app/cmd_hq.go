package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/hooks"
	"swapbay/lib/apierr"
	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
	"swapbay/modules/hq/recall"

	_ "swapbay/pb_migrations/hq"
	"swapbay/ui"
)

// newHQCommand is `swapbay hq`: head office (DESIGN.md §15), the same binary in a second mode
// with its own data dir, migrations and users. It runs before PocketBase bootstraps the city's
// app (runBeforeBootstrap): HQ never opens a city's data dir.
func newHQCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hq",
		Short: "Head office: follow the cities' replicas (hq serve, hq user create, hq superuser upsert)",
	}
	cmd.AddCommand(newHQServeCommand(), newHQUserCommand(), newHQSuperuserCommand())
	return cmd
}

// newHQServeCommand is `swapbay hq serve --dir=HQDIR --http=ADDR`.
func newHQServeCommand() *cobra.Command {
	var dir, addr string
	cmd := command("serve", "Serve head office from HQDIR, following every city's replica into a read-only copy", "swapbay hq serve --dir=./hq_data --http=127.0.0.1:8171",
		func(cmd *cobra.Command) error {
			app, err := hq.NewApp(dir)
			if err != nil {
				return fmt.Errorf("open %s: %w", dir, err)
			}
			// Litestream's follow logs to slog's default logger (a replica without a DB has no
			// other): its warnings and errors only, not a line per applied poll per city
			slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			set := hq.NewSet(ctx, app, follow.DefaultOptions())
			hooks.RegisterHQ(app) // head office's raw-data door: its recalls and rollups refused to raw writes in its /_/, the writes that pass on its audit list
			hq.Register(app, set)
			recall.Register(app, set, recall.DefaultOptions()) // recalls across cities: their sends resumed at serve
			hq.RegisterUI(app, ui.Dist())                      // head office's screens: ui/hq.html from the embedded build
			go func() {
				<-ctx.Done()
				// stop serving (apis.Serve's graceful shutdown) and every follower
				_ = app.OnTerminate().Trigger(&core.TerminateEvent{App: app}, func(e *core.TerminateEvent) error {
					return e.App.ResetBootstrapState()
				})
			}()
			app.OnServe().BindFunc(func(se *core.ServeEvent) error {
				// no superuser installer link: it names the city's `superuser upsert` (on
				// pb_data); HQ's accounts come from `swapbay hq user create`
				se.InstallerFunc = nil
				fmt.Fprintf(cmd.OutOrStdout(), "SwapBay head office on http://%s (data dir %s; accounts: swapbay hq user create --dir=%s)\n", addr, dir, dir)
				return se.Next()
			})
			// PocketBase's banner would name the city's commands (superuser upsert on pb_data)
			err = apis.Serve(app, apis.ServeConfig{HttpAddr: addr, ShowStartBanner: false})
			if errors.Is(err, context.Canceled) {
				err = nil
			}
			set.Close()
			return err
		})
	cmd.Flags().StringVar(&dir, "dir", "hq_data", "head office's data dir (its own: never a city's)")
	cmd.Flags().StringVar(&addr, "http", "127.0.0.1:8091", "TCP address to listen on (a city serves on 8090 by default)")
	return cmd
}

// newHQUserCommand is `swapbay hq user create`: the first hq_admin (HQ has no open
// registration) and any other head-office account. It prints the new id.
func newHQUserCommand() *cobra.Command {
	user := &cobra.Command{Use: "user", Short: "Manage head-office accounts"}
	var dir string
	var in hq.NewUser
	create := command("create", "Create a head-office account and print its id",
		"swapbay hq user create --dir=./hq_data --email=hq@example.com --password=long-secret --role=hq_admin --name='Head Office'",
		func(cmd *cobra.Command) error {
			app, err := hq.NewApp(dir)
			if err != nil {
				return fmt.Errorf("open %s: %w", dir, err)
			}
			defer app.ResetBootstrapState()
			rec, err := hq.CreateUser(app, in)
			if err != nil {
				var v *apierr.Error
				if errors.As(err, &v) && v.Field != "" {
					return fmt.Errorf("--%s: %s", v.Field, v.Message)
				}
				return err
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), rec.Id)
			return err
		})
	create.Flags().StringVar(&dir, "dir", "hq_data", "head office's data dir")
	create.Flags().StringVar(&in.Email, "email", "", "email address (required)")
	create.Flags().StringVar(&in.Password, "password", "", "password, 10 to 72 characters (required)")
	create.Flags().StringVar(&in.Role, "role", hq.RoleViewer, "role: hq_admin or hq_viewer")
	create.Flags().StringVar(&in.Name, "name", "", "display name")
	user.AddCommand(create)
	return user
}

// newHQSuperuserCommand is `swapbay hq superuser upsert`: a superuser of head office's own
// /_/ (its raw data, behind the door of hooks/hq.go; the city's `superuser` command refuses an
// HQ dir). It creates the superuser, or sets the password of the one with that email.
func newHQSuperuserCommand() *cobra.Command {
	superuser := &cobra.Command{Use: "superuser", Short: "Manage head office's superusers (its /_/ dashboard)"}
	var dir, email, password string
	upsert := command("upsert", "Create a head-office superuser, or set its password",
		"swapbay hq superuser upsert --dir=./hq_data --email=root@example.com --password=long-secret",
		func(cmd *cobra.Command) error {
			if email == "" || password == "" {
				return errors.New("--email and --password are required")
			}
			app, err := hq.NewApp(dir)
			if err != nil {
				return fmt.Errorf("open %s: %w", dir, err)
			}
			defer app.ResetBootstrapState()
			superusers, err := app.FindCollectionByNameOrId(core.CollectionNameSuperusers)
			if err != nil {
				return err
			}
			rec, err := app.FindAuthRecordByEmail(superusers, email)
			if err != nil {
				rec = core.NewRecord(superusers)
			}
			rec.SetEmail(email)
			rec.SetPassword(password)
			if err := app.Save(rec); err != nil {
				return fmt.Errorf("save superuser %s: %w", email, err)
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), rec.Id)
			return err
		})
	upsert.Flags().StringVar(&dir, "dir", "hq_data", "head office's data dir")
	upsert.Flags().StringVar(&email, "email", "", "email address (required)")
	upsert.Flags().StringVar(&password, "password", "", "password (required; PocketBase's superuser rules: 8 characters or more)")
	superuser.AddCommand(upsert)
	return superuser
}

// refuseHQDir makes the city's app refuse a head-office data dir at bootstrap, before its
// migrations run (they would add the city's collections to HQ's).
func refuseHQDir(app core.App) {
	app.OnBootstrap().BindFunc(func(e *core.BootstrapEvent) error {
		if err := e.Next(); err != nil {
			return err
		}
		if file := hq.IsHQDir(e.App); file != "" {
			return fmt.Errorf("%s is head office's data dir (it has run %s): serve it with `swapbay hq serve --dir=%s`, and give the city a dir of its own",
				e.App.DataDir(), file, e.App.DataDir())
		}
		return nil
	})
}
