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
// session may be ended. HQ keeps no audit list: PocketBase's request log records the writes
// that pass.
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
	// the routes' stored answers (lib/idempotency), as in a city
	schema.IdempotencyKeys: {refuse: MsgIdempotency},
	hq.Cities:              {plain: true},
	hq.Users:               {plain: true},
}

// RegisterHQ binds head office's raw-data door to app (`swapbay hq serve`, pb_app/cmd_hq.go).
func RegisterHQ(app core.App) { hqDoors.bind(app) }

// HQCollections lists the collections head office's door knows (tests).
func HQCollections() []string { return hqDoors.names() }
