package auth

import (
	"sync"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"golang.org/x/crypto/bcrypt"

	"swapbay/lib/events"
	"swapbay/lib/schema"
	"swapbay/lib/sessions"
)

// NewSession records a signed-in device for rec and returns its session token (lib/sessions).
// PocketBase's auth-refresh is closed for app users, and a new session always starts at
// /api/login.
func NewSession(app core.App, rec *core.Record, ip, userAgent string) (string, error) {
	return sessions.Start(app, schema.AuthSessions, rec, ip, userAgent)
}

// EndSession deletes session sid of userId (logout: other devices stay signed in) and closes
// its sockets after the commit.
func EndSession(app core.App, userId, sid string) error {
	if sid == "" {
		return nil
	}
	_, err := app.DB().Delete(schema.AuthSessions, dbx.HashExp{"id": sid, schema.AuthSessionUser: userId}).Execute()
	if err == nil {
		events.Send(app, events.Message{Type: events.SessionsRevoked, Data: events.Revocation{UserId: userId, SessionId: sid}})
	}
	return err
}

// EndAllSessions deletes every session of userId and closes their sockets after the commit.
func EndAllSessions(app core.App, userId string) error {
	_, err := app.DB().Delete(schema.AuthSessions, dbx.HashExp{schema.AuthSessionUser: userId}).Execute()
	if err == nil {
		events.Send(app, events.Message{Type: events.SessionsRevoked, Data: events.Revocation{UserId: userId}})
	}
	return err
}

// dummyHashes are compared against when the email is unknown, so a sign-in costs the same
// whether the account exists or not: one hash per bcrypt cost, made at the cost the users
// collection hashes passwords with.
var dummyHashes sync.Map // cost → []byte

func dummyHash(app core.App) []byte {
	cost := bcrypt.DefaultCost
	if col, err := app.FindCachedCollectionByNameOrId(schema.Users); err == nil {
		if f, ok := col.Fields.GetByName(core.FieldNamePassword).(*core.PasswordField); ok && f.Cost > 0 {
			cost = f.Cost
		}
	}
	if h, ok := dummyHashes.Load(cost); ok {
		return h.([]byte)
	}
	h, _ := bcrypt.GenerateFromPassword([]byte("swapbay-no-such-account"), cost)
	dummyHashes.Store(cost, h)
	return h
}

// checkPassword compares password with rec's (or with a dummy hash of the same cost when rec
// is nil) and reports whether it matches a real account.
func checkPassword(app core.App, rec *core.Record, password string) bool {
	if rec == nil {
		_ = bcrypt.CompareHashAndPassword(dummyHash(app), []byte(password))
		return false
	}
	return rec.ValidatePassword(password)
}
