package hq

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
