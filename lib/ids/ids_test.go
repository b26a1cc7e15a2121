package ids

import (
	"regexp"
	"testing"
	"time"
)

// PocketBase's default id field: 15 characters of a-z0-9.
var pbId = regexp.MustCompile(`^[a-z0-9]{15}$`)

func TestIdsHavePocketBaseShape(t *testing.T) {
	for _, at := range []time.Time{time.Unix(0, 0), time.Now(), time.Date(2999, 12, 31, 23, 59, 59, 0, time.UTC)} {
		if id := At(at); !pbId.MatchString(id) {
			t.Errorf("At(%s) = %q, want 15 characters of a-z0-9", at, id)
		}
	}
}

func TestIdsSortByTime(t *testing.T) {
	base := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	prev := At(base)
	for _, step := range []time.Duration{time.Millisecond, time.Second, time.Hour, 24 * time.Hour, 365 * 24 * time.Hour} {
		next := At(base.Add(step))
		if next <= prev {
			t.Errorf("id %s after %s is %q, not after %q", step, base, next, prev)
		}
		prev = next
	}
}

func TestIdsAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for range 100_000 {
		id := New()
		if seen[id] {
			t.Fatalf("id %q made twice", id)
		}
		seen[id] = true
	}
}

// Writers in many goroutines at once (the grouped write path makes ids for a whole group in
// one millisecond) never get the same id.
func TestIdsAreUniqueAcrossGoroutines(t *testing.T) {
	const workers, each = 8, 50_000
	out := make(chan []string, workers)
	for range workers {
		go func() {
			made := make([]string, 0, each)
			for range each {
				made = append(made, New())
			}
			out <- made
		}()
	}
	seen := make(map[string]bool, workers*each)
	for range workers {
		for _, id := range <-out {
			if seen[id] {
				t.Fatalf("id %q made twice", id)
			}
			seen[id] = true
		}
	}
}

// Within one millisecond the ids still sort in the order they were made.
func TestIdsSortWithinAMillisecond(t *testing.T) {
	at := time.Date(2026, 11, 25, 16, 40, 0, 0, time.UTC)
	prev := At(at)
	for range 1000 {
		next := At(at)
		if next <= prev && next[timeDigits:] != "000000" { // a wrap of the sequence restarts it
			t.Fatalf("%q made after %q sorts before it", next, prev)
		}
		prev = next
	}
}
