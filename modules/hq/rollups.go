package hq

import (
	"context"
	"log/slog"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/clock"
	"swapbay/modules/hq/follow"
	"swapbay/modules/hq/reads"
)

// Rollups (issue 45: history beyond 30 days). HQ keeps one city_days row per city per finished
// local day (swaps, pay, and the stock at the day's end when it was read then), written by the
// rollup job:
//   - every RollupEvery for each city whose copy is following (checked every RollupCheck and at
//     start: a copy behind, failed or restoring is left for a later check, its days are not
//     complete; a city whose copy has just started following is rolled within a minute);
//   - every finished day not rolled yet, at most RollupMaxDays back (a new city's history);
//   - the last RollupRecentDays finished days again (a driver's offline action keyed days ago
//     reaches the city with its own time, DESIGN.md §12): a row changes only when its figures
//     did, so a restart or a second run writes nothing new;
//   - every RollupFullEvery (and at the job's first run after head office starts) every day and
//     week again, RollupMaxDays back: an admin edits or deletes a movement of any past day, and a
//     delete leaves no trace in the copy to find its day by (the movement row is gone), so only
//     a reread finds it. An old edit or delete reaches head office within RollupFullEvery.
//
// The stock is a balance now, not a history: it is read only for the day that has just ended
// (the run within RollupStockWithin of the city's midnight), otherwise left out
// (stockCounted false, the stock fields 0).
const (
	RollupEvery      = 10 * time.Minute
	RollupCheck      = time.Minute
	RollupMaxDays    = 400
	RollupRecentDays = 8
	// RollupFullEvery is how often each city's every day and week is read again (RollupMaxDays
	// back): measured at about 0.6 s of one core per city of 200k movements (docs/hq.md).
	RollupFullEvery   = 24 * time.Hour
	RollupStockWithin = time.Hour
	// RollupAdjustedSkew is how far a city's clock may lag head office's: a finished week older
	// than the recent ones is read again when a task adjustment of it was made after its row
	// was last written, less this.
	RollupAdjustedSkew = 5 * time.Minute
)

// RollupResult counts what a run did.
type RollupResult struct {
	Cities, Written, Skipped int
}

// RollUp writes the missing and recent days of every following city's copy at now.
func RollUp(ctx context.Context, app core.App, set *follow.Set, now time.Time) (RollupResult, error) {
	return rollUp(ctx, app, set, now, nil)
}

// RollUpAll reads every following city's every day and week again (RollupMaxDays back) at now,
// as the job does every RollupFullEvery: a movement of an old day edited or deleted in the city
// reaches head office's rows.
func RollUpAll(ctx context.Context, app core.App, set *follow.Set, now time.Time) (RollupResult, error) {
	return rollUp(ctx, app, set, now, &rollState{all: true})
}

// rollState is the job's memory between runs: when each city was last rolled, and last rolled
// in full (all: every city in full now).
type rollState struct {
	rolled, full map[string]time.Time
	all          bool
}

// newRollState is the job's state at start: nothing rolled yet, so each city's first run is full.
func newRollState() *rollState {
	return &rollState{rolled: map[string]time.Time{}, full: map[string]time.Time{}}
}

// rollUp is RollUp for the cities due (all when st is nil or has no memory): each city's days
// are read in full when st says so (RollUpAll, or its last full read is RollupFullEvery old).
func rollUp(ctx context.Context, app core.App, set *follow.Set, now time.Time, st *rollState) (RollupResult, error) {
	var due map[string]time.Time
	if st != nil {
		due = st.rolled
	}
	cities, err := cityRefs(app)
	if err != nil {
		return RollupResult{}, err
	}
	var res RollupResult
	for _, c := range cities {
		if last, ok := due[c.Id]; ok && now.Sub(last) < RollupEvery {
			continue
		}
		if st, ok := set.Status(c.Id); ok && st.State != follow.StateFollowing {
			res.Skipped++
			continue
		}
		db, msg := openCopy(set, c.Id)
		if db == nil {
			app.Logger().Debug("hq rollup: city skipped", slog.String("city", c.Name), slog.String("reason", msg))
			res.Skipped++
			continue
		}
		full := st != nil && (st.all || st.full != nil && now.Sub(st.full[c.Id]) >= RollupFullEvery)
		n, err := rollCity(ctx, app, db, c, now, full)
		db.Close()
		if err != nil {
			app.Logger().Warn("hq rollup: city failed", slog.String("city", c.Name), slog.String("error", err.Error()))
			res.Skipped++
			continue
		}
		res.Cities++
		res.Written += n
		if due != nil {
			due[c.Id] = now
		}
		if full && st.full != nil {
			st.full[c.Id] = now
		}
	}
	return res, nil
}

