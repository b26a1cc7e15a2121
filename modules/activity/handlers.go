package activity

import (
	"net/http"
	"net/url"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/modules/system"
)

// loaded answers v, or a logged 500 with msg when its read failed (err).
func loaded(e *core.RequestEvent, msg string, v any, err error) error {
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, msg, err)
	}
	return e.JSON(http.StatusOK, v)
}

// callerTwoWeeks reads the caller's this week and last week, cut in the operation's zone.
func callerTwoWeeks(e *core.RequestEvent) (TwoWeeks, error) {
	loc, err := system.Location(e.App)
	if err != nil {
		return TwoWeeks{}, err
	}
	return UserTwoWeeks(e.App, e.Auth.Id, clock.Now(), loc)
}

func handleDriverRecentMovements(e *core.RequestEvent) error {
	ms, err := OwnMovements(e.App, CallerOf(e.Auth), RecentLimit)
	return loaded(e, "Failed to load recent movements.", ms, err)
}

// driverWeeks is the answer of GET /api/driver/weekly-activity.
type driverWeeks struct {
	ThisWeek WeekActivity `json:"thisWeek"`
	LastWeek WeekActivity `json:"lastWeek"`
}

func handleDriverWeeklyActivity(e *core.RequestEvent) error {
	w, err := callerTwoWeeks(e)
	return loaded(e, "Unable to load driver activity", driverWeeks{ThisWeek: w.ThisWeek, LastWeek: w.LastWeek}, err)
}

func handleDeadBatteryStats(e *core.RequestEvent) error {
	w, err := callerTwoWeeks(e)
	return loaded(e, "Failed to load dead battery stats.", DeadBatteryStats{Daily: w.DeadToday, Weekly: w.ThisWeek.Totals.Batteries, LastWeek: w.LastWeek.Totals.Batteries}, err)
}

// Messages of GET /api/admin/weekly-activity's query parameters.
const (
	MsgWeekOffset = "weekOffset must be 0 or -1."
	MsgActivities = "activities must be all or none."
	MsgWeekUser   = "user must be a user id."
)

// weekQuery reads ?weekOffset=0|-1, ?activities=all|none and ?user=<id> (WeekQuery).
func weekQuery(v url.Values) (WeekQuery, error) {
	var q WeekQuery
	switch v.Get("weekOffset") {
	case "", "0":
	case "-1":
		q.Offset = -1
	default:
		return q, apierr.New(http.StatusBadRequest, "weekOffset", MsgWeekOffset)
	}
	switch v.Get("activities") {
	case "", "all":
	case "none":
		q.Summary = true
	default:
		return q, apierr.New(http.StatusBadRequest, "activities", MsgActivities)
	}
	if v.Has("user") {
		q.User = v.Get("user")
		if !isRecordId(q.User) {
			return q, apierr.New(http.StatusBadRequest, "user", MsgWeekUser)
		}
	}
	return q, nil
}

// isRecordId reports whether s has the shape of a PocketBase record id (1 to 64 of a-z0-9_).
func isRecordId(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func handleAdminWeeklyActivity(e *core.RequestEvent) error {
	q, err := weekQuery(e.Request.URL.Query())
	if err != nil {
		return err
	}
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Unable to load driver activity", err)
	}
	w, err := AdminWeeklyActivity(e.App, CallerOf(e.Auth), q, clock.Now(), loc)
	return loaded(e, "Unable to load driver activity", w, err)
}

func handleChargingSessions(e *core.RequestEvent) error {
	s, err := ActiveSessions(e.App)
	return loaded(e, "Failed to load charging sessions.", s, err)
}

func handleBatteryHolders(e *core.RequestEvent) error {
	h, err := Holders(e.App, "")
	return loaded(e, "Failed to load battery holders.", GroupHolders(h), err)
}

func handleAdminRecentActivity(e *core.RequestEvent) error {
	ms, err := AdminRecentActivity(e.App, AdminRecentLimit)
	return loaded(e, "Failed to load recent activity.", ms, err)
}

func handleAdminWeeklyStats(e *core.RequestEvent) error {
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load weekly stats.", err)
	}
	s, err := AdminWeeklyStats(e.App, clock.Now(), loc)
	return loaded(e, "Failed to load weekly stats.", s, err)
}

func handleActivePickups(e *core.RequestEvent) error {
	h, err := Holders(e.App, "")
	return loaded(e, "Failed to load active pickups.", ActivePickups(h), err)
}

func handleInventory(e *core.RequestEvent) error {
	inv, err := LoadInventory(e.App)
	return loaded(e, "Failed to load inventory.", inv, err)
}
