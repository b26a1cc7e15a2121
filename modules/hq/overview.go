package hq

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/modules/hq/follow"
	"swapbay/modules/hq/reads"
)

// Head office's reads over the cities' copies (issue 45 item 3): the overview, the pack search
// and the packs in transit, each city read from its followed copy (reads.Open: read-only,
// never a live file), the cities in parallel (ReadParallel at a time). A copy that cannot be
// read is that city's ok:false with the reason in words; the others are still answered.

// ReadParallel bounds how many copies are read at once (the machine has few cores; each read
// is one connection and a few indexed queries).
var ReadParallel = 4

// OverviewDays and OverviewWeeks are the overview's windows.
const (
	OverviewDays  = 30
	OverviewWeeks = 8
)

// Messages of the reads.
const (
	MsgCopyMissing = "The city's copy is not there yet: its replica has not been restored (see the Cities page)."
	MsgCopyUnread  = "The city's copy could not be read: "
	MsgQLength     = "Enter 3 to 40 characters of a serial, or a pack's label URL."
	MsgQChars      = "A serial has letters, digits and dashes only."
	MsgWeeks       = "weeks must be a whole number from 1 to 260."
)

// CopyView is a city's copy as the reads answer it.
type CopyView struct {
	State      string  `json:"state"`
	LagSeconds float64 `json:"lagSeconds"`
	Warning    string  `json:"warning"`
	Behind     bool    `json:"behind"`
}

// copyView flags a copy behind when its follower says so, has failed or stopped, or carries a
// warning (follow's BehindAfter: lag or replica silence over 5 minutes).
func copyView(st follow.Status, ok bool) CopyView {
	if !ok {
		return CopyView{State: follow.StateStopped, Warning: "The city is not followed.", Behind: true}
	}
	return CopyView{State: st.State, LagSeconds: st.LagSeconds, Warning: st.Warning,
		Behind: st.State == follow.StateBehind || st.State == follow.StateFailed || st.State == follow.StateStopped || st.Warning != ""}
}

// cityRef is a city as the reads need it.
type cityRef struct {
	Id, Name, TimeZone, Currency, Address string
}

func cityRefs(app core.App) ([]cityRef, error) {
	recs, err := ListCities(app)
	if err != nil {
		return nil, err
	}
	out := make([]cityRef, 0, len(recs))
	for _, r := range recs {
		out = append(out, cityRef{Id: r.Id, Name: r.GetString(CityName), TimeZone: r.GetString(CityTimeZone),
			Currency: r.GetString(CityCurrency), Address: strings.TrimRight(r.GetString(CityAddress), "/")})
	}
	return out, nil
}

// openCopy opens city id's copy, or says in words why it cannot.
func openCopy(set *follow.Set, id string) (*reads.DB, string) {
	path := set.CopyPath(id)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, MsgCopyMissing
	}
	db, err := reads.Open(path)
	if err != nil {
		return nil, MsgCopyUnread + err.Error()
	}
	return db, ""
}

// eachCity runs read for every city, ReadParallel at a time, with the city's copy open; a copy
// that cannot be opened or read gives that city's error in words.
func eachCity(ctx context.Context, set *follow.Set, cities []cityRef, read func(ctx context.Context, i int, db *reads.DB) error) []string {
	errs := make([]string, len(cities))
	sem := make(chan struct{}, max(ReadParallel, 1))
	var wg sync.WaitGroup
	for i, c := range cities {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			db, msg := openCopy(set, c.Id)
			if db == nil {
				errs[i] = msg
				return
			}
			defer db.Close()
			if err := read(ctx, i, db); err != nil {
				errs[i] = MsgCopyUnread + err.Error()
			}
		}()
	}
	wg.Wait()
	return errs
}

// CityOverview is one city in the overview.
type CityOverview struct {
	Id          string           `json:"id"`
	Name        string           `json:"name"`
	TimeZone    string           `json:"timeZone"`
	Currency    string           `json:"currency"`
	Address     string           `json:"address"`
	Copy        CopyView         `json:"copy"`
	Ok          bool             `json:"ok"`
	Error       string           `json:"error"`
	Stock       reads.Stock      `json:"stock"`
	SwapsPerDay []reads.DaySwaps `json:"swapsPerDay"`
	PayPerWeek  []reads.WeekPay  `json:"payPerWeek"`
	Recalls     reads.Recalls    `json:"recalls"`
	Missing     int              `json:"missingPacks"`
}

// CurrencyWeeks is the pay of the cities paying in one currency.
type CurrencyWeeks struct {
	Currency string          `json:"currency"`
	Weeks    []reads.WeekPay `json:"weeks"`
}

// Totals adds up the cities that could be read.
type Totals struct {
	Stock         reads.Stock      `json:"stock"`
	SwapsPerDay   []reads.DaySwaps `json:"swapsPerDay"`
	PayByCurrency []CurrencyWeeks  `json:"payByCurrency"`
}

