// Package pdfqueue is the process's one PDF render queue: every PDF SwapBay makes (an
// agreement, a pack label sheet, an incident report) renders inside Do, one at a time, in the
// order asked. A render holds its whole document in memory (gopdf builds it there: a sheet of
// 1,000 labels is about 65 MB), so the queue is what keeps many renders at once from adding up
// on a small machine; the routes that render also bind a rate limit.
package pdfqueue

import "context"

// slot is the one render that may run.
var slot = make(chan struct{}, 1)

// Do runs render when no other PDF is rendering in this process, waiting its turn. A caller
// whose ctx ends while it waits (a client that went away) gives up its turn: ctx.Err().
func Do(ctx context.Context, render func() error) error {
	select {
	case slot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-slot }()
	return render()
}
