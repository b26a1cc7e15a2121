package earnings

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
	"swapbay/modules/users"
)

// Messages of the earnings module (the spec's wording where it gives one).
const (
	MsgWeekStart      = "weekStart must be a Monday, written YYYY-MM-DD"
	MsgWeekFuture     = "weekStart cannot be in the future"
	MsgRateInvalid    = "Pay rates must be numbers of 0 or more with at most 2 decimals"
	MsgPercentRange   = "Please enter a number between 0 and 100"
	MsgCountInvalid   = "Please enter a valid number"
	MsgTaskType       = "Task type must be batteries, moves or recovers"
	MsgUserNotFound   = "User not found"
	MsgNotEarner      = "Only approved drivers, admins and master admins earn pay"
	MsgReasonTooLong  = "The reason can be at most 500 characters"
	MsgRatesUpdated   = "Pay rates updated successfully"
	MsgAdjustmentSave = "Task adjustment saved successfully"
)

// Week is one Monday-to-Sunday week in the operation's time zone (DESIGN.md §8).
type Week struct {
	Start time.Time // local Monday 00:00
	End   time.Time // the next local Monday 00:00 (exclusive)
}

// StartDate is the Monday, YYYY-MM-DD.
func (w Week) StartDate() string { return clock.DateString(w.Start) }

// EndDate is the Sunday, YYYY-MM-DD.
func (w Week) EndDate() string { return clock.DateString(w.End.AddDate(0, 0, -1)) }

// WeekOf returns the week containing t in loc.
func WeekOf(t time.Time, loc *time.Location) Week {
	start := clock.WeekStart(t, loc, 0)
	return Week{Start: start, End: time.Date(start.Year(), start.Month(), start.Day()+7, 0, 0, 0, 0, loc)}
}

// ParseWeek reads ?weekStart=: blank is the current week; otherwise a Monday written
// YYYY-MM-DD, not after the current week (MsgWeekStart, MsgWeekFuture).
func ParseWeek(param string, now time.Time, loc *time.Location) (Week, error) {
	param = strings.TrimSpace(param)
	if param == "" {
		return WeekOf(now, loc), nil
	}
	d, err := time.ParseInLocation(time.DateOnly, param, loc)
	if err != nil || d.Weekday() != time.Monday || clock.DateString(d) != param {
		return Week{}, apierr.Invalid("weekStart", MsgWeekStart)
	}
	w := WeekOf(d, loc)
	if w.Start.After(now) {
		return Week{}, apierr.Invalid("weekStart", MsgWeekFuture)
	}
	return w, nil
}

// Rates are the pay per task in force at some time (zero when none was ever set).
type Rates struct {
	DeadBattery Cents     `json:"deadBattery"`
	Move        Cents     `json:"move"`
	Recover     Cents     `json:"recover"`
	EffectiveAt string    `json:"effectiveAt"` // "" when no rates were ever set
	at          time.Time // parsed EffectiveAt
}

// RatesAt returns the rates in force at t: the latest change not after it.
func RatesAt(app core.App, t time.Time) (Rates, error) {
	return ratesAt(context.Background(), app.DB(), t)
}

// ratesAt is RatesAt over db: the city's database, or head office's copy of it (Total).
func ratesAt(ctx context.Context, db dbx.Builder, t time.Time) (Rates, error) {
	var row struct {
		Dead    int64  `db:"d"`
		Move    int64  `db:"m"`
		Recover int64  `db:"r"`
		At      string `db:"at"`
	}
	err := db.NewQuery("SELECT " + schema.PayRateDeadBattery + " AS d, " + schema.PayRateMove + " AS m, " +
		schema.PayRateRecover + " AS r, " + schema.PayRateEffectiveAt + " AS at FROM " + schema.PayRates +
		" WHERE " + schema.PayRateEffectiveAt + " <= {:t} ORDER BY " + schema.PayRateEffectiveAt + " DESC, rowid DESC LIMIT 1").
		Bind(dbx.Params{"t": clock.DBText(t)}).WithContext(ctx).One(&row)
	if errors.Is(err, sql.ErrNoRows) {
		return Rates{}, nil
	}
	if err != nil {
		return Rates{}, fmt.Errorf("read pay rates: %w", err)
	}
	at, _ := types.ParseDateTime(row.At)
	return Rates{DeadBattery: Cents(row.Dead), Move: Cents(row.Move), Recover: Cents(row.Recover),
		EffectiveAt: at.Time().UTC().Format(time.RFC3339), at: at.Time()}, nil
}

