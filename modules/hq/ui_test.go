package hq

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

// TestHQPageIsTheBuildsPage: head office's page is hq.html wherever lib/webui reads index.html
// (and its precompressed variants); the city's page, service worker and manifest are not served;
// the assets are the build's.
func TestHQPageIsTheBuildsPage(t *testing.T) {
	dist := fstest.MapFS{
		"index.html":           {Data: []byte("city")},
		"index.html.br":        {Data: []byte("city-br")},
		"hq.html":              {Data: []byte("hq")},
		"hq.html.br":           {Data: []byte("hq-br")},
		"hq.html.gz":           {Data: []byte("hq-gz")},
		"sw.js":                {Data: []byte("sw")},
		"manifest.webmanifest": {Data: []byte("{}")},
		"assets/hq-main.js":    {Data: []byte("js")},
	}
	p := hqPage{dist}
	for name, want := range map[string]string{"index.html": "hq", "index.html.br": "hq-br", "index.html.gz": "hq-gz", "assets/hq-main.js": "js"} {
		b, err := fs.ReadFile(p, name)
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
	}
	for _, name := range []string{"sw.js", "manifest.webmanifest", "hq.html", "hq.html.br"} {
		if _, err := fs.ReadFile(p, name); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v; want not found (the page is served as index.html)", name, err)
		}
	}
}
