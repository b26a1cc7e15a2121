package setup_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"swapbay/internal/testkit"
)

// JSON answers over 1 KB are gzipped for clients that accept it; small ones and clients that
// do not are answered plain (DESIGN.md §10).
func TestJSONOver1KBIsGzipped(t *testing.T) {
	app := testkit.NewApp(t)
	defer app.Cleanup()
	c := testkit.SeedCallers(t, app)
	srv := testkit.Serve(t, app)

	get := func(path, accept string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		for k, v := range testkit.Headers(t, c.Pick("admin")) {
			req.Header.Set(k, v)
		}
		req.Header.Set("Accept-Encoding", accept) // set explicitly: Go's transport then does not decode
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}

	// /api/terms-content/active carries the whole contractor agreement: well over 1 KB
	res := get("/api/terms-content/active", "gzip")
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("large JSON: %d %v", res.StatusCode, res.Header)
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(zr)
	if len(body) < 1024 || body[0] != '{' {
		t.Fatalf("decoded body %d bytes: %.40q", len(body), body)
	}

	if res := get("/api/terms-content/active", "identity"); res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("identity client got %q", res.Header.Get("Content-Encoding"))
	}
	if res := get("/api/health", "gzip"); res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("small JSON compressed: %v", res.Header)
	}
}
