package inventory

import (
	"errors"
	"net/http"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Business error kinds. Services wrap them in *Refusal with the message the user sees;
// ToAPIError maps them to status codes in this one place (DESIGN.md §5).
var (
	// ErrNotEnough: a balance would go below zero (409).
	ErrNotEnough = errors.New("not enough batteries")
	// ErrConflict: the request conflicts with the current state (409).
	ErrConflict = errors.New("conflict")
	// ErrNotFound: the addressed record does not exist (404).
	ErrNotFound = errors.New("not found")
	// ErrInvalid: the input is invalid; Field names the offending field (400).
	ErrInvalid = errors.New("invalid input")
)

// Refusal is a business error with the message shown to the user.
type Refusal struct {
	Kind    error
	Message string
	Field   string // for ErrInvalid: the JSON field at fault
}

// Error returns the user-facing message.
func (r *Refusal) Error() string { return r.Message }

// Unwrap exposes the kind for errors.Is.
func (r *Refusal) Unwrap() error { return r.Kind }

// NotEnough returns an ErrNotEnough refusal with msg.
func NotEnough(msg string) error { return &Refusal{Kind: ErrNotEnough, Message: msg} }

// Conflict returns an ErrConflict refusal with msg.
func Conflict(msg string) error { return &Refusal{Kind: ErrConflict, Message: msg} }

// Invalid returns an ErrInvalid refusal naming field.
func Invalid(field, msg string) error {
	return &Refusal{Kind: ErrInvalid, Message: msg, Field: field}
}

func notFound(msg string) error { return &Refusal{Kind: ErrNotFound, Message: msg} }

// NotFound returns an ErrNotFound refusal with msg.
func NotFound(msg string) error { return notFound(msg) }

// ToAPIError turns a service error into the API error the client sees. Unknown errors become
// a 500 without leaking details (they are bugs, not bad input).
func ToAPIError(e *core.RequestEvent, err error) error {
	var r *Refusal
	if !errors.As(err, &r) {
		e.App.Logger().Error("ledger operation failed", "error", err, "path", e.Request.URL.Path)
		return e.InternalServerError("Something went wrong. Please try again.", nil)
	}
	status := http.StatusBadRequest
	switch {
	case errors.Is(r.Kind, ErrNotEnough), errors.Is(r.Kind, ErrConflict):
		status = http.StatusConflict
	case errors.Is(r.Kind, ErrNotFound):
		status = http.StatusNotFound
	}
	return apiError(status, r.Field, r.Message)
}

// FieldError is a 400 naming field, with message exactly as given (PocketBase's own
// constructors append a full stop; the spec's messages are used verbatim).
func FieldError(field, message string) error {
	return apiError(http.StatusBadRequest, field, message)
}

func apiError(status int, field, message string) error {
	apiErr := router.NewApiError(status, message, nil)
	apiErr.Message = message
	if field != "" {
		apiErr.Data = map[string]any{field: map[string]any{"code": "validation_invalid", "message": message}}
	}
	return apiErr
}