// SetRates records new pay rates, effective at once, on behalf of actor; announces
// EARNINGS_UPDATED. Past weeks keep the rates in force at their end.
func SetRates(app core.App, actor *core.Record, r Rates, now time.Time) (Rates, error) {
	for _, c := range []Cents{r.DeadBattery, r.Move, r.Recover} {
		if c < 0 || c > MaxRateCents {
			return Rates{}, apierr.Invalid("", MsgRateInvalid)
		}
	}
	rec, err := records.New(app, schema.PayRates)
	if err != nil {
		return Rates{}, err
	}
	rec.Set(schema.PayRateDeadBattery, int64(r.DeadBattery))
	rec.Set(schema.PayRateMove, int64(r.Move))
	rec.Set(schema.PayRateRecover, int64(r.Recover))
	rec.Set(schema.PayRateEffectiveAt, now.UTC())
	if actor != nil {
		rec.Set(schema.PayRateCreatedBy, actor.Id)
	}
	if err := app.Save(rec); err != nil {
		return Rates{}, fmt.Errorf("save pay rates: %w", err)
	}
	events.Publish(app, events.EarningsUpdated)
	r.EffectiveAt, r.at = now.UTC().Format(time.RFC3339), now.UTC()
	return r, nil
}

// Counts are a user's tasks of a week.
type Counts struct {
	DeadBatteries int `json:"deadBatteries"`
	Moves         int `json:"moves"`
	Recovers      int `json:"recovers"`
}

// get returns the count of taskType.
func (c Counts) get(taskType string) int {
	switch taskType {
	case schema.AdjustmentTaskBattery:
		return c.DeadBatteries
	case schema.AdjustmentTaskMoves:
		return c.Moves
	}
	return c.Recovers
}

// adjusted returns c with the adjustments in force (by task type) in place of its counts.
func (c Counts) adjusted(adj map[string]Adjustment) Counts {
	for t, a := range adj {
		c.set(t, a.AdjustedCount)
	}
	return c
}

func (c *Counts) set(taskType string, n int) {
	switch taskType {
	case schema.AdjustmentTaskBattery:
		c.DeadBatteries = n
	case schema.AdjustmentTaskMoves:
		c.Moves = n
	default:
		c.Recovers = n
	}
}

// earnerSQL is whose task a movement is (over the movements table): its user's id, or once
// the user was deleted (inventory.KeepFormerUser) the former user's kept id. Movements of users
// deleted before the id was kept have only their name and role: those count for
// "former:" + first name, last name and role (formerPrefix), so one such person's weeks stay
// together, paid at the default pay reduction (their own was not kept). "" for nobody.
const earnerSQL = "(CASE WHEN COALESCE(user, '') != '' THEN user" +
	" WHEN instr(meta, '\"" + inventory.MetaFormerUser + "\"') > 0 AND json_valid(meta)" +
	" AND json_type(meta, '$." + inventory.MetaFormerUser + "') = 'object' THEN COALESCE(" +
	"NULLIF(json_extract(meta, '$." + inventory.MetaFormerUser + ".id'), ''), '" + formerPrefix + "'" +
	" || COALESCE(json_extract(meta, '$." + inventory.MetaFormerUser + ".firstName'), '') || char(31)" +
	" || COALESCE(json_extract(meta, '$." + inventory.MetaFormerUser + ".lastName'), '') || char(31)" +
	" || COALESCE(json_extract(meta, '$." + inventory.MetaFormerUser + ".role'), '')) ELSE '' END)"

// formerPrefix starts the earner key of a user deleted before their id was kept (earnerSQL).
const formerPrefix = "former:"

// EarnerSQL is earnerSQL for head office's day figures (modules/hq/reads), which bucket the
// same movements by day: the earner a task movement counts for.
const EarnerSQL = earnerSQL

// taskTypesSQL are the movements that count (with params dropoff, move, recover).
const taskTypesSQL = "type IN ({:dropoff}, {:move}, {:recover})"

func taskParams(from, to time.Time) dbx.Params {
	return dbx.Params{
		"from": clock.DBText(from), "to": clock.DBText(to),
		"dropoff": inventory.TypeDropoff, "move": inventory.TypeRebalance, "recover": inventory.TypeRetrievesRepairs,
	}
}

