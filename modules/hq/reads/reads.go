// Package reads is head office's reads over the cities' followed copies (DESIGN.md §15,
// issue 45 item 3): each figure a city's own screens show, computed by the same SQL over the
// copy (opened read-only with follow.Open; never a live city file). Pay is the earnings
// module's own reads and arithmetic run on the copy (earnings.Total, Earners, IndividualOf:
// they take any dbx builder). The other figures' city functions take a core.App over a live
// database, so their queries are the city's, repeated; TestFiguresEqualTheCitys compares
// every figure with the city's own functions on a seeded city.
package reads

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/earnings"
	"swapbay/modules/hq/follow"
)

// DB is one city's copy, open read-only.
type DB struct {
	raw *sql.DB
	db  *dbx.DB
}

// Open opens the copy at path read-only (follow.Open). A missing file is an error (Open
// would otherwise answer "no such table" on the first read).
func Open(path string) (*DB, error) {
	raw, err := follow.Open(path)
	if err != nil {
		return nil, err
	}
	raw.SetMaxOpenConns(2)
	return &DB{raw: raw, db: dbx.NewFromDB(raw, "sqlite")}, nil
}

// Close closes the copy.
func (d *DB) Close() error { return d.raw.Close() }

// Builder is the copy as a dbx builder (tests and the bench query it).
func (d *DB) Builder() *dbx.DB { return d.db }

// EachRow runs q and calls scan on each of its rows (rows.Scan into the caller's variables),
// stopping at the first error.
func EachRow(q *dbx.Query, scan func(rows *dbx.Rows) error) error {
	rows, err := q.Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Settings reads the city's settings (key → value).
func (d *DB) Settings(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	err := EachRow(d.db.NewQuery("SELECT [[key]], [[value]] FROM {{"+schema.Settings+"}}").WithContext(ctx), func(rows *dbx.Rows) error {
		var k, v sql.NullString
		if err := rows.Scan(&k, &v); err != nil {
			return err
		}
		out[k.String] = v.String
		return nil
	})
	return out, err
}

// Location is the city's time zone: its own time_zone setting (what its screens cut days
// in), else fallback (the zone head office was given for the city).
func Location(settings map[string]string, fallback string) *time.Location {
	if z := strings.TrimSpace(settings[schema.SettingTimeZone]); z != "" {
		return clock.LoadLocation(z)
	}
	return clock.LoadLocation(fallback)
}

// Stock is the city's batteries by place (the dashboard's figures, inventory.Stats: cached
// account balances), and its packs in transit to another city.
type Stock struct {
	Ready       int `json:"ready"`
	Waiting     int `json:"waiting"`
	Charging    int `json:"charging"`
	Field       int `json:"field"`
	Quarantined int `json:"quarantined"`
	InTransit   int `json:"inTransit"`
}

// Add adds o to s.
func (s *Stock) Add(o Stock) {
	s.Ready += o.Ready
	s.Waiting += o.Waiting
	s.Charging += o.Charging
	s.Field += o.Field
	s.Quarantined += o.Quarantined
	s.InTransit += o.InTransit
}

// PackStateInTransit is a pack sent to another city and not yet received (the city's
// state, read in the copies).
const PackStateInTransit = schema.PackStateInTransit

// sumsClamp bounds each balance sum, as inventory's kindSums does.
const sumsClamp = 1_000_000_000_000

// Stock reads the stock: inventory.Stats' one grouped query over the non-empty accounts of the
// counted kinds (idx_accounts_kind_balance), plus the packs in transit (idx_packs_state).
func (d *DB) Stock(ctx context.Context) (Stock, error) {
	q := "SELECT kind, MIN(MAX(CAST(COALESCE(SUM(balance), 0) AS INTEGER), -{:clamp}), {:clamp}) FROM {{" + schema.Accounts + "}}" +
		" WHERE kind IN ('holder', 'quarantine', 'ready', 'session', 'unassigned', 'untracked', 'waiting') AND balance > 0 GROUP BY kind" +
		" UNION ALL SELECT '#transit', COUNT(*) FROM {{" + schema.Packs + "}} WHERE [[state]] = {:transit}"
	var s Stock
	err := EachRow(d.db.NewQuery(q).Bind(dbx.Params{"clamp": sumsClamp, "transit": PackStateInTransit}).WithContext(ctx), func(rows *dbx.Rows) error {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			return err
		}
		switch kind {
		case schema.AccountKindReady:
			s.Ready += n
		case schema.AccountKindWaiting:
			s.Waiting += n
		case schema.AccountKindSession, schema.AccountKindUntracked:
			s.Charging += n
		case schema.AccountKindHolder, schema.AccountKindUnassigned:
			s.Field += n
		case schema.AccountKindQuarantine:
			s.Quarantined += n
		case "#transit":
			s.InTransit += n
		}
		return nil
	})
	return s, err
}

