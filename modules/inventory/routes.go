// Package inventory is SwapBay's inventory module.
package inventory

import "github.com/pocketbase/pocketbase/core"

// Register adds the module's routes and hooks to app.
func Register(app core.App) {}
