package activity

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/bulk"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/users"
)

// DayActivity is one day of a user's own activity.
type DayActivity struct {
	Date                string `json:"date"`
	RebalanceQty        int    `json:"rebalanceQty"`
	RetrievesRepairsQty int    `json:"retrievesRepairsQty"`
	Batteries           int    `json:"batteries"` // dead batteries dropped off
}

// WeekActivity is a user's Monday–Sunday week, day by day, with its totals.
type WeekActivity struct {
	WeekStart string        `json:"weekStart"`
	WeekEnd   string        `json:"weekEnd"`
	Days      []DayActivity `json:"days"`
	Totals    DayTotals     `json:"totals"`
}

// DayTotals sums DayActivity over a week.
type DayTotals struct {
	RebalanceQty        int `json:"rebalanceQty"`
	RetrievesRepairsQty int `json:"retrievesRepairsQty"`
	Batteries           int `json:"batteries"`
}

// DailyActivity is today's rebalance and recover counts (spec part 1 §3).
type DailyActivity struct {
	RebalanceToday        int `json:"rebalanceToday"`
	RetrievesRepairsToday int `json:"retrievesRepairsToday"`
}

// DeadBatteryStats is spec part 2's dead-battery stats: dead batteries dropped today, this
// week and last week.
type DeadBatteryStats struct {
	Daily    int `json:"daily"`
	Weekly   int `json:"weekly"`
	LastWeek int `json:"lastWeek"`
}

// TwoWeeks is a user's last and current week, cut in the operation's time zone.
type TwoWeeks struct {
	LastWeek  WeekActivity
	ThisWeek  WeekActivity
	Today     DailyActivity
	DeadToday int
}

// dayBucket renders a CASE expression numbering the day of col between bounds[0] and
// bounds[len-1]; the bounds are bound parameters, so DST-long days are cut right.
func dayBucket(col string, bounds []time.Time, params dbx.Params) string {
	var b strings.Builder
	b.WriteString("CASE")
	for i := 1; i < len(bounds)-1; i++ {
		key := fmt.Sprintf("b%d", i)
		params[key] = sqlTime(bounds[i])
		fmt.Fprintf(&b, " WHEN %s < {:%s} THEN %d", col, key, i-1)
	}
	fmt.Fprintf(&b, " ELSE %d END", len(bounds)-2)
	params["from"] = sqlTime(bounds[0])
	params["to"] = sqlTime(bounds[len(bounds)-1])
	return b.String()
}

// UserTwoWeeks sums the user's rebalances, recovers and dead batteries dropped per day of last
// week and this week, in one indexed GROUP BY over (user, occurredAt).
func UserTwoWeeks(app core.App, userId string, now time.Time, loc *time.Location) (TwoWeeks, error) {
	start := clock.WeekStart(now, loc, -1)
	bounds := clock.Days(start, 14)
	params := dbx.Params{"me": userId}
	bucket := dayBucket("occurredAt", bounds, params)
	var rows []struct {
		Day  int    `db:"day"`
		Type string `db:"type"`
		Qty  int    `db:"qty"`
		Dead int    `db:"dead"`
	}
	err := app.DB().NewQuery("SELECT " + bucket + " AS day, type, SUM(quantity) AS qty, SUM(deadBatteries) AS dead" +
		" FROM " + schema.Movements + " INDEXED BY " + byUserOccurredAt + " WHERE user = {:me} AND occurredAt >= {:from} AND occurredAt < {:to}" +
		" AND type IN " + bulk.In("t", []string{TypeRebalance, TypeRetrievesRepairsDropoff, TypeDropoff, TypeDeadBatteryDropoff}, params) +
		" GROUP BY day, type").Bind(params).All(&rows)
	if err != nil {
		return TwoWeeks{}, err
	}
	days := make([]DayActivity, 14)
	for i := range days {
		days[i].Date = clock.DateString(bounds[i])
	}
	for _, r := range rows {
		d := &days[r.Day]
		switch r.Type {
		case TypeRebalance:
			d.RebalanceQty += r.Qty
		case TypeRetrievesRepairsDropoff:
			d.RetrievesRepairsQty += r.Qty
		default:
			d.Batteries += r.Dead
		}
	}
	out := TwoWeeks{LastWeek: weekOf(days[:7]), ThisWeek: weekOf(days[7:])}
	for i := 7; i < 14; i++ {
		if !now.Before(bounds[i]) && now.Before(bounds[i+1]) {
			out.Today = DailyActivity{RebalanceToday: days[i].RebalanceQty, RetrievesRepairsToday: days[i].RetrievesRepairsQty}
			out.DeadToday = days[i].Batteries
		}
	}
	return out, nil
}

