package webui

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
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
// over MaxETagJSONBytes go out unchanged. It runs inside GzipJSON, so it hashes the JSON
// itself; the tag is weak because the gzipped and plain bytes of one answer share it.
func ETagJSON() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       ETagJSONId,
		Priority: apis.DefaultPanicRecoverMiddlewarePriority + 3, // just inside GzipJSON
		Func: func(e *core.RequestEvent) error {
			if e.Request.Method != http.MethodGet || !strings.HasPrefix(e.Request.URL.Path, "/api/") ||
				e.Request.URL.Path == "/api/realtime" {
				return e.Next()
			}
			outer := e.Response
			w := &etagWriter{ResponseWriter: outer}
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
			sum := sha256.Sum256(w.buf.Bytes())
			tag := `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
			h.Set("ETag", "W/"+tag)
			h.Set("Cache-Control", CachePrivateRevalidate)
			if match := e.Request.Header.Get("If-None-Match"); match != "" && etagMatches(match, tag) {
				h.Del("Content-Length")
				outer.WriteHeader(http.StatusNotModified)
				return nil
			}
			w.pass()
			return nil
		},
	}
}

func isJSON(h http.Header) bool {
	return strings.HasPrefix(h.Get("Content-Type"), "application/json")
}

// etagWriter holds a JSON answer until the handler has finished; anything else (another
// type, a flush, more than MaxETagJSONBytes) makes it pass what it holds on and write through.
type etagWriter struct {
	http.ResponseWriter
	buf    bytes.Buffer
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
		if isJSON(w.Header()) && w.buf.Len()+len(b) <= MaxETagJSONBytes {
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
