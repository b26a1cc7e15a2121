// Package terms is SwapBay's terms module.
package terms

import "github.com/pocketbase/pocketbase/core"

// Register adds the module's routes and hooks to app.
func Register(app core.App) {}
