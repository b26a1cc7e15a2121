package webui

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// through runs ETagJSON around handler for one request and returns what the client got and
// the error the chain returned.
func through(t *testing.T, method, path string, hdr map[string]string, handler func(e *core.RequestEvent) error) (*httptest.ResponseRecorder, error) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e := &core.RequestEvent{}
	e.Request, e.Response = req, rec
	var chain hook.Hook[*core.RequestEvent]
	chain.Bind(ETagJSON())
	err := chain.Trigger(e, handler)
	return rec, err
}

func jsonAnswer(body string) func(e *core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		e.Response.Header().Set("Content-Type", "application/json")
		e.Response.WriteHeader(http.StatusOK)
		_, err := e.Response.Write([]byte(body))
		return err
	}
}

func TestETagJSONRevalidates(t *testing.T) {
	first, err := through(t, "GET", "/api/state", nil, jsonAnswer(`{"n":1}`))
	if err != nil || first.Code != 200 || first.Body.String() != `{"n":1}` {
		t.Fatalf("first: %d %q %v", first.Code, first.Body, err)
	}
	etag := first.Header().Get("ETag")
	if !strings.HasPrefix(etag, `W/"`) || first.Header().Get("Cache-Control") != CachePrivateRevalidate {
		t.Fatalf("headers %v", first.Header())
	}
	// the same answer: 304, no body
	same, _ := through(t, "GET", "/api/state", map[string]string{"If-None-Match": etag}, jsonAnswer(`{"n":1}`))
	if same.Code != http.StatusNotModified || same.Body.Len() != 0 || same.Header().Get("ETag") != etag {
		t.Fatalf("same: %d %q %v", same.Code, same.Body, same.Header())
	}
	// a changed answer: 200 with its new tag
	changed, _ := through(t, "GET", "/api/state", map[string]string{"If-None-Match": etag}, jsonAnswer(`{"n":2}`))
	if changed.Code != 200 || changed.Body.String() != `{"n":2}` || changed.Header().Get("ETag") == etag {
		t.Fatalf("changed: %d %q %v", changed.Code, changed.Body, changed.Header())
	}
}

func TestETagJSONLeavesOtherAnswersAlone(t *testing.T) {
	streamed := func(e *core.RequestEvent) error {
		e.Response.Header().Set("Content-Type", "application/json")
		_, _ = e.Response.Write([]byte(`{"part":1}`))
		return e.Flush()
	}
	big := `"` + strings.Repeat("x", MaxETagJSONBytes) + `"`
	cases := []struct {
		name, method, path string
		handler            func(e *core.RequestEvent) error
		code               int
		body, cache        string
		err                bool
	}{
		{"no-store is kept", "GET", "/api/admin/all-earnings", func(e *core.RequestEvent) error {
			e.Response.Header().Set("Cache-Control", "no-store")
			return jsonAnswer(`{"pay":1}`)(e)
		}, 200, `{"pay":1}`, "no-store", false},
		{"not JSON", "GET", "/api/photos/x/image", func(e *core.RequestEvent) error {
			e.Response.Header().Set("Content-Type", "image/jpeg")
			_, err := e.Response.Write([]byte("JPEG"))
			return err
		}, 200, "JPEG", "", false},
		{"a refusal", "GET", "/api/admin/users", func(e *core.RequestEvent) error {
			e.Response.Header().Set("Content-Type", "application/json")
			e.Response.WriteHeader(http.StatusForbidden)
			_, err := e.Response.Write([]byte(`{"status":403}`))
			return err
		}, 403, `{"status":403}`, "", false},
		{"an error returned", "GET", "/api/state", func(e *core.RequestEvent) error { return errors.New("boom") }, 200, "", "", true},
		{"a write", "POST", "/api/driver/pickup", jsonAnswer(`{"ok":true}`), 200, `{"ok":true}`, "", false},
		{"outside /api/", "GET", "/health", jsonAnswer(`{}`), 200, `{}`, "", false},
		{"a stream that flushes", "GET", "/api/stream", streamed, 200, `{"part":1}`, "", false},
		{"over the bound", "GET", "/api/big", jsonAnswer(big), 200, big, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := through(t, tc.method, tc.path, nil, tc.handler)
			if (err != nil) != tc.err || rec.Code != tc.code || rec.Body.String() != tc.body {
				t.Fatalf("got %d %.40q err %v", rec.Code, rec.Body, err)
			}
			if rec.Header().Get("ETag") != "" || rec.Header().Get("Cache-Control") != tc.cache {
				t.Fatalf("headers %v", rec.Header())
			}
		})
	}
}

// TestServeJSONKeepsItsOwnTag: an answer that brings its tag (a cached answer hashed once)
// passes ETagJSON untouched, and the tag gets a 304 from it as from the middleware.
func TestServeJSONKeepsItsOwnTag(t *testing.T) {
	body := []byte(`{"cached":true}`)
	etag := JSONETag(body)
	serve := func(e *core.RequestEvent) error { return ServeJSON(e, body, etag) }
	first, err := through(t, "GET", "/api/state", nil, serve)
	if err != nil || first.Code != 200 || first.Body.String() != string(body) || first.Header().Get("ETag") != etag ||
		first.Header().Get("Cache-Control") != CachePrivateRevalidate {
		t.Fatalf("first: %d %q %v %v", first.Code, first.Body, first.Header(), err)
	}
	// the middleware would have given the same tag
	plain, _ := through(t, "GET", "/api/state", nil, jsonAnswer(string(body)))
	if plain.Header().Get("ETag") != etag {
		t.Fatalf("tags differ: %s and %s", plain.Header().Get("ETag"), etag)
	}
	again, _ := through(t, "GET", "/api/state", map[string]string{"If-None-Match": etag}, serve)
	if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Fatalf("again: %d %q", again.Code, again.Body)
	}
}
