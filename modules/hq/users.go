package hq

import (
	"net/mail"
	"slices"
	"strings"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
)

// Messages of CreateUser.
const (
	MsgEmail     = "A valid email address is required"
	MsgPassword  = "The password must be 10 to 72 characters"
	MsgRole      = "The role must be hq_admin or hq_viewer"
	MsgUserName  = "The name must be at most 100 characters"
	MsgEmailUsed = "An account with this email already exists"
)

// NewUser is a head-office account to create.
type NewUser struct {
	Email, Password, Role, Name string
}

// CreateUser makes a head-office account (the first hq_admin comes from `swapbay hq user
// create`: HQ has no open registration).
func CreateUser(app core.App, in NewUser) (*core.Record, error) {
	email := strings.TrimSpace(in.Email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 254 {
		return nil, apierr.Invalid("email", MsgEmail)
	}
	if n := len(in.Password); n < 10 || n > 72 {
		return nil, apierr.Invalid("password", MsgPassword)
	}
	if !slices.Contains(Roles, in.Role) {
		return nil, apierr.Invalid("role", MsgRole)
	}
	name := strings.TrimSpace(in.Name)
	if len(name) > 100 {
		return nil, apierr.Invalid("name", MsgUserName)
	}
	if _, err := app.FindAuthRecordByEmail(Users, email); err == nil {
		return nil, apierr.Conflict(MsgEmailUsed)
	}
	col, err := app.FindCollectionByNameOrId(Users)
	if err != nil {
		return nil, err
	}
	rec := core.NewRecord(col)
	rec.SetEmail(email)
	rec.SetPassword(in.Password)
	rec.SetVerified(true)
	rec.Set(UserRole, in.Role)
	rec.Set(UserName, name)
	if err := app.Save(rec); err != nil {
		return nil, err
	}
	return rec, nil
}
