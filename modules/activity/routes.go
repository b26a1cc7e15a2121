// Package activity is SwapBay's activity module.
package activity

import "github.com/pocketbase/pocketbase/core"

// Register adds the module's routes and hooks to app.
func Register(app core.App) {}
