package auth

import (
	"errors"
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
	"swapbay/modules/users"
)

type signForm struct {
	AcceptedTerms   bool   `json:"acceptedTerms"`
	SignatureData   string `json:"signatureData"`
	SignatureMethod string `json:"signatureMethod"`
	SignatureText   string `json:"signatureText"`
}

// signTerms records a new signature of the active terms by the signed-in user and clears
// their mustResignTerms flag (set by an admin's "force re-sign").
func signTerms(e *core.RequestEvent) error {
	var form signForm
	if err := reqx.Decode(e, &form, RegisterBodyLimit); err != nil {
		return apierr.Response(e, err)
	}
	if !form.AcceptedTerms {
		return apierr.Response(e, apierr.Invalid("acceptedTerms", MsgAcceptTerms))
	}
	signature, msg := decodeSignature(form.SignatureData)
	if msg != "" {
		return apierr.Response(e, apierr.Invalid("signatureData", msg))
	}
	method, text, err := signatureMethod(form.SignatureMethod, form.SignatureText)
	if err != nil {
		return apierr.Response(e, err)
	}
	rec, err := SignActiveTerms(e.App, e.Auth.Id, terms.Signature{PNG: signature, Method: method, Text: text,
		IP: e.RealIP(), UserAgent: e.Request.UserAgent()})
	if errors.Is(err, terms.ErrNoActiveTerms) {
		return apierr.NewCode(http.StatusNotFound, "", terms.ErrNoActiveTerms.Error(), apierr.CodeNoActiveTerms)
	}
	if err != nil {
		return apierr.Response(e, err)
	}
	return answerUser(e, rec)
}

// SignActiveTerms records userID's signature of the active terms (sig's image, method, typed
// name, IP and user agent; its user, terms and time are filled here) and clears the user's
// mustResignTerms flag, in one transaction. It returns the updated user.
func SignActiveTerms(app core.App, userID string, sig terms.Signature) (*core.Record, error) {
	var user *core.Record
	err := app.RunInTransaction(func(txApp core.App) error {
		active, err := terms.FindActive(txApp)
		if err != nil {
			return err
		}
		user, err = users.FindByID(txApp, userID)
		if err != nil {
			return err
		}
		sig.User, sig.Terms, sig.SignedAt = user, active, clock.Now().UTC()
		_, err = terms.RecordAgreement(txApp, sig)
		if err != nil {
			return err
		}
		user.Set(schema.UserMustResignTerms, false)
		return txApp.Save(user)
	})
	if err != nil {
		return nil, err
	}
	return user, nil
}
