package auth

import (
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/mails"
	"github.com/pocketbase/pocketbase/tools/security"

	"swapbay/lib/apierr"
)

// A sign-in on an account under attack (throttle.challenged) asks, once SMTP is set, for a
// one-time code emailed to the account: the right password and the code sign in. The code is
// a PocketBase OTP record (hashed like a password, tied to the user), valid codeValidFor and
// used once. PocketBase's own OTP routes stay closed; only /api/login reads these codes.
const (
	codeLength   = 8
	codeValidFor = 10 * time.Minute
)

// Messages of the emailed sign-in code.
const (
	MsgCodeSent    = "We emailed you a sign-in code. Enter it to continue."
	MsgCodeInvalid = "The sign-in code is wrong or has expired."
)

// codeRequired is the answer that asks for the code just sent (403 sign_in_code_required,
// data.otpId naming it).
func codeRequired(otpId string) error {
	err := apierr.NewCode(http.StatusForbidden, "", MsgCodeSent, apierr.CodeSignInCodeRequired)
	err.Data = map[string]any{"otpId": otpId}
	return err
}

// canEmailCodes reports whether the app can send sign-in codes (SMTP is configured).
func canEmailCodes(app core.App) bool { return app.Settings().SMTP.Enabled }

// sendCode emails rec a new sign-in code and returns its id.
func sendCode(app core.App, rec *core.Record) (string, error) {
	code := security.RandomStringWithAlphabet(codeLength, "0123456789")
	otp := core.NewOTP(app)
	otp.SetCollectionRef(rec.Collection().Id)
	otp.SetRecordRef(rec.Id)
	otp.SetPassword(code)
	if err := app.Save(otp); err != nil {
		return "", err
	}
	if err := mails.SendRecordOTP(app, rec, otp.Id, code); err != nil {
		_ = app.Delete(otp)
		return "", err
	}
	return otp.Id, nil
}

// useCode reports whether code is rec's unexpired sign-in code otpId, and uses it up.
func useCode(app core.App, rec *core.Record, otpId, code string) bool {
	if otpId == "" || code == "" {
		return false
	}
	otp, err := app.FindOTPById(otpId)
	if err != nil || otp.RecordRef() != rec.Id || otp.CollectionRef() != rec.Collection().Id {
		return false
	}
	if otp.HasExpired(codeValidFor) || !otp.ValidatePassword(code) {
		return false
	}
	return app.Delete(otp) == nil
}
