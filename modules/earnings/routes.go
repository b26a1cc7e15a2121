// Package earnings is SwapBay's pay module (spec part 2 §2 "Earnings and pay rates",
// DESIGN.md §8): versioned pay rates, each week's earnings from the ledger's movements, the
// core-team pool, audited task adjustments, the caller's pay estimate and the payroll CSV.
// Money is integer cents (Cents), rounded half up once at the end of each step.
package earnings

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/modules/system"
	"swapbay/modules/users"
)

// Register adds the earnings routes. Every earnings read takes ?weekStart=YYYY-MM-DD (a
// Monday in the operation's time zone; default this week; 400 otherwise) and answers
// weekStart and weekEnd (the Sunday). Admins and master admins only, except the pay estimate:
//
//	GET  /api/admin/pay-rates                        {deadBattery, move, recover, effectiveAt} in force now
//	POST /api/admin/pay-rates                        {deadBattery, move, recover} (≥ 0, 2 decimals)
//	     → {message, rates}                           a new versioned row, effective at once
//	GET  /api/admin/all-earnings                     {weekStart, weekEnd, rates, earnings: [Row]} highest total first
//	GET  /api/admin/core-team-earnings               {weekStart, weekEnd, totalPooledEarnings, adminCount,
//	                                                  poolShare, from, to, adminBreakdown}
//	GET  /api/admin/earnings.csv                     the week for payroll, one row per earner
//	POST /api/admin/task-adjustments                 {userId, weekStart, taskType, adjustedCount, adjustmentReason}
//	     → {message, adjustment}                      replaces the count (audited; the ledger's count kept)
//	POST /api/admin/users/{id}/pool-withholding      {withholding} 0–100 in 0.1 steps → {message, user}
//	GET  /api/driver/pay-estimate                    the caller's own week (drivers, admins, master admins)
//
// payReductionPercentage is changed through PUT /api/admin/users/{id} (modules/users).
// Events: EARNINGS_UPDATED after a rate, withholding, reduction or adjustment change.
func Register(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		admin := se.Router.Group("/api/admin")
		admin.Bind(httpx.RequireAdmin())
		admin.GET("/pay-rates", handleGetRates)
		admin.POST("/pay-rates", httpx.Form(handleSetRates)).Bind(idempotency.Keyed())
		admin.GET("/all-earnings", handleAllEarnings)
		admin.GET("/core-team-earnings", handleCoreTeam)
		admin.GET("/earnings.csv", handleCSV)
		admin.POST("/task-adjustments", httpx.Form(handleAdjust)).Bind(idempotency.Keyed())
		admin.POST("/users/{id}/pool-withholding", httpx.Form(handleWithholding)).Bind(idempotency.Keyed())
		se.Router.GET("/api/driver/pay-estimate", handleEstimate).
			Bind(httpx.RequireRoles(roles.Driver, roles.Admin, roles.MasterAdmin))
		return se.Next()
	})
}

// week reads ?weekStart= in the operation's time zone.
func week(e *core.RequestEvent, now time.Time) (Week, *time.Location, error) {
	loc, err := system.Location(e.App)
	if err != nil {
		return Week{}, nil, err
	}
	w, err := ParseWeek(e.Request.URL.Query().Get("weekStart"), now, loc)
	return w, loc, err
}

func handleGetRates(e *core.RequestEvent) error {
	r, err := RatesAt(e.App, clock.Now())
	return httpx.Reply(e, r, err)
}

type ratesForm struct {
	DeadBattery Amount `json:"deadBattery"`
	Move        Amount `json:"move"`
	Recover     Amount `json:"recover"`
}

func handleSetRates(e *core.RequestEvent, f *ratesForm) error {
	var r Rates
	var err error
	if r.DeadBattery, err = f.DeadBattery.Check("deadBattery"); err != nil {
		return apierr.Response(e, err)
	}
	if r.Move, err = f.Move.Check("move"); err != nil {
		return apierr.Response(e, err)
	}
	if r.Recover, err = f.Recover.Check("recover"); err != nil {
		return apierr.Response(e, err)
	}
	saved, err := SetRates(e.App, e.Auth, r, clock.Now())
	return httpx.Reply(e, map[string]any{"message": MsgRatesUpdated, "rates": saved}, err)
}

func report(e *core.RequestEvent) (Report, error) {
	now := clock.Now()
	w, _, err := week(e, now)
	if err != nil {
		return Report{}, err
	}
	return Compute(e.App, w, now)
}

