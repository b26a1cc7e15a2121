package httpx_test

import (
	"crypto/sha256"
	"encoding/base64"
	"os"
	"regexp"
	"testing"

	"swapbay/lib/httpx"
)

// The CSP allows index.html's one inline script by hash: the source page and, once built,
// the served page must carry exactly that script, or the browser refuses it.
func TestBootScriptHashMatchesIndexHTML(t *testing.T) {
	inline := regexp.MustCompile(`<script>([\s\S]*?)</script>`)
	for _, path := range []string{"../../ui/index.html", "../../ui/dist/index.html"} {
		page, err := os.ReadFile(path)
		if os.IsNotExist(err) && path != "../../ui/index.html" {
			continue // not built yet
		}
		if err != nil {
			t.Fatal(err)
		}
		scripts := inline.FindAllSubmatch(page, -1)
		if len(scripts) != 1 {
			t.Fatalf("%s: %d inline scripts, want 1", path, len(scripts))
		}
		sum := sha256.Sum256(scripts[0][1])
		if got := "sha256-" + base64.StdEncoding.EncodeToString(sum[:]); got != httpx.BootScriptHash {
			t.Fatalf("%s: inline script hash %s, CSP allows %s", path, got, httpx.BootScriptHash)
		}
	}
}
