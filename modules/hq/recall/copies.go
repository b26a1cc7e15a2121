package recall

import (
	"database/sql"
	"errors"
	"fmt"
	"os"

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
	// while one of those (the pack journal's "out of use", journal.OutOfUse).
	Matching, OutOfUse int
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
	" COALESCE(SUM(CASE WHEN " + schema.PackState + " = '" + schema.PackStateQuarantined + "' THEN 1 ELSE 0 END), 0)" +
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
}

func newCopies(set *follow.Set) *copies {
	return &copies{set: set, dbs: map[string]*sql.DB{}, errs: map[string]string{}, cache: map[[3]string]Counts{}}
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
	err := db.QueryRow(fmt.Sprintf(countsSQL, col), value).Scan(&n.Matching, &n.OutOfUse, &n.ToQuarantine, &n.AlreadyQuarantined)
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

func (c *copies) Close() {
	for _, db := range c.dbs {
		_ = db.Close()
	}
}