// weekCounts returns every user's counts in w from the ledger's movements, one grouped query
// over the (type, occurredAt) index: dead batteries of their own dropoffs, rebalance
// quantities (moves) and retrieves-repairs quantities (recovers). userId "" means everyone.
func weekCounts(ctx context.Context, db dbx.Builder, w Week, userId string) (map[string]Counts, error) {
	var rows []struct {
		User     string `db:"user"`
		Dead     int    `db:"dead"`
		Moves    int    `db:"moves"`
		Recovers int    `db:"recovers"`
	}
	params := taskParams(w.Start, w.End)
	where := ""
	if userId != "" {
		where, params["user"] = " AND user = {:user}", userId
	}
	err := db.NewQuery("SELECT " + earnerSQL + " AS user," +
		" SUM(CASE WHEN type = {:dropoff} THEN deadBatteries ELSE 0 END) AS dead," +
		" SUM(CASE WHEN type = {:move} THEN quantity ELSE 0 END) AS moves," +
		" SUM(CASE WHEN type = {:recover} THEN quantity ELSE 0 END) AS recovers" +
		" FROM " + schema.Movements + " INDEXED BY " + schema.IdxMovementsTypeOccurredAt +
		" WHERE " + taskTypesSQL + " AND occurredAt >= {:from} AND occurredAt < {:to}" + where +
		" GROUP BY 1").Bind(params).WithContext(ctx).All(&rows)
	if err != nil {
		return nil, fmt.Errorf("count tasks: %w", err)
	}
	out := make(map[string]Counts, len(rows))
	for _, r := range rows {
		out[r.User] = Counts{DeadBatteries: max(r.Dead, 0), Moves: max(r.Moves, 0), Recovers: max(r.Recovers, 0)}
	}
	return out, nil
}

// Adjustment is a task adjustment as the API shows it.
type Adjustment struct {
	Id               string `db:"id" json:"id"`
	UserId           string `db:"userId" json:"userId"`
	WeekStart        string `db:"weekStart" json:"weekStart"`
	TaskType         string `db:"taskType" json:"taskType"`
	OriginalCount    int    `db:"originalCount" json:"originalCount"`
	AdjustedCount    int    `db:"adjustedCount" json:"adjustedCount"`
	AdjustmentReason string `db:"adjustmentReason" json:"adjustmentReason"`
	CreatedBy        string `db:"createdBy" json:"createdBy"`
	Created          string `db:"created" json:"created"`
}

// weekAdjustments returns the adjustments in force for w: per user and task type, the latest.
func weekAdjustments(ctx context.Context, db dbx.Builder, w Week) (map[string]map[string]Adjustment, error) {
	var rows []Adjustment
	whose := "COALESCE(NULLIF(" + schema.AdjustmentEarner + ", ''), user)"
	kept, err := hasColumn(ctx, db, schema.TaskAdjustments, schema.AdjustmentEarner)
	if err != nil {
		return nil, err
	}
	if !kept {
		// a city copy from a binary before migration 1766600000 (head office reads every
		// city's copy, whatever version the city runs): its adjustments name their user only
		whose = "user"
	}
	err = db.NewQuery("SELECT id, " + whose + " AS userId, weekStart, taskType, originalCount, adjustedCount," +
		" adjustmentReason, createdBy, created FROM " + schema.TaskAdjustments +
		" WHERE weekStart = {:w} ORDER BY created, rowid").Bind(dbx.Params{"w": w.StartDate()}).WithContext(ctx).All(&rows)
	if err != nil {
		return nil, fmt.Errorf("read task adjustments: %w", err)
	}
	out := map[string]map[string]Adjustment{}
	for _, a := range rows {
		if out[a.UserId] == nil {
			out[a.UserId] = map[string]Adjustment{}
		}
		out[a.UserId][a.TaskType] = a // the latest wins
	}
	return out, nil
}

// hasColumn reports whether table in db has column (one PRAGMA read of the table's columns).
func hasColumn(ctx context.Context, db dbx.Builder, table, column string) (bool, error) {
	var n int
	err := db.NewQuery("SELECT COUNT(*) FROM pragma_table_info({:t}) WHERE name = {:c}").
		Bind(dbx.Params{"t": table, "c": column}).WithContext(ctx).Row(&n)
	if err != nil {
		return false, fmt.Errorf("read the columns of %s: %w", table, err)
	}
	return n > 0, nil
}

