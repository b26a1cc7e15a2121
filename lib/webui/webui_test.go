package webui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

var build = fstest.MapFS{
	"index.html":                     {Data: []byte("<!doctype html><div id=root></div>")},
	"index.html.br":                  {Data: []byte("BR-INDEX")},
	"assets/app-abc123.js":           {Data: []byte("console.log('plain')")},
	"assets/app-abc123.js.br":        {Data: []byte("BR-JS")},
	"assets/app-abc123.js.gz":        {Data: []byte("GZ-JS")},
	"favicon.svg":                    {Data: []byte("<svg/>")},
	"sw.js":                          {Data: []byte("self.addEventListener('fetch',()=>{})")},
	"manifest.webmanifest":           {Data: []byte(`{"name":"SwapBay"}`)},
	"icons/icon-192.png":             {Data: []byte("PNG")},
	"assets/zxing_reader-x1.wasm":    {Data: []byte("\x00asm")},
	"assets/zxing_reader-x1.wasm.br": {Data: []byte("BR-WASM")},
}

func get(t *testing.T, s *Server, p string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, p, nil)
	req.SetPathValue("path", strings.TrimPrefix(p, "/"))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e := &core.RequestEvent{}
	e.Request, e.Response = req, rec
	if err := s.Handle(e); err != nil {
		var apiErr *router.ApiError
		if !asAPI(err, &apiErr) {
			t.Fatalf("%s: %v", p, err)
		}
		rec.Code = apiErr.Status
	}
	return rec
}

func asAPI(err error, out **router.ApiError) bool {
	a, ok := err.(*router.ApiError)
	*out = a
	return ok
}

func TestAssetsPrecompressedAndImmutable(t *testing.T) {
	s := New(build)
	cases := []struct{ accept, body, encoding string }{
		{"gzip, deflate, br", "BR-JS", "br"},
		{"gzip", "GZ-JS", "gzip"},
		{"br;q=0, gzip", "GZ-JS", "gzip"},
		{"", "console.log('plain')", ""},
	}
	for _, c := range cases {
		rec := get(t, s, "/assets/app-abc123.js", map[string]string{"Accept-Encoding": c.accept})
		if rec.Code != 200 || rec.Body.String() != c.body || rec.Header().Get("Content-Encoding") != c.encoding {
			t.Errorf("accept %q: %d %q enc %q", c.accept, rec.Code, rec.Body.String(), rec.Header().Get("Content-Encoding"))
		}
		if got := rec.Header().Get("Cache-Control"); got != CacheImmutable {
			t.Errorf("cache-control %q", got)
		}
		if rec.Header().Get("Vary") != "Accept-Encoding" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
			t.Errorf("headers %v", rec.Header())
		}
	}
}

func TestMissingAssetIs404(t *testing.T) {
	rec := get(t, New(build), "/assets/gone-123.js", nil)
	if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "<!doctype") {
		t.Fatalf("missing asset: %d %q", rec.Code, rec.Body.String())
	}
}

func TestIndexNoCacheWithETag(t *testing.T) {
	s := New(build)
	for _, p := range []string{"/", "/admin-users", "/deep/link"} {
		rec := get(t, s, p, nil)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "id=root") || rec.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d %v", p, rec.Code, rec.Header())
		}
		etag := rec.Header().Get("ETag")
		if etag == "" {
			t.Fatal("no ETag")
		}
		again := get(t, s, p, map[string]string{"If-None-Match": etag})
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Fatalf("%s revalidation: %d", p, again.Code)
		}
	}
	if rec := get(t, s, "/", map[string]string{"Accept-Encoding": "br"}); rec.Body.String() != "BR-INDEX" {
		t.Fatalf("index brotli: %q", rec.Body.String())
	}
	if rec := get(t, s, "/favicon.svg", nil); rec.Body.String() != "<svg/>" || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("favicon: %q %v", rec.Body.String(), rec.Header())
	}
	if rec := get(t, s, "/index.html.br", nil); !strings.Contains(rec.Body.String(), "id=root") {
		t.Fatalf("variant served directly: %q", rec.Body.String())
	}
}

func TestAcceptsEncoding(t *testing.T) {
	for h, want := range map[string]bool{"br": true, "gzip, br;q=0.5": true, "br;q=0": false, "gzip": false, "BR": true} {
		if acceptsEncoding(h, "br") != want {
			t.Errorf("%q", h)
		}
	}
}

// The installable app's files (DESIGN.md §12) are served as themselves, revalidated on every
// load (a new deploy's worker is found at once), with their types.
func TestServiceWorkerAndManifest(t *testing.T) {
	s := New(build)
	cases := []struct{ path, ctype string }{
		{"/sw.js", "text/javascript"},
		{"/manifest.webmanifest", "application/manifest+json"},
		{"/icons/icon-192.png", "image/png"},
	}
	for _, c := range cases {
		rec := get(t, s, c.path, nil)
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), c.ctype) {
			t.Errorf("%s: %d %q", c.path, rec.Code, rec.Header().Get("Content-Type"))
		}
		if cc := rec.Header().Get("Cache-Control"); cc != CacheRevalidate {
			t.Errorf("%s: Cache-Control %q, want %q", c.path, cc, CacheRevalidate)
		}
		if strings.Contains(rec.Body.String(), "<div id=root>") {
			t.Errorf("%s answered with index.html", c.path)
		}
	}
}

// The scanner's QR decoder is served as application/wasm (browsers compile it while it
// streams in only then), brotli-compressed when asked, immutable like every asset.
func TestWasmAsset(t *testing.T) {
	rec := get(t, New(build), "/assets/zxing_reader-x1.wasm", map[string]string{"Accept-Encoding": "br, gzip"})
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/wasm" || rec.Header().Get("Content-Encoding") != "br" || rec.Body.String() != "BR-WASM" {
		t.Fatalf("wasm: %d %q %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
}

// A live server reads its files on every request: a new build is served at once.
func TestLiveServesANewBuild(t *testing.T) {
	fsys := fstest.MapFS{"index.html": {Data: []byte("one")}, "sw.js": {Data: []byte("v1")}}
	s := NewLive(fsys)
	if got := get(t, s, "/sw.js", nil).Body.String(); got != "v1" {
		t.Fatalf("got %q", got)
	}
	fsys["sw.js"] = &fstest.MapFile{Data: []byte("v2")}
	if got := get(t, s, "/sw.js", nil).Body.String(); got != "v2" {
		t.Fatalf("after the new build: got %q", got)
	}
}