func weekOf(days []DayActivity) WeekActivity {
	w := WeekActivity{WeekStart: days[0].Date, WeekEnd: days[len(days)-1].Date, Days: days}
	for _, d := range days {
		w.Totals.RebalanceQty += d.RebalanceQty
		w.Totals.RetrievesRepairsQty += d.RetrievesRepairsQty
		w.Totals.Batteries += d.Batteries
	}
	return w
}

// AdminDay is one day of the whole bay's week.
type AdminDay struct {
	Date                string `json:"date"`
	RebalanceQty        int    `json:"rebalanceQty"`
	RetrievesRepairsQty int    `json:"retrievesRepairsQty"`
}

// WeeklyTotals sums the bay's rebalances and recovers over the week.
type WeeklyTotals struct {
	RebalanceTotal        int `json:"rebalanceTotal"`
	RetrievesRepairsTotal int `json:"retrievesRepairsTotal"`
}

// Activity is one line of a driver's weekly activity log.
type Activity struct {
	Id         string       `json:"id"`
	Type       string       `json:"type"`
	Quantity   int          `json:"quantity"`
	Notes      string       `json:"notes"`
	CreatedAt  string       `json:"createdAt"`           // when it happened (occurredAt)
	RecordedAt string       `json:"recordedAt,omitzero"` // when the server recorded it
	Meta       MovementMeta `json:"meta"`
}

// DriverWeek is one driver's card in the admin weekly activity.
type DriverWeek struct {
	User                  UserRef    `json:"user"`
	Activities            []Activity `json:"activities,omitzero"` // nil (left out) in a summary
	DeadBatteriesTotal    int        `json:"deadBatteriesTotal"`
	RebalanceTotal        int        `json:"rebalanceTotal"`
	RetrievesRepairsTotal int        `json:"retrievesRepairsTotal"`
	TotalActivities       int        `json:"totalActivities"`
}

// AdminWeek is the answer of GET /api/admin/weekly-activity (spec part 1 §3).
type AdminWeek struct {
	WeekStart       string       `json:"weekStart"`
	WeekEnd         string       `json:"weekEnd"`
	WeeklyTotals    WeeklyTotals `json:"weeklyTotals"`
	Days            []AdminDay   `json:"days"`
	DriverBreakdown []DriverWeek `json:"driverBreakdown"`
}

// driverActivityTypes are what counts as a driver's activity in the weekly breakdown.
var driverActivityTypes = []string{TypePickup, TypeDropoff, TypeRebalance, TypeRetrievesRepairsDropoff,
	TypeDeadBatteryDropoff, TypeDriverSwapIn, TypeDriverSwapOut, TypeDriverSwap}

// WeekQuery picks what GET /api/admin/weekly-activity answers.
type WeekQuery struct {
	Offset int // 0 this week, -1 last week
	// Summary leaves each driver's activity list out (nil): the dashboards poll the week
	// every 60 s and show only the totals until a card is expanded, and in a busy week the
	// lists are nearly all of the answer (up to WeekActivityCap rows per driver).
	Summary bool
	// User, when set, narrows the breakdown to that user's row (none when they had no
	// activity that week), with their activities unless Summary: an expanded card.
	User string
}