// Earner is a user who may be paid: an approved driver, admin or master admin (a row every
// week; an admin in the core team's pool), or any other account (Unlisted: suspended, pending,
// rejected, or whose role changed) for the tasks it did, in a week where it has some.
type Earner struct {
	Id                     string  `db:"id" json:"id"`
	FirstName              string  `db:"firstName" json:"firstName"`
	LastName               string  `db:"lastName" json:"lastName"`
	Email                  string  `db:"email" json:"email"`
	Role                   string  `db:"role" json:"role"`
	PayReductionPercentage float64 `db:"pay" json:"-"`
	Withholding            float64 `db:"withholding" json:"-"`
	Unlisted               bool    `db:"unlisted" json:"-"`
	// Former marks a deleted user, paid for the tasks they did (FormerEarners); always Unlisted.
	Former bool `db:"-" json:"-"`
}

// Earners returns every user in db (the city's database or head office's copy of it) with
// their pay reduction (unset: the default) and pool withholding (unset: 0); Unlisted marks all
// but the approved drivers, admins and master admins. A driver suspended, or made a liaison, after a
// week's work is still paid for it (was: the week's pay, already earned, left the earnings
// page, the payroll CSV and head office's totals).
func Earners(ctx context.Context, db dbx.Builder) ([]Earner, error) {
	var out []Earner
	err := db.NewQuery("SELECT id, firstName, lastName, email, role," +
		" COALESCE(" + schema.UserPayReductionPercentage + ", {:def}) AS pay," +
		" COALESCE(" + schema.UserAdminPoolWithholdingPct + ", 0) AS withholding," +
		" NOT (isApproved = {:approved} AND role IN ({:d}, {:a}, {:m})) AS unlisted" +
		" FROM " + schema.Users).
		Bind(dbx.Params{"def": schema.DefaultPayReductionPercentage, "approved": roles.Approved,
			"d": roles.Driver, "a": roles.Admin, "m": roles.MasterAdmin}).WithContext(ctx).All(&out)
	if err != nil {
		return nil, fmt.Errorf("read earners: %w", err)
	}
	return out, nil
}

// FormerEarners returns the deleted users with tasks in [from, to) in db, as their movements
// keep them (inventory.FormerUser): Id is their earner key (earnerSQL), their pay reduction
// the one they had when deleted (the default for those deleted before it was kept), Unlisted
// and Former set. A deleted user's pay stays theirs (was: it left the earnings page, the
// payroll CSV and head office's totals with the account, past weeks included).
func FormerEarners(ctx context.Context, db dbx.Builder, from, to time.Time) ([]Earner, error) {
	var rows []struct {
		Key    string `db:"k"`
		Former string `db:"former"`
	}
	err := db.NewQuery("SELECT " + earnerSQL + " AS k, MAX(json_extract(meta, '$." + inventory.MetaFormerUser + "')) AS former" +
		" FROM " + schema.Movements + " INDEXED BY " + schema.IdxMovementsTypeOccurredAt +
		" WHERE " + taskTypesSQL + " AND occurredAt >= {:from} AND occurredAt < {:to} AND COALESCE(user, '') = ''" +
		" GROUP BY 1 HAVING k != ''").Bind(taskParams(from, to)).WithContext(ctx).All(&rows)
	if err != nil {
		return nil, fmt.Errorf("read former earners: %w", err)
	}
	out := make([]Earner, 0, len(rows))
	for _, r := range rows {
		out = append(out, formerEarner(r.Key, r.Former))
	}
	return out, nil
}

// formerEarner is the Earner of key from its kept FormerUser JSON.
func formerEarner(key, raw string) Earner {
	var f inventory.FormerUser
	_ = json.Unmarshal([]byte(raw), &f)
	e := Earner{Id: key, FirstName: f.FirstName, LastName: f.LastName, Email: f.Email, Role: f.Role,
		PayReductionPercentage: schema.DefaultPayReductionPercentage, Unlisted: true, Former: true}
	if f.PayReductionPercentage != nil {
		e.PayReductionPercentage = *f.PayReductionPercentage
	}
	if f.Withholding != nil {
		e.Withholding = *f.Withholding
	}
	return e
}

