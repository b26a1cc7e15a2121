package activity

import (
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/modules/system"
)

// Now is the clock the handlers read; tests may replace it.
var Now = time.Now

func handleDriverRecentMovements(e *core.RequestEvent) error {
	ms, err := OwnMovements(e.App, CallerOf(e.Auth), RecentLimit)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load recent movements.", err)
	}
	return e.JSON(http.StatusOK, ms)
}

// driverWeeks is the answer of GET /api/driver/weekly-activity.
type driverWeeks struct {
	ThisWeek WeekActivity `json:"thisWeek"`
	LastWeek WeekActivity `json:"lastWeek"`
}

func handleDriverWeeklyActivity(e *core.RequestEvent) error {
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Unable to load driver activity", err)
	}
	w, err := UserTwoWeeks(e.App, e.Auth.Id, Now(), loc)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Unable to load driver activity", err)
	}
	return e.JSON(http.StatusOK, driverWeeks{ThisWeek: w.ThisWeek, LastWeek: w.LastWeek})
}

func handleDeadBatteryStats(e *core.RequestEvent) error {
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load dead battery stats.", err)
	}
	w, err := UserTwoWeeks(e.App, e.Auth.Id, Now(), loc)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load dead battery stats.", err)
	}
	return e.JSON(http.StatusOK, DeadBatteryStats{Daily: w.DeadToday, Weekly: w.ThisWeek.Totals.Batteries, LastWeek: w.LastWeek.Totals.Batteries})
}

func handleAdminWeeklyActivity(e *core.RequestEvent) error {
	offset := 0
	switch e.Request.URL.Query().Get("weekOffset") {
	case "", "0":
	case "-1":
		offset = -1
	default:
		return apierr.New(http.StatusBadRequest, "weekOffset", "weekOffset must be 0 or -1.")
	}
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Unable to load driver activity", err)
	}
	w, err := AdminWeeklyActivity(e.App, CallerOf(e.Auth), offset, Now(), loc)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Unable to load driver activity", err)
	}
	return e.JSON(http.StatusOK, w)
}

func handleChargingSessions(e *core.RequestEvent) error {
	s, err := ActiveSessions(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load charging sessions.", err)
	}
	return e.JSON(http.StatusOK, s)
}

func handleBatteryHolders(e *core.RequestEvent) error {
	h, err := Holders(e.App, "")
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load battery holders.", err)
	}
	return e.JSON(http.StatusOK, GroupHolders(h))
}

func handleAdminRecentActivity(e *core.RequestEvent) error {
	ms, err := AdminRecentActivity(e.App, AdminRecentLimit)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load recent activity.", err)
	}
	return e.JSON(http.StatusOK, ms)
}

func handleAdminWeeklyStats(e *core.RequestEvent) error {
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load weekly stats.", err)
	}
	s, err := AdminWeeklyStats(e.App, Now(), loc)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load weekly stats.", err)
	}
	return e.JSON(http.StatusOK, s)
}

func handleActivePickups(e *core.RequestEvent) error {
	h, err := Holders(e.App, "")
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load active pickups.", err)
	}
	return e.JSON(http.StatusOK, ActivePickups(h))
}

func handleInventory(e *core.RequestEvent) error {
	inv, err := LoadInventory(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load inventory.", err)
	}
	return e.JSON(http.StatusOK, inv)
}