// AdminWeeklyActivity builds the bay's week (q.Offset 0 this week, -1 last week): day totals
// of rebalances and recovers, and per active driver or admin their totals and latest
// activities: three queries whatever the number of drivers (two for a summary). The liaison
// gets no notes.
func AdminWeeklyActivity(app core.App, c Caller, q WeekQuery, now time.Time, loc *time.Location) (AdminWeek, error) {
	start := clock.WeekStart(now, loc, q.Offset)
	bounds := clock.Days(start, 7)
	out := AdminWeek{WeekStart: clock.DateString(bounds[0]), WeekEnd: clock.DateString(bounds[6]), Days: make([]AdminDay, 7)}
	for i := range out.Days {
		out.Days[i].Date = clock.DateString(bounds[i])
	}

	params := dbx.Params{}
	bucket := dayBucket("occurredAt", bounds, params)
	var dayRows []struct {
		Day  int    `db:"day"`
		Type string `db:"type"`
		Qty  int    `db:"qty"`
	}
	err := app.DB().NewQuery("SELECT " + bucket + " AS day, type, SUM(quantity) AS qty FROM " + schema.Movements + " INDEXED BY " + byTypeOccurredAt +
		" WHERE type IN " + bulk.In("t", []string{TypeRebalance, TypeRetrievesRepairsDropoff}, params) +
		" AND occurredAt >= {:from} AND occurredAt < {:to} GROUP BY day, type").Bind(params).All(&dayRows)
	if err != nil {
		return out, err
	}
	for _, r := range dayRows {
		if r.Type == TypeRebalance {
			out.Days[r.Day].RebalanceQty += r.Qty
			out.WeeklyTotals.RebalanceTotal += r.Qty
		} else {
			out.Days[r.Day].RetrievesRepairsQty += r.Qty
			out.WeeklyTotals.RetrievesRepairsTotal += r.Qty
		}
	}

	// Per-user totals over the week, then each user's latest activities.
	params = dbx.Params{"from": sqlTime(bounds[0]), "to": sqlTime(bounds[7]),
		"rb": TypeRebalance, "rr": TypeRetrievesRepairsDropoff, "do": TypeDropoff, "dd": TypeDeadBatteryDropoff}
	types := bulk.In("t", driverActivityTypes, params)
	var totals []struct {
		User  string `db:"user"`
		First string `db:"-"`
		Last  string `db:"-"`
		Role  string `db:"-"`
		Count int    `db:"cnt"`
		Reb   int    `db:"reb"`
		Rec   int    `db:"rec"`
		Dead  int    `db:"dead"`
	}
	// the whole bay walks the week's range of the time index; one user their own range
	index, only := byOccurredAt, ""
	if q.User != "" {
		index, only = byUserOccurredAt, " AND m.user = {:only}"
		params["only"] = q.User
	}
	err = app.DB().NewQuery("SELECT m.user, COUNT(*) AS cnt," +
		" SUM(CASE WHEN m.type = {:rb} THEN m.quantity ELSE 0 END) AS reb," +
		" SUM(CASE WHEN m.type = {:rr} THEN m.quantity ELSE 0 END) AS rec," +
		" SUM(CASE WHEN m.type IN ({:do}, {:dd}) THEN m.deadBatteries ELSE 0 END) AS dead" +
		" FROM " + schema.Movements + " m INDEXED BY " + index +
		" WHERE m.occurredAt >= {:from} AND m.occurredAt < {:to}" + only + " AND m.type IN " + types +
		" AND m.user != '' GROUP BY m.user").Bind(params).All(&totals)
	if err != nil {
		return out, err
	}
	// named through the users module; deleted users and liaisons are left out
	ids := make([]string, len(totals))
	for i, t := range totals {
		ids[i] = t.User
	}
	people, err := users.Names(app, ids)
	if err != nil {
		return out, err
	}
	kept := totals[:0]
	for _, t := range totals {
		if u, ok := people[t.User]; ok && (u.Role == roles.Driver || roles.IsAdmin(u.Role)) {
			t.First, t.Last, t.Role = u.FirstName, u.LastName, u.Role
			kept = append(kept, t)
		}
	}
	totals = kept
	// every user's latest activities in one query: a window numbers each user's rows newest
	// first and keeps the first WeekActivityCap (not one query per driver)
	latest := map[string][]Activity{}
	if len(totals) > 0 && !q.Summary {
		ids := make([]string, len(totals))
		for i, t := range totals {
			ids[i] = t.User
		}
		p := dbx.Params{"from": params["from"], "to": params["to"], "limit": WeekActivityCap}
		var acts []struct {
			Id         string `db:"id"`
			User       string `db:"user"`
			Type       string `db:"type"`
			Quantity   int    `db:"quantity"`
			Notes      string `db:"notes"`
			OccurredAt string `db:"occurredAt"`
			RecordedAt string `db:"recordedAt"`
			Meta       string `db:"meta"`
			Good       int    `db:"goodBatteries"`
			Dead       int    `db:"deadBatteries"`
		}
		err := app.DB().NewQuery("SELECT id, user, type, quantity, notes, occurredAt, recordedAt, COALESCE(meta, '') AS meta, goodBatteries, deadBatteries FROM (" +
			"SELECT id, user, type, quantity, notes, occurredAt, recordedAt, meta, goodBatteries, deadBatteries," +
			" ROW_NUMBER() OVER (PARTITION BY user ORDER BY occurredAt DESC, rowid DESC) AS rn" +
			" FROM " + schema.Movements + " INDEXED BY " + index +
			" WHERE occurredAt >= {:from} AND occurredAt < {:to} AND type IN " + bulk.In("t", driverActivityTypes, p) +
			" AND user IN " + bulk.In("u", ids, p) + ") WHERE rn <= {:limit} ORDER BY user, rn").Bind(p).All(&acts)
		if err != nil {
			return out, err
		}
		metas := make([]*MovementMeta, len(acts))
		raw := make([]string, len(acts))
		all := make([]Activity, len(acts))
		for i, a := range acts {
			all[i] = Activity{Id: a.Id, Type: a.Type, Quantity: a.Quantity, Notes: a.Notes, CreatedAt: apiTime(a.OccurredAt),
				RecordedAt: apiTime(a.RecordedAt),
				Meta:       metaOf(a.Meta, a.Notes, a.Good, a.Dead, c)}
			if c.Role == roles.Liaison {
				all[i].Notes = ""
			}
			metas[i], raw[i] = &all[i].Meta, a.Meta
		}
		resolveMetaParties(app, metas, raw, c)
		for i, a := range acts {
			latest[a.User] = append(latest[a.User], all[i])
		}
	}
	out.DriverBreakdown = make([]DriverWeek, 0, len(totals))
	for _, t := range totals {
		dw := DriverWeek{User: UserRef{Id: t.User, FirstName: t.First, LastName: t.Last, Role: t.Role},
			DeadBatteriesTotal: t.Dead, RebalanceTotal: t.Reb, RetrievesRepairsTotal: t.Rec, TotalActivities: t.Count,
			Activities: latest[t.User]}
		if dw.Activities == nil && !q.Summary {
			dw.Activities = []Activity{}
		}
		out.DriverBreakdown = append(out.DriverBreakdown, dw)
	}
	sort.SliceStable(out.DriverBreakdown, func(i, j int) bool {
		a, b := out.DriverBreakdown[i], out.DriverBreakdown[j]
		if a.TotalActivities != b.TotalActivities {
			return a.TotalActivities > b.TotalActivities
		}
		return a.User.FirstName+a.User.LastName < b.User.FirstName+b.User.LastName
	})
	return out, nil
}

