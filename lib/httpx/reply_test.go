package httpx

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"swapbay/lib/apierr"
	"swapbay/lib/reqx"
)

// event is a POST request event with body, answered into the returned recorder.
func event(body string) (*core.RequestEvent, *httptest.ResponseRecorder) {
	rec := httptest.NewRecorder()
	e := &core.RequestEvent{}
	e.Request = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	e.Request.Header.Set("Content-Type", "application/json")
	e.Response = rec
	return e, rec
}

type countForm struct {
	Count reqx.Int `json:"count"`
}

// TestFormAndReply: Form decodes the body before the handler runs and answers a body that
// does not decode itself; Reply answers the value, or the error as its ApiError.
func TestFormAndReply(t *testing.T) {
	refused := apierr.Conflict("no")
	for _, c := range []struct {
		name, body string
		err        error
		wantRun    bool
		wantStatus int
		wantBody   string
	}{
		{"decoded", `{"count": 3}`, nil, true, http.StatusOK, `{"count":3}`},
		{"malformed body", `{"count":`, nil, false, http.StatusBadRequest, ""},
		{"too large", `{"count": 3, "pad": "` + strings.Repeat("x", reqx.DefaultBodyLimit) + `"}`, nil, false, http.StatusRequestEntityTooLarge, ""},
		{"service refused", `{"count": 3}`, refused, true, http.StatusConflict, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ran := false
			h := Form(func(e *core.RequestEvent, f *countForm) error {
				ran = true
				return Reply(e, map[string]int{"count": f.Count.Or(0)}, c.err)
			})
			e, rec := event(c.body)
			err := h(e)
			if ran != c.wantRun {
				t.Fatalf("handler ran = %v, want %v", ran, c.wantRun)
			}
			apiErr, isApiErr := err.(*router.ApiError)
			switch {
			case c.wantStatus == http.StatusOK:
				if err != nil || rec.Code != http.StatusOK || strings.TrimSpace(rec.Body.String()) != c.wantBody {
					t.Fatalf("answer = %v %d %s, want 200 %s", err, rec.Code, rec.Body, c.wantBody)
				}
			case !isApiErr || apiErr.Status != c.wantStatus:
				t.Fatalf("error = %#v, want an ApiError %d", err, c.wantStatus)
			}
		})
	}
}

// TestSucceeded: a mutation's body carries success, message and stats beside its fields.
func TestSucceeded(t *testing.T) {
	body := Succeeded("Done", 7, map[string]any{"movement": nil})
	if len(body) != 4 || body["success"] != true || body["message"] != "Done" || body["stats"] != 7 {
		t.Fatalf("Succeeded = %v", body)
	}
}
