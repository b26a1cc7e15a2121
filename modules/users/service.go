package users

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/pocketbase/ozzo-validation/v4/is"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/events"
	"swapbay/lib/records"
	"swapbay/lib/reqx"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/lib/txutil"
	"swapbay/modules/inventory"
)

// UsersUpdated is the realtime message sent after an account is created, changed or deleted
// (its approval among the rest): the Users page and the admin Home's attention strip refresh.
const UsersUpdated = "USERS_UPDATED"

// maxEmailLength bounds stored emails (RFC 5321's path limit).
const maxEmailLength = 254

// NewUser is the input of Create.
type NewUser struct {
	Email, Password, FirstName, LastName, Role, Approval string
	// Hashed is Password hashed beforehand (HashPassword), for a Create inside a transaction.
	Hashed HashedPassword
}

// Create validates in and saves a new user with the default pay reduction (20%). Email and
// names are trimmed, the email lower-cased; an empty Role means driver, an empty Approval
// pending. It refuses a taken email (any case) with ErrEmailTaken. Pass a transaction's
// txApp to create the user together with other records.
func Create(app core.App, in NewUser) (*core.Record, error) {
	return create(app, in, false)
}

// create is Create with the mustResignTerms flag (set for admin-made accounts that did not
// bypass the terms: they sign at their next login).
func create(app core.App, in NewUser, mustSign bool) (*core.Record, error) {
	first, last, err := ValidateNames(in.FirstName, in.LastName)
	if err != nil {
		return nil, err
	}
	email, err := ValidateCredentials(in.Email, in.Password)
	if err != nil {
		return nil, err
	}
	role := strings.TrimSpace(in.Role)
	if role == "" {
		role = roles.Driver
	}
	if !roles.IsValid(role) {
		return nil, apierr.Invalid(schema.UserRole, MsgRoleInvalid)
	}
	approval := strings.TrimSpace(in.Approval)
	if approval == "" {
		approval = roles.Pending
	}
	if !validApproval(approval) {
		return nil, apierr.Invalid(schema.UserIsApproved, MsgApprovalInvalid)
	}
	if _, err := FindByEmail(app, email); err == nil {
		return nil, ErrEmailTaken
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}

	col, err := app.FindCachedCollectionByNameOrId(schema.Users)
	if err != nil {
		return nil, err
	}
	password := in.Hashed
	if password.value == nil {
		if password, err = HashPassword(app, in.Password); err != nil {
			return nil, err
		}
	}
	rec := core.NewRecord(col)
	rec.SetEmail(email)
	rec.SetRaw(core.FieldNamePassword, password.value)
	rec.SetVerified(true)
	rec.Set(schema.UserFirstName, first)
	rec.Set(schema.UserLastName, last)
	rec.Set(schema.UserRole, role)
	rec.Set(schema.UserIsApproved, approval)
	rec.Set(schema.UserPayReductionPercentage, schema.DefaultPayReductionPercentage)
	rec.Set(schema.UserMustResignTerms, mustSign)
	if err := app.Save(rec); err != nil {
		return nil, saveError(err)
	}
	events.Publish(app, UsersUpdated)
	return rec, nil
}

// ValidateNames trims first and last and checks both are given, at most 100 characters and
// free of control characters and bidi overrides (reqx.Name).
func ValidateNames(first, last string) (string, string, error) {
	if strings.TrimSpace(first) == "" || strings.TrimSpace(last) == "" {
		field := schema.UserFirstName
		if strings.TrimSpace(first) != "" {
			field = schema.UserLastName
		}
		return "", "", apierr.Invalid(field, MsgNamesRequired)
	}
	first, err := reqx.Name(schema.UserFirstName, first, MsgNamesRequired, MsgNamesTooLong)
	if err != nil {
		return "", "", err
	}
	last, err = reqx.Name(schema.UserLastName, last, MsgNamesRequired, MsgNamesTooLong)
	if err != nil {
		return "", "", err
	}
	return first, last, nil
}

// ValidateCredentials checks a new account's email and password and returns the normalized
// email.
func ValidateCredentials(email, password string) (string, error) {
	email = NormalizeEmail(email)
	if email == "" || password == "" {
		field := core.FieldNameEmail
		if email != "" {
			field = core.FieldNamePassword
		}
		return "", apierr.Invalid(field, MsgEmailPassword)
	}
	if err := validateEmail(email); err != nil {
		return "", err
	}
	if err := ValidatePassword(password); err != nil {
		return "", err
	}
	return email, nil
}