// TypeTotal counts and sums one movement type.
type TypeTotal struct {
	Count    int `json:"count"`
	Quantity int `json:"quantity"`
}

// StatsDay is one day of WeekStats.
type StatsDay struct {
	Date          string               `json:"date"`
	Totals        map[string]TypeTotal `json:"totals"`
	GoodBatteries int                  `json:"goodBatteries"`
	DeadBatteries int                  `json:"deadBatteries"`
}

// WeekStats is every movement type's count and quantity over a week and per day, with the
// good and dead batteries returned.
type WeekStats struct {
	WeekStart     string               `json:"weekStart"`
	WeekEnd       string               `json:"weekEnd"`
	Totals        map[string]TypeTotal `json:"totals"`
	GoodBatteries int                  `json:"goodBatteries"`
	DeadBatteries int                  `json:"deadBatteries"`
	Days          []StatsDay           `json:"days"`
}

// WeeklyStats is the answer of GET /api/admin/weekly-stats.
type WeeklyStats struct {
	ThisWeek WeekStats `json:"thisWeek"`
	LastWeek WeekStats `json:"lastWeek"`
}

// AdminWeeklyStats groups last and this week's movements by day and type in one query over
// the occurredAt index range.
func AdminWeeklyStats(app core.App, now time.Time, loc *time.Location) (WeeklyStats, error) {
	bounds := clock.Days(clock.WeekStart(now, loc, -1), 14)
	params := dbx.Params{}
	bucket := dayBucket("occurredAt", bounds, params)
	var rows []struct {
		Day  int    `db:"day"`
		Type string `db:"type"`
		Cnt  int    `db:"cnt"`
		Qty  int    `db:"qty"`
		Good int    `db:"good"`
		Dead int    `db:"dead"`
	}
	err := app.DB().NewQuery("SELECT " + bucket + " AS day, type, COUNT(*) AS cnt, SUM(quantity) AS qty," +
		" SUM(goodBatteries) AS good, SUM(deadBatteries) AS dead FROM " + schema.Movements + " INDEXED BY " + byOccurredAt +
		" WHERE occurredAt >= {:from} AND occurredAt < {:to} GROUP BY day, type").Bind(params).All(&rows)
	if err != nil {
		return WeeklyStats{}, err
	}
	weeks := [2]WeekStats{}
	for w := range weeks {
		weeks[w] = WeekStats{WeekStart: clock.DateString(bounds[7*w]), WeekEnd: clock.DateString(bounds[7*w+6]),
			Totals: map[string]TypeTotal{}, Days: make([]StatsDay, 7)}
		for d := range weeks[w].Days {
			weeks[w].Days[d] = StatsDay{Date: clock.DateString(bounds[7*w+d]), Totals: map[string]TypeTotal{}}
		}
	}
	for _, r := range rows {
		wk := &weeks[r.Day/7]
		day := &wk.Days[r.Day%7]
		add := func(m map[string]TypeTotal) {
			t := m[r.Type]
			t.Count += r.Cnt
			t.Quantity += r.Qty
			m[r.Type] = t
		}
		add(wk.Totals)
		add(day.Totals)
		if r.Type == TypeDropoff || r.Type == TypeDeadBatteryDropoff {
			wk.GoodBatteries += r.Good
			wk.DeadBatteries += r.Dead
			day.GoodBatteries += r.Good
			day.DeadBatteries += r.Dead
		}
	}
	return WeeklyStats{LastWeek: weeks[0], ThisWeek: weeks[1]}, nil
}
