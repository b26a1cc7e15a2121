// Package webui serves the embedded React build (DESIGN.md §10): hashed files under /assets/
// precompressed at build time (brotli and gzip, chosen by Accept-Encoding, with Vary) and
// cached for a year as immutable; index.html for every other path (deep links) with no-cache
// and an ETag, so a repeat visit revalidates one small file and loads no script; a missing
// /assets/ file is a 404, never index.html (a stale tab must not run HTML as a script).
// It also gzips JSON answers over 1 KB and gives GET /api/ JSON answers an ETag, so a poll
// that finds nothing changed is a 304 without a body (etag.go).
//
// It is a leaf package: it imports no SwapBay package.
package webui

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/apierr"
	"swapbay/lib/order"
)

// Cache-Control values.
const (
	CacheImmutable   = "public, max-age=31536000, immutable"
	CacheRevalidate  = "no-cache"
	AssetsPrefix     = "assets/"
	indexPage        = "index.html"
	MinGzipJSONBytes = 1024
)

// documentOnlyHeaders are set by PocketBase's middlewares for every answer but apply only to
// documents, not to the scripts and stylesheets they load.
var documentOnlyHeaders = []string{"X-Frame-Options", "X-Xss-Protection", "Cross-Origin-Opener-Policy",
	"Content-Security-Policy", "Permissions-Policy", "Referrer-Policy"}

// encodings in order of preference, with the suffix of their precompressed file.
var encodings = []struct{ name, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// file is one servable variant, read once from the embedded FS.
type file struct {
	body []byte
	etag string
}

// Server serves the files of one build.
type Server struct {
	fsys  fs.FS
	live  bool // read every file on each request (NewLive)
	mu    sync.Mutex
	cache map[string]*file // name → variant; nil entry: known missing
}

// The installable app's files (DESIGN.md §12): Go's own table has no .webmanifest, and the
// system's mime.types may lack it or differ between machines. The scanner's QR decoder
// (DESIGN.md §14) is compiled while it streams in only when it is served as application/wasm.
func init() {
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
	_ = mime.AddExtensionType(".wasm", "application/wasm")
}

// New returns a Server for the build in fsys (rooted at dist/).
func New(fsys fs.FS) *Server { return &Server{fsys: fsys, cache: map[string]*file{}} }

// NewLive returns a Server that reads fsys on every request, so a build copied over the
// directory is served at once (tests deploy a new version this way).
func NewLive(fsys fs.FS) *Server { return &Server{fsys: fsys, live: true, cache: map[string]*file{}} }

// load returns the named file, or nil when it does not exist (or is a directory).
func (s *Server) load(name string) *file {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.cache[name]; ok && !s.live {
		return f
	}
	var f *file
	if b, err := fs.ReadFile(s.fsys, name); err == nil {
		sum := sha256.Sum256(b)
		f = &file{body: b, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	}
	s.cache[name] = f
	return f
}

// Handle is the GET /{path...} route: assets, other build files, else index.html.
func (s *Server) Handle(e *core.RequestEvent) error {
	name := strings.TrimPrefix(path.Clean("/"+e.Request.PathValue(apis.StaticWildcardParam)), "/")
	switch {
	case strings.HasPrefix(name, AssetsPrefix):
		if s.load(name) == nil {
			return apierr.New(http.StatusNotFound, "", "File not found")
		}
		return s.serve(e, name, CacheImmutable)
	case name != "" && name != indexPage && !isVariant(name) && s.load(name) != nil:
		return s.serve(e, name, CacheRevalidate)
	}
	if s.load(indexPage) == nil {
		return apierr.New(http.StatusNotFound, "", "The UI is not built")
	}
	return s.serve(e, indexPage, CacheRevalidate)
}

func isVariant(name string) bool {
	return strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz")
}

// serve writes name (or its best precompressed variant) with cacheControl and an ETag,
// answering 304 when the client's copy is current.
func (s *Server) serve(e *core.RequestEvent, name, cacheControl string) error {
	h := e.Response.Header()
	f, encoding := s.load(name), ""
	accept := e.Request.Header.Get("Accept-Encoding")
	for _, enc := range encodings {
		if acceptsEncoding(accept, enc.name) {
			if v := s.load(name + enc.suffix); v != nil {
				f, encoding = v, enc.name
				break
			}
		}
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)
	h.Set("Cache-Control", cacheControl)
	h.Add("Vary", "Accept-Encoding")
	if cacheControl == CacheImmutable {
		// a hashed asset is never revalidated, and document-only headers mean nothing on a
		// script or stylesheet: on a phone network every header byte is paid per asset
		for _, k := range documentOnlyHeaders {
			h.Del(k)
		}
		// the page loads its assets from its own origin, where CORS does not apply: the CORS
		// middleware's allow-origin and its Vary: Origin are dropped too (about 50 bytes per
		// asset; the sign-in screen loads a dozen)
		h.Del("Access-Control-Allow-Origin")
		h["Vary"] = []string{"Accept-Encoding"}
	} else {
		h.Set("ETag", f.etag)
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	if match := e.Request.Header.Get("If-None-Match"); match != "" && cacheControl != CacheImmutable && etagMatches(match, f.etag) {
		e.Response.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Length", strconv.Itoa(len(f.body)))
	e.Response.WriteHeader(http.StatusOK)
	if e.Request.Method == http.MethodHead {
		return nil
	}
	_, err := e.Response.Write(f.body)
	return err
}

// acceptsEncoding reports whether an Accept-Encoding header allows enc (q=0 refuses it).
func acceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		params = strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return !(params == "q=0" || params == "q=0.0" || params == "q=0.00" || params == "q=0.000")
	}
	return false
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// GzipJSONId names the JSON compression middleware.
const GzipJSONId = "swapbayGzipJSON"

// GzipJSON gzips the answers of /api/ routes over MinGzipJSONBytes when the client accepts
// gzip (PocketBase's own gzip writer, which buffers until the threshold). Binary streams
// (photos, PDFs, CSV downloads are small enough either way) and /ws are left alone. It runs
// outside the idempotency recorder, so stored answers are plain JSON.
func GzipJSON() *hook.Handler[*core.RequestEvent] {
	inner := apis.GzipWithConfig(apis.GzipConfig{MinLength: MinGzipJSONBytes})
	return &hook.Handler[*core.RequestEvent]{
		Id:       GzipJSONId,
		Priority: order.GzipJSON,
		Func: func(e *core.RequestEvent) error {
			p := e.Request.URL.Path
			if !strings.HasPrefix(p, "/api/") || strings.HasSuffix(p, "/image") || strings.HasSuffix(p, "/pdf") ||
				e.Request.Method == http.MethodPut && strings.HasPrefix(p, "/api/objects/") {
				return e.Next()
			}
			return inner.Func(e)
		},
	}
}
