package hooks

import (
	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/events"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/auth"
)

func bindSessions(app core.App) {
	// an account whose approval is taken away (suspended, rejected, back to pending), whose
	// role or password changes, is signed out everywhere (DESIGN.md §5: sessions are revocable)
	app.OnRecordUpdate(schema.Users).Bind(named(EndSessionsId, 0, endSessionsOnAccountChange))
	// a deleted user's sockets close once the delete commits (its sessions go with it, cascade)
	app.OnRecordDelete(schema.Users).Bind(named(CloseSocketsId, 0, closeSocketsOnDelete))
}

func endSessionsOnAccountChange(e *core.RecordEvent) error {
	// the stored row, not e.Record.Original(): a record kept since its creation still carries
	// its pre-creation original
	old, err := e.App.FindRecordById(schema.Users, e.Record.Id)
	if err != nil {
		return e.Next()
	}
	end := old.GetString(schema.UserRole) != e.Record.GetString(schema.UserRole) ||
		(old.GetString(schema.UserIsApproved) == roles.Approved && e.Record.GetString(schema.UserIsApproved) != roles.Approved) ||
		old.TokenKey() != e.Record.TokenKey() ||
		old.GetString(core.FieldNamePassword+":hash") != e.Record.GetString(core.FieldNamePassword+":hash")
	if err := e.Next(); err != nil {
		return err
	}
	if end {
		return auth.EndAllSessions(e.App, e.Record.Id)
	}
	return nil
}

// closeSocketsOnDelete sends the revocation after the delete (events.Send: after the caller's
// transaction commits, at once when there is none).
func closeSocketsOnDelete(e *core.RecordEvent) error {
	if err := e.Next(); err != nil {
		return err
	}
	events.Send(e.App, events.Message{Type: events.SessionsRevoked, Data: events.Revocation{UserId: e.Record.Id}})
	return nil
}
