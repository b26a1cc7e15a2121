package hooks

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/schema"
	"swapbay/modules/hq"
	"swapbay/modules/hq/recall"
)

// Head office's raw-data door (DESIGN.md §15; issue 43's door, in HQ's own /_/): HQ's recalls
// and their sends are the record of what head office asked each city, and the rollups are
// written from the cities' copies, so a superuser's raw write to them is refused with the app's
// way; its cities and users are plain data (the Cities page writes the same fields), and a
// session may be ended. Every write that passes is recorded, as in a city (audit.go), on head
// office's own audit list (hq_audit_log, hq.RecordChange: who, when, which record and fields,
// in the write's own transaction), which an hq_admin reads on the Cities page (GET
// /api/hq/audit); the list itself is refused like the city's.
const (
	MsgHQRecalls = "Head office's recalls are kept as they were sent to the cities and cannot be changed here. Start a recall on the Recalls page, or retry a city's send on the recall's page."
	MsgHQRollups = "The daily and weekly rollups are read from the cities' copies by head office and cannot be changed here."
)

// hqDoors lists every collection of head office's migrations (its table test fails on one
// missing here).
var hqDoors = doorTable{
	recall.Recalls: {refuse: MsgHQRecalls},
	recall.Sends:   {refuse: MsgHQRecalls},
	hq.CityDays:    {refuse: MsgHQRollups},
	hq.CityWeeks:   {refuse: MsgHQRollups},
	hq.Sessions:    {refuse: MsgAuthSessions, allowDel: true},
	hq.AuditLog:    {refuse: MsgAuditLog},
	// the routes' stored answers (lib/idempotency), as in a city
	schema.IdempotencyKeys: {refuse: MsgIdempotency},
	hq.Cities:              {plain: true},
	hq.Users:               {plain: true},
}

// RegisterHQ binds head office's raw-data door to app (`swapbay hq serve`, pb_app/cmd_hq.go),
// and its audit list to the writes it lets through.
func RegisterHQ(app core.App) {
	hqDoors.bind(app)
	bindAudit(app, hq.RecordChange)
}

// HQCollections lists the collections head office's door knows (tests).
func HQCollections() []string { return hqDoors.names() }
