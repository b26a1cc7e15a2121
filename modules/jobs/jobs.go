// Package jobs runs SwapBay's background jobs on a gocron scheduler (DESIGN.md §6): it starts
// with `serve` and stops when the app terminates.
package jobs

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/schema"
	"swapbay/lib/sqlitedb"
	"swapbay/modules/charging"
	"swapbay/modules/health"
	"swapbay/modules/packs"
	"swapbay/modules/photos"
	"swapbay/modules/replication"
	"swapbay/modules/system"
	"swapbay/modules/terms"
)

// ChargingDueInterval is how often the charging-due job looks for sessions past their ETA.
const ChargingDueInterval = 30 * time.Second

// PhotoCleanupInterval is how often unclaimed photo uploads older than 24 h are removed.
const PhotoCleanupInterval = time.Hour

// HeartbeatInterval is how often the city beats while it replicates (Heartbeat).
const HeartbeatInterval = time.Minute

// AgreementPDFInterval is how often the pdf job looks for agreement PDFs to make again.
const AgreementPDFInterval = time.Minute

// Register starts the scheduler on serve and shuts it down on terminate. Jobs:
//
//	charging-due   every 30 s   announce each active session once when its ETA passes
//	                            (dueAnnounced := true, then CHARGING_UPDATED after commit)
//	photo-cleanup  every hour   remove uploads not claimed within 24 h, with their files
//	agreement-pdf  every minute make agreement PDFs a restart cut short or that failed
//	replication-heartbeat every minute  while data.db is replicated, rewrite the heartbeat row
//	                            (Heartbeat): head office reads a silent replica as a stopped city
//	wal-checkpoint every 200 ms copy each database's WAL back into its file, off the write
//	                            path (sqlitedb.Checkpoint); data.db is skipped while it is
//	                            replicated: Litestream owns its checkpoints then
//	pack-missing   local midnight the missing-packs cutoff moves a day (packs.RunMissing):
//	                            count them, announce the change; the operation's time zone
//	                            (a saved time_zone setting moves the job with it)
//	pack-health    02:30 UTC    re-derive every pack with a state of health (health.RederiveAll):
//	                            the 30-day trend's window slides a day without a new reading
func Register(app core.App) {
	var scheduler gocron.Scheduler
	var packMissing gocron.Job
	var mu sync.Mutex // guards scheduler and packMissing against the settings subscriber
	// a saved time_zone setting moves the pack-missing job to the new local midnight
	cancel := events.For(app).Subscribe(func(m events.Message) {
		if c, ok := m.Data.(events.SettingsChange); ok && m.Type == events.SettingsSaved && slices.Contains(c.Keys, schema.SettingTimeZone) {
			mu.Lock()
			defer mu.Unlock()
			if s, job := scheduler, packMissing; s != nil && job != nil {
				j, err := s.Update(job.ID(), PackMissingSchedule(operationZone(app)), packMissingTask(app), packMissingOptions()...)
				if err != nil {
					app.Logger().Error("pack-missing job: could not follow the time zone", slog.String("error", err.Error()))
					return
				}
				packMissing = j
			}
		}
	})
	start := func() error {
		mu.Lock()
		defer mu.Unlock()
		if scheduler != nil {
			return nil
		}
		s, err := gocron.NewScheduler()
		if err != nil {
			return err
		}
		err = every(s, ChargingDueInterval, "charging-due", logFailure(app, "charging-due job", func() error {
			_, err := charging.AnnounceDue(app, clock.Now())
			return err
		}))
		if err != nil {
			return err
		}
		err = every(s, PhotoCleanupInterval, "photo-cleanup", logFailure(app, "photo-cleanup job", func() error {
			_, err := photos.RemoveUnclaimed(app, clock.Now())
			return err
		}))
		if err != nil {
			return err
		}
		// the pdf job: agreements still generating a minute after signing (a restart cut the
		// after-commit generation short) and failed ones whose backoff has passed; it also runs
		// once at start, so nothing stays generating across a restart
		err = every(s, AgreementPDFInterval, "agreement-pdf", logFailure(app, "pdf job", func() error {
			_, err := terms.RetryDue(context.Background(), app, clock.Now(), 20)
			return err
		}), gocron.WithStartAt(gocron.WithStartImmediately()))
		if err != nil {
			return err
		}
		if packMissing, err = s.NewJob(PackMissingSchedule(operationZone(app)), packMissingTask(app), packMissingOptions()...); err != nil {
			return err
		}
		_, err = s.NewJob(PackHealthSchedule, logFailure(app, "pack-health job", func() error {
			n, err := health.RederiveAll(app)
			app.Logger().Info("pack-health job", slog.Int("packs", n))
			return err
		}), jobOptions("pack-health")...)
		if err != nil {
			return err
		}
		if err := every(s, sqlitedb.CheckpointInterval, "wal-checkpoint", gocron.NewTask(func() { Checkpoint(app) })); err != nil {
			return err
		}
		err = every(s, HeartbeatInterval, "replication-heartbeat", logFailure(app, "replication-heartbeat job", func() error {
			_, err := Heartbeat(app, clock.Now())
			return err
		}))
		if err != nil {
			return err
		}
		s.Start()
		scheduler = s
		app.Store().Set(storeKey, s)
		return nil
	}
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		if err := start(); err != nil {
			return err
		}
		return se.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		mu.Lock()
		defer mu.Unlock()
		if scheduler != nil {
			_ = scheduler.Shutdown()
			scheduler = nil
			app.Store().Remove(storeKey)
		}
		return e.Next()
	})
}

