package idempotency

import "github.com/pocketbase/pocketbase/core"

// Pending is how many grouped jobs of app are queued or in the transaction the worker runs.
func Pending(app core.App) int {
	g := groupOf(app)
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue) + g.running
}
