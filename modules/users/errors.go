package users

import (
	"errors"
	"github.com/pocketbase/pocketbase/tools/router"
	"net/http"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/httpx"
	"swapbay/lib/schema"
	"swapbay/modules/inventory"
)

// Business errors of the users service. Their text is the message the UI shows.
var (
	ErrNotFound        = errors.New("User not found")
	ErrEmailTaken      = errors.New("An account with this email already exists")
	ErrMasterOnly      = errors.New("Only Master Admins can change a Master Admin account")
	ErrGrantMaster     = errors.New("Only Master Admins can assign the Master Admin role")
	ErrOwnApproval     = errors.New("You cannot change your own approval status")
	ErrOwnRole         = errors.New("You cannot change your own role")
	ErrDeleteSelf      = errors.New("You cannot delete your own account")
	ErrLastMasterAdmin = errors.New("The last approved Master Admin cannot be demoted, suspended or deleted")
	ErrHoldsBatteries  = errors.New(inventory.MsgHoldsBatteries)
)

// Validation messages (the spec's wording where it gives one).
const (
	MsgNamesRequired    = "First name and last name are required"
	MsgNamesTooLong     = "First name and last name must be at most 100 characters"
	MsgEmailPassword    = "Email and password are required"
	MsgEmailInvalid     = "Please enter a valid email address"
	MsgPasswordTooShort = "Password must be at least 6 characters"
	MsgRoleInvalid      = "Invalid role"
	MsgApprovalInvalid  = "Invalid approval status"
	MsgPercentRange     = "Please enter a number between 0 and 100"
)

// ValidationError is bad input for one field; it maps to a 400 naming the field.
type ValidationError struct {
	Field   string
	Message string
}

func (v *ValidationError) Error() string { return v.Message }

func invalid(field, message string) error { return &ValidationError{Field: field, Message: message} }

// HTTPError maps an error of this package (or of a users record save) to the API error the
// route returns. It is the one place where users' business errors become status codes.
func HTTPError(e *core.RequestEvent, err error) error {
	var v *ValidationError
	var fields validation.Errors
	var apiErr *router.ApiError
	switch {
	case errors.As(err, &apiErr):
		// a hook of another module refused with its own status (e.g. 409 holds batteries)
		return apiErr
	case errors.As(err, &v):
		return httpx.FieldError(e, v.Field, v.Message)
	case errors.Is(err, ErrEmailTaken):
		return httpx.FieldError(e, core.FieldNameEmail, ErrEmailTaken.Error())
	case errors.Is(err, ErrNotFound):
		return e.NotFoundError(ErrNotFound.Error(), nil)
	case errors.Is(err, ErrMasterOnly), errors.Is(err, ErrGrantMaster):
		return e.ForbiddenError(rootMessage(err), nil)
	case errors.Is(err, ErrOwnApproval), errors.Is(err, ErrOwnRole), errors.Is(err, ErrDeleteSelf):
		return e.BadRequestError(rootMessage(err), nil)
	case errors.Is(err, ErrLastMasterAdmin), errors.Is(err, ErrHoldsBatteries):
		return e.Error(http.StatusConflict, rootMessage(err), nil)
	case errors.As(err, &fields):
		return e.BadRequestError("Invalid user data.", fields)
	}
	return e.InternalServerError("", err)
}

// rootMessage returns the text of the innermost wrapped error (the sentinel's message).
func rootMessage(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// saveError turns a failed users record save into this package's errors where it can.
func saveError(err error) error {
	var fields validation.Errors
	if errors.As(err, &fields) {
		if fe, ok := fields[core.FieldNameEmail].(validation.Error); ok && fe.Code() == "validation_not_unique" {
			return ErrEmailTaken
		}
		if _, ok := fields[schema.UserPayReductionPercentage]; ok {
			return invalid(schema.UserPayReductionPercentage, MsgPercentRange)
		}
	}
	return err
}
