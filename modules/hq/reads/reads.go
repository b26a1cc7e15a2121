// Package reads is head office's reads over the cities' followed copies (DESIGN.md §15,
// issue 45 item 3): each figure a city's own screens show, computed by the same SQL over the
// copy (opened read-only with follow.Open; never a live city file). A city's modules take a
// core.App over its live database and cannot be imported here (internal/archtest), so the
// queries are the city's, repeated, and TestFiguresEqualTheCitys compares every figure with
// the city's own functions on a seeded city.
package reads

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/dbx"

	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
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
// person's pay reduction. Also used for one day's pay (start, end a day apart: no
// adjustments, they are per week).
func (d *DB) Pay(ctx context.Context, start, end, now time.Time) (int64, error) {
	return d.pay(ctx, start, end, now, true)
}

func (d *DB) pay(ctx context.Context, start, end, now time.Time, adjust bool) (int64, error) {
	// rates
	at := end.Add(-time.Millisecond)
	if now.Before(at) {
		at = now
	}
	var dead, move, recover int64
	err := d.db.NewQuery("SELECT "+schema.PayRateDeadBattery+", "+schema.PayRateMove+", "+schema.PayRateRecover+" FROM "+schema.PayRates+
		" WHERE "+schema.PayRateEffectiveAt+" <= {:t} ORDER BY "+schema.PayRateEffectiveAt+" DESC, rowid DESC LIMIT 1").
		Bind(dbx.Params{"t": clock.DBText(at)}).WithContext(ctx).Row(&dead, &move, &recover)
	if errors.Is(err, sql.ErrNoRows) {
		dead, move, recover = 0, 0, 0
	} else if err != nil {
		return 0, fmt.Errorf("read pay rates: %w", err)
	}
	// earners
	type earner struct {
		id  string
		pay float64
	}
	var people []earner
	rows, err := d.db.NewQuery("SELECT id, COALESCE(" + schema.UserPayReductionPercentage + ", {:def}) FROM " + schema.Users +
		" WHERE isApproved = {:approved} AND role IN ({:d}, {:a}, {:m})").
		Bind(dbx.Params{"def": schema.DefaultPayReductionPercentage, "approved": roles.Approved,
			"d": roles.Driver, "a": roles.Admin, "m": roles.MasterAdmin}).WithContext(ctx).Rows()
	if err != nil {
		return 0, fmt.Errorf("read earners: %w", err)
	}
	for rows.Next() {
		var e earner
		var pay sql.NullFloat64
		if err := rows.Scan(&e.id, &pay); err != nil {
			rows.Close()
			return 0, err
		}
		e.pay = pay.Float64
		if !pay.Valid {
			e.pay = math.NaN()
		}
		people = append(people, e)
	}
	rows.Close()
	if len(people) == 0 {
		return 0, nil
	}
	// counts
	type counts struct{ dead, moves, recovers int64 }
	byUser := map[string]*counts{}
	rows, err = d.db.NewQuery("SELECT user," +
		" SUM(CASE WHEN type = 'dropoff' THEN deadBatteries ELSE 0 END)," +
		" SUM(CASE WHEN type = 'rebalance' THEN quantity ELSE 0 END)," +
		" SUM(CASE WHEN type = 'retrieves_repairs_dropoff' THEN quantity ELSE 0 END)" +
		" FROM " + schema.Movements + " INDEXED BY " + schema.IdxMovementsTypeOccurredAt +
		" WHERE type IN ('dropoff', 'rebalance', 'retrieves_repairs_dropoff') AND occurredAt >= {:from} AND occurredAt < {:to}" +
		" GROUP BY user").Bind(dbx.Params{"from": clock.DBText(start), "to": clock.DBText(end)}).WithContext(ctx).Rows()
	if err != nil {
		return 0, fmt.Errorf("count tasks: %w", err)
	}
	for rows.Next() {
		var u sql.NullString
		var c counts
		var a, b, cc sql.NullInt64
		if err := rows.Scan(&u, &a, &b, &cc); err != nil {
			rows.Close()
			return 0, err
		}
		c.dead, c.moves, c.recovers = max(a.Int64, 0), max(b.Int64, 0), max(cc.Int64, 0)
		byUser[u.String] = &c
	}
	rows.Close()
	// adjustments in force (the latest per user and task type)
	if adjust {
		rows, err = d.db.NewQuery("SELECT user, taskType, adjustedCount FROM " + schema.TaskAdjustments +
			" WHERE weekStart = {:w} ORDER BY created, rowid").Bind(dbx.Params{"w": clock.DateString(start)}).WithContext(ctx).Rows()
		if err != nil {
			return 0, fmt.Errorf("read task adjustments: %w", err)
		}
		for rows.Next() {
			var u, t string
			var n int64
			if err := rows.Scan(&u, &t, &n); err != nil {
				rows.Close()
				return 0, err
			}
			c := byUser[u]
			if c == nil {
				c = &counts{}
				byUser[u] = c
			}
			switch t {
			case schema.AdjustmentTaskBattery:
				c.dead = n
			case schema.AdjustmentTaskMoves:
				c.moves = n
			default:
				c.recovers = n
			}
		}
		rows.Close()
	}
	var total int64
	for _, p := range people {
		c := byUser[p.id]
		if c == nil {
			continue
		}
		base := c.dead*dead + c.moves*move + c.recovers*recover
		total += percentOf(base, clampPercent(p.pay))
	}
	return total, nil
}

// clampPercent and percentOf are earnings' arithmetic (DESIGN.md §8): a pay reduction rounded
// to a whole percent in 0..100, and base less it rounded half up to the cent.
func clampPercent(v float64) int64 {
	if math.IsNaN(v) {
		return schema.DefaultPayReductionPercentage
	}
	return int64(min(max(math.Round(v), 0), 100))
}

func percentOf(v, pct int64) int64 {
	a, b := v*(100-pct), int64(100)
	return (2*a + b) / (2 * b)
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
