// Package order is the order of SwapBay's request middlewares, in one place: PocketBase runs
// a router's middlewares by Priority, lowest first, its own among them
// (apis.Default…MiddlewarePriority). Every SwapBay middleware takes its Priority from here, so
// the constants below read top to bottom as a request meets them, PocketBase's own in the
// comments between. It is a leaf package.
package order

import "github.com/pocketbase/pocketbase/apis"

const (
	// (PocketBase: CORS, then the activity logger, at DefaultActivityLoggerMiddlewarePriority.)

	// ErrorCodes writes every error answer with its stable code (lib/apierr.Codes): just inside
	// the activity logger, so it sees the errors of everything after it.
	ErrorCodes = apis.DefaultActivityLoggerMiddlewarePriority + 1

	// (PocketBase: panic recovery, at DefaultPanicRecoverMiddlewarePriority.)

	// GzipJSON compresses JSON answers (lib/webui).
	GzipJSON = apis.DefaultPanicRecoverMiddlewarePriority + 2
	// ETagJSON revalidates JSON answers by ETag (lib/webui), just inside GzipJSON: it hashes
	// the JSON itself.
	ETagJSON = apis.DefaultPanicRecoverMiddlewarePriority + 3

	// SideDoors closes PocketBase's own auth routes for app users (lib/httpx).
	SideDoors = apis.DefaultLoadAuthTokenMiddlewarePriority - 3
	// SameOrigin refuses state-changing requests from another site (lib/httpx).
	SameOrigin = apis.DefaultLoadAuthTokenMiddlewarePriority - 2
	// CookieSession copies the session cookie into the Authorization header (lib/httpx),
	// right before PocketBase loads the token.
	CookieSession = apis.DefaultLoadAuthTokenMiddlewarePriority - 1

	// (PocketBase: the auth token is loaded, at DefaultLoadAuthTokenMiddlewarePriority.)

	// LiveSession refuses a token whose session ended (lib/httpx), right after it is loaded.
	LiveSession = apis.DefaultLoadAuthTokenMiddlewarePriority + 1
	// HeadOfficeToken turns a head-office token into its issuer's rights, narrowed to the
	// token's routes (modules/headoffice), right after the session check.
	HeadOfficeToken = apis.DefaultLoadAuthTokenMiddlewarePriority + 2

	// (PocketBase: the superuser IP whitelist, then its security headers, at
	// DefaultSecurityHeadersMiddlewarePriority.)

	// SecurityHeaders sets SwapBay's page headers (lib/httpx), over PocketBase's.
	SecurityHeaders = apis.DefaultSecurityHeadersMiddlewarePriority + 1
	// RawDoors refuses PocketBase's own routes that would bypass SwapBay's record guards: a
	// collection's truncate and the backup restore (hooks/, issue 43).
	RawDoors = apis.DefaultSecurityHeadersMiddlewarePriority + 2

	// (PocketBase: the rate limiter, then the body limit. Then the route guards bound on
	// groups and routes — httpx.RequireUser, RequireRoles… — at priority 0.)

	// IdempotencyPolicy is a route's idempotency.Keyed / Grouped / Skip mark, read by the
	// idempotency middleware right after it.
	IdempotencyPolicy = Idempotency - 1
	// Idempotency answers a keyed request once (lib/idempotency): after the route's guards,
	// so a replay is answered only to a caller whose rights still allow the route; right
	// before the route's action.
	Idempotency = 500
)