// formerById finds deleted user id among every movement's kept former users, for an
// adjustment of theirs in a week where they have no task (a scan of the movements: rare).
func formerById(ctx context.Context, db dbx.Builder, id string) (Earner, bool, error) {
	var row struct {
		Former string `db:"former"`
	}
	err := db.NewQuery("SELECT json_extract(meta, '$." + inventory.MetaFormerUser + "') AS former FROM " + schema.Movements +
		" WHERE COALESCE(user, '') = '' AND instr(meta, {:id}) > 0 AND json_valid(meta)" +
		" AND json_extract(meta, '$." + inventory.MetaFormerUser + ".id') = {:id} LIMIT 1").
		Bind(dbx.Params{"id": id}).WithContext(ctx).One(&row)
	if errors.Is(err, sql.ErrNoRows) {
		return Earner{}, false, nil
	}
	if err != nil {
		return Earner{}, false, fmt.Errorf("read a former earner: %w", err)
	}
	return formerEarner(id, row.Former), true, nil
}

// Row is one user's week (DESIGN.md §8). Core-team rows also carry their pool figures.
type Row struct {
	UserId                         string                `json:"userId"`
	FirstName                      string                `json:"firstName"`
	LastName                       string                `json:"lastName"`
	Email                          string                `json:"email"`
	Role                           string                `json:"role"`
	Former                         bool                  `json:"former"` // a deleted user (FormerEarners)
	DeadBatteries                  int                   `json:"deadBatteries"`
	Moves                          int                   `json:"moves"`
	Recovers                       int                   `json:"recovers"`
	BaseEarnings                   Cents                 `json:"baseEarnings"`
	PayReductionPercentage         int                   `json:"payReductionPercentage"`
	AdminPoolWithholdingPercentage Tenths                `json:"adminPoolWithholdingPercentage"`
	IndividualEarnings             Cents                 `json:"individualEarnings"`
	PoolContribution               Cents                 `json:"poolContribution"`
	PoolShare                      Cents                 `json:"poolShare"`
	TotalEarnings                  Cents                 `json:"totalEarnings"`
	Counted                        Counts                `json:"counted"`     // from the ledger, before adjustments
	Adjustments                    map[string]Adjustment `json:"adjustments"` // by task type, the ones in force
}

// CoreTeam is the week's pool (DESIGN.md §8).
type CoreTeam struct {
	TotalPooledEarnings Cents          `json:"totalPooledEarnings"`
	AdminCount          int            `json:"adminCount"`
	PoolShare           Cents          `json:"poolShare"` // the share each member gets at least; the odd cents are in AdminBreakdown
	From                string         `json:"from"`
	To                  string         `json:"to"`
	AdminBreakdown      []PoolMemberJS `json:"adminBreakdown"`
}

// PoolMemberJS is one core-team member's part of the pool.
type PoolMemberJS struct {
	User                           Earner `json:"user"`
	IndividualEarnings             Cents  `json:"individualEarnings"`
	AdminPoolWithholdingPercentage Tenths `json:"adminPoolWithholdingPercentage"`
	PoolContribution               Cents  `json:"poolContribution"`
	PoolShare                      Cents  `json:"poolShare"` // pool / adminCount to the cent (shares)
	TotalEarnings                  Cents  `json:"totalEarnings"`
}

// Report is a week's earnings: every earner's row, highest total first, and the pool.
type Report struct {
	WeekStart string   `json:"weekStart"`
	WeekEnd   string   `json:"weekEnd"`
	Rates     Rates    `json:"rates"`
	Rows      []Row    `json:"earnings"`
	Pool      CoreTeam `json:"-"`
}

// ratesFor returns the rates a week is paid at: those in force at its end, or now for the
// current week.
func ratesFor(ctx context.Context, db dbx.Builder, w Week, now time.Time) (Rates, error) {
	at := w.End.Add(-time.Millisecond)
	if now.Before(at) {
		at = now
	}
	return ratesAt(ctx, db, at)
}

// inputs are what a week's pay is made of (DESIGN.md §8).
type inputs struct {
	people      []Earner
	counts      map[string]Counts
	adjustments map[string]map[string]Adjustment // nil without adjustments
	rates       Rates
}

