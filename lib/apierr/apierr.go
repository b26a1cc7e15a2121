// Package apierr is SwapBay's one error system (DESIGN.md §5). Services return domain errors
// built here (Invalid, NotFound, Conflict, NotEnough, Forbidden, TooLarge, Unsupported), each
// carrying the exact message the user sees; handlers hand any error to Response, the one place
// where errors become status codes. Messages are kept verbatim: no full stop is added.
//
// It is a leaf package: it imports no SwapBay package.
package apierr

import (
	"errors"
	"net/http"
	"strings"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Kinds of domain error. Test with errors.Is; map to a status with Status.
var (
	ErrInvalid     = errors.New("invalid input")          // 400, Field names the JSON field
	ErrNotFound    = errors.New("not found")              // 404
	ErrConflict    = errors.New("conflict")               // 409
	ErrNotEnough   = errors.New("not enough batteries")   // 409
	ErrForbidden   = errors.New("forbidden")              // 403
	ErrTooLarge    = errors.New("too large")              // 413
	ErrUnsupported = errors.New("unsupported media type") // 415
	ErrUnavailable = errors.New("unavailable")            // 503 (e.g. disk full): not the caller's fault
)

// Error is a domain error: a kind, the message shown to the user, for ErrInvalid the JSON
// field at fault, and the stable code clients decide by (DESIGN.md §5; empty: the kind's
// default code).
type Error struct {
	Kind    error
	Message string
	Field   string
	Code    string
	// Packs are the packs a pack refusal names, answered as data.packs (DESIGN.md §14):
	// clients mark each refused serial from it and never parse Message.
	Packs []PackRefusal
}

// PackRefusal is one refused pack of a refusal: its serial, its own code and message.
type PackRefusal struct {
	Serial  string `json:"serial"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error returns the user-facing message.
func (e *Error) Error() string { return e.Message }

// Unwrap exposes the kind for errors.Is.
func (e *Error) Unwrap() error { return e.Kind }

// Invalid is a 400 naming field.
func Invalid(field, msg string) error { return &Error{Kind: ErrInvalid, Message: msg, Field: field} }

// NotFound is a 404.
func NotFound(msg string) error { return &Error{Kind: ErrNotFound, Message: msg} }

// Conflict is a 409 for a request that conflicts with the current state.
func Conflict(msg string) error { return &Error{Kind: ErrConflict, Message: msg} }

// NotEnough is a 409 for a balance that would go below zero.
func NotEnough(msg string) error { return &Error{Kind: ErrNotEnough, Message: msg} }

// Forbidden is a 403 for a caller the rules do not allow.
func Forbidden(msg string) error { return &Error{Kind: ErrForbidden, Message: msg} }

// TooLarge is a 413.
func TooLarge(msg string) error { return &Error{Kind: ErrTooLarge, Message: msg} }

// Unsupported is a 415.
func Unsupported(msg string) error { return &Error{Kind: ErrUnsupported, Message: msg} }

// Unavailable is a 503 for a server-side condition the caller can retry later.
func Unavailable(msg string) error { return &Error{Kind: ErrUnavailable, Message: msg} }

// Status returns the HTTP status of err: its domain kind's, an ApiError's own, 400 for
// validation.Errors, else 500.
func Status(err error) int {
	var apiErr *router.ApiError
	if errors.As(err, &apiErr) {
		return apiErr.Status
	}
	var fields validation.Errors
	if errors.As(err, &fields) {
		return http.StatusBadRequest
	}
	switch {
	case errors.Is(err, ErrInvalid):
		return http.StatusBadRequest
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, ErrConflict), errors.Is(err, ErrNotEnough):
		return http.StatusConflict
	case errors.Is(err, ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrUnsupported):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, ErrUnavailable):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// MsgDiskFull answers a write the server could not store for lack of disk space: nothing
// was saved (the transaction rolled back), and the same request can be sent again later.
const MsgDiskFull = "The server is out of storage space, so nothing was saved. Please try again in a few minutes."

// IsDiskFull reports whether err is SQLite's "database or disk is full" (SQLITE_FULL) or the
// operating system's "no space left on device".
func IsDiskFull(err error) bool {
	if err == nil {
		return false
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "no space left on device") ||
		strings.Contains(msg, "sqlite_full")
}

// MsgInternal is the message of an unexpected failure (a bug, never bad input).
const MsgInternal = "Something went wrong. Please try again."

// Response turns any error into the API error the client sees: an ApiError passes through,
// a domain Error keeps its message and field, validation.Errors (a record save) become a 400
// with their fields, and anything else is logged and answered 500 without details.
func Response(e *core.RequestEvent, err error) error {
	if err == nil {
		return nil
	}
	var apiErr *router.ApiError
	if errors.As(err, &apiErr) {
		return apiErr
	}
	var de *Error
	if errors.As(err, &de) {
		apiErr := NewCode(Status(de), de.Field, de.Message, kindCode(de))
		if len(de.Packs) > 0 {
			apiErr.Data["packs"] = de.Packs // the list names the packs (for the field packs too)
		}
		return apiErr
	}
	var fields validation.Errors
	if errors.As(err, &fields) {
		return router.NewBadRequestError("Invalid data.", fields)
	}
	if IsDiskFull(err) {
		e.App.Logger().Error("request failed: out of disk space", "error", err, "path", e.Request.URL.Path)
		return NewCode(http.StatusServiceUnavailable, "", MsgDiskFull, CodeUnavailable)
	}
	e.App.Logger().Error("request failed", "error", err, "method", e.Request.Method, "path", e.Request.URL.Path)
	return New(http.StatusInternalServerError, "", MsgInternal)
}

// Log is New for a failure with a cause: the cause goes to the app's log with the request's
// path, the caller gets message only.
func Log(e *core.RequestEvent, status int, message string, cause error) *router.ApiError {
	if cause != nil {
		e.App.Logger().Error(message, "error", cause.Error(), "method", e.Request.Method, "path", e.Request.URL.Path)
	}
	return New(status, "", message)
}

// New builds an ApiError with message exactly as given (PocketBase's constructors append a
// full stop) and, when field is set, data naming the field as PocketBase does. Its answer
// carries the status's default code (NewCode names another).
func New(status int, field, message string) *router.ApiError {
	return NewCode(status, field, message, "")
}

// NotEnoughOf is NotEnough with a particular code (CodeNotEnoughReady, …).
func NotEnoughOf(code, msg string) error {
	return &Error{Kind: ErrNotEnough, Message: msg, Code: code}
}
