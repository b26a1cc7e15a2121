package hq

import (
	"net/http"
	"strings"
	"sync"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/security"
	"golang.org/x/crypto/bcrypt"

	"swapbay/lib/apierr"
	"swapbay/lib/httpx"
	"swapbay/lib/order"
	"swapbay/lib/schema"
	"swapbay/lib/sessions"
)

// Head office's sign-in (issue 45): the city's way (modules/auth, DESIGN.md §5) on HQ's own
// users. A sign-in records a session row (Sessions) and answers an HttpOnly, SameSite=Lax
// cookie (lib/httpx's SessionCookie, Secure over https) holding a PocketBase auth token that
// names the row (schema.SessionClaim). Sign-out deletes the row, so the token is refused at
// once even if it was copied. A token without a session claim (PocketBase's own
// auth-with-password, kept for scripts and the CLI docs) is accepted as before.

// MsgInvalidLogin answers a wrong email or password: a 400 (the UI reads 401 as signed out),
// the city's wording.
const MsgInvalidLogin = "Invalid email or password."

// MsgLoginFields asks for both fields.
const MsgLoginFields = "Enter your email and password."

// maxLoginBody bounds a sign-in's JSON.
const maxLoginBody = 4 << 10

// Me is the signed-in head-office user as the session routes answer it.
type Me struct {
	Id    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
	Role  string `json:"role"`
}

func meOf(rec *core.Record) Me {
	return Me{Id: rec.Id, Email: rec.Email(), Name: rec.GetString(UserName), Role: rec.GetString(UserRole)}
}

// liveSession runs right after PocketBase loads the auth token: an HQ user's token that names
// a session (a cookie sign-in) must name one that still exists, else the request goes on as a
// guest (every guard answers 401).
func liveSession() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       httpx.LiveSessionId,
		Priority: order.LiveSession,
		Func: func(e *core.RequestEvent) error {
			if e.Auth != nil && e.Auth.Collection().Name == Users {
				if sid, named := sessionClaim(e); named && !sessionAlive(e.App, sid, e.Auth.Id) {
					e.Auth = nil
				}
			}
			return e.Next()
		},
	}
}

// sessionClaim returns the session id the request's token carries, and whether it carries one.
func sessionClaim(e *core.RequestEvent) (string, bool) {
	token := e.Request.Header.Get("Authorization")
	if len(token) > 7 && strings.EqualFold(token[:7], "Bearer ") {
		token = token[7:]
	}
	claims, err := security.ParseUnverifiedJWT(token)
	if err != nil {
		return "", false
	}
	v, ok := claims[schema.SessionClaim]
	if !ok {
		return "", false
	}
	sid, _ := v.(string)
	return sid, true
}

func sessionAlive(app core.App, sid, userId string) bool {
	if sid == "" {
		return false
	}
	var owner string
	err := app.DB().Select(SessionUser).From(Sessions).Where(dbx.HashExp{"id": sid}).Limit(1).Row(&owner)
	return err == nil && owner == userId
}

// dummyHash is compared against for an unknown email, so a sign-in costs the same whether the
// account exists or not.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("swapbay-hq-no-such-account"), bcrypt.DefaultCost)
	return h
})

type loginForm struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// login is POST /api/hq/auth/login.
func login(e *core.RequestEvent, form *loginForm) error {
	email := strings.TrimSpace(form.Email)
	if email == "" || form.Password == "" || len(email) > 254 || len(form.Password) > 200 {
		field := "email"
		if email != "" && len(email) <= 254 {
			field = "password"
		}
		if email != "" && form.Password != "" {
			return apierr.NewCode(http.StatusBadRequest, "", MsgInvalidLogin, apierr.CodeInvalidCredentials)
		}
		return apierr.Response(e, apierr.Invalid(field, MsgLoginFields))
	}
	rec, err := findByEmail(e.App, email)
	if err != nil {
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(form.Password))
		return apierr.NewCode(http.StatusBadRequest, "", MsgInvalidLogin, apierr.CodeInvalidCredentials)
	}
	if !rec.ValidatePassword(form.Password) {
		return apierr.NewCode(http.StatusBadRequest, "", MsgInvalidLogin, apierr.CodeInvalidCredentials)
	}
	token, err := sessions.Start(e.App, Sessions, rec, e.RealIP(), e.Request.UserAgent())
	if err != nil {
		return apierr.Log(e, http.StatusInternalServerError, "Failed to start the session.", err)
	}
	httpx.SetSession(e, token, int(rec.Collection().AuthToken.Duration))
	return e.JSON(http.StatusOK, map[string]Me{"user": meOf(rec)})
}

// findByEmail finds the HQ user of email in any case (an address's case is not part of it).
func findByEmail(app core.App, email string) (*core.Record, error) {
	var id string
	err := app.DB().NewQuery("SELECT [[id]] FROM {{" + Users + "}} WHERE [[email]] = {:e} COLLATE NOCASE ORDER BY [[email]] = {:e} DESC LIMIT 1").
		Bind(dbx.Params{"e": email}).Row(&id)
	if err != nil {
		return nil, err
	}
	return app.FindRecordById(Users, id)
}

// logout is POST /api/hq/auth/logout: this device's session ends (its row deleted, so the
// token is refused at once), the cookie is cleared. A guest's logout only clears the cookie.
func logout(e *core.RequestEvent) error {
	if e.Auth != nil && e.Auth.Collection().Name == Users {
		if sid, _ := sessionClaim(e); sid != "" {
			if _, err := e.App.DB().Delete(Sessions, dbx.HashExp{"id": sid, SessionUser: e.Auth.Id}).Execute(); err != nil {
				return apierr.Response(e, err)
			}
		}
	}
	httpx.ClearSession(e)
	return e.NoContent(http.StatusNoContent)
}

// me is GET /api/hq/me.
func me(e *core.RequestEvent) error {
	return e.JSON(http.StatusOK, map[string]Me{"user": meOf(e.Auth)})
}
