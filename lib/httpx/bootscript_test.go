package httpx_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"swapbay/lib/httpx"
	"swapbay/ui"
)

var inlineScript = regexp.MustCompile(`<script>([\s\S]*?)</script>`)

// The CSP allows index.html's one inline script by the hash the UI build computed: the built
// page must carry exactly that script, or the browser refuses it. The source page has none:
// the build writes it (ui/build/boot-script.ts).
func TestBootScriptHashMatchesTheBuiltPage(t *testing.T) {
	src, err := os.ReadFile("../../ui/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(inlineScript.FindAll(src, -1)); n != 0 {
		t.Fatalf("ui/index.html: %d inline scripts, want 0 (the build writes the boot script)", n)
	}

	page, err := fs.ReadFile(ui.Dist(), "index.html")
	if err != nil {
		if ui.BootScriptHash() != "" {
			t.Fatalf("no built index.html, but a boot script hash %q", ui.BootScriptHash())
		}
		t.Skip("ui not built (make build)")
	}
	scripts := inlineScript.FindAllSubmatch(page, -1)
	if len(scripts) != 1 {
		t.Fatalf("dist/index.html: %d inline scripts, want 1", len(scripts))
	}
	sum := sha256.Sum256(scripts[0][1])
	want := "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	if got := ui.BootScriptHash(); got != want {
		t.Fatalf("dist/index.html: inline script hash %s, %s says %q", want, ui.BootScriptFile, got)
	}
	if csp := httpx.ContentSecurityPolicy(ui.BootScriptHash()); !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval' '"+want+"';") {
		t.Fatalf("CSP %q does not allow the boot script", csp)
	}
}

// Without a built UI there is no inline script, and the CSP allows none.
func TestContentSecurityPolicyWithoutBootScript(t *testing.T) {
	if csp := httpx.ContentSecurityPolicy(""); !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval';") {
		t.Fatalf("CSP %q", csp)
	}
}
