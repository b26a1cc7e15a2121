package auth

import (
	"errors"
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
	"swapbay/modules/users"
)

type signForm struct {
	AcceptedTerms bool   `json:"acceptedTerms"`
	SignatureData string `json:"signatureData"`
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
	rec, err := SignActiveTerms(e.App, e.Auth.Id, signature, e.RealIP(), e.Request.UserAgent())
	if errors.Is(err, terms.ErrNoActiveTerms) {
		return apierr.NewCode(http.StatusNotFound, "", terms.ErrNoActiveTerms.Error(), apierr.CodeNoActiveTerms)
	}
	if err != nil {
		return apierr.Response(e, err)
	}
	return answerUser(e, rec)
}

// SignActiveTerms records userID's signature (PNG) of the active terms and clears the user's
// mustResignTerms flag, in one transaction. It returns the updated user.
func SignActiveTerms(app core.App, userID string, signature []byte, ip, userAgent string) (*core.Record, error) {
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
		_, err = terms.RecordAgreement(txApp, terms.Signature{
			User: user, Terms: active, PNG: signature,
			IP: ip, UserAgent: userAgent, SignedAt: time.Now().UTC(),
		})
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
