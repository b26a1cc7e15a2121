package testkit

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/idempotency"
	"swapbay/lib/ids"
)

// NoKey is the request header a test sets (to any value) to send its mutation without an
// Idempotency-Key, as a client other than the UI would.
const NoKey = "X-Testkit-No-Idempotency-Key"

// Keyed is the router middleware every test app runs first: a POST, PUT, PATCH or DELETE
// without an Idempotency-Key gets a fresh one, as every mutation from the UI carries one
// (ui/src/lib/api-client.ts), so a route is tested inside the keyed write transaction it runs
// in for real. A request carrying its own key keeps it (a test of replays sends the same key
// twice); one carrying NoKey is sent as it is.
func Keyed() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       "testkitKeyed",
		Priority: -10000, // before every other middleware, as if the client had sent it
		Func: func(e *core.RequestEvent) error {
			h := e.Request.Header
			if h.Get(NoKey) != "" {
				h.Del(NoKey)
				return e.Next()
			}
			if isMutation(e.Request.Method) && h.Get(idempotency.Header) == "" {
				h.Set(idempotency.Header, "testkit-"+ids.New())
			}
			return e.Next()
		},
	}
}

func isMutation(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}
