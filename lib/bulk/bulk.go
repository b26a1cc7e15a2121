// Package bulk writes statements over many values at once: multi-row INSERTs, one statement per
// chunk of rows rather than a record save per row (the journal's pack events, an import's
// readings), and the bound IN lists of a query (In).
package bulk

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"

	"swapbay/lib/sqlitedb"
)

// Rows describes one table's multi-row INSERT.
type Rows struct {
	What   string     // what the rows are, for a statement's error ("save <What>: …")
	Into   string     // the statement up to and with VALUES
	Tuple  string     // one row's values: %[1]s stands for the suffix of the row's own parameters
	Shared dbx.Params // the parameters every row names as they are
	Chunk  int        // the most rows one statement writes (keep it under SQLite's limit on parameters)
}

// Insert stores n rows: set(i, k, params) adds row i's own parameters to params, each named with
// the suffix k (the row's place in its statement). It answers how many rows the statements
// changed (an INSERT OR IGNORE skips some); set's error is answered as it is.
func (r Rows) Insert(db dbx.Builder, n int, set func(i int, k string, params dbx.Params) error) (int64, error) {
	var changed int64
	for start := 0; start < n; start += r.Chunk {
		params := maps.Clone(r.Shared)
		if params == nil {
			params = dbx.Params{}
		}
		var sb strings.Builder
		sb.WriteString(r.Into)
		for i := start; i < min(start+r.Chunk, n); i++ {
			if i > start {
				sb.WriteString(", ")
			}
			k := strconv.Itoa(i - start)
			fmt.Fprintf(&sb, r.Tuple, k)
			if err := set(i, k, params); err != nil {
				return changed, err
			}
		}
		c, err := sqlitedb.ExecAffected(db, sb.String(), params)
		if err != nil {
			return changed, fmt.Errorf("save %s: %w", r.What, err)
		}
		changed += c
	}
	return changed, nil
}

// In is a bound IN list, "({:p0}, {:p1}, …)": each value is added to params under prefix and its
// place. Callers keep the list under SQLite's limit on parameters (chunks of a few hundred).
func In(prefix string, values []string, params dbx.Params) string {
	names := make([]string, len(values))
	for i, v := range values {
		key := prefix + strconv.Itoa(i)
		params[key] = v
		names[i] = "{:" + key + "}"
	}
	return "(" + strings.Join(names, ", ") + ")"
}
