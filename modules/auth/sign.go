package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/terms"
	"swapbay/modules/users"
)

// signForm is the part of a body that signs the active terms (registration, a re-sign): the
// acceptance, the signature's PNG data URL, how it was made ("drawn", the default, or "typed")
// and the typed name.
type signForm struct {
	AcceptedTerms   bool   `json:"acceptedTerms"`
	SignatureData   string `json:"signatureData"`
	SignatureMethod string `json:"signatureMethod"`
	SignatureText   string `json:"signatureText"`
	// TermsHash is the contentHash of the active terms the signer was shown (GET
	// /api/terms-content/active): a signature of other terms is refused (terms.MsgTermsChanged).
	TermsHash string `json:"termsHash"`
}

// signature checks f (the terms accepted, the image, the method and the typed name) and gives
// the signature as the terms module records it, with the request's address and user agent.
func (f signForm) signature(e *core.RequestEvent) (terms.Signature, error) {
	if !f.AcceptedTerms {
		return terms.Signature{}, apierr.Invalid("acceptedTerms", MsgAcceptTerms)
	}
	png, msg := decodeSignature(f.SignatureData)
	if msg != "" {
		return terms.Signature{}, apierr.Invalid("signatureData", msg)
	}
	method, text, err := signatureMethod(f.SignatureMethod, f.SignatureText)
	if err != nil {
		return terms.Signature{}, err
	}
	return terms.Signature{PNG: png, Method: method, Text: text, IP: e.RealIP(), UserAgent: e.Request.UserAgent(),
		ShownHash: strings.TrimSpace(f.TermsHash)}, nil
}

// signTerms records a new signature of the active terms by the signed-in user and clears
// their mustResignTerms flag (set by an admin's "force re-sign").
func signTerms(e *core.RequestEvent, form *signForm) error {
	sig, err := form.signature(e)
	if err != nil {
		return apierr.Response(e, err)
	}
	rec, err := SignActiveTerms(e.App, e.Auth.Id, sig)
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
