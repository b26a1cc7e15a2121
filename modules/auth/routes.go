// Package auth is SwapBay's auth module: cookie sign-in and sign-out, registration with the
// signed contractor agreement, the current user and password change (spec part 1 §7,
// DESIGN.md §4–§5). PocketBase's own password auth is disabled; /api/login replaces it.
package auth

import (
	"net/http"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/idempotency"
	"swapbay/lib/ratelimit"
	"swapbay/modules/system"
	"swapbay/modules/users"
)

// Register adds the auth routes to app:
//
//	GET  /api/auth/user        signed in, any approval   the current user (SessionUser: the user and timeZone)
//	POST /api/login            everyone                  {email, password} → SessionUser, sets the cookie
//	POST /api/register         everyone                  sign-up + signed agreement → SessionUser, sets the cookie
//	POST /api/logout           everyone                  ends this device's session, clears the cookie
//	POST /api/change-password  signed in, any approval   {currentPassword, newPassword}, new cookie
//	POST /api/terms/sign       signed in, any approval   {acceptedTerms, signatureData, termsHash?}: sign the
//	                                                     active terms again (after a forced re-sign) → SessionUser;
//	                                                     SignLimit: 3 per account, 30 per address in 10 min
//	                                                     (here and at /api/register: termsHash, the contentHash of the
//	                                                     terms shown, other than the active content's → 409
//	                                                     terms.MsgTermsChanged, nothing recorded)
//	GET  /api/admin/sign-in-failures  admins             [{account, source, count, lastAt, slowed}]: sources
//	                                                     with repeated failed sign-ins (System page)
func Register(app core.App) {
	limiter := newThrottle()
	login := httpx.Form(func(e *core.RequestEvent, f *loginForm) error { return handleLogin(e, f, limiter) })
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/auth/user", currentUser).Bind(httpx.RequireUser())
		// bcrypt (a password checked or hashed) runs outside the keyed write transaction
		se.Router.POST("/api/login", login).Bind(idempotency.Skip("checks a password (bcrypt); a sign-in is not a change to replay"))
		se.Router.POST("/api/register", httpx.FormUpTo(RegisterBodyLimit, register)).Bind(idempotency.Skip("hashes the password (bcrypt) outside the write transaction"))
		se.Router.POST("/api/logout", logout).Bind(idempotency.Keyed())
		se.Router.POST("/api/change-password", httpx.Form(changePassword)).Bind(httpx.RequireUser(), idempotency.Skip("checks and hashes passwords (bcrypt) outside the write transaction"))
		se.Router.POST("/api/terms/sign", httpx.FormUpTo(RegisterBodyLimit, signTerms)).Bind(httpx.RequireUser(), SignLimit.Handler(), idempotency.Keyed())
		se.Router.GET("/api/admin/sign-in-failures", func(e *core.RequestEvent) error {
			return e.JSON(http.StatusOK, limiter.report(maxReported))
		}).Bind(httpx.RequireAdmin())
		return se.Next()
	})
}

// SignLimit bounds re-signing the terms (a signature decoded and re-encoded, a PDF
// rendered): a person signs once after a forced re-sign. Registration, also a signature and
// a PDF, is a guest's and limited per address by PocketBase's limiter (10 a minute).
var SignLimit = ratelimit.Limit{Name: "POST /api/terms/sign",
	PerAccount: ratelimit.Rule{N: 3, Window: 10 * time.Minute}, PerIP: ratelimit.Rule{N: 30, Window: 10 * time.Minute}}

// maxReported is how many sources the System page's failed sign-ins card lists.
const maxReported = 50

// MsgInvalidLogin is the answer to a wrong email or password. It is a 400, not a 401: the UI
// reads 401 as "signed out".
const MsgInvalidLogin = "Invalid email or password"

// SessionUser is the signed-in user as the session routes answer it (GET /api/auth/user,
// login, register, terms sign): the user, plus the operation's time zone (DESIGN.md §3), in
// which the UI shows every time and "today", whatever the device's own zone. Every screen,
// the pending one included, starts from this answer.
type SessionUser struct {
	users.JSON
	TimeZone string `json:"timeZone"`
}

