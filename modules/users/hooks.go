package users

// The users collection's named PocketBase hooks: they guard its invariants no matter which door
// a write comes through (SwapBay routes, the CLI, the /_/ dashboard). Register binds them.

import (
	"fmt"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// Hook ids, so tests and other code can find or unbind them.
const (
	UserDefaultsId         = "swapbayUserDefaults"
	LastMasterOnUpdateId   = "swapbayLastMasterOnUpdate"
	LastMasterOnDeleteId   = "swapbayLastMasterOnDelete"
	userDefaultsPriority   = -50
	lastMasterHookPriority = -40
)

// bindHooks binds the users collection's hooks to app (Register).
func bindHooks(app core.App) {
	app.OnRecordCreate(schema.Users).Bind(&hook.Handler[*core.RecordEvent]{
		Id:       UserDefaultsId,
		Priority: userDefaultsPriority,
		Func:     userDefaults,
	})
	app.OnRecordUpdate(schema.Users).Bind(&hook.Handler[*core.RecordEvent]{
		Id:       LastMasterOnUpdateId,
		Priority: lastMasterHookPriority,
		Func:     keepLastMasterOnUpdate,
	})
	app.OnRecordDelete(schema.Users).Bind(&hook.Handler[*core.RecordEvent]{
		Id:       LastMasterOnDeleteId,
		Priority: lastMasterHookPriority,
		Func:     keepLastMasterOnDelete,
	})
}

// userDefaults fills a new user's role (driver), approval (pending) and pay reduction (20%)
// when the creator left them empty. A pay reduction of 0 counts as unset on create: the
// record cannot tell the two apart, and a 0% reduction can be set by an edit afterwards.
func userDefaults(e *core.RecordEvent) error {
	if e.Record.GetString(schema.UserRole) == "" {
		e.Record.Set(schema.UserRole, roles.Driver)
	}
	if e.Record.GetString(schema.UserIsApproved) == "" {
		e.Record.Set(schema.UserIsApproved, roles.Pending)
	}
	if e.Record.GetFloat(schema.UserPayReductionPercentage) == 0 {
		e.Record.Set(schema.UserPayReductionPercentage, schema.DefaultPayReductionPercentage)
	}
	return e.Next()
}

// isActiveMaster reports whether rec is an approved master_admin.
func isActiveMaster(rec *core.Record) bool {
	return rec.GetString(schema.UserRole) == roles.MasterAdmin && rec.GetString(schema.UserIsApproved) == roles.Approved
}

// keepLastMasterOnUpdate refuses to demote, suspend, reject or un-approve the last approved
// master_admin, so the system always keeps one account that can manage every other.
func keepLastMasterOnUpdate(e *core.RecordEvent) error {
	if isActiveMaster(e.Record) {
		return e.Next()
	}
	return guardLastMaster(e)
}

// keepLastMasterOnDelete refuses to delete the last approved master_admin.
func keepLastMasterOnDelete(e *core.RecordEvent) error {
	return guardLastMaster(e)
}

// guardLastMaster refuses the write when the stored record is an approved master_admin and
// no other approved master_admin exists. The stored row (not the in-memory original) decides,
// and the check and the write share one transaction, so two concurrent demotions cannot both
// pass.
func guardLastMaster(e *core.RecordEvent) error {
	return e.App.RunInTransaction(func(txApp core.App) error {
		stored, err := txApp.FindRecordById(schema.Users, e.Record.Id)
		if err != nil {
			return err
		}
		if isActiveMaster(stored) {
			others, err := CountApprovedMasters(txApp, e.Record.Id)
			if err != nil {
				return err
			}
			if others == 0 {
				return fmt.Errorf("user %s: %w", e.Record.Id, ErrLastMasterAdmin)
			}
		}
		e.App = txApp
		return e.Next()
	})
}
