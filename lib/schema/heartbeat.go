package schema

// Heartbeat is a plain table (not a PocketBase collection: no record API, no dashboard, nothing
// for the raw-data door to guard) of one row the city rewrites once a minute while it replicates
// (modules/jobs' replication-heartbeat job), so its replica changes even when nothing happens:
// head office, which sees only the replica, can then read a silent replica as a stopped city
// (DESIGN.md §15, docs/hq.md).
const (
	Heartbeat   = "swapbay_heartbeat"
	HeartbeatAt = "at" // the last beat, as the city stores datetimes (UTC)
)
