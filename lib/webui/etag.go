package webui

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/order"
)

// ETagJSONId names the JSON revalidation middleware.
const ETagJSONId = "swapbayETagJSON"

// MaxETagJSONBytes bounds the answer ETagJSON holds to hash: a longer one goes out as it is
// written, without an ETag.
const MaxETagJSONBytes = 4 << 20

// CachePrivateRevalidate lets the browser keep a JSON answer for this user only, and ask
// whether it is still current before each use.
const CachePrivateRevalidate = "private, no-cache"

// ETagJSON gives the JSON answers of GET /api/ routes a weak ETag (a hash of the JSON) and
// Cache-Control: private, no-cache; a request whose If-None-Match names the answer's ETag gets
// 304 Not Modified and no body. The dashboards poll their calls every 60 s and refetch on
// each change notification, and most polls find nothing changed: on a phone network a 304
// replaces the answer (a busy week's feeds are tens of KB). The answer is still built, and
// only a 200 with the same JSON becomes a 304, so a signed-out or refused request is refused
// as before, whatever it sends. Answers that set their own Cache-Control (no-store on pay
// and agreements), errors, non-JSON answers, streams that flush (/api/realtime) and answers
// over MaxETagJSONBytes go out unchanged, as does an answer that sets its own ETag
// (ServeJSON: the state cache hashes an answer once, not per request). It runs inside
// GzipJSON, so it hashes the JSON itself; the tag is weak because the gzipped and plain bytes
// of one answer share it.
func ETagJSON() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       ETagJSONId,
		Priority: order.ETagJSON,
		Func: func(e *core.RequestEvent) error {
			if e.Request.Method != http.MethodGet || !strings.HasPrefix(e.Request.URL.Path, "/api/") ||
				e.Request.URL.Path == "/api/realtime" {
				return e.Next()
			}
			outer := e.Response
			w := &etagWriter{ResponseWriter: outer, buf: bufs.Get().(*bytes.Buffer)}
			defer func() {
				w.buf.Reset()
				bufs.Put(w.buf)
			}()
			e.Response = w
			err := func() error {
				// restored even on a panic, so the recovery middleware's answer is written out
				defer func() { e.Response = outer }()
				return e.Next()
			}()
			if w.passed {
				return err
			}
			h := outer.Header()
			if err != nil || w.code != http.StatusOK || h.Get("Cache-Control") != "" || !isJSON(h) {
				w.pass()
				return err
			}
			if notModified(e.Request, outer, JSONETag(w.buf.Bytes())) {
				return nil
			}
			w.pass()
			return nil
		},
	}
}

// bufs holds the buffers ETagJSON keeps answers in while they are built.
var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// JSONETag is the ETag ETagJSON gives a JSON answer: weak, as the gzipped and plain bytes of
// one answer share it.
func JSONETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `W/"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}

// notModified sets etag and Cache-Control: private, no-cache on w and, when the request's
// If-None-Match names etag, answers 304 Not Modified (no body) and reports true.
func notModified(r *http.Request, w http.ResponseWriter, etag string) bool {
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", CachePrivateRevalidate)
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, strings.TrimPrefix(etag, "W/")) {
		h.Del("Content-Length")
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// ServeJSON answers body (JSON) with etag (JSONETag(body), kept with a cached answer so it is
// hashed once), as ETagJSON would: 304 when the client holds it, else 200 with the body.
// ETagJSON passes an answer that carries its own ETag through untouched.
func ServeJSON(e *core.RequestEvent, body []byte, etag string) error {
	if notModified(e.Request, e.Response, etag) {
		return nil
	}
	return e.Blob(http.StatusOK, "application/json", body)
}

func isJSON(h http.Header) bool {
	return strings.HasPrefix(h.Get("Content-Type"), "application/json")
}

// etagWriter holds a JSON answer until the handler has finished; anything else (another
// type, a flush, more than MaxETagJSONBytes) makes it pass what it holds on and write through.
type etagWriter struct {
	http.ResponseWriter
	buf    *bytes.Buffer
	code   int
	passed bool
}

func (w *etagWriter) WriteHeader(code int) {
	if w.passed {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if w.code == 0 {
		w.code = code
	}
}

func (w *etagWriter) Write(b []byte) (int, error) {
	if !w.passed {
		if w.code == 0 {
			w.code = http.StatusOK
		}
		// an answer with its own ETag (ServeJSON) is written through
		if isJSON(w.Header()) && w.Header().Get("ETag") == "" && w.buf.Len()+len(b) <= MaxETagJSONBytes {
			return w.buf.Write(b)
		}
		w.pass()
	}
	return w.ResponseWriter.Write(b)
}

// pass sends the status and what is held, and writes through from then on.
func (w *etagWriter) pass() {
	if w.passed {
		return
	}
	w.passed = true
	if w.code != 0 {
		w.ResponseWriter.WriteHeader(w.code)
	}
	if w.buf.Len() > 0 {
		_, _ = w.ResponseWriter.Write(w.buf.Bytes())
		w.buf.Reset()
	}
}

func (w *etagWriter) Flush() {
	w.pass()
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *etagWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
