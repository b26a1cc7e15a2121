// Package ids makes the record ids of the ledger's append-only tables (movements, entries,
// idempotency answers): PocketBase's shape (15 characters of a-z0-9), in creation order.
//
// Why: an id is a table's unique index. PocketBase's ids are random, so every insert lands on
// a random page of that index, and a grouped write transaction (lib/idempotency) dirtied a
// page per row of each table, all written to the WAL at its commit and later checkpointed.
// An id that starts with the time lands where the previous one did, so a grouped commit
// writes far fewer pages (make bench; the figures are in BENCHMARKS.md).
package ids

import (
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/tools/security"
)

// Length is PocketBase's default id length; timeDigits of it are the time in milliseconds.
const (
	Length     = 15
	timeDigits = 9 // base 36: enough until the year 5188
	alphabet   = "abcdefghijklmnopqrstuvwxyz0123456789"
)

// New returns an id that sorts after the ids made before it in an earlier millisecond: the
// Unix time in milliseconds in base 36, zero-padded to nine digits, then six random
// characters (2 billion per millisecond). Ids still only have to be unique: a clock set back
// costs locality, nothing else.
func New() string {
	return At(time.Now())
}

// At is New for time t.
func At(t time.Time) string {
	ms := strconv.FormatInt(max(t.UnixMilli(), 0), 36)
	var b strings.Builder
	b.Grow(Length)
	b.WriteString(strings.Repeat("0", max(timeDigits-len(ms), 0)))
	b.WriteString(ms)
	b.WriteString(security.RandomStringWithAlphabet(Length-timeDigits, alphabet))
	return b.String()
}
