package users

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// FindByID returns the user with id, or ErrNotFound.
func FindByID(app core.App, id string) (*core.Record, error) {
	rec, err := app.FindRecordById(schema.Users, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return rec, err
}

// FindByEmail returns the user whose email equals email, ignoring case and surrounding
// spaces, or ErrNotFound.
func FindByEmail(app core.App, email string) (*core.Record, error) {
	email = NormalizeEmail(email)
	if email == "" {
		return nil, ErrNotFound
	}
	rec := &core.Record{}
	err := app.RecordQuery(schema.Users).
		AndWhere(dbx.NewExp("[["+core.FieldNameEmail+"]] = {:email} COLLATE NOCASE", dbx.Params{"email": email})).
		Limit(1).
		One(rec)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// NormalizeEmail is the form emails are stored and compared in: trimmed, lower case.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// Count returns how many users exist.
func Count(app core.App) (int64, error) {
	return app.CountRecords(schema.Users)
}

// CountPending returns how many accounts await approval (the Users page's Pending Approval list).
func CountPending(app core.App) (int64, error) {
	return app.CountRecords(schema.Users, dbx.HashExp{schema.UserIsApproved: roles.Pending})
}

// CountApprovedMasters returns how many approved master_admin accounts exist, leaving out
// the user with id except (may be "").
func CountApprovedMasters(app core.App, except string) (int64, error) {
	return app.CountRecords(schema.Users,
		dbx.HashExp{schema.UserRole: roles.MasterAdmin, schema.UserIsApproved: roles.Approved},
		dbx.Not(dbx.HashExp{"id": except}),
	)
}

// List returns the users newest first; approval filters by approval state when not "".
func List(app core.App, approval string) ([]*core.Record, error) {
	q := app.RecordQuery(schema.Users).OrderBy(schema.Created+" DESC", "id DESC")
	if approval != "" {
		q = q.AndWhere(dbx.HashExp{schema.UserIsApproved: approval})
	}
	var recs []*core.Record
	if err := q.All(&recs); err != nil {
		return nil, err
	}
	return recs, nil
}
