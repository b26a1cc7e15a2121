package hq

import (
	"io/fs"
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"

	"swapbay/lib/httpx"
	"swapbay/lib/webui"
)

// PageFile is head office's page in the UI build (ui/hq.html → src/hq/main.tsx): the same
// Vite build as the city's, a second entry.
const PageFile = "hq.html"

// RegisterUI serves head office's screens from the UI build dist (ui.Dist(), passed in by
// pb_app: modules do not import the ui package) for every GET that is not an API route: the
// hashed /assets/ as the city serves them (lib/webui: precompressed, immutable), and hq.html
// for every other path (deep links), answered as the build's page. Unknown /api/* GETs stay a
// JSON 404. The city's service worker, manifest and page are not head office's: /sw.js,
// /manifest.webmanifest and /index.html all get hq.html.
func RegisterUI(app core.App, dist fs.FS) {
	site := webui.New(hqPage{dist})
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Id: "hqSPA",
		Func: func(se *core.ServeEvent) error {
			if !se.Router.HasRoute(http.MethodGet, "/api/{path...}") {
				se.Router.GET("/api/{path...}", httpx.APINotFound)
			}
			if !se.Router.HasRoute(http.MethodGet, "/{path...}") {
				se.Router.GET("/{path...}", site.Handle).Bind(httpx.SecurityHeaders(""))
			}
			return se.Next()
		},
		Priority: 999,
	})
}

// hqPage is the build with hq.html as its page: lib/webui serves index.html (and its .br/.gz)
// for every path that is not a file, so index.html* opens hq.html*; the city's page, service
// worker and manifest are not there.
type hqPage struct{ fs.FS }

func (p hqPage) Open(name string) (fs.File, error) {
	if rest, ok := strings.CutPrefix(name, "index.html"); ok {
		return p.FS.Open(PageFile + rest)
	}
	if strings.HasPrefix(name, "sw.js") || strings.HasPrefix(name, "manifest.webmanifest") || strings.HasPrefix(name, PageFile) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return p.FS.Open(name)
}
