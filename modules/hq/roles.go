package hq

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// RequireRoles is the route guard of head office's routes for its sub-packages
// (modules/hq/recall): 401 to a guest, 403 to a head-office user without one of allowed.
func RequireRoles(allowed ...string) *hook.Handler[*core.RequestEvent] {
	return requireRoles(allowed...)
}
