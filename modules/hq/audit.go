package hq

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/audit"
)

// RecordChange adds c to head office's audit list (GET /api/hq/audit). Call it inside the
// write's own transaction, so the change and its row commit together or not at all.
func RecordChange(txApp core.App, c audit.Change) error {
	return audit.Record(txApp, AuditLog, c)
}