// read reads w's inputs from db in five queries (earners, counts, former earners,
// adjustments, rates), whatever the size of the history; four without the adjustments
// (adjust false). A deleted user's adjustment in a week they have no task in costs a scan.
func read(ctx context.Context, db dbx.Builder, w Week, now time.Time, adjust bool) (inputs, error) {
	var in inputs
	var err error
	if in.people, err = Earners(ctx, db); err != nil {
		return inputs{}, err
	}
	if in.counts, err = weekCounts(ctx, db, w, ""); err != nil {
		return inputs{}, err
	}
	formers, err := FormerEarners(ctx, db, w.Start, w.End)
	if err != nil {
		return inputs{}, err
	}
	known := make(map[string]bool, len(in.people)+len(formers))
	for _, p := range in.people {
		known[p.Id] = true
	}
	for _, f := range formers {
		if !known[f.Id] {
			known[f.Id] = true
			in.people = append(in.people, f)
		}
	}
	if adjust {
		if in.adjustments, err = weekAdjustments(ctx, db, w); err != nil {
			return inputs{}, err
		}
		// a deleted user's adjustment of a week they have no task in still applies
		for id := range in.adjustments {
			if known[id] {
				continue
			}
			f, ok, err := formerById(ctx, db, id)
			if err != nil {
				return inputs{}, err
			}
			if ok {
				in.people = append(in.people, f)
			}
		}
	}
	if in.rates, err = ratesFor(ctx, db, w, now); err != nil {
		return inputs{}, err
	}
	return in, nil
}

// Compute builds w's report in four queries (earners, counts, adjustments, rates), whatever
// the size of the history.
func Compute(app core.App, w Week, now time.Time) (Report, error) {
	in, err := read(context.Background(), app.DB(), w, now, true)
	if err != nil {
		return Report{}, err
	}
	return build(w, in.rates, in.people, in.counts, in.adjustments), nil
}

// Total is what Compute pays in all for [start, end) over db (head office's copy of a
// city's database): the sum of every earner's total, which is the sum of their individual
// earnings, as the core team's pool only moves money between its members. With adjust false
// the task adjustments are left out (they are made per week: head office's day figures).
func Total(ctx context.Context, db dbx.Builder, start, end, now time.Time, adjust bool) (Cents, error) {
	in, err := read(ctx, db, Week{Start: start, End: end}, now, adjust)
	if err != nil {
		return 0, err
	}
	var total Cents
	for _, p := range in.people {
		total += IndividualOf(in.counts[p.Id].adjusted(in.adjustments[p.Id]), in.rates, p.PayReductionPercentage).Earnings
	}
	return total, nil
}

// Individual is one earner's pay before the core-team pool (DESIGN.md §8).
type Individual struct {
	Base      Cents // the tasks at the rates
	Reduction int   // the pay reduction: a whole percent, 0–100
	Earnings  Cents // Base less Reduction, rounded half up to the cent
}

// IndividualOf is the pay of c's tasks at r less reduction (a percentage, rounded to a whole
// one within 0–100; NaN reads as the default). A week's rows (Compute), a copy's Total and
// head office's day figures are all this one sum.
func IndividualOf(c Counts, r Rates, reduction float64) Individual {
	pct := clampPercent(reduction)
	base := Cents(c.DeadBatteries)*r.DeadBattery + Cents(c.Moves)*r.Move + Cents(c.Recovers)*r.Recover
	return Individual{Base: base, Reduction: pct, Earnings: percentOf(base, pct)}
}