// answerUser answers rec as the signed-in user.
func answerUser(e *core.RequestEvent, rec *core.Record) error {
	loc, err := system.Location(e.App)
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to load the settings.", err)
	}
	return e.JSON(http.StatusOK, SessionUser{JSON: users.ToJSON(rec), TimeZone: loc.String()})
}

func currentUser(e *core.RequestEvent) error {
	return answerUser(e, e.Auth)
}

type loginForm struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	// OtpId and Code complete a sign-in that was asked for an emailed code (otp.go).
	OtpId string `json:"otpId"`
	Code  string `json:"code"`
}

// handleLogin signs in. An unknown email costs the same as a wrong password (a dummy hash
// comparison); failures slow down the source that made them on that account (see throttle),
// answered 429, and an account failed on from many sources asks for an emailed code.
func handleLogin(e *core.RequestEvent, form *loginForm, limiter *throttle) error {
	if users.NormalizeEmail(form.Email) == "" || form.Password == "" {
		field := "email"
		if users.NormalizeEmail(form.Email) != "" {
			field = "password"
		}
		return apierr.Response(e, apierr.Invalid(field, users.MsgEmailPassword))
	}
	email, source := users.NormalizeEmail(form.Email), e.RealIP()
	if limiter.blocked(email, source) {
		return apierr.New(http.StatusTooManyRequests, "", MsgTooManyAttempts)
	}
	rec, err := users.FindByEmail(e.App, form.Email)
	if err != nil {
		rec = nil
	}
	if !checkPassword(e.App, rec, form.Password) {
		limiter.fail(email, source)
		return apierr.NewCode(http.StatusBadRequest, "", MsgInvalidLogin, apierr.CodeInvalidCredentials)
	}
	if limiter.challenged(email) && canEmailCodes(e.App) {
		if form.OtpId == "" {
			otpId, err := sendCode(e.App, rec)
			if err != nil {
				return apierr.Log(e, http.StatusServiceUnavailable, "The sign-in code could not be sent. Please try again later.", err)
			}
			return codeRequired(otpId)
		}
		if !useCode(e.App, rec, form.OtpId, form.Code) {
			limiter.fail(email, source)
			return apierr.NewCode(http.StatusBadRequest, "code", MsgCodeInvalid, apierr.CodeInvalidSignInCode)
		}
	}
	limiter.succeed(email, source)
	return startSession(e, rec)
}

// startSession sets the session cookie for rec and answers rec as the current user.
func startSession(e *core.RequestEvent, rec *core.Record) error {
	token, err := NewSession(e.App, rec, e.RealIP(), e.Request.UserAgent())
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to start the session.", err)
	}
	httpx.SetSession(e, token, int(rec.Collection().AuthToken.Duration))
	return answerUser(e, rec)
}

func logout(e *core.RequestEvent) error {
	if httpx.IsAppUser(e) {
		if err := EndSession(e.App, e.Auth.Id, httpx.SessionId(e)); err != nil {
			return apierr.Response(e, err)
		}
	}
	httpx.ClearSession(e)
	return e.JSON(http.StatusOK, map[string]any{})
}

type changePasswordForm struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

// changePassword sets a new password. Every session of the user ends (hooks.EndSessionsId);
// this device gets a new one.
func changePassword(e *core.RequestEvent, form *changePasswordForm) error {
	rec, err := users.ChangePassword(e.App, e.Auth, form.CurrentPassword, form.NewPassword)
	if err != nil {
		return apierr.Response(e, err)
	}
	token, err := NewSession(e.App, rec, e.RealIP(), e.Request.UserAgent())
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to renew the session.", err)
	}
	httpx.SetSession(e, token, int(rec.Collection().AuthToken.Duration))
	return e.JSON(http.StatusOK, map[string]string{"message": "Password updated successfully"})
}
