package hq

import (
	"context"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/modules/hq/follow"
)

// SameReplica is sameReplica for the tests.
var SameReplica = sameReplica

// NewRollupJob is the rollup job's run with its own memory between runs (startRollups' state),
// for the tests: each call is one of the job's checks at now.
func NewRollupJob() func(ctx context.Context, app core.App, set *follow.Set, now time.Time) (RollupResult, error) {
	st := newRollState()
	return func(ctx context.Context, app core.App, set *follow.Set, now time.Time) (RollupResult, error) {
		return rollUp(ctx, app, set, now, st)
	}
}