// PackHealthSchedule runs the pack-health job nightly (02:30 UTC: a quiet hour in Europe; the
// trend moves by the day, so the hour does not matter).
var PackHealthSchedule = gocron.CronJob("CRON_TZ=UTC 30 2 * * *", false)

// PackMissingSchedule runs the pack-missing job at midnight in loc (a cron in that zone, so a
// daylight-saving change keeps it at local midnight).
func PackMissingSchedule(loc *time.Location) gocron.JobDefinition {
	return gocron.CronJob("CRON_TZ="+loc.String()+" 0 0 * * *", false)
}

func packMissingTask(app core.App) gocron.Task {
	return gocron.NewTask(func() {
		n, err := packs.RunMissing(app, clock.Now())
		if err != nil {
			app.Logger().Error("pack-missing job failed", slog.String("error", err.Error()))
			return
		}
		app.Logger().Info("pack-missing job", slog.Int("missing", n))
	})
}

func packMissingOptions() []gocron.JobOption {
	return jobOptions("pack-missing")
}

// jobOptions names a job, adds extra, and reschedules a run that falls due while the last
// one still runs (never two at once).
func jobOptions(name string, extra ...gocron.JobOption) []gocron.JobOption {
	return append(append([]gocron.JobOption{gocron.WithName(name)}, extra...), gocron.WithSingletonMode(gocron.LimitModeReschedule))
}

// every adds the job name running task every interval, with jobOptions.
func every(s gocron.Scheduler, interval time.Duration, name string, task gocron.Task, extra ...gocron.JobOption) error {
	_, err := s.NewJob(gocron.DurationJob(interval), task, jobOptions(name, extra...)...)
	return err
}

// logFailure is a task running run and logging its error as "<what> failed".
func logFailure(app core.App, what string, run func() error) gocron.Task {
	return gocron.NewTask(func() {
		if err := run(); err != nil {
			app.Logger().Error(what+" failed", slog.String("error", err.Error()))
		}
	})
}

// operationZone is the operation's time zone (UTC when it cannot be read: logged).
func operationZone(app core.App) *time.Location {
	loc, err := system.Location(app)
	if err != nil {
		app.Logger().Warn("jobs: could not read the time zone; pack-missing runs at UTC midnight", slog.String("error", err.Error()))
		return time.UTC
	}
	return loc
}

// Heartbeat runs the replication-heartbeat job once: while data.db is replicated it rewrites
// the heartbeat row (schema.Heartbeat) with now, so the replica changes at least once a minute
// and head office reads a replica silent for minutes as a stopped city, not a quiet one
// (docs/hq.md). It reports whether it beat (not while replication is off).
func Heartbeat(app core.App, now time.Time) (bool, error) {
	if !replication.Active(app) {
		return false, nil
	}
	at, _ := types.ParseDateTime(now.UTC())
	_, err := app.DB().NewQuery("INSERT INTO {{" + schema.Heartbeat + "}} (id, [[" + schema.HeartbeatAt + "]]) VALUES (1, {:at})" +
		" ON CONFLICT(id) DO UPDATE SET [[" + schema.HeartbeatAt + "]] = excluded.[[" + schema.HeartbeatAt + "]]").
		Bind(dbx.Params{"at": at.String()}).Execute()
	return err == nil, err
}

// Checkpointed is one database the wal-checkpoint job checkpointed: its WAL's pages and how
// many of them were copied back into the database file.
type Checkpointed struct {
	DB              string // "data" or "auxiliary"
	WALPages, Moved int
}

// Checkpoint runs the wal-checkpoint job once: sqlitedb.Checkpoint on the data and the
// auxiliary (logs) database, on the auxiliary one only while data.db is replicated
// (modules/replication: Litestream keeps a read transaction on data.db and checkpoints it
// itself, after each shipped batch). It returns what it checkpointed; failures are logged.
func Checkpoint(app core.App) []Checkpointed {
	dbs := []struct {
		name string
		db   dbx.Builder
	}{{"data", app.ConcurrentDB()}, {"auxiliary", app.AuxConcurrentDB()}}
	if replication.Active(app) {
		dbs = dbs[1:]
	}
	out := make([]Checkpointed, 0, len(dbs))
	for _, db := range dbs {
		pages, moved, err := sqlitedb.Checkpoint(db.db)
		if err != nil {
			app.Logger().Error("wal-checkpoint job failed", slog.String("db", db.name), slog.String("error", err.Error()))
			continue
		}
		out = append(out, Checkpointed{DB: db.name, WALPages: pages, Moved: moved})
	}
	return out
}
