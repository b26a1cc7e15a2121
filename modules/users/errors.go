package users

import (
	"errors"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// Business errors of the users service (apierr domain errors: apierr.Response gives each its
// status). Their text is the message the UI shows; test for them with errors.Is.
var (
	ErrNotFound        = apierr.NotFound("User not found")
	ErrEmailTaken      = apierr.Invalid(core.FieldNameEmail, "An account with this email already exists")
	ErrMasterOnly      = apierr.Forbidden("Only Master Admins can change a Master Admin account")
	ErrGrantMaster     = apierr.Forbidden("Only Master Admins can assign the Master Admin role")
	ErrOwnApproval     = apierr.Invalid("", "You cannot change your own approval status")
	ErrOwnRole         = apierr.Invalid("", "You cannot change your own role")
	ErrDeleteSelf      = apierr.Invalid("", "You cannot delete your own account")
	ErrLastMasterAdmin = apierr.Conflict("The last approved Master Admin cannot be demoted, suspended or deleted")
	ErrHoldsBatteries  = &apierr.Error{Kind: apierr.ErrConflict, Message: inventory.MsgHoldsBatteries, Code: apierr.CodeHoldsBatteries}
)

// Validation messages (the spec's wording where it gives one).
const (
	MsgNamesRequired    = "First name and last name are required"
	MsgNamesTooLong     = "First name and last name must be at most 100 characters"
	MsgEmailPassword    = "Email and password are required"
	MsgEmailInvalid     = "Please enter a valid email address"
	MsgEmailRequired    = "Email is required"
	MsgPasswordTooShort = "Password must be at least 6 characters"
	MsgPasswordTooLong  = "Password must be at most 71 characters"
	MsgRoleInvalid      = "Invalid role"
	MsgApprovalInvalid  = "Invalid approval status"
	MsgPercentRange     = "Please enter a number between 0 and 100"
	MsgCurrentRequired  = "Current password is required"
	MsgCurrentWrong     = "Current password is incorrect"
	MsgNewTooShort      = "New password must be at least 6 characters"
)

// msgInvalidUser answers a users record save that failed validation in a way this package
// does not name itself.
const msgInvalidUser = "Invalid user data."

// saveError turns a failed users record save into this package's errors where it can.
func saveError(err error) error {
	var fields validation.Errors
	if errors.As(err, &fields) {
		if fe, ok := fields[core.FieldNameEmail].(validation.Error); ok && fe.Code() == "validation_not_unique" {
			return ErrEmailTaken
		}
		if _, ok := fields[schema.UserPayReductionPercentage]; ok {
			return apierr.Invalid(schema.UserPayReductionPercentage, MsgPercentRange)
		}
		return router.NewBadRequestError(msgInvalidUser, fields)
	}
	return err
}