// ValidatePassword checks a new password's length (at least 6 characters; at most 71 bytes,
// bcrypt's limit).
func ValidatePassword(password string) error {
	if utf8.RuneCountInString(password) < schema.MinPasswordLength {
		return apierr.Invalid(core.FieldNamePassword, MsgPasswordTooShort)
	}
	if len(password) > 71 {
		return apierr.Invalid(core.FieldNamePassword, MsgPasswordTooLong)
	}
	return nil
}

func validateEmail(email string) error {
	if len(email) > maxEmailLength || is.EmailFormat.Validate(email) != nil {
		return apierr.Invalid(core.FieldNameEmail, MsgEmailInvalid)
	}
	return nil
}

func validApproval(state string) bool {
	for _, s := range roles.ApprovalStates {
		if s == state {
			return true
		}
	}
	return false
}

// MayChange is mayManage for another module changing what belongs to target on behalf of
// actor (earnings: a task adjustment changes the user's pay, as their pay reduction does):
// ErrMasterOnly unless actor may change target's account. A nil actor (the system) may.
func MayChange(actor, target *core.Record) error {
	if actor == nil {
		return nil
	}
	return mayManage(actor, target)
}

// mayManage checks the master rules of spec part 2 §6 for actor acting on target: only a
// master_admin may change a master_admin account.
func mayManage(actor, target *core.Record) error {
	if target.GetString(schema.UserRole) == roles.MasterAdmin && actor.GetString(schema.UserRole) != roles.MasterAdmin {
		return ErrMasterOnly
	}
	return nil
}

// SetApproval sets the approval state of user id on behalf of actor. Nobody may change their
// own approval; only a master_admin may change a master_admin's.
func SetApproval(app core.App, actor *core.Record, id, state string) (*core.Record, error) {
	if !validApproval(state) {
		return nil, apierr.Invalid(schema.UserIsApproved, MsgApprovalInvalid)
	}
	return change(app, id, func(_ core.App, target *core.Record) (bool, error) {
		if target.Id == actor.Id {
			return false, ErrOwnApproval
		}
		if err := mayManage(actor, target); err != nil {
			return false, err
		}
		if target.GetString(schema.UserIsApproved) == state {
			return false, nil
		}
		target.Set(schema.UserIsApproved, state)
		return true, nil
	})
}

// change applies edit to user id as read in the transaction that saves it (txutil.Modify):
// changes to one user at the same moment cannot undo each other.
func change(app core.App, id string, edit func(txApp core.App, target *core.Record) (save bool, err error)) (*core.Record, error) {
	rec, err := txutil.Modify(app, func(txApp core.App) (*core.Record, error) { return FindByID(txApp, id) },
		func(txApp core.App, target *core.Record) (bool, error) {
			save, err := edit(txApp, target)
			if save && err == nil {
				events.Publish(txApp, UsersUpdated) // sent once the save commits
			}
			return save, err
		})
	return rec, saveError(err)
}

// HashedPassword is a password hashed for the users collection (HashPassword).
type HashedPassword struct{ value any }

// ErrHashInTransaction refuses to run bcrypt inside a transaction: the hash takes tens of
// milliseconds at production cost, and a transaction holds SQLite's only writer meanwhile.
// A route that hashes is bound idempotency.Skip(), so it runs outside the keyed transaction.
var ErrHashInTransaction = errors.New("users: a password is hashed outside any transaction")

// HashPassword hashes password (bcrypt, slow) for the users collection, outside any
// transaction (ErrHashInTransaction); a transaction then saves it with the record.
func HashPassword(app core.App, password string) (HashedPassword, error) {
	if app.IsTransactional() {
		return HashedPassword{}, ErrHashInTransaction
	}
	scratch, err := records.New(app, schema.Users)
	if err != nil {
		return HashedPassword{}, err
	}
	scratch.SetPassword(password)
	return HashedPassword{scratch.GetRaw(core.FieldNamePassword)}, nil
}

