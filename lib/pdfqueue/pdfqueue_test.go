package pdfqueue_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"swapbay/lib/pdfqueue"
)

// TestOneRenderAtATime: renders asked at once never overlap, and a waiter whose context ends
// gives up without rendering.
func TestOneRenderAtATime(t *testing.T) {
	var running, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = pdfqueue.Do(context.Background(), func() error {
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(5 * time.Millisecond)
				running.Add(-1)
				return nil
			})
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d renders ran at once, want 1", most.Load())
	}

	hold := make(chan struct{})
	started := make(chan struct{})
	go func() { _ = pdfqueue.Do(context.Background(), func() error { close(started); <-hold; return nil }) }()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	rendered := false
	err := pdfqueue.Do(ctx, func() error { rendered = true; return nil })
	close(hold)
	if !errors.Is(err, context.DeadlineExceeded) || rendered {
		t.Fatalf("a waiter whose context ended: %v, rendered %v", err, rendered)
	}
}
