package idempotency

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/order"
)

// AfterCommit is a route middleware (handlerId) that runs around the keyed transaction —
// before Middleware, so after its commit or rollback — and then calls fn with the id the
// route left on the request under key (e.Set(key, id)), if it left one. fn sees the database
// as the request left it: work started there (a city's follower, a recall's sends) never
// starts for a change that did not commit.
func AfterCommit(handlerId, key string, fn func(id string)) *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       handlerId,
		Priority: order.IdempotencyPolicy - 1,
		Func: func(e *core.RequestEvent) error {
			err := e.Next()
			if id, _ := e.Get(key).(string); id != "" {
				fn(id)
			}
			return err
		},
	}
}