// SwapType is the movement HQ counts as one swap: a driver's pickup of charged batteries at
// the bay (the admin dashboard's weekly stats, activity.AdminWeeklyStats' "pickup" count per
// day). Its mirror returns (dropoffs) are not counted again.
const SwapType = "pickup"

// DaySwaps is one of a city's days.
type DaySwaps struct {
	Day   string `json:"day"`
	Swaps int    `json:"swaps"`
}

// SwapsPerDay counts the swaps of the n local days ending with today (oldest first), one
// grouped query over the (type, occurredAt) index range.
func (d *DB) SwapsPerDay(ctx context.Context, loc *time.Location, now time.Time, n int) ([]DaySwaps, error) {
	start := clock.DayStart(now, loc).AddDate(0, 0, -(n - 1))
	return d.swapsBetween(ctx, clock.Days(start, n))
}

// swapsBetween counts the swaps of each day between bounds (len(bounds)-1 days).
func (d *DB) swapsBetween(ctx context.Context, bounds []time.Time) ([]DaySwaps, error) {
	params := dbx.Params{"type": SwapType}
	var b strings.Builder
	b.WriteString("CASE")
	for i := 1; i < len(bounds)-1; i++ {
		key := fmt.Sprintf("b%d", i)
		params[key] = clock.DBText(bounds[i])
		fmt.Fprintf(&b, " WHEN occurredAt < {:%s} THEN %d", key, i-1)
	}
	fmt.Fprintf(&b, " ELSE %d END", len(bounds)-2)
	bucket := b.String()
	if len(bounds) == 2 {
		bucket = "0" // one day: a CASE needs a WHEN
	}
	params["from"], params["to"] = clock.DBText(bounds[0]), clock.DBText(bounds[len(bounds)-1])
	out := make([]DaySwaps, len(bounds)-1)
	for i := range out {
		out[i].Day = clock.DateString(bounds[i])
	}
	q := d.db.NewQuery("SELECT " + bucket + " AS day, COUNT(*) FROM {{" + schema.Movements + "}} INDEXED BY " +
		schema.IdxMovementsTypeOccurredAt + " WHERE type = {:type} AND occurredAt >= {:from} AND occurredAt < {:to} GROUP BY day").
		Bind(params).WithContext(ctx)
	err := EachRow(q, func(rows *dbx.Rows) error {
		var day, n int
		if err := rows.Scan(&day, &n); err != nil {
			return err
		}
		if day >= 0 && day < len(out) {
			out[day].Swaps += n
		}
		return nil
	})
	return out, err
}

// WeekPay is one of a city's Monday weeks.
type WeekPay struct {
	WeekStart string `json:"weekStart"`
	Cents     int64  `json:"cents"`
}

// PayPerWeek is the pay of the n Monday weeks ending with this one (oldest first), as the
// city's earnings page totals them.
func (d *DB) PayPerWeek(ctx context.Context, loc *time.Location, now time.Time, n int) ([]WeekPay, error) {
	out := make([]WeekPay, 0, n)
	for i := n - 1; i >= 0; i-- {
		start := clock.WeekStart(now, loc, -i)
		end := time.Date(start.Year(), start.Month(), start.Day()+7, 0, 0, 0, 0, loc)
		c, err := d.Pay(ctx, start, end, now)
		if err != nil {
			return nil, err
		}
		out = append(out, WeekPay{WeekStart: clock.DateString(start), Cents: c})
	}
	return out, nil
}

