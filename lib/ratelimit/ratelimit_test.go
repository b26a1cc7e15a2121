package ratelimit

import (
	"testing"
	"time"
)

// A rule allows N requests per window from the first one; the next waits for the window's end.
func TestTakeCountsAFixedWindow(t *testing.T) {
	s := &store{by: map[string]*window{}}
	r := Rule{N: 3, Window: time.Minute}
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 3; i++ {
		if w := s.take("k", r, t0.Add(time.Duration(i)*time.Second)); w != 0 {
			t.Fatalf("request %d waits %s", i+1, w)
		}
	}
	if w := s.take("k", r, t0.Add(10*time.Second)); w != 50*time.Second {
		t.Fatalf("the 4th waits %s, want 50s", w)
	}
	if w := s.take("other", r, t0.Add(10*time.Second)); w != 0 {
		t.Fatalf("another key waits %s", w)
	}
	if w := s.take("k", r, t0.Add(time.Minute)); w != 0 {
		t.Fatalf("a new window waits %s", w)
	}
	if w := s.take("k", Rule{}, t0); w != 0 {
		t.Fatalf("no rule waits %s", w)
	}
}
