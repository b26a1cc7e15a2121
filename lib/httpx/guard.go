package httpx

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/security"

	"swapbay/lib/apierr"
	"swapbay/lib/order"
	"swapbay/lib/schema"
)

// Middleware ids of the guards in this file.
const (
	LiveSessionId     = "swapbayLiveSession"
	SecurityHeadersId = "swapbaySecurityHeaders"
	SideDoorsId       = "swapbayClosedAuthRoutes"
)

// SessionId returns the session id carried by the request's auth token ("" when none).
func SessionId(e *core.RequestEvent) string {
	token := e.Request.Header.Get("Authorization")
	if len(token) > 7 && strings.EqualFold(token[:7], "Bearer ") {
		token = token[7:]
	}
	if token == "" {
		return ""
	}
	claims, err := security.ParseUnverifiedJWT(token)
	if err != nil {
		return ""
	}
	sid, _ := claims[schema.SessionClaim].(string)
	return sid
}

// LiveSession runs right after PocketBase loads the auth token: an app user's token must name
// a session that still exists (DESIGN.md §5 "Sessions are revocable"); otherwise the request
// goes on as a guest, so every guard answers 401 and /ws refuses the upgrade. Tokens without
// a session id (PocketBase's own auth routes, which are closed for app users) count as gone.
func LiveSession() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       LiveSessionId,
		Priority: order.LiveSession,
		Func: func(e *core.RequestEvent) error {
			if IsAppUser(e) && !SessionAlive(e.App, SessionId(e), e.Auth.Id) {
				e.Auth = nil
			}
			return e.Next()
		},
	}
}

// SessionAlive reports whether session sid exists and belongs to userId.
func SessionAlive(app core.App, sid, userId string) bool {
	if sid == "" {
		return false
	}
	var owner string
	err := app.DB().Select(schema.AuthSessionUser).From(schema.AuthSessions).
		Where(dbx.HashExp{"id": sid}).Limit(1).Row(&owner)
	return err == nil && owner == userId
}

// closedAuthRoute matches PocketBase's own auth routes that could mint, refresh or recover a
// session outside /api/login: app users sign in only through SwapBay's routes.
var closedAuthRoute = regexp.MustCompile(`^/api/collections/([^/]+)/(auth-refresh|auth-with-password|auth-with-otp|auth-with-oauth2|request-otp|request-verification|confirm-verification|request-email-change|confirm-email-change|request-password-reset|confirm-password-reset|impersonate/[^/]+)$`)

// MsgClosedAuthRoute answers a closed PocketBase auth route.
const MsgClosedAuthRoute = "This sign-in route is not available. Sign in through the app."

// SideDoors closes PocketBase's own auth routes for the users collection (by name or id), so
// they cannot mint or revive a session (DESIGN.md §5). Superusers keep theirs.
func SideDoors() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       SideDoorsId,
		Priority: order.SideDoors,
		Func: func(e *core.RequestEvent) error {
			if !strings.HasPrefix(e.Request.URL.Path, "/api/collections/") {
				return e.Next() // the pattern's prefix: most requests never run the regexp
			}
			m := closedAuthRoute.FindStringSubmatch(e.Request.URL.Path)
			if m == nil {
				return e.Next()
			}
			col, err := e.App.FindCachedCollectionByNameOrId(m[1])
			if err == nil && col.Name == schema.Users {
				return apierr.NewCode(http.StatusForbidden, "", MsgClosedAuthRoute, apierr.CodeRouteClosed)
			}
			return e.Next()
		},
	}
}

// ContentSecurityPolicy is sent with every SwapBay page: scripts only from this origin (and
// index.html's boot script, by its hash bootScriptHash, "sha256-…"; none when empty), images
// also as data: and blob: URLs (signatures, photo previews), the camera stream as media, the
// service worker and the web app manifest from this origin (DESIGN.md §12), no framing. Radix
// positions popovers with inline style attributes, hence style-src 'unsafe-inline'. The pack
// scanner's QR decoder is WebAssembly (zxing-wasm, served from this origin; DESIGN.md §14), which
// a browser compiles only under 'wasm-unsafe-eval' — it allows WebAssembly compilation and
// nothing else ('unsafe-eval', JavaScript's eval, stays refused).
func ContentSecurityPolicy(bootScriptHash string) string {
	scripts := "'self' 'wasm-unsafe-eval'"
	if bootScriptHash != "" {
		scripts += " '" + bootScriptHash + "'"
	}
	return "default-src 'self'; script-src " + scripts + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; media-src 'self' blob: mediastream:; connect-src 'self'; font-src 'self' data:; " +
		"worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
}

// SecurityHeaders sets DESIGN.md §5's headers on every answer: the CSP (except on /_/, the
// PocketBase dashboard, which brings its own), Referrer-Policy same-origin,
// Permissions-Policy allowing the camera on this origin only, and HSTS when the request came
// over https.
//
// bootScriptHash is the CSP hash of index.html's one inline script, computed when the UI is
// built (ui/build/boot-script.ts writes it beside the dist; ui.BootScriptHash reads it).
func SecurityHeaders(bootScriptHash string) *hook.Handler[*core.RequestEvent] {
	csp := ContentSecurityPolicy(bootScriptHash)
	return &hook.Handler[*core.RequestEvent]{
		Id:       SecurityHeadersId,
		Priority: order.SecurityHeaders,
		Func: func(e *core.RequestEvent) error {
			h := e.Response.Header()
			if !strings.HasPrefix(e.Request.URL.Path, "/_/") {
				h.Set("Content-Security-Policy", csp)
			}
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=()")
			h.Set("X-Content-Type-Options", "nosniff")
			if RequestScheme(e.Request) == "https" {
				h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
			}
			return e.Next()
		},
	}
}

// RequestScheme is "https" when the request came over TLS or through a proxy that says so
// (X-Forwarded-Proto), else "http".
func RequestScheme(r *http.Request) string {
	if r.TLS != nil || strings.EqualFold(strings.TrimSpace(strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")[0]), "https") {
		return "https"
	}
	return "http"
}

// SameOriginURL reports whether origin (an Origin header) names this server: same scheme and
// same host (with port) as the request.
func SameOriginURL(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Scheme, RequestScheme(r)) && strings.EqualFold(u.Host, r.Host)
}
