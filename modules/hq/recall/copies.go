package recall

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/pocketbase/pocketbase/tools/types"

	"swapbay/lib/schema"
	"swapbay/modules/hq/follow"
)

// Messages of a city's copy that could not be read.
const (
	MsgCopyNotReady = "The city's copy is not ready yet (head office is still restoring it)."
	MsgCopyUnread   = "Head office could not read the city's copy: %s"
)

// Counts are a city's packs matching a recall's by and value, counted in its followed copy.
type Counts struct {
	// Matching is every matching pack; OutOfUse those quarantined, retired or recycled, or lost
	// while one of those (the pack journal's "out of use", journal.OutOfUse); InTransit those
	// sent to another city (in use nowhere here: the city's recall passes them over, and the
	// standing recall of the city they reach quarantines them there — this city's registry keeps
	// them in transit for good once they are received).
	Matching, OutOfUse, InTransit int
	// ToQuarantine and AlreadyQuarantined are the city's recall preview's figures: the packs a
	// recall would quarantine (neither quarantined, retired nor recycled; a lost pack is) and
	// those already quarantined (retired and recycled ones are in neither).
	ToQuarantine, AlreadyQuarantined int
}

const outOfUseStates = "'" + schema.PackStateQuarantined + "', '" + schema.PackStateRetired + "', '" + schema.PackStateRecycled + "'"

// countsSQL counts one by/value in a copy (%s: the packs column: lot, model or manufacturer).
const countsSQL = "SELECT COUNT(*)," +
	" COALESCE(SUM(CASE WHEN " + schema.PackState + " IN (" + outOfUseStates + ") OR (" + schema.PackState + " = '" + schema.PackStateLost +
	"' AND " + schema.PackStateBefore + " IN (" + outOfUseStates + ")) THEN 1 ELSE 0 END), 0)," +
	" COALESCE(SUM(CASE WHEN " + schema.PackState + " NOT IN (" + outOfUseStates + ") THEN 1 ELSE 0 END), 0)," +
	" COALESCE(SUM(CASE WHEN " + schema.PackState + " = '" + schema.PackStateQuarantined + "' THEN 1 ELSE 0 END), 0)," +
	" COALESCE(SUM(CASE WHEN " + schema.PackState + " = '" + schema.PackStateInTransit + "' THEN 1 ELSE 0 END), 0)" +
	" FROM " + schema.Packs + " WHERE %s = ?"

// column is the packs column a recall by by matches ("" when by is not one).
func column(by string) string {
	switch by {
	case schema.PackRecallByLot:
		return schema.PackLot
	case schema.PackRecallByModel:
		return schema.PackModel
	case schema.PackRecallByManufacturer:
		return schema.PackManufacturer
	}
	return ""
}

// copies reads the cities' copies for one request: each copy opened once (read-only, through
// follow.Open), each by/value counted once. Close closes them.
type copies struct {
	set   *follow.Set
	dbs   map[string]*sql.DB
	errs  map[string]string
	cache map[[3]string]Counts
	beats map[string]time.Time // city id → its heartbeat in the copy (zero: none, or unreadable)
}

func newCopies(set *follow.Set) *copies {
	return &copies{set: set, dbs: map[string]*sql.DB{}, errs: map[string]string{}, cache: map[[3]string]Counts{}, beats: map[string]time.Time{}}
}

// db is city id's copy, or the reason in words it cannot be read.
func (c *copies) db(id string) (*sql.DB, string) {
	if db, ok := c.dbs[id]; ok {
		return db, ""
	}
	if msg, ok := c.errs[id]; ok {
		return nil, msg
	}
	path := c.set.CopyPath(id)
	if _, err := os.Stat(path); err != nil {
		c.errs[id] = MsgCopyNotReady
		return nil, MsgCopyNotReady
	}
	db, err := follow.Open(path)
	if err != nil {
		msg := fmt.Sprintf(MsgCopyUnread, err.Error())
		c.errs[id] = msg
		return nil, msg
	}
	db.SetMaxOpenConns(1)
	c.dbs[id] = db
	return db, ""
}

// count counts by/value in city id's copy; msg says in words why it could not ("" when it did).
func (c *copies) count(id, by, value string) (Counts, string) {
	k := [3]string{id, by, value}
	if n, ok := c.cache[k]; ok {
		return n, ""
	}
	col := column(by)
	if col == "" {
		return Counts{}, fmt.Sprintf(MsgCopyUnread, "unknown recall kind "+by)
	}
	db, msg := c.db(id)
	if db == nil {
		return Counts{}, msg
	}
	var n Counts
	err := db.QueryRow(fmt.Sprintf(countsSQL, col), value).Scan(&n.Matching, &n.OutOfUse, &n.ToQuarantine, &n.AlreadyQuarantined, &n.InTransit)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Counts{}, ""
		}
		msg := fmt.Sprintf(MsgCopyUnread, err.Error())
		c.errs[id] = msg
		return Counts{}, msg
	}
	c.cache[k] = n
	return n, ""
}

// SkewAllowed is how far a city's clock may run ahead of head office's. A copy is trusted to
// hold every change the city made before it answered a send only once the city's heartbeat in
// it (schema.Heartbeat, rewritten every minute while the city replicates) is this much later
// than the answer. A variable so tests shorten it.
var SkewAllowed = 2 * time.Minute

// lost reports whether city id's copy shows that the city no longer has its recall
// cityRecallId, which it answered at sentAt: the copy holds a heartbeat later than sentAt (by
// SkewAllowed) and no pack_recalls row of that id. The city went back to a backup from before
// the recall (swapbay restore, DESIGN.md §11 and §13), and its stored answer to the send's key
// went with it: sending again makes the recall there again, once. A copy that cannot tell (not
// readable, no heartbeat since the answer, a city older than the heartbeat) is not lost.
func (c *copies) lost(id, cityRecallId string, sentAt time.Time) bool {
	if cityRecallId == "" || sentAt.IsZero() {
		return false
	}
	db, _ := c.db(id)
	if db == nil {
		return false
	}
	beat, ok := c.beats[id]
	if !ok {
		var text string
		if err := db.QueryRow("SELECT COALESCE(MAX(" + schema.HeartbeatAt + "), '') FROM " + schema.Heartbeat).Scan(&text); err == nil {
			if at, err := types.ParseDateTime(text); err == nil {
				beat = at.Time()
			}
		}
		c.beats[id] = beat // read once per request, however many recalls name the city
	}
	if beat.IsZero() || !beat.After(sentAt.Add(SkewAllowed)) {
		return false
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM "+schema.PackRecalls+" WHERE id = ?", cityRecallId).Scan(&n); err != nil {
		return false
	}
	return n == 0
}

func (c *copies) Close() {
	for _, db := range c.dbs {
		_ = db.Close()
	}
}
