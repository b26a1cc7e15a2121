// Package activity serves SwapBay's read side: the dashboard state, activity feeds, weekly
// figures, charging sessions and battery holders. It never writes: the numbers come from the
// ledger's cached account balances and indexed movement queries (DESIGN.md §3), filtered per
// role on the server (DESIGN.md §4, spec part 1 §6).
package activity

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
	"swapbay/lib/roles"
)

// Register adds the read routes. Routes (all GET, JSON; times are RFC 3339 UTC strings, dates YYYY-MM-DD in the operation's
// time zone; "user" objects are {id, firstName, lastName, role} unless noted):
//
//	/api/state                       approved users  State: stats, recentMovements (50, role filtered),
//	                                                 chargingSessions, activeBatteryHolders, inFieldSummary,
//	                                                 driverDailyActivity, driverWeeklyActivity,
//	                                                 driverLastWeekActivity, settings{dropoff_prompt, pickup_prompt, time_zone, pack_tracking}
//	/api/driver/recent-movements     approved users  [Movement] the caller's own, latest 50
//	/api/driver/weekly-activity      approved users  {thisWeek: WeekActivity, lastWeek: WeekActivity}
//	/api/driver/dead-battery-stats   approved users  {daily, weekly, lastWeek} dead batteries the caller dropped
//	/api/admin/weekly-activity       admins, liaison ?weekOffset=0|-1: {weekStart, weekEnd,
//	                                                 weeklyTotals{rebalanceTotal, retrievesRepairsTotal},
//	                                                 days[7]{date, rebalanceQty, retrievesRepairsQty},
//	                                                 driverBreakdown[]{user, activities[] (latest 200:
//	                                                 id, type, quantity, notes, createdAt), deadBatteriesTotal,
//	                                                 rebalanceTotal, retrievesRepairsTotal, totalActivities}}
//	                                                 (liaison: notes removed); ?activities=none leaves the
//	                                                 activities out (the dashboards' polls), ?user=<id> keeps
//	                                                 that user's row only (an expanded card)
//	/api/liaison/charging-sessions   admins, liaison [Session{id, quantity, chargerType, startedAt, etaAt}] active, by etaAt
//	/api/admin/charging-sessions     admins          same
//	/api/liaison/battery-holders     admins, liaison [{user, total, assignments[{id, assignmentType, quantity, date}]}]
//	/api/admin/battery-holders       admins          same
//	/api/admin/recent-activity       admins          [Movement + actor{id, firstName, lastName, role} (or null),
//	                                                 goodBatteries, deadBatteries, discrepancy] latest 100, full notes
//	/api/admin/weekly-stats          admins          {thisWeek: WeekStats, lastWeek: WeekStats}; WeekStats =
//	                                                 {weekStart, weekEnd, totals: {<type>: {count, quantity}},
//	                                                 goodBatteries, deadBatteries, days[7]{date, totals, goodBatteries, deadBatteries}}
//	/api/admin/active-pickups        admins          [{id (holder account), user, quantity, date}] open pickup holdings
//	/api/admin/attention             admins          {chargingDue{sessions, batteries}, pendingApprovals, failedPdfs,
//	                                                 quarantinedPacks, missingPacks, packDiscrepancies, damageReports,
//	                                                 unnamedBatteries, unnamedInBay, wornPacks}: what needs action first (the admin
//	                                                 Home's attention strip; wornPacks: worn packs in service or maintenance;
//	                                                 unnamedInBay: in required mode, the bay's batteries no pack names, the
//	                                                 System page's "Count the bay")
//	/api/inventory                   admins          {settings: {key: value}, stats, ready, waiting, charging, total}
//
// A Movement is {id, type, quantity, notes, createdAt, userId, user{id, firstName, lastName,
// email, role}}; email is given to admins and for the caller's own movements only.
//
// /api/state is cached per caller until the next change notification (cache.go): every
// polling phone of the bay asks for it every 60 s, and it changes only when something commits.
func Register(app core.App) {
	states := newStateCache(app)
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		approved := se.Router.Group("/api")
		approved.Bind(httpx.RequireApproved())
		approved.GET("/state", states.handleState)
		approved.GET("/driver/recent-movements", handleDriverRecentMovements)
		approved.GET("/driver/weekly-activity", handleDriverWeeklyActivity)
		approved.GET("/driver/dead-battery-stats", handleDeadBatteryStats)

		liaisonOrAdmin := se.Router.Group("/api")
		liaisonOrAdmin.Bind(httpx.RequireRoles(roles.Liaison, roles.Admin, roles.MasterAdmin))
		liaisonOrAdmin.GET("/admin/weekly-activity", handleAdminWeeklyActivity)
		liaisonOrAdmin.GET("/liaison/charging-sessions", handleChargingSessions)
		liaisonOrAdmin.GET("/liaison/battery-holders", handleBatteryHolders)

		admins := se.Router.Group("/api")
		admins.Bind(httpx.RequireAdmin())
		admins.GET("/admin/charging-sessions", handleChargingSessions)
		admins.GET("/admin/battery-holders", handleBatteryHolders)
		admins.GET("/admin/recent-activity", handleAdminRecentActivity)
		admins.GET("/admin/weekly-stats", handleAdminWeeklyStats)
		admins.GET("/admin/active-pickups", handleActivePickups)
		admins.GET("/admin/attention", handleAdminAttention)
		admins.GET("/inventory", handleInventory)
		return se.Next()
	})
}