// Overview is GET /api/hq/overview's answer.
type Overview struct {
	AsOf   string         `json:"asOf"`
	Cities []CityOverview `json:"cities"`
	Totals Totals         `json:"totals"`
}

// ReadOverview reads every city's figures from its copy at now.
func ReadOverview(ctx context.Context, app core.App, set *follow.Set, now time.Time) (Overview, error) {
	cities, err := cityRefs(app)
	if err != nil {
		return Overview{}, err
	}
	out := Overview{AsOf: now.UTC().Format(time.RFC3339), Cities: make([]CityOverview, len(cities))}
	for i, c := range cities {
		st, ok := set.Status(c.Id)
		out.Cities[i] = CityOverview{Id: c.Id, Name: c.Name, TimeZone: c.TimeZone, Currency: c.Currency, Address: c.Address,
			Copy: copyView(st, ok), SwapsPerDay: []reads.DaySwaps{}, PayPerWeek: []reads.WeekPay{}}
	}
	transfers := make([][]reads.Transfer, len(cities))
	errs := eachCity(ctx, set, cities, func(ctx context.Context, i int, db *reads.DB) error {
		co := &out.Cities[i]
		settings, err := db.Settings(ctx)
		if err != nil {
			return err
		}
		loc := reads.Location(settings, co.TimeZone)
		if co.Stock, err = db.Stock(ctx); err != nil {
			return err
		}
		if transfers[i], err = db.Transfers(ctx); err != nil {
			return err
		}
		if co.SwapsPerDay, err = swapsPerDay(ctx, app, db, co.Id, loc, now); err != nil {
			return err
		}
		if co.PayPerWeek, err = payPerWeek(ctx, app, db, co.Id, loc, now); err != nil {
			return err
		}
		if co.Recalls, err = db.Recalls(ctx); err != nil {
			return err
		}
		co.Missing, err = db.MissingPacks(ctx, settings, loc, now)
		return err
	})
	arrived(ctx, set, cities, transfers, errs, out.Cities)
	days := map[string]int{}
	pay := map[string]map[string]int64{}
	for i := range out.Cities {
		co := &out.Cities[i]
		co.Ok, co.Error = errs[i] == "", errs[i]
		if !co.Ok {
			co.Stock, co.SwapsPerDay, co.PayPerWeek, co.Recalls, co.Missing = reads.Stock{}, []reads.DaySwaps{}, []reads.WeekPay{}, reads.Recalls{}, 0
			continue
		}
		out.Totals.Stock.Add(co.Stock)
		for _, d := range co.SwapsPerDay {
			days[d.Day] += d.Swaps
		}
		if pay[co.Currency] == nil {
			pay[co.Currency] = map[string]int64{}
		}
		for _, w := range co.PayPerWeek {
			pay[co.Currency][w.WeekStart] += w.Cents
		}
	}
	// the total's days: the last OverviewDays dates up to today in UTC, each city's own day of
	// that date added in
	out.Totals.SwapsPerDay = make([]reads.DaySwaps, 0, OverviewDays)
	for _, d := range clock.Days(clock.DayStart(now, time.UTC).AddDate(0, 0, -(OverviewDays-1)), OverviewDays-1) {
		day := clock.DateString(d)
		out.Totals.SwapsPerDay = append(out.Totals.SwapsPerDay, reads.DaySwaps{Day: day, Swaps: days[day]})
	}
	out.Totals.PayByCurrency = []CurrencyWeeks{}
	for cur, weeks := range pay {
		cw := CurrencyWeeks{Currency: cur, Weeks: []reads.WeekPay{}}
		for w, c := range weeks {
			cw.Weeks = append(cw.Weeks, reads.WeekPay{WeekStart: w, Cents: c})
		}
		sort.Slice(cw.Weeks, func(i, j int) bool { return cw.Weeks[i].WeekStart < cw.Weeks[j].WeekStart })
		out.Totals.PayByCurrency = append(out.Totals.PayByCurrency, cw)
	}
	sort.Slice(out.Totals.PayByCurrency, func(i, j int) bool {
		return out.Totals.PayByCurrency[i].Currency < out.Totals.PayByCurrency[j].Currency
	})
	return out, nil
}

