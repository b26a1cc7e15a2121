package hooks

import (
	"fmt"
	"slices"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/users"
)

func bindUsers(app core.App) {
	// a new user has a role (driver), an approval (pending) and a pay reduction (20%) even
	// when its creator left them empty
	app.OnRecordCreate(schema.Users).Bind(named(UserDefaultsId, userDefaultsPriority, userDefaults))
	// a user's role and approval are one of SwapBay's values, even if the collection's select
	// field was widened in the dashboard
	app.OnRecordCreate(schema.Users).Bind(named(UserRoleValuesId, roleValuesPriority, roleValues))
	app.OnRecordUpdate(schema.Users).Bind(named(UserRoleValuesId, roleValuesPriority, roleValues))
	// the last approved master admin is never demoted, suspended, rejected or un-approved…
	app.OnRecordUpdate(schema.Users).Bind(named(LastMasterOnUpdateId, lastMasterPriority, keepLastMasterOnUpdate))
	// …nor deleted: the system always keeps one account that can manage every other
	app.OnRecordDelete(schema.Users).Bind(named(LastMasterOnDeleteId, lastMasterPriority, guardLastMaster))
}

// userDefaults fills a new user's role, approval and pay reduction when the creator left them
// empty. A pay reduction of 0 counts as unset on create: the record cannot tell the two apart,
// and a 0% reduction can be set by an edit afterwards.
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

// roleValues refuses a role or approval outside roles.All and roles.ApprovalStates.
func roleValues(e *core.RecordEvent) error {
	if !slices.Contains(roles.All, e.Record.GetString(schema.UserRole)) {
		return apierr.Invalid(schema.UserRole, users.MsgRoleInvalid)
	}
	if !slices.Contains(roles.ApprovalStates, e.Record.GetString(schema.UserIsApproved)) {
		return apierr.Invalid(schema.UserIsApproved, users.MsgApprovalInvalid)
	}
	return e.Next()
}

// isActiveMaster reports whether rec is an approved master_admin.
func isActiveMaster(rec *core.Record) bool {
	return rec.GetString(schema.UserRole) == roles.MasterAdmin && rec.GetString(schema.UserIsApproved) == roles.Approved
}

// keepLastMasterOnUpdate: a save that keeps the user an approved master needs no check.
func keepLastMasterOnUpdate(e *core.RecordEvent) error {
	if isActiveMaster(e.Record) {
		return e.Next()
	}
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
			others, err := users.CountApprovedMasters(txApp, e.Record.Id)
			if err != nil {
				return err
			}
			if others == 0 {
				return fmt.Errorf("user %s: %w", e.Record.Id, users.ErrLastMasterAdmin)
			}
		}
		e.App = txApp
		return e.Next()
	})
}
