package reads

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/earnings"
)

// Day is one finished local day of a city, for HQ's rollups (city_days).
type Day struct {
	Day      string
	Swaps    int
	PayCents int64
}

// Days reads the swaps and the pay of the n local days from start (a local midnight in loc)
// in one pass over the (type, occurredAt) index range: the movements that count are bucketed
// by day in Go. A day's pay is the earnings module's arithmetic (earnings.IndividualOf) over
// that day's tasks, at the rates in force at the day's end, less each earner's pay reduction
// (earnings.Earners); task adjustments are made per week and are not in a day's figure (the
// weekly pay of the overview has them).
func (d *DB) Days(ctx context.Context, start time.Time, n int, now time.Time) ([]Day, error) {
	bounds := clock.Days(start, n)
	keys := make([]string, len(bounds))
	for i, b := range bounds {
		keys[i] = clock.DBText(b)
	}
	out := make([]Day, n)
	for i := range out {
		out[i].Day = clock.DateString(bounds[i])
	}
	// rates, oldest first
	type rate struct {
		at string
		earnings.Rates
	}
	var rates []rate
	rows, err := d.db.NewQuery("SELECT " + schema.PayRateEffectiveAt + ", " + schema.PayRateDeadBattery + ", " + schema.PayRateMove + ", " +
		schema.PayRateRecover + " FROM " + schema.PayRates + " ORDER BY " + schema.PayRateEffectiveAt + ", rowid").WithContext(ctx).Rows()
	if err != nil {
		return nil, fmt.Errorf("read pay rates: %w", err)
	}
	for rows.Next() {
		var at string
		var dead, move, recovers int64
		if err := rows.Scan(&at, &dead, &move, &recovers); err != nil {
			rows.Close()
			return nil, err
		}
		rates = append(rates, rate{at, earnings.Rates{DeadBattery: earnings.Cents(dead), Move: earnings.Cents(move), Recover: earnings.Cents(recovers)}})
	}
	rows.Close()
	// earners' pay reduction
	people, err := earnings.Earners(ctx, d.db)
	if err != nil {
		return nil, err
	}
	// …and the deleted users' with tasks in the range, at the reduction they had (was: a deleted
	// user's days were paid nothing)
	formers, err := earnings.FormerEarners(ctx, d.db, bounds[0], bounds[n])
	if err != nil {
		return nil, err
	}
	reduction := make(map[string]float64, len(people)+len(formers))
	for _, p := range append(formers, people...) { // a live user's own wins
		reduction[p.Id] = p.PayReductionPercentage
	}
	// the movements that count, bucketed by day
	perDay := make([]map[string]*earnings.Counts, n)
	rows, err = d.db.NewQuery("SELECT occurredAt, type, " + earnings.EarnerSQL + ", COALESCE(deadBatteries, 0), COALESCE(quantity, 0) FROM " +
		schema.Movements + " INDEXED BY " + schema.IdxMovementsTypeOccurredAt +
		" WHERE type IN ({:swap}, 'dropoff', 'rebalance', 'retrieves_repairs_dropoff') AND occurredAt >= {:from} AND occurredAt < {:to}").
		Bind(dbx.Params{"swap": SwapType, "from": keys[0], "to": keys[n]}).WithContext(ctx).Rows()
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var at, typ, user string
		var dead, qty int64
		if err := rows.Scan(&at, &typ, &user, &dead, &qty); err != nil {
			rows.Close()
			return nil, err
		}
		i := sort.SearchStrings(keys, at)
		if i < len(keys) && keys[i] == at {
			i++
		}
		i-- // the day whose start is the last bound <= at
		if i < 0 || i >= n {
			continue
		}
		if typ == SwapType {
			out[i].Swaps++
			continue
		}
		if perDay[i] == nil {
			perDay[i] = map[string]*earnings.Counts{}
		}
		t := perDay[i][user]
		if t == nil {
			t = &earnings.Counts{}
			perDay[i][user] = t
		}
		switch typ {
		case "dropoff":
			t.DeadBatteries += int(dead)
		case "rebalance":
			t.Moves += int(qty)
		default:
			t.Recovers += int(qty)
		}
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	for i := range out {
		at := bounds[i+1].Add(-time.Millisecond)
		if now.Before(at) {
			at = now
		}
		atKey, _ := types.ParseDateTime(at.UTC())
		var r rate
		for _, x := range rates {
			if x.at <= atKey.String() {
				r = x
			}
		}
		for user, t := range perDay[i] {
			pct, ok := reduction[user]
			if !ok {
				continue
			}
			c := earnings.Counts{DeadBatteries: max(t.DeadBatteries, 0), Moves: max(t.Moves, 0), Recovers: max(t.Recovers, 0)}
			out[i].PayCents += int64(earnings.IndividualOf(c, r.Rates, pct).Earnings)
		}
	}
	return out, nil
}
