// Package realtime pushes SwapBay's change notifications to browsers over /ws (DESIGN.md §6).
// Every message published on the app's events bus after a commit is fanned out to every
// signed-in, approved socket; clients refetch what the message type names (spec part 1 §7).
package realtime

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/events"
	"swapbay/lib/httpx"
)

// Register adds the /ws route and its hub, closed on terminate. Routes:
//
//	GET /ws   approved users   WebSocket upgrade. The session cookie (or Authorization header)
//	                           must be an approved user, else 401/403 before the upgrade. The
//	                           client's first message must be {"type":"auth","userId":<own id>}
//	                           within AuthTimeout, else the socket closes with 1008. The server
//	                           answers {"type":"AUTH_OK"} and then sends {type, data} messages:
//	                           INVENTORY_UPDATED, ACTIVITY_UPDATED, CHARGING_UPDATED,
//	                           EMERGENCY_OVERRIDE.
func Register(app core.App) {
	hub := NewHub()
	app.Store().Set(hubKey, hub)
	cancel := events.For(app).Subscribe(hub.Publish)

	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/ws", func(e *core.RequestEvent) error { return serveWS(hub, e) }).
			Bind(httpx.RequireApproved())
		return se.Next()
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		hub.Close()
		return e.Next()
	})
}

// hubKey is where Register keeps the hub in the app's store.
const hubKey = "swapbay.realtime.hub"

// Clients reports how many authenticated sockets app's hub holds (0 before Register).
func Clients(app core.App) int {
	if hub, ok := app.Store().Get(hubKey).(*Hub); ok {
		return hub.Clients()
	}
	return 0
}
