// Package inventory is SwapBay's battery ledger (DESIGN.md §3): accounts with cached
// balances, movements and their balanced entries, the stats read from them, and the driver
// operations. Every balance change goes through Post inside one transaction; no balance but
// outside's may go below zero. Other modules (charging, custody, system) move batteries only
// through this package's exported functions.
package inventory

import "github.com/pocketbase/pocketbase/core"

// Register adds the module's routes and hooks to app.
func Register(app core.App) {
	rememberRoot(app)
}