// build is the arithmetic of DESIGN.md §8, pure so the worked examples test it directly.
func build(w Week, rates Rates, people []Earner, counts map[string]Counts, adjustments map[string]map[string]Adjustment) Report {
	rep := Report{WeekStart: w.StartDate(), WeekEnd: w.EndDate(), Rates: rates, Rows: make([]Row, 0, len(people)),
		Pool: CoreTeam{From: w.StartDate(), To: w.EndDate(), AdminBreakdown: []PoolMemberJS{}}}
	var team []int
	for _, p := range people {
		counted := counts[p.Id]
		adj := adjustments[p.Id]
		if p.Unlisted && counted == (Counts{}) && len(adj) == 0 {
			continue // not an earner now, and nothing done this week
		}
		c := counted.adjusted(adj)
		if adj == nil {
			adj = map[string]Adjustment{}
		}
		pay := IndividualOf(c, rates, p.PayReductionPercentage)
		individual := pay.Earnings
		row := Row{UserId: p.Id, FirstName: p.FirstName, LastName: p.LastName, Email: p.Email, Role: p.Role, Former: p.Former,
			DeadBatteries: c.DeadBatteries, Moves: c.Moves, Recovers: c.Recovers, BaseEarnings: pay.Base,
			PayReductionPercentage: pay.Reduction, IndividualEarnings: individual, TotalEarnings: individual,
			Counted: counted, Adjustments: adj}
		if !p.Unlisted && roles.IsAdmin(p.Role) { // the pool is the approved core team's
			row.AdminPoolWithholdingPercentage = clampTenths(p.Withholding)
			row.PoolContribution = tenthsOf(individual, row.AdminPoolWithholdingPercentage)
			rep.Pool.TotalPooledEarnings += row.PoolContribution
			team = append(team, len(rep.Rows))
		}
		rep.Rows = append(rep.Rows, row)
	}
	rep.Pool.AdminCount = len(team)
	if len(team) > 0 {
		// the odd cents go to the members in user id order, so the shares add up to the pool
		sort.Slice(team, func(i, j int) bool { return rep.Rows[team[i]].UserId < rep.Rows[team[j]].UserId })
		split := shares(rep.Pool.TotalPooledEarnings, len(team))
		rep.Pool.PoolShare = split[len(split)-1] // the share every member gets at least
		for k, i := range team {
			rep.Rows[i].PoolShare = split[k]
		}
	}
	for _, i := range team {
		r := &rep.Rows[i]
		r.TotalEarnings = r.IndividualEarnings - r.PoolContribution + r.PoolShare
		rep.Pool.AdminBreakdown = append(rep.Pool.AdminBreakdown, PoolMemberJS{
			User:               Earner{Id: r.UserId, FirstName: r.FirstName, LastName: r.LastName, Email: r.Email, Role: r.Role},
			IndividualEarnings: r.IndividualEarnings, AdminPoolWithholdingPercentage: r.AdminPoolWithholdingPercentage,
			PoolContribution: r.PoolContribution, PoolShare: r.PoolShare, TotalEarnings: r.TotalEarnings,
		})
	}
	sort.SliceStable(rep.Rows, func(i, j int) bool {
		a, b := rep.Rows[i], rep.Rows[j]
		if a.TotalEarnings != b.TotalEarnings {
			return a.TotalEarnings > b.TotalEarnings
		}
		return strings.ToLower(a.FirstName+" "+a.LastName) < strings.ToLower(b.FirstName+" "+b.LastName)
	})
	sort.SliceStable(rep.Pool.AdminBreakdown, func(i, j int) bool {
		return rep.Pool.AdminBreakdown[i].PoolContribution > rep.Pool.AdminBreakdown[j].PoolContribution
	})
	return rep
}

// clampPercent reads a stored pay reduction as a whole percent within 0–100 (NaN: the default).
func clampPercent(v float64) int {
	if math.IsNaN(v) {
		return schema.DefaultPayReductionPercentage
	}
	return int(min(max(math.Round(v), 0), 100))
}

func clampTenths(v float64) Tenths {
	if math.IsNaN(v) {
		return 0
	}
	return Tenths(min(max(math.Round(v*10), 0), 1000))
}

// Estimate is a user's own week (GET /api/driver/pay-estimate).
type Estimate struct {
	WeekStart              string `json:"weekStart"`
	WeekEnd                string `json:"weekEnd"`
	TotalEarnings          Cents  `json:"totalEarnings"`
	BaseEarnings           Cents  `json:"baseEarnings"`
	PayReductionPercentage int    `json:"payReductionPercentage"`
	DeadBatteries          int    `json:"deadBatteries"`
	Moves                  int    `json:"moves"`
	Recovers               int    `json:"recovers"`
	Rates                  Rates  `json:"rates"`
}

// EstimateFor returns userId's row of w's report as their pay estimate (a core-team member's
// includes their pool share). A user who is not an approved earner gets zeros.
func EstimateFor(app core.App, userId string, w Week, now time.Time) (Estimate, error) {
	rep, err := Compute(app, w, now)
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{WeekStart: rep.WeekStart, WeekEnd: rep.WeekEnd, Rates: rep.Rates, PayReductionPercentage: schema.DefaultPayReductionPercentage}
	for _, r := range rep.Rows {
		if r.UserId == userId {
			e.TotalEarnings, e.BaseEarnings, e.PayReductionPercentage = r.TotalEarnings, r.BaseEarnings, r.PayReductionPercentage
			e.DeadBatteries, e.Moves, e.Recovers = r.DeadBatteries, r.Moves, r.Recovers
		}
	}
	return e, nil
}

