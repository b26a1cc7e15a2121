package apierr

import (
	"encoding/json/v2"
	"errors"
	"net/http"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"

	"swapbay/lib/order"
)

// Stable error codes (DESIGN.md §5): every 4xx answer carries one in its JSON beside status,
// message and data, and clients decide by it, never by the message. docs/errors.md lists
// each with its status, when it is sent and what the driver app's outbox does with it; a test
// fails when a code used in the Go source is missing from that table.
const (
	// Kind defaults: a domain Error without a Code, or an ApiError without one, gets its
	// kind's (its status's) code.
	CodeValidationFailed     = "validation_failed"      // 400
	CodeNotSignedIn          = "not_signed_in"          // 401 without a session
	CodeSessionExpired       = "session_expired"        // 401 with a session that ended
	CodeForbidden            = "forbidden"              // 403
	CodeNotFound             = "not_found"              // 404
	CodeConflict             = "conflict"               // 409
	CodeNotEnough            = "not_enough_batteries"   // 409
	CodeTooLarge             = "too_large"              // 413
	CodeUnsupportedMediaType = "unsupported_media_type" // 415
	CodeTooManyRequests      = "too_many_requests"      // 429
	CodeInternal             = "internal_error"         // 500
	CodeUnavailable          = "unavailable"            // 503

	// Particular refusals.
	CodeOccurredInFuture     = "occurred_in_future"     // 400 occurredAt ahead of the server clock
	CodeTooOld               = "too_old"                // 400 occurredAt older than 7 days
	CodeInsufficientHoldings = "insufficient_holdings"  // 409 a holder gives more than they hold
	CodeNotEnoughReady       = "not_enough_ready"       // 409 fewer ready batteries than asked
	CodeNotEnoughWaiting     = "not_enough_waiting"     // 409 fewer waiting (dead) batteries than asked
	CodeAccountPending       = "account_pending"        // 403
	CodeAccountRejected      = "account_rejected"       // 403
	CodeAccountSuspended     = "account_suspended"      // 403
	CodeTermsResignRequired  = "terms_resign_required"  // 403
	CodeCrossSite            = "cross_site_refused"     // 403 Origin or Sec-Fetch-Site of another site
	CodeRouteClosed          = "route_closed"           // 403 PocketBase's own auth routes for app users
	CodeInvalidCredentials   = "invalid_credentials"    // 400 login
	CodeSignInCodeRequired   = "sign_in_code_required"  // 403 login: a code was emailed (many failures on the account)
	CodeInvalidSignInCode    = "invalid_sign_in_code"   // 400 login: the emailed code is wrong or expired
	CodeRegistrationClosed   = "registration_closed"    // 409
	CodeIdempotencyKeyReused = "idempotency_key_reused" // 409 the key came with another request
	CodeKeyExpired           = "key_expired"            // 409 the key is older than keys are kept
	CodeHoldsBatteries       = "holds_batteries"        // 409 deleting a user who holds batteries
	CodeNoActiveTerms        = "no_active_terms"        // 404
	CodePDFFailed            = "pdf_failed"             // 422
	CodeReplicaUnreachable   = "replica_unreachable"    // 422 the replica target did not answer or refused the credentials
	// The pack registry (DESIGN.md §14).
	CodePackUnknown     = "pack_unknown"     // 400 a serial no pack has (a scan of an unknown code)
	CodePackCount       = "pack_count"       // 400 packs named ≠ batteries counted, or one pack twice
	CodePackState       = "pack_state"       // 409 a state change the transition table refuses
	CodePackQuarantined = "pack_quarantined" // 409 a quarantined pack handed out
	CodePackRetired     = "pack_retired"     // 409 a retired or recycled pack handed out
	CodePackDuplicate   = "pack_duplicate"   // 409 a serial already registered (import)
	CodePackWorn        = "pack_worn"        // 409 a worn pack handed out while the worn mode is refuse (DESIGN.md §16)
	CodePackInTransit   = "pack_in_transit"  // 409 a pack sent to another city moved here (issue 45 item 6)
	// The raw-data door (issue 43, hooks/).
	CodeRawWriteRefused = "raw_write_refused" // 403 a write through PocketBase's record API or /_/ to data only the app writes
	CodeRestoreRefused  = "restore_refused"   // 403 PocketBase's own backup restore: restores go through `swapbay restore`
)