// rollCity rolls city c's days from its copy db (every day RollupMaxDays back when full); it
// returns the rows written.
func rollCity(ctx context.Context, app core.App, db *reads.DB, c cityRef, now time.Time, full bool) (int, error) {
	settings, err := db.Settings(ctx)
	if err != nil {
		return 0, err
	}
	loc := reads.Location(settings, c.TimeZone)
	today := clock.DayStart(now, loc)
	oldest := today.AddDate(0, 0, -RollupMaxDays)
	var last string
	_ = app.DB().Select("COALESCE(MAX([[" + CityDayDay + "]]), '')").From(CityDays).Where(dbx.HashExp{CityDayCity: c.Id}).Row(&last)
	from := oldest
	if last != "" {
		if d, err := time.ParseInLocation(time.DateOnly, last, loc); err == nil {
			from = time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc)
		}
		recent := today.AddDate(0, 0, -RollupRecentDays)
		if recent.Before(from) {
			from = recent
		}
		if from.Before(oldest) || full {
			from = oldest
		}
	}
	n := 0
	for d := from; d.Before(today); d = time.Date(d.Year(), d.Month(), d.Day()+1, 0, 0, 0, 0, loc) {
		n++
	}
	if n == 0 {
		weeks, changed, err := rollWeeks(ctx, app, db, c, loc, now, full)
		if err != nil || len(weeks) == 0 {
			return 0, err
		}
		return changed, app.RunInTransaction(func(tx core.App) error {
			for _, w := range weeks {
				if err := tx.Save(w); err != nil {
					return err
				}
			}
			return nil
		})
	}
	days, err := db.Days(ctx, from, n, now)
	if err != nil {
		return 0, err
	}
	wiped, err := db.WipedBefore(ctx)
	if err != nil {
		return 0, err
	}
	var stock *reads.Stock
	if now.Sub(today) < RollupStockWithin {
		s, err := db.Stock(ctx)
		if err != nil {
			return 0, err
		}
		stock = &s
	}
	weeks, written, err := rollWeeks(ctx, app, db, c, loc, now, full)
	if err != nil {
		return 0, err
	}
	yesterday := clock.DateString(today.AddDate(0, 0, -1))
	err = app.RunInTransaction(func(tx core.App) error {
		col, err := tx.FindCachedCollectionByNameOrId(CityDays)
		if err != nil {
			return err
		}
		existing := map[string]*core.Record{}
		recs, err := tx.FindRecordsByFilter(CityDays, "city = {:c} && day >= {:d}", "", 0, 0, dbx.Params{"c": c.Id, "d": days[0].Day})
		if err != nil {
			return err
		}
		for _, r := range recs {
			existing[r.GetString(CityDayDay)] = r
		}
		for _, w := range weeks {
			if err := tx.Save(w); err != nil {
				return err
			}
		}
		for _, d := range days {
			rec := existing[d.Day]
			if rec != nil && keptBefore(wiped, d.Day, loc) {
				continue // wiped in the city: the rolled row is all that is left of it
			}
			withStock := stock != nil && d.Day == yesterday && (rec == nil || !rec.GetBool(CityDayStockCounted))
			if rec != nil && rec.GetInt(CityDaySwaps) == d.Swaps && int64(rec.GetInt(CityDayPayCents)) == d.PayCents && !withStock {
				continue
			}
			if rec == nil {
				rec = core.NewRecord(col)
				rec.Set(CityDayCity, c.Id)
				rec.Set(CityDayDay, d.Day)
			}
			rec.Set(CityDaySwaps, d.Swaps)
			rec.Set(CityDayPayCents, d.PayCents)
			if withStock {
				rec.Set(CityDayReady, stock.Ready)
				rec.Set(CityDayWaiting, stock.Waiting)
				rec.Set(CityDayCharging, stock.Charging)
				rec.Set(CityDayField, stock.Field)
				rec.Set(CityDayQuarantined, stock.Quarantined)
				rec.Set(CityDayStockCounted, true)
			}
			if err := tx.Save(rec); err != nil {
				return err
			}
			written++
		}
		return nil
	})
	return written, err
}

// keptBefore reports whether the local day (YYYY-MM-DD in loc) starts before wiped, the time
// before which the city wiped its history (zero: never): its rolled row is kept as written, the
// copy no longer having its movements (was: the recent days and weeks a wipe reached were
// rewritten to no swaps and no pay, the pay already paid gone from head office's history).
func keptBefore(wiped time.Time, day string, loc *time.Location) bool {
	if wiped.IsZero() {
		return false
	}
	d, err := time.ParseInLocation(time.DateOnly, day, loc)
	return err == nil && d.Before(wiped)
}

