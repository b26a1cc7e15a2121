package hq

import "swapbay/lib/schema"

// HQ's collections and fields (HQ's own data dir; none of them exists in a city's).
const (
	// Users is PocketBase's users collection, with Role added (UserRole).
	Users    = "users"
	UserRole = "role"
	UserName = "name"

	Cities          = "cities"
	CityName        = "name"
	CityTimeZone    = "timeZone"
	CityCurrency    = "currency"
	CityReplicaURL  = "replicaUrl"
	CityAccessKeyID = "replicaAccessKeyId" // hidden: never answered
	CitySecretKey   = "replicaSecretKey"   // hidden: never answered
	CityAddress     = "address"
	CityToken       = "hqToken" // hidden: the token the city issued for head office, never answered
	CityUpdatedBy   = "updatedBy"
)

// Head-office roles.
const (
	RoleAdmin  = "hq_admin"
	RoleViewer = "hq_viewer"
)

// Roles are every head-office role.
var Roles = []string{RoleAdmin, RoleViewer}

// Sessions holds one row per signed-in device (the city's auth_sessions, DESIGN.md §5): the
// cookie's token names its row (schema.SessionClaim); sign-out deletes it. Its fields are the
// city's, so lib/sessions starts a session in either.
const (
	Sessions         = "hq_sessions"
	SessionUser      = schema.AuthSessionUser
	SessionIP        = schema.AuthSessionIP
	SessionUserAgent = schema.AuthSessionUserAgent
)

// CityDays is HQ's daily rollup of each city (issue 45: history beyond 30 days): one row per
// city per finished local day.
const (
	CityDays            = "city_days"
	CityDayCity         = "city"
	CityDayDay          = "day" // YYYY-MM-DD, the city's own day
	CityDaySwaps        = "swaps"
	CityDayPayCents     = "payCents"
	CityDayReady        = "ready"
	CityDayWaiting      = "waiting"
	CityDayCharging     = "charging"
	CityDayField        = "field"
	CityDayQuarantined  = "quarantined"
	CityDayStockCounted = "stockCounted" // whether the stock figures were read at the day's end
)

// CityWeeks is HQ's weekly pay rollup of each city: one row per city per finished Monday week,
// the pay exactly as the city's earnings page totals it (adjustments included), re-rolled while
// the week is within the overview's 8 weeks.
const (
	CityWeeks        = "city_weeks"
	CityWeekCity     = "city"
	CityWeekStart    = "weekStart" // YYYY-MM-DD, a Monday in the city's zone
	CityWeekPayCents = "payCents"
)

// AuditLog is head office's audit list (the city's audit_log, issue 43): one row per raw write
// a superuser made through PocketBase's record API or HQ's /_/ dashboard that head office's
// door allowed (hooks/hq.go: a city or a user changed, a session ended), written in the write's
// own transaction and never changed. Its fields are the city's (schema.Audit*, lib/audit).
const AuditLog = "hq_audit_log"