// AdjustmentInput is a task adjustment as an admin asks for it.
type AdjustmentInput struct {
	UserId        string
	WeekStart     string
	TaskType      string
	AdjustedCount reqx.Int
	Reason        string
}

// Adjust records an audited task adjustment on behalf of actor: it replaces userId's count of
// taskType in that week (the latest wins). The original count is the ledger's, read now.
// Announces EARNINGS_UPDATED.
func Adjust(app core.App, actor *core.Record, in AdjustmentInput, now time.Time, loc *time.Location) (Adjustment, error) {
	w, err := ParseWeek(in.WeekStart, now, loc)
	if err != nil {
		return Adjustment{}, err
	}
	if strings.TrimSpace(in.WeekStart) == "" {
		return Adjustment{}, apierr.Invalid("weekStart", MsgWeekStart)
	}
	switch in.TaskType {
	case schema.AdjustmentTaskBattery, schema.AdjustmentTaskMoves, schema.AdjustmentTaskRecovers:
	default:
		return Adjustment{}, apierr.Invalid("taskType", MsgTaskType)
	}
	adjusted, err := in.AdjustedCount.In("adjustedCount", 0, reqx.MaxCount, MsgCountInvalid)
	if err != nil {
		return Adjustment{}, err
	}
	reason := strings.TrimSpace(reqx.StripControls(in.Reason))
	if len([]rune(reason)) > 500 {
		return Adjustment{}, apierr.Invalid("adjustmentReason", MsgReasonTooLong)
	}
	user, err := app.FindRecordById(schema.Users, strings.TrimSpace(in.UserId))
	if err != nil {
		return Adjustment{}, apierr.NotFound(MsgUserNotFound)
	}
	// a master admin's pay is changed by a master admin only, as their account is (DESIGN.md §4;
	// was: an admin could not change a master's pay reduction but could rewrite their counts)
	if err := users.MayChange(actor, user); err != nil {
		return Adjustment{}, err
	}
	earner := user.GetString(schema.UserIsApproved) == roles.Approved &&
		(roles.IsAdmin(user.GetString(schema.UserRole)) || user.GetString(schema.UserRole) == roles.Driver)
	var out Adjustment
	err = app.RunInTransaction(func(txApp core.App) error {
		counts, err := weekCounts(context.Background(), txApp.DB(), w, user.Id)
		if err != nil {
			return err
		}
		// a user no longer an approved earner (suspended, made a liaison) is still paid for a
		// week they worked (Earners: Unlisted), so that week's counts can still be corrected
		// (was: the row was listed and paid, and its correction refused)
		if !earner && counts[user.Id] == (Counts{}) {
			return apierr.Invalid("userId", MsgNotEarner)
		}
		rec, err := records.New(txApp, schema.TaskAdjustments)
		if err != nil {
			return err
		}
		rec.Set(schema.AdjustmentUser, user.Id)
		rec.Set(schema.AdjustmentEarner, user.Id)
		rec.Set(schema.AdjustmentWeekStart, w.StartDate())
		rec.Set(schema.AdjustmentTaskType, in.TaskType)
		rec.Set(schema.AdjustmentOriginal, counts[user.Id].get(in.TaskType))
		rec.Set(schema.AdjustmentAdjusted, adjusted)
		rec.Set(schema.AdjustmentReason, reason)
		if actor != nil {
			rec.Set(schema.AdjustmentCreatedBy, actor.Id)
		}
		if err := txApp.Save(rec); err != nil {
			return fmt.Errorf("save task adjustment: %w", err)
		}
		out = Adjustment{Id: rec.Id, UserId: user.Id, WeekStart: w.StartDate(), TaskType: in.TaskType,
			OriginalCount: rec.GetInt(schema.AdjustmentOriginal), AdjustedCount: adjusted, AdjustmentReason: reason,
			CreatedBy: rec.GetString(schema.AdjustmentCreatedBy), Created: rec.GetDateTime(schema.Created).String()}
		events.Publish(txApp, events.EarningsUpdated)
		return nil
	})
	return out, err
}