func handleAllEarnings(e *core.RequestEvent) error {
	rep, err := report(e)
	return httpx.Reply(e, rep, err)
}

func handleCoreTeam(e *core.RequestEvent) error {
	rep, err := report(e)
	return httpx.Reply(e, struct {
		WeekStart string `json:"weekStart"`
		WeekEnd   string `json:"weekEnd"`
		CoreTeam
	}{rep.WeekStart, rep.WeekEnd, rep.Pool}, err)
}

func handleEstimate(e *core.RequestEvent) error {
	now := clock.Now()
	w, _, err := week(e, now)
	if err != nil {
		return apierr.Response(e, err)
	}
	est, err := EstimateFor(e.App, e.Auth.Id, w, now)
	return httpx.Reply(e, est, err)
}

type adjustForm struct {
	UserId           string   `json:"userId"`
	WeekStart        string   `json:"weekStart"`
	TaskType         string   `json:"taskType"`
	OriginalCount    reqx.Int `json:"originalCount"` // shown by the UI; the server reads the ledger's
	AdjustedCount    reqx.Int `json:"adjustedCount"`
	AdjustmentReason string   `json:"adjustmentReason"`
}

func handleAdjust(e *core.RequestEvent, f *adjustForm) error {
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Response(e, err)
	}
	a, err := Adjust(e.App, e.Auth, AdjustmentInput{UserId: f.UserId, WeekStart: f.WeekStart, TaskType: f.TaskType,
		AdjustedCount: f.AdjustedCount, Reason: f.AdjustmentReason}, clock.Now(), loc)
	return httpx.Reply(e, map[string]any{"message": MsgAdjustmentSave, "adjustment": a}, err)
}

type withholdingForm struct {
	Withholding json.RawMessage `json:"withholding"`
}

func handleWithholding(e *core.RequestEvent, f *withholdingForm) error {
	t, ok := ParseTenths(f.Withholding)
	if !ok {
		return apierr.Response(e, apierr.Invalid("withholding", MsgPercentRange))
	}
	rec, err := users.SetPoolWithholding(e.App, e.Auth, e.Request.PathValue("id"), int(t))
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, map[string]any{"message": "Pool withholding updated successfully", "user": users.ToJSON(rec)})
}

// MarkFormer follows a deleted user's name in the payroll CSV (the Earnings page shows the same).
const MarkFormer = " (deleted)"

// csvColumns is the payroll export's header.
var csvColumns = []string{"Week Start", "Week End", "First Name", "Last Name", "Email", "Role",
	"Dead Batteries", "Moves", "Recovers", "Base Earnings", "Pay Reduction %", "Pool Withholding %",
	"Pool Contribution", "Pool Share", "Total Earnings"}

func handleCSV(e *core.RequestEvent) error {
	rep, err := report(e)
	if err != nil {
		return apierr.Response(e, err)
	}
	var buf bytes.Buffer
	buf.WriteString("\ufeff") // Excel reads UTF-8 names right with a BOM
	w := csv.NewWriter(&buf)
	_ = w.Write(csvColumns)
	for _, r := range rep.Rows {
		withholding, contribution, share := "", "", ""
		if roles.IsAdmin(r.Role) {
			b, _ := r.AdminPoolWithholdingPercentage.MarshalJSON()
			withholding, contribution, share = string(b), r.PoolContribution.String(), r.PoolShare.String()
		}
		last := r.LastName
		if r.Former {
			last += MarkFormer
		}
		_ = w.Write([]string{rep.WeekStart, rep.WeekEnd, cell(r.FirstName), cell(last), cell(r.Email), r.Role,
			strconv.Itoa(r.DeadBatteries), strconv.Itoa(r.Moves), strconv.Itoa(r.Recovers), r.BaseEarnings.String(),
			strconv.Itoa(r.PayReductionPercentage), withholding, contribution, share, r.TotalEarnings.String()})
	}
	w.Flush()
	h := e.Response.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="swapbay-earnings-`+rep.WeekStart+`.csv"`)
	h.Set("Cache-Control", "no-store")
	return e.Blob(http.StatusOK, "text/csv; charset=utf-8", buf.Bytes())
}

// cell keeps a name from being read as a formula by a spreadsheet (CSV injection): text
// starting with = + - @ or a tab/CR gets a leading apostrophe.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