// arrived takes out of each city's stock.inTransit the packs it sent that another city has
// received (an in row with the send's ref naming the serial, in any copy read): the sender never
// hears of the receipt, so its registry keeps them in transit for good, while the receiver
// counts them in its own stock — counted twice in the totals, and "in transit" for ever. The
// sender's out rows are its newest reads.MaxTransfers; a pack of an older send stays counted.
func arrived(ctx context.Context, set *follow.Set, cities []cityRef, transfers [][]reads.Transfer, errs []string, out []CityOverview) {
	for i := range transfers {
		if errs[i] != "" {
			transfers[i] = nil // a copy not read in full is not read
		}
	}
	received := receivedSerials(transfers)
	gone := make([][]string, len(cities)) // per sender: its serials received elsewhere
	some := false
	for i, list := range transfers {
		if errs[i] != "" || out[i].Stock.InTransit == 0 {
			continue
		}
		// newest first: a pack sent again since is judged by its newest send
		seen := map[string]bool{}
		for _, t := range list {
			if t.Direction != "out" {
				continue
			}
			for _, s := range t.Serials {
				if seen[s] {
					continue
				}
				seen[s] = true
				if received[t.Ref][s] {
					gone[i] = append(gone[i], s)
				}
			}
		}
		some = some || len(gone[i]) > 0
	}
	if !some {
		return
	}
	eachCity(ctx, set, cities, func(ctx context.Context, i int, db *reads.DB) error {
		if len(gone[i]) == 0 {
			return nil
		}
		states, err := db.PackStates(ctx, gone[i])
		if err != nil {
			return nil // the stock stays as read
		}
		n := 0
		for _, s := range gone[i] {
			if states[s] == reads.PackStateInTransit {
				n++
			}
		}
		out[i].Stock.InTransit = max(out[i].Stock.InTransit-n, 0) // each city's own element
		return nil
	})
}

func (h *handlers) overview(e *core.RequestEvent) error {
	o, err := ReadOverview(e.Request.Context(), e.App, h.set, clock.Now())
	return httpx.Reply(e, o, err)
}

// swapsPerDay is the city's swaps of the OverviewDays days ending today: the finished days from
// HQ's rollups (city_days: the same count, written by the rollup job every RollupEvery, so a
// late offline action shows once the job has run), today from the copy; when a finished day has
// no rollup yet (a new city, a copy not yet following) every day is read from the copy.
func swapsPerDay(ctx context.Context, app core.App, db *reads.DB, cityId string, loc *time.Location, now time.Time) ([]reads.DaySwaps, error) {
	start := clock.DayStart(now, loc).AddDate(0, 0, -(OverviewDays - 1))
	rolled, err := rollup[int](app, CityDays, CityDayCity, CityDayDay, CityDaySwaps, cityId, start)
	if err != nil {
		return nil, err
	}
	out := make([]reads.DaySwaps, 0, OverviewDays)
	for _, d := range clock.Days(start, OverviewDays-1)[:OverviewDays-1] {
		n, ok := rolled[clock.DateString(d)]
		if !ok {
			return db.SwapsPerDay(ctx, loc, now, OverviewDays)
		}
		out = append(out, reads.DaySwaps{Day: clock.DateString(d), Swaps: n})
	}
	today, err := db.SwapsPerDay(ctx, loc, now, 1)
	if err != nil {
		return nil, err
	}
	return append(out, today...), nil
}

// payPerWeek is the city's pay of the OverviewWeeks weeks ending with this one: the finished
// weeks from HQ's weekly rollups (city_weeks: the same total, re-rolled every RollupEvery), this
// week and any finished week without a rollup from the copy.
func payPerWeek(ctx context.Context, app core.App, db *reads.DB, cityId string, loc *time.Location, now time.Time) ([]reads.WeekPay, error) {
	first := clock.WeekStart(now, loc, -(OverviewWeeks - 1))
	rolled, err := rollup[int64](app, CityWeeks, CityWeekCity, CityWeekStart, CityWeekPayCents, cityId, first)
	if err != nil {
		return nil, err
	}
	out := make([]reads.WeekPay, 0, OverviewWeeks)
	for i := OverviewWeeks - 1; i >= 0; i-- {
		start := clock.WeekStart(now, loc, -i)
		ws := clock.DateString(start)
		if c, ok := rolled[ws]; ok && i > 0 {
			out = append(out, reads.WeekPay{WeekStart: ws, Cents: c})
			continue
		}
		c, err := db.Pay(ctx, start, time.Date(start.Year(), start.Month(), start.Day()+7, 0, 0, 0, 0, loc), now)
		if err != nil {
			return nil, err
		}
		out = append(out, reads.WeekPay{WeekStart: ws, Cents: c})
	}
	return out, nil
}

// rollup is a city's rows of one of HQ's rollups (city_days, city_weeks) from the date from on:
// its valueField by its dateField.
func rollup[T int | int64](app core.App, table, cityField, dateField, valueField, cityId string, from time.Time) (map[string]T, error) {
	q := app.DB().Select(dateField, valueField).From(table).Where(dbx.HashExp{cityField: cityId}).
		AndWhere(dbx.NewExp("[["+dateField+"]] >= {:from}", dbx.Params{"from": clock.DateString(from)})).Build()
	out := map[string]T{}
	err := reads.EachRow(q, func(rows *dbx.Rows) error {
		var date string
		var v T
		if err := rows.Scan(&date, &v); err != nil {
			return err
		}
		out[date] = v
		return nil
	})
	return out, err
}
