package httpx

import (
	"net/http"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
)

// The handler skeleton every module's routes share (STYLE.md: bind → validate → call the
// service → JSON): Form binds the body before the handler runs, Reply answers what the
// service gave back, its error as an ApiError.

// Form adapts h, a handler of a JSON body, to a route: the request's body is decoded
// (reqx.Decode, at most reqx.DefaultBodyLimit) into a new F, and a body that does not decode
// is answered as its ApiError before h runs.
func Form[F any](h func(e *core.RequestEvent, f *F) error) func(*core.RequestEvent) error {
	return FormUpTo(0, h)
}

// FormUpTo is Form for a body of at most limit bytes.
func FormUpTo[F any](limit int64, h func(e *core.RequestEvent, f *F) error) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		var f F
		if err := reqx.Decode(e, &f, limit); err != nil {
			return apierr.Response(e, err)
		}
		return h(e, &f)
	}
}

// Reply answers 200 with v, or err as its ApiError (apierr.Response) when the service failed.
// v is built before err is known: it must not read a result that is nil on failure.
func Reply(e *core.RequestEvent, v any, err error) error {
	if err != nil {
		return apierr.Response(e, err)
	}
	return e.JSON(http.StatusOK, v)
}

// Succeeded is the body of a successful mutation: {success: true, message, stats} plus
// fields (Success).
func Succeeded(message string, stats any, fields map[string]any) map[string]any {
	body := map[string]any{"success": true, "message": message, "stats": stats}
	for k, v := range fields {
		body[k] = v
	}
	return body
}