// AdminNewUser is the input of AdminCreate (POST /api/admin/users/create).
type AdminNewUser struct {
	NewUser
	// BypassTerms creates the account without a signature requirement (aimed at corporate
	// liaisons); otherwise the user must sign the terms at the next login.
	BypassTerms bool
}

// AdminCreate creates an approved account on behalf of actor. Only a master_admin may create
// another master_admin.
func AdminCreate(app core.App, actor *core.Record, in AdminNewUser) (*core.Record, error) {
	if strings.TrimSpace(in.Role) == roles.MasterAdmin && actor.GetString(schema.UserRole) != roles.MasterAdmin {
		return nil, ErrGrantMaster
	}
	in.Approval = roles.Approved
	return create(app, in.NewUser, !in.BypassTerms)
}

// Changes lists the fields PUT /api/admin/users/{id} may change; nil means unchanged.
type Changes struct {
	FirstName              *string
	LastName               *string
	Email                  *string
	Role                   *string
	Password               *string // blank keeps the old password
	PayReductionPercentage *int    // whole percent 0–100; reqx.NotAnInteger is refused
}

// Update applies ch to user id on behalf of actor. Only a master_admin may change a
// master_admin account or grant the master_admin role; nobody may change their own role.
func Update(app core.App, actor *core.Record, id string, ch Changes) (*core.Record, error) {
	// the new password is hashed before the transaction (bcrypt is slow); a bad one is
	// refused in the order of the checks below
	var password HashedPassword
	var passwordErr error
	if ch.Password != nil && *ch.Password != "" {
		if passwordErr = ValidatePassword(*ch.Password); passwordErr == nil {
			var err error
			if password, err = HashPassword(app, *ch.Password); err != nil {
				return nil, err
			}
		}
	}
	payChanged := false
	target, err := change(app, id, func(txApp core.App, target *core.Record) (bool, error) {
		if err := mayManage(actor, target); err != nil {
			return false, err
		}
		if ch.FirstName != nil || ch.LastName != nil {
			first, last := target.GetString(schema.UserFirstName), target.GetString(schema.UserLastName)
			if ch.FirstName != nil {
				first = *ch.FirstName
			}
			if ch.LastName != nil {
				last = *ch.LastName
			}
			first, last, err := ValidateNames(first, last)
			if err != nil {
				return false, err
			}
			target.Set(schema.UserFirstName, first)
			target.Set(schema.UserLastName, last)
		}
		if ch.Email != nil {
			email := NormalizeEmail(*ch.Email)
			if email == "" {
				return false, apierr.Invalid(core.FieldNameEmail, MsgEmailRequired)
			}
			if err := validateEmail(email); err != nil {
				return false, err
			}
			if other, err := FindByEmail(txApp, email); err == nil && other.Id != target.Id {
				return false, ErrEmailTaken
			} else if err != nil && !errors.Is(err, ErrNotFound) {
				return false, err
			}
			target.SetEmail(email)
		}
		if ch.Role != nil {
			role := strings.TrimSpace(*ch.Role)
			if !roles.IsValid(role) {
				return false, apierr.Invalid(schema.UserRole, MsgRoleInvalid)
			}
			if role != target.GetString(schema.UserRole) {
				if target.Id == actor.Id {
					return false, ErrOwnRole
				}
				if role == roles.MasterAdmin && actor.GetString(schema.UserRole) != roles.MasterAdmin {
					return false, ErrGrantMaster
				}
				target.Set(schema.UserRole, role)
			}
		}
		if passwordErr != nil {
			return false, passwordErr
		}
		if password.value != nil {
			target.SetRaw(core.FieldNamePassword, password.value)
		}
		if ch.PayReductionPercentage != nil {
			p := *ch.PayReductionPercentage
			if err := reqx.Count(schema.UserPayReductionPercentage, p, 0, 100, MsgPercentRange, MsgPercentRange); err != nil {
				return false, err
			}
			payChanged = p != target.GetInt(schema.UserPayReductionPercentage)
			target.Set(schema.UserPayReductionPercentage, p)
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if payChanged {
		events.Publish(app, events.EarningsUpdated)
	}
	return target, nil
}

// ErrWithholdingCoreTeam refuses a pool withholding for a user outside the core team.
var ErrWithholdingCoreTeam = apierr.Invalid("withholding", "Pool withholding applies to admins and master admins only")

// SetPoolWithholding sets the share of their earnings core-team member id keeps out of the
// pool (DESIGN.md §8), in tenths of a percent (0–1000), on behalf of actor: only a
// master_admin may change a master_admin's. Announces EARNINGS_UPDATED.
func SetPoolWithholding(app core.App, actor *core.Record, id string, tenths int) (*core.Record, error) {
	if tenths < 0 || tenths > 1000 {
		return nil, apierr.Invalid("withholding", MsgPercentRange)
	}
	target, err := change(app, id, func(_ core.App, target *core.Record) (bool, error) {
		if err := mayManage(actor, target); err != nil {
			return false, err
		}
		if r := target.GetString(schema.UserRole); r != roles.Admin && r != roles.MasterAdmin {
			return false, ErrWithholdingCoreTeam
		}
		target.Set(schema.UserAdminPoolWithholdingPct, float64(tenths)/10)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	events.Publish(app, events.EarningsUpdated)
	return target, nil
}

// Delete removes user id on behalf of actor. Their signed agreements stay, with the signer's
// name and email as they were (the legal record), and so do their movements, with their
// name and role (inventory.KeepFormerUser), and their photos, with their name and email
// (photos.KeepFormerUploader); their sessions end. Nobody may delete
// their own account; only a master_admin may delete a master_admin. A user who still holds
// batteries cannot be deleted (the ledger would lose who has them): ErrHoldsBatteries.
func Delete(app core.App, actor *core.Record, id string) error {
	return app.RunInTransaction(func(txApp core.App) error {
		// read and checked in the transaction that deletes, as change does for edits
		target, err := FindByID(txApp, id)
		if err != nil {
			return err
		}
		if target.Id == actor.Id {
			return ErrDeleteSelf
		}
		if err := mayManage(actor, target); err != nil {
			return err
		}
		held, err := inventory.HeldBy(txApp, target.Id)
		if err != nil {
			return err
		}
		if held > 0 {
			return ErrHoldsBatteries
		}
		// their movements keep who they were, and their photos their name: the delete's own
		// hook does it, for every door (hooks: swapbayKeepFormerUserHistory)
		if err := txApp.Delete(target); err != nil {
			return saveError(err)
		}
		events.Publish(txApp, UsersUpdated)
		return nil
	})
}

// ForceResign makes user id sign the active terms again at the next login.
func ForceResign(app core.App, actor *core.Record, id string) (*core.Record, error) {
	return change(app, id, func(_ core.App, target *core.Record) (bool, error) {
		if err := mayManage(actor, target); err != nil {
			return false, err
		}
		target.Set(schema.UserMustResignTerms, true)
		return true, nil
	})
}

// ChangePassword sets user's password after checking current, and returns the user (whose
// token key changed, so every older session token is now invalid).
func ChangePassword(app core.App, user *core.Record, current, next string) (*core.Record, error) {
	if current == "" {
		return nil, apierr.Invalid("currentPassword", MsgCurrentRequired)
	}
	if utf8.RuneCountInString(next) < schema.MinPasswordLength {
		return nil, apierr.Invalid("newPassword", MsgNewTooShort)
	}
	if len(next) > 71 {
		return nil, apierr.Invalid("newPassword", MsgPasswordTooLong)
	}
	// bcrypt (the check and the new hash) runs before the transaction, which then saves only
	// if the password checked is still the stored one
	if app.IsTransactional() {
		return nil, ErrHashInTransaction
	}
	checked, err := FindByID(app, user.Id)
	if err != nil {
		return nil, err
	}
	if !checked.ValidatePassword(current) {
		return nil, apierr.Invalid("currentPassword", MsgCurrentWrong)
	}
	password, err := HashPassword(app, next)
	if err != nil {
		return nil, err
	}
	const hash = core.FieldNamePassword + ":hash"
	return change(app, user.Id, func(_ core.App, fresh *core.Record) (bool, error) {
		if fresh.GetString(hash) != checked.GetString(hash) { // changed meanwhile: current is no longer it
			return false, apierr.Invalid("currentPassword", MsgCurrentWrong)
		}
		fresh.SetRaw(core.FieldNamePassword, password.value)
		return true, nil
	})
}
