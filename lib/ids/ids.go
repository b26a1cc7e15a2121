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
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"swapbay/lib/clock"
)

// Length is PocketBase's default id length; timeDigits of it are the time in milliseconds,
// the rest a sequence within that millisecond.
const (
	Length     = 15
	timeDigits = 9 // base 36: enough until the year 5188
	seqDigits  = Length - timeDigits
)

// seqSpace is how many ids one millisecond has room for (36^6, about 2.2 billion).
const seqSpace = 36 * 36 * 36 * 36 * 36 * 36

// the last millisecond an id was made for, and its sequence
var (
	mu     sync.Mutex
	lastMs int64 = -1
	seq    uint64
)

// New returns an id that sorts after the ids made before it: the Unix time in milliseconds
// in base 36, zero-padded to nine digits, then six base-36 digits of a sequence that starts
// at a random point in each millisecond and counts up within it. Ids made in the same
// millisecond never collide (six random characters did: 100,000 ids made in 30 ms met twice
// in about one test run in fifteen). A clock set back costs locality, nothing else.
func New() string {
	return At(clock.Now())
}

// At is New for time t.
func At(t time.Time) string {
	ms := max(t.UnixMilli(), 0)
	mu.Lock()
	if ms == lastMs {
		seq = (seq + 1) % seqSpace
	} else {
		// the start leaves room for a million more in the same millisecond before it wraps
		lastMs, seq = ms, rand.Uint64N(seqSpace-1<<20)
	}
	s := seq
	mu.Unlock()
	return pad(strconv.FormatInt(ms, 36), timeDigits) + pad(strconv.FormatUint(s, 36), seqDigits)
}

// pad left-pads digits with zeros to n characters.
func pad(digits string, n int) string {
	return strings.Repeat("0", max(n-len(digits), 0)) + digits
}