// defaultCode is the code of an error that names none: its status's.
func defaultCode(status int, signedIn bool) string {
	switch status {
	case http.StatusBadRequest:
		return CodeValidationFailed
	case http.StatusUnauthorized:
		if signedIn {
			return CodeSessionExpired
		}
		return CodeNotSignedIn
	case http.StatusForbidden:
		return CodeForbidden
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return CodeNotFound
	case http.StatusConflict:
		return CodeConflict
	case http.StatusRequestEntityTooLarge:
		return CodeTooLarge
	case http.StatusUnsupportedMediaType:
		return CodeUnsupportedMediaType
	case http.StatusTooManyRequests:
		return CodeTooManyRequests
	case http.StatusServiceUnavailable:
		return CodeUnavailable
	}
	if status >= 500 {
		return CodeInternal
	}
	return CodeValidationFailed
}

// kindCode is the code of a domain Error without its own.
func kindCode(de *Error) string {
	if de.Code != "" {
		return de.Code
	}
	if errors.Is(de, ErrNotEnough) {
		return CodeNotEnough
	}
	return defaultCode(Status(de), false)
}

// coded is the raw data of an ApiError built by NewCode: the code its answer carries.
type coded string

func (c coded) Error() string { return string(c) }

// NewCode is New with the stable code the answer carries (empty: the status's default).
func NewCode(status int, field, message, code string) *router.ApiError {
	apiErr := router.NewApiError(status, message, coded(code))
	apiErr.Message = message
	apiErr.Data = map[string]any{}
	if field != "" {
		apiErr.Data = map[string]any{field: map[string]any{"code": "validation_invalid", "message": message}}
	}
	return apiErr
}

// Unauthorized is the 401 of a guard: session_expired when the request carried a session
// (cookie or bearer token) that no longer signs anyone in, not_signed_in otherwise.
func Unauthorized(e *core.RequestEvent) *router.ApiError {
	return NewCode(http.StatusUnauthorized, "", "Unauthorized", unauthorizedCode(e))
}

func unauthorizedCode(e *core.RequestEvent) string {
	return defaultCode(http.StatusUnauthorized, e.Request.Header.Get("Authorization") != "")
}

// CodeOf returns the stable code of err as answered to e's request: a domain Error's own (or
// its kind's), an ApiError's from NewCode (or its status's).
func CodeOf(e *core.RequestEvent, err error) string {
	var apiErr *router.ApiError
	if errors.As(err, &apiErr) {
		if c, ok := apiErr.RawData().(coded); ok && c != "" {
			return string(c)
		}
		if apiErr.Status == http.StatusUnauthorized {
			return unauthorizedCode(e)
		}
		return defaultCode(apiErr.Status, false)
	}
	var de *Error
	if errors.As(err, &de) {
		return kindCode(de)
	}
	return defaultCode(router.ToApiError(err).Status, false)
}

// ErrorCodesId names the middleware that adds the code to every error answer.
const ErrorCodesId = "swapbayErrorCodes"

// answer is PocketBase's error JSON plus the stable code.
type answer struct {
	Code    string         `json:"code"`
	Data    map[string]any `json:"data"`
	Message string         `json:"message"`
	Status  int            `json:"status"`
}

// Codes writes every error a route or middleware returns as PocketBase's ErrorHandler would,
// {status, message, data}, plus its code (CodeOf). It runs just inside PocketBase's activity
// logger, outside its panic recovery, auth token loader, rate limiter and body limit, so their
// refusals gain a code too; the error is still returned, for the logger, and the router's own
// handler leaves the written answer alone.
func Codes() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       ErrorCodesId,
		Priority: order.ErrorCodes,
		Func: func(e *core.RequestEvent) error {
			err := e.Next()
			if err == nil {
				return nil
			}
			if wt, ok := e.Response.(router.WriteTracker); ok && wt.Written() {
				return err
			}
			apiErr := router.ToApiError(err)
			var de *Error
			if errors.As(err, &de) && !errors.As(err, new(*router.ApiError)) {
				apiErr = New(Status(de), de.Field, de.Message)
			}
			data := apiErr.Data
			if data == nil {
				data = map[string]any{}
			}
			h := e.Response.Header()
			if h.Get("Content-Type") == "" {
				h.Set("Content-Type", "application/json")
			}
			e.Response.WriteHeader(apiErr.Status)
			if e.Request.Method != http.MethodHead {
				_ = json.MarshalWrite(e.Response, answer{Code: CodeOf(e, err), Data: data, Message: apiErr.Message, Status: apiErr.Status}, json.Deterministic(true))
			}
			return err
		},
	}
}
