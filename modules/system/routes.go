// Package system is SwapBay's system module.
package system

import "github.com/pocketbase/pocketbase/core"

// Register adds the module's routes and hooks to app.
func Register(app core.App) {}
