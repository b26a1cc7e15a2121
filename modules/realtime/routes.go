// Package realtime is SwapBay's realtime module.
package realtime

import "github.com/pocketbase/pocketbase/core"

// Register adds the module's routes and hooks to app.
func Register(app core.App) {}
