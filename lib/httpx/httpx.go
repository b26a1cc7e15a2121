// Package httpx holds the request plumbing every SwapBay module shares: the cookie session,
// the cross-site check, the role guards, the handler skeleton (reply.go: the body decoded with
// lib/reqx, errors answered with lib/apierr) and the success answer of ledger mutations.
// It is a leaf package: modules import it, it imports no module.
package httpx

import (
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/apierr"
	"swapbay/lib/order"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
)

// SessionCookie is the HttpOnly cookie that carries the PocketBase auth token (DESIGN.md §5).
const SessionCookie = "swapbay_session"

// Middleware ids, so tests and other modules can find or unbind them.
const (
	CookieSessionId = "swapbayCookieSession"
	SameOriginId    = "swapbaySameOrigin"
	RequireUserId   = "swapbayRequireUser"
	ApprovedId      = "swapbayRequireApproved"
	RolesId         = "swapbayRequireRoles"
)

// CookieSession copies the session cookie into the Authorization header before PocketBase's
// own token loader runs, so cookie and bearer sessions are handled by one code path.
func CookieSession() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       CookieSessionId,
		Priority: order.CookieSession,
		Func: func(e *core.RequestEvent) error {
			if e.Request.Header.Get("Authorization") == "" {
				if c, err := e.Request.Cookie(SessionCookie); err == nil && c.Value != "" {
					e.Request.Header.Set("Authorization", c.Value)
				}
			}
			return e.Next()
		},
	}
}

// SetSession writes the session cookie for token (Secure when the request came over TLS).
func SetSession(e *core.RequestEvent, token string, maxAgeSeconds int) {
	e.SetCookie(&http.Cookie{
		Name:     SessionCookie,
		Value:    token,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
		Secure:   e.IsTLS() || strings.EqualFold(e.Request.Header.Get("X-Forwarded-Proto"), "https"),
		MaxAge:   maxAgeSeconds,
	})
}

// ClearSession removes the session cookie.
func ClearSession(e *core.RequestEvent) { SetSession(e, "", -1) }

// SameOrigin refuses state-changing requests whose Origin (or Sec-Fetch-Site) says they come
// from another site. Requests without either header (curl, server-to-server) pass.
func SameOrigin() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       SameOriginId,
		Priority: order.SameOrigin,
		Func: func(e *core.RequestEvent) error {
			switch e.Request.Method {
			case http.MethodGet, http.MethodHead, http.MethodOptions:
				return e.Next()
			}
			if e.Request.Header.Get("Sec-Fetch-Site") == "cross-site" {
				return apierr.NewCode(http.StatusForbidden, "", "Cross-site request refused.", apierr.CodeCrossSite)
			}
			if origin := e.Request.Header.Get("Origin"); origin != "" && !SameOriginURL(origin, e.Request) {
				return apierr.NewCode(http.StatusForbidden, "", "Cross-site request refused.", apierr.CodeCrossSite)
			}
			return e.Next()
		},
	}
}

// IsAppUser reports whether the request is signed in as a SwapBay user (not a superuser).
func IsAppUser(e *core.RequestEvent) bool {
	return e.Auth != nil && e.Auth.Collection().Name == schema.Users
}

// RequireUser answers 401 unless a SwapBay user is signed in.
func RequireUser() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id: RequireUserId,
		Func: func(e *core.RequestEvent) error {
			if !IsAppUser(e) {
				return apierr.Unauthorized(e)
			}
			return e.Next()
		},
	}
}

// MsgResignTerms is the 403 message for an approved user an admin asked to sign the terms again
// (mustResignTerms): only the auth routes, which use RequireUser, stay open to them.
const MsgResignTerms = "Terms re-signing required"

// Blocked answers 403 for a signed-in user who is not approved, or who must sign the terms
// again, and nil otherwise (what RequireApproved refuses, for a route open to more callers).
func Blocked(e *core.RequestEvent) error {
	if state := e.Auth.GetString(schema.UserIsApproved); state != roles.Approved {
		return apierr.NewCode(http.StatusForbidden, "", roles.BlockedMessage(state), blockedCode(state))
	}
	if e.Auth.GetBool(schema.UserMustResignTerms) {
		return apierr.NewCode(http.StatusForbidden, "", MsgResignTerms, apierr.CodeTermsResignRequired)
	}
	return nil
}

// blockedCode is the code of refuseBlocked's 403 for an account in state approval.
func blockedCode(approval string) string {
	switch approval {
	case roles.Rejected:
		return apierr.CodeAccountRejected
	case roles.Suspended:
		return apierr.CodeAccountSuspended
	}
	return apierr.CodeAccountPending
}

// RequireApproved answers 401 for guests, 403 "Account pending approval" (or the user's own
// state) for signed-in users who are not approved and 403 MsgResignTerms for approved users
// who must sign the terms again.
func RequireApproved() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id: ApprovedId,
		Func: func(e *core.RequestEvent) error {
			if err := refuseUnapproved(e); err != nil {
				return err
			}
			return e.Next()
		},
	}
}

// refuseUnapproved answers 401 for guests and Blocked's 403 for users who are not approved.
func refuseUnapproved(e *core.RequestEvent) error {
	if !IsAppUser(e) {
		return apierr.Unauthorized(e)
	}
	return Blocked(e)
}

// RequireRoles answers like RequireApproved, then 403 unless the caller has one of allowed.
func RequireRoles(allowed ...string) *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id: RolesId,
		Func: func(e *core.RequestEvent) error {
			if err := refuseUnapproved(e); err != nil {
				return err
			}
			role := e.Auth.GetString(schema.UserRole)
			for _, r := range allowed {
				if r == role {
					return e.Next()
				}
			}
			return apierr.New(http.StatusForbidden, "", "You do not have permission to do this.")
		},
	}
}

// RequireAdmin allows admin and master_admin.
func RequireAdmin() *hook.Handler[*core.RequestEvent] {
	return RequireRoles(roles.Admin, roles.MasterAdmin)
}

// Success answers 200 with {success: true, message, stats} plus fields, the shape of every
// successful ledger mutation. stats must be read inside the mutation's transaction (see
// inventory.Op.Stats), so the answer cannot fail once the change is committed.
func Success(e *core.RequestEvent, message string, stats any, fields map[string]any) error {
	return e.JSON(http.StatusOK, Succeeded(message, stats, fields))
}

// APINotFound answers unknown /api/* GET paths with a JSON 404 instead of the SPA's index.html.
func APINotFound(e *core.RequestEvent) error {
	return apierr.New(http.StatusNotFound, "", "The requested resource wasn't found.")
}
