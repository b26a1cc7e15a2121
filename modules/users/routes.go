// Package users is SwapBay's users module.
package users

import "github.com/pocketbase/pocketbase/core"

// Register adds the module's routes and hooks to app.
func Register(app core.App) {}
