package replication

import (
	"testing"
	"time"
)

// The lag is the age of the oldest change the replica lacks. Under steady writes shipped one
// second behind, it stays one second, however long the replica has not been fully caught up
// (the lag once counted from the last time it was: 18.7 s shown while nothing older than
// 0.9 s was missing); through an outage it counts from the first change the replica missed,
// and Litestream's forgetting of the replica's position after a failed upload does not bring
// back what the replica already had.
func TestLagIsTheAgeOfTheOldestMissingChange(t *testing.T) {
	var l lagTracker
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tick := 200 * time.Millisecond
	// 20 s of writes, one transaction per tick, the replica 5 ticks (1 s) behind
	for i := 1; i <= 100; i++ {
		now := t0.Add(time.Duration(i) * tick)
		l.observe(uint64(i), uint64(max(0, i-5)), now)
		if got := l.lag(now); got > time.Second {
			t.Fatalf("after %s of steady writes the lag is %s, want at most 1 s", now.Sub(t0), got)
		}
	}
	// an outage from 20 s on: the replica stays at 95, then Litestream forgets it (0)
	start := t0.Add(100 * tick)
	for i := 101; i <= 400; i++ {
		now := t0.Add(time.Duration(i) * tick)
		remote := uint64(95)
		if i > 110 {
			remote = 0
		}
		l.observe(uint64(i), remote, now)
	}
	end := t0.Add(400 * tick)
	// the oldest missing change is 96, first seen one second before the outage began
	if got, want := l.lag(end), end.Sub(start.Add(-4*tick)); got != want {
		t.Fatalf("lag during the outage: %s, want %s", got, want)
	}
	// the replica catches up
	if l.observe(400, 400, end.Add(tick)) || l.lag(end.Add(tick)) != 0 {
		t.Fatalf("caught up: lag %s", l.lag(end.Add(tick)))
	}
}

// A very long outage keeps the tracker bounded and the oldest change's age exact.
func TestLagTrackerIsBounded(t *testing.T) {
	var l lagTracker
	t0 := time.Now()
	for i := 1; i <= maxMissing+1000; i++ {
		l.observe(uint64(i), 0, t0.Add(time.Duration(i)*time.Millisecond))
	}
	if len(l.seen) != maxMissing || l.seen[len(l.seen)-1].txid != maxMissing+1000 {
		t.Fatalf("%d entries, last %d", len(l.seen), l.seen[len(l.seen)-1].txid)
	}
	if got := l.lag(t0.Add(time.Hour)); got != time.Hour-time.Millisecond {
		t.Fatalf("lag %s", got)
	}
}
