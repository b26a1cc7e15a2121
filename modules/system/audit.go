package system

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/audit"
	"swapbay/lib/schema"
)

// Change is one raw write the guards allowed through PocketBase's record API or its /_/
// dashboard (hooks/), or head office's use of a token (modules/headoffice): who made it, on
// which record, which fields.
type Change = audit.Change

// RecordChange adds c to the System page's audit list. Call it inside the write's own
// transaction, so the change and its row commit together or not at all.
func RecordChange(txApp core.App, c Change) error {
	return audit.Record(txApp, schema.AuditLog, c)
}

// AuditEntry is one row of the System page's audit list (GET /api/admin/audit).
type AuditEntry = audit.Entry

// ListAudit answers the newest schema.AuditListLimit rows of the audit list, newest first.
func ListAudit(app core.App) ([]AuditEntry, error) {
	return audit.List(app, schema.AuditLog)
}
