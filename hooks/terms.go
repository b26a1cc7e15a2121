package hooks

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
)

// MsgTermsActivate refuses a raw change of which version is active.
const MsgTermsActivate = "Exactly one terms version is active: activate a version in the Terms & Conditions Editor on the System page."

// MsgTermsDeleteActive refuses a raw delete of the active version.
const MsgTermsDeleteActive = "The active terms version cannot be deleted: activate another version first."

func bindTerms(app core.App) {
	// a raw terms draft is sanitised like the editor's (only what its toolbar makes), and may
	// not be created active: exactly one version is active, switched in one transaction
	app.OnRecordCreateRequest(schema.TermsVersions).Bind(named("swapbayRawTermsCreate", rawGuardPriority+1, func(e *core.RecordRequestEvent) error {
		if e.Record.GetBool(schema.TermsIsActive) {
			return refuseConflict(MsgTermsActivate)
		}
		e.Record.Set(schema.TermsContent, terms.Sanitize(e.Record.GetString(schema.TermsContent)))
		return e.Next()
	}))
	// a raw edit is sanitised too, may not switch the active version, and may not change a
	// version someone has signed (it is immutable, as PUT /api/admin/terms-content/{id} says)
	app.OnRecordUpdateRequest(schema.TermsVersions).Bind(named("swapbayRawTermsUpdate", rawGuardPriority+1, func(e *core.RecordRequestEvent) error {
		if e.Record.GetBool(schema.TermsIsActive) != e.Record.Original().GetBool(schema.TermsIsActive) {
			return refuseConflict(MsgTermsActivate)
		}
		e.Record.Set(schema.TermsContent, terms.Sanitize(e.Record.GetString(schema.TermsContent)))
		if len(changedFields(e.Record)) > 0 {
			if err := refuseSigned(e.App, e.Record.Id); err != nil {
				return err
			}
		}
		return e.Next()
	}))
	// the active version and a signed one are never deleted (registration needs the first, the
	// agreements point at the second)
	app.OnRecordDeleteRequest(schema.TermsVersions).Bind(named("swapbayRawTermsDelete", rawGuardPriority+1, func(e *core.RecordRequestEvent) error {
		if e.Record.GetBool(schema.TermsIsActive) {
			return refuseConflict(MsgTermsDeleteActive)
		}
		if err := refuseSigned(e.App, e.Record.Id); err != nil {
			return err
		}
		return e.Next()
	}))
}

// refuseSigned refuses a change to version id once someone has signed it.
func refuseSigned(app core.App, id string) error {
	signed, err := terms.SignedCount(app, id)
	if err != nil {
		return err
	}
	if signed > 0 {
		return refuseConflict(terms.MsgVersionSigned)
	}
	return nil
}

func refuseConflict(msg string) error {
	return apierr.NewCode(http.StatusConflict, "", msg, apierr.CodeConflict)
}
