// Package hooks holds SwapBay's PocketBase hooks that guard an invariant for every writer —
// SwapBay's routes, the CLI, PocketBase's record API and its /_/ dashboard (DESIGN.md §1).
// Each is a named hook.Handler{Id, Priority} (named) with a one-line comment on what it guards;
// Register binds them all, once, from pb_app/setup (the tests use the same Register).
//
// Two kinds:
//   - record hooks (OnRecordCreate/Update/Delete): they run inside every save of the record,
//     whatever door it came through (users.go, holders.go, sessions.go);
//   - request hooks (OnRecord…Request, OnCollection…Request, the backup routes): they run only
//     for PocketBase's own API, which the /_/ dashboard uses. The app's services write with
//     app.Save (or, for the ledger, plain statements) and never trigger them, so they can
//     refuse a raw write without touching the app's own (rawdata.go, audit.go, terms.go,
//     settings.go, backups.go).
//
// A module keeps the rule itself (users.CountApprovedMasters, inventory.HeldBy,
// auth.EndAllSessions, terms.Sanitize, settings.Lookup); the hook only says where it applies.
package hooks

import (
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/modules/system"
)

// Hook ids, so tests and other code can find or unbind them.
const (
	UserDefaultsId       = "swapbayUserDefaults"
	UserRoleValuesId     = "swapbayUserRoleValues"
	LastMasterOnUpdateId = "swapbayLastMasterOnUpdate"
	LastMasterOnDeleteId = "swapbayLastMasterOnDelete"
	KeepHoldersId        = "swapbayKeepBatteryHolders"
	KeepFormerUserId     = "swapbayKeepFormerUserHistory"
	EndSessionsId        = "swapbayEndSessionsOnAccountChange"
	CloseSocketsId       = "swapbayCloseSocketsOnUserDelete"
	RawCreateId          = "swapbayRawCreate"
	RawUpdateId          = "swapbayRawUpdate"
	RawDeleteId          = "swapbayRawDelete"
	RawCollectionId      = "swapbayRawCollection"
	RawTruncateId        = "swapbayRawTruncate"
	RawImportId          = "swapbayRawImport"
	BackupRestoreId      = "swapbayBackupRestore"
	BackupRestoreRouteId = "swapbayBackupRestoreRoute"
)

// Priorities: lower runs first. On a users save the defaults come first (the role checks
// read them), then the role values, the last master, the battery holders; the sessions hook
// runs last, around the save itself. On a raw request the guard refuses before the audit
// opens its transaction.
const (
	userDefaultsPriority = -50
	roleValuesPriority   = -45
	lastMasterPriority   = -40
	keepHoldersPriority  = -30
	rawGuardPriority     = -20
	rawAuditPriority     = -10
	// keepFormerPriority runs a users delete hook inside PocketBase's delete transaction (its
	// own execute hook, priority 99, opens it and calls the later ones in it)
	keepFormerPriority = 100
)

// named is the hook.Handler{Id, Priority} a hook of this package is bound as.
func named[T hook.Resolver](id string, priority int, fn func(T) error) *hook.Handler[T] {
	return &hook.Handler[T]{Id: id, Priority: priority, Func: fn}
}

// forAction is a record-request hook of guard for one action ("create", "update", "delete").
func forAction(guard func(*core.RecordRequestEvent, string) error, action string) func(*core.RecordRequestEvent) error {
	return func(e *core.RecordRequestEvent) error { return guard(e, action) }
}

// Register binds every hook of this package to app.
func Register(app core.App) {
	bindUsers(app)
	bindHolders(app)
	bindSessions(app)
	bindRawData(app)
	bindTerms(app)
	bindSettings(app)
	bindHealth(app)
	bindAudit(app, system.RecordChange)
	bindBackups(app)
}
