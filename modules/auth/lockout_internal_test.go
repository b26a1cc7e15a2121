package auth

import (
	"testing"
	"time"

	"swapbay/lib/clock"
)

// A failing source waits longer after each further failure (2 s, 4 s, 8 s … up to 15 min),
// on that account only; other sources and accounts are not slowed.
func TestAFailingSourceIsSlowedMoreEachTime(t *testing.T) {
	now := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	defer clock.Set(func() time.Time { return now })()
	th := newThrottle()
	const who, bad = "owner@example.com", "198.51.100.66"
	for i := 0; i < failureAllowance; i++ {
		th.fail(who, bad)
		if th.blocked(who, bad) {
			t.Fatalf("slowed after %d failures", i+1)
		}
	}
	for i, want := range []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second} {
		th.fail(who, bad)
		now = now.Add(want - time.Millisecond)
		if !th.blocked(who, bad) {
			t.Fatalf("failure %d: free again before %s", failureAllowance+i+1, want)
		}
		if th.blocked(who, "203.0.113.7") || th.blocked("other@example.com", bad) {
			t.Fatal("another source or account is slowed too")
		}
		now = now.Add(time.Millisecond)
		if th.blocked(who, bad) {
			t.Fatalf("failure %d: still waiting after %s", failureAllowance+i+1, want)
		}
	}
	for i := 0; i < 30; i++ {
		th.fail(who, bad)
	}
	now = now.Add(failureMax)
	if th.blocked(who, bad) {
		t.Fatal("a wait longer than failureMax")
	}
	if r := th.report(10); len(r) != 1 || r[0].Account != who || r[0].Source != bad || r[0].Count != failureAllowance+4+30 {
		t.Fatalf("report %+v", r)
	}
}
