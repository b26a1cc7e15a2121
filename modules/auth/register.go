package auth

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/modules/terms"
	"swapbay/modules/users"
)

// Limits of a registration request: the whole body, and the decoded signature image.
const (
	RegisterBodyLimit = 1 << 20
	MaxSignatureBytes = 512 << 10
)

const signaturePrefix = "data:image/png;base64,"

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// Registration validation messages.
const (
	MsgAcceptTerms         = "You must accept the Terms and Conditions"
	MsgSignatureRequired   = "A signature is required"
	MsgSignatureNotPNG     = "The signature must be a PNG image"
	MsgSignatureTooLarge   = "The signature image is too large"
	MsgSignatureDimensions = "The signature image must be at most 2000×1000 pixels, 8 bits a channel"
	MsgRegistrationClosed  = "Registration is unavailable: no active terms and conditions"
	MsgSignatureMethod     = "The signature method must be drawn or typed"
	MsgSignatureText       = "Type your name to sign"
	MsgSignatureTextLong   = "The typed name must be at most 100 characters"
	MsgSignatureTextDrawn  = "A drawn signature has no typed name"
)

// maxSignatureText is the longest typed name (the agreement's signatureText field).
const maxSignatureText = 100

type registerForm struct {
	Email     string `json:"email"`
	Password  string `json:"password"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	signForm
}

func register(e *core.RequestEvent, form *registerForm) error {
	if _, _, err := users.ValidateNames(form.FirstName, form.LastName); err != nil {
		return apierr.Response(e, err)
	}
	if _, err := users.ValidateCredentials(form.Email, form.Password); err != nil {
		return apierr.Response(e, err)
	}
	sig, err := form.signature(e)
	if err != nil {
		return apierr.Response(e, err)
	}

	rec, err := SignUp(e.App, SignUpInput{
		NewUser: users.NewUser{
			Email: form.Email, Password: form.Password,
			FirstName: form.FirstName, LastName: form.LastName,
		},
		Signature: sig.PNG,
		Method:    sig.Method,
		Text:      sig.Text,
		ShownHash: sig.ShownHash,
		IP:        sig.IP,
		UserAgent: sig.UserAgent,
	})
	if errors.Is(err, terms.ErrNoActiveTerms) {
		return apierr.NewCode(http.StatusConflict, "", MsgRegistrationClosed, apierr.CodeRegistrationClosed)
	}
	if err != nil {
		return apierr.Response(e, err)
	}
	return startSession(e, rec)
}

// decodeSignature returns the PNG of a "data:image/png;base64,..." URL, checked by its header
// against terms.SignatureLimits and re-encoded (terms.BoundSignature), or the message saying
// why it is refused.
func decodeSignature(dataURL string) ([]byte, string) {
	dataURL = strings.TrimSpace(dataURL)
	if dataURL == "" {
		return nil, MsgSignatureRequired
	}
	if !strings.HasPrefix(dataURL, signaturePrefix) {
		return nil, MsgSignatureNotPNG
	}
	encoded := dataURL[len(signaturePrefix):]
	if base64.StdEncoding.DecodedLen(len(encoded)) > MaxSignatureBytes+3 {
		return nil, MsgSignatureTooLarge
	}
	raw, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, MsgSignatureNotPNG
	}
	if len(raw) > MaxSignatureBytes {
		return nil, MsgSignatureTooLarge
	}
	if !bytes.HasPrefix(raw, pngMagic) {
		return nil, MsgSignatureNotPNG
	}
	bounded, err := terms.BoundSignature(raw)
	if errors.Is(err, terms.ErrSignatureDimensions) {
		return nil, MsgSignatureDimensions
	}
	if err != nil {
		return nil, MsgSignatureNotPNG
	}
	return bounded, ""
}

// signatureMethod checks how the signature was made: "drawn" (also when absent, as older
// clients send) with no typed name, or "typed" with the typed name (trimmed, 1 to 100
// characters). It returns the method and the name to store.
func signatureMethod(method, text string) (string, string, error) {
	text = strings.TrimSpace(text)
	switch method {
	case "", terms.SignatureDrawn:
		if text != "" {
			return "", "", apierr.Invalid("signatureText", MsgSignatureTextDrawn)
		}
		return terms.SignatureDrawn, "", nil
	case terms.SignatureTyped:
		if text == "" {
			return "", "", apierr.Invalid("signatureText", MsgSignatureText)
		}
		if utf8.RuneCountInString(text) > maxSignatureText {
			return "", "", apierr.Invalid("signatureText", MsgSignatureTextLong)
		}
		return terms.SignatureTyped, text, nil
	}
	return "", "", apierr.Invalid("signatureMethod", MsgSignatureMethod)
}

// SignUpInput is a registration: the account and the signature of the active terms.
type SignUpInput struct {
	users.NewUser        // Role and Approval are decided by SignUp
	Signature     []byte // PNG
	Method        string // terms.SignatureDrawn or terms.SignatureTyped
	Text          string // the typed name of a typed signature
	ShownHash     string // the contentHash of the terms the registrant was shown ("" not said)
	IP            string
	UserAgent     string
}

// SignUp creates the account and its signed agreement of the active terms in one
// transaction. The first account on an empty system becomes an approved master_admin
// (DESIGN.md §2); every later one a pending driver. The agreement's PDF is left generating.
func SignUp(app core.App, in SignUpInput) (*core.Record, error) {
	// bcrypt runs before the transaction, which holds SQLite's only writer
	hashed, err := users.HashPassword(app, in.Password)
	if err != nil {
		return nil, err
	}
	in.Hashed = hashed
	var rec *core.Record
	err = app.RunInTransaction(func(txApp core.App) error {
		active, err := terms.FindActive(txApp)
		if err != nil {
			return err
		}
		n, err := users.Count(txApp)
		if err != nil {
			return err
		}
		in.Role, in.Approval = roles.Driver, roles.Pending
		if n == 0 {
			in.Role, in.Approval = roles.MasterAdmin, roles.Approved
		}
		rec, err = users.Create(txApp, in.NewUser)
		if err != nil {
			return err
		}
		_, err = terms.RecordAgreement(txApp, terms.Signature{
			User:      rec,
			Terms:     active,
			PNG:       in.Signature,
			Method:    in.Method,
			Text:      in.Text,
			IP:        in.IP,
			UserAgent: in.UserAgent,
			SignedAt:  clock.Now().UTC(),
			ShownHash: in.ShownHash,
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return rec, nil
}