// Pay is what the city's earnings module pays for the week [start, end) (earnings.Compute:
// the sum of every earner's total; the core team's pool only moves money between its members,
// so the sum is the sum of the individual earnings): per approved driver, admin and master
// admin, the week's dead batteries, moves and recovers (adjusted where an adjustment is in
// force), at the rates in force at the week's end (now for the current week), less the
// person's pay reduction. It is earnings.Total over the copy: the city's own queries and
// arithmetic. pay with adjust false leaves the adjustments out (a day's pay: they are made
// per week).
func (d *DB) Pay(ctx context.Context, start, end, now time.Time) (int64, error) {
	return d.pay(ctx, start, end, now, true)
}

func (d *DB) pay(ctx context.Context, start, end, now time.Time, adjust bool) (int64, error) {
	total, err := earnings.Total(ctx, d.db, start, end, now, adjust)
	return int64(total), err
}

// AdjustedWeeks answers, per week (its Monday, YYYY-MM-DD), when the newest task adjustment of
// that week was made (the city's clock): an adjustment can be made to any past week, and the
// rollups read a week again when one came after they last wrote it.
func (d *DB) AdjustedWeeks(ctx context.Context) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	err := EachRow(d.db.NewQuery("SELECT "+schema.AdjustmentWeekStart+", MAX(created) FROM "+schema.TaskAdjustments+
		" GROUP BY "+schema.AdjustmentWeekStart).WithContext(ctx), func(rows *dbx.Rows) error {
		var week, created string
		if err := rows.Scan(&week, &created); err != nil {
			return err
		}
		if at, err := types.ParseDateTime(created); err == nil && !at.IsZero() {
			out[week] = at.Time()
		}
		return nil
	})
	return out, err
}

// WipedBefore is the time before which the city wiped its history (the newest wipe checkpoint's
// cut, inventory.Wipe: its movements folded into one checkpoint a millisecond before the cut),
// zero when it never did. The copy no longer holds the pay and swaps of the days and weeks before
// it: head office's rolled rows of them are all that is left.
func (d *DB) WipedBefore(ctx context.Context) (time.Time, error) {
	var at string
	err := d.db.NewQuery("SELECT COALESCE(MAX(" + schema.MovementOccurredAt + "), '') FROM " + schema.Movements +
		" WHERE " + schema.MovementCheckpoint + " = 1 AND json_extract(" + schema.MovementMeta + ", '$.kind') = 'wipe_checkpoint'").
		WithContext(ctx).Row(&at)
	if err != nil || at == "" {
		return time.Time{}, err
	}
	t, err := types.ParseDateTime(at)
	if err != nil || t.IsZero() {
		return time.Time{}, err
	}
	return t.Time().Add(time.Millisecond), nil
}

// Recalls are the city's recalls, all time, and the packs they quarantined.
type Recalls struct {
	Count            int `json:"count"`
	PacksQuarantined int `json:"packsQuarantined"`
}

// Recalls reads them from pack_recalls (each row's packCount).
func (d *DB) Recalls(ctx context.Context) (Recalls, error) {
	var r Recalls
	err := d.db.NewQuery("SELECT COUNT(*), COALESCE(SUM("+schema.PackRecallPackCount+"), 0) FROM "+schema.PackRecalls).
		WithContext(ctx).Row(&r.Count, &r.PacksQuarantined)
	return r, err
}

// DefaultMissingDays is the city's pack_missing_days when unset (packs.MissingDays' default).
const DefaultMissingDays = 7

// MissingPacks counts the packs missing at now as the city's packs list does
// (packs.CountMissing): in service or in maintenance, not named by a movement since the start
// of the local day pack_missing_days days before today.
func (d *DB) MissingPacks(ctx context.Context, settings map[string]string, loc *time.Location, now time.Time) (int, error) {
	days := DefaultMissingDays
	if v, ok := settings[schema.SettingPackMissingDays]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil { // settings.Key.Get's reading
			days = n
		}
	}
	cutoff := clock.DBText(clock.DayStart(now, loc).AddDate(0, 0, -days))
	var n int
	err := d.db.NewQuery("SELECT COUNT(*) FROM {{packs}} p WHERE p.[[state]] IN ('" + schema.PackStateInService + "', '" +
		schema.PackStateMaintenance + "') AND COALESCE(NULLIF(p.[[lastSeenAt]], ''), p.[[created]]) < {:cutoff}").
		Bind(dbx.Params{"cutoff": cutoff}).WithContext(ctx).Row(&n)
	return n, err
}