// startRollups runs the rollup job on a gocron scheduler (the city's jobs pattern,
// modules/jobs): every RollupCheck (and at start), one run at a time, each city rolled when its
// copy is following and it was not rolled in the last RollupEvery — so a city is rolled about a
// minute after its copy first follows (the overview reads its finished days from the rollups).
// The returned stop ends it.
func startRollups(app core.App, set *follow.Set) (stop func(), err error) {
	s, err := gocron.NewScheduler()
	if err != nil {
		return nil, err
	}
	st := newRollState() // the job's own: one run at a time (singleton mode)
	_, err = s.NewJob(gocron.DurationJob(RollupCheck), gocron.NewTask(func() {
		res, err := rollUp(context.Background(), app, set, clock.Now(), st)
		if err != nil {
			app.Logger().Error("hq rollup job failed", slog.String("error", err.Error()))
			return
		}
		if res.Written > 0 {
			app.Logger().Info("hq rollup job", slog.Int("cities", res.Cities), slog.Int("written", res.Written), slog.Int("skipped", res.Skipped))
		}
	}), gocron.WithName("hq-rollup"), gocron.WithStartAt(gocron.WithStartImmediately()), gocron.WithSingletonMode(gocron.LimitModeReschedule))
	if err != nil {
		return nil, err
	}
	s.Start()
	return func() { _ = s.Shutdown() }, nil
}

// rollWeeks computes the pay of city c's finished Monday weeks that city_weeks lacks (at most
// RollupMaxDays back), of the last OverviewWeeks-1 finished weeks again, and of any older week
// with a task adjustment made after its row was last written (an adjustment can be made to a
// past week at any time), exactly as the overview's live figure (reads.Pay: the city's
// earnings total). It returns the records to save — new ones, those whose pay changed (counted
// in changed), and an older adjusted week's row read again with the same pay (saved so that its
// updated time says it was read after the adjustment). full reads every week again (an old
// movement edited or deleted).
func rollWeeks(ctx context.Context, app core.App, db *reads.DB, c cityRef, loc *time.Location, now time.Time, full bool) (out []*core.Record, changed int, err error) {
	thisWeek := clock.WeekStart(now, loc, 0)
	oldest := clock.WeekStart(clock.DayStart(now, loc).AddDate(0, 0, -RollupMaxDays), loc, 0)
	existing := map[string]*core.Record{}
	recs, err := app.FindRecordsByFilter(CityWeeks, "city = {:c}", "", 0, 0, dbx.Params{"c": c.Id})
	if err != nil {
		return nil, 0, err
	}
	for _, r := range recs {
		existing[r.GetString(CityWeekStart)] = r
	}
	adjusted, err := db.AdjustedWeeks(ctx)
	if err != nil {
		return nil, 0, err
	}
	recent := clock.WeekStart(now, loc, -(OverviewWeeks - 1))
	wiped, err := db.WipedBefore(ctx)
	if err != nil {
		return nil, 0, err
	}
	col, err := app.FindCachedCollectionByNameOrId(CityWeeks)
	if err != nil {
		return nil, 0, err
	}
	for w := oldest; w.Before(thisWeek); w = time.Date(w.Year(), w.Month(), w.Day()+7, 0, 0, 0, 0, loc) {
		ws := clock.DateString(w)
		rec := existing[ws]
		if rec != nil && !wiped.IsZero() && w.Before(wiped) {
			continue // wiped in the city (a week the cut starts or ends in): the row is all that is left
		}
		stale := false
		if rec != nil && w.Before(recent) && !full {
			at, ok := adjusted[ws]
			if !ok || !at.After(rec.GetDateTime("updated").Time().Add(-RollupAdjustedSkew)) {
				continue
			}
			stale = true // adjusted since its row was written
		}
		cents, err := db.Pay(ctx, w, time.Date(w.Year(), w.Month(), w.Day()+7, 0, 0, 0, 0, loc), now)
		if err != nil {
			return nil, 0, err
		}
		if rec != nil && int64(rec.GetInt(CityWeekPayCents)) == cents {
			if stale {
				out = append(out, rec)
			}
			continue
		}
		if rec == nil {
			rec = core.NewRecord(col)
			rec.Set(CityWeekCity, c.Id)
			rec.Set(CityWeekStart, ws)
		}
		rec.Set(CityWeekPayCents, cents)
		out = append(out, rec)
		changed++
	}
	return out, changed, nil
}
