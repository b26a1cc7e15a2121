package terms

import (
	"strings"
	"testing"
)

func TestSanitizeKeepsTheEditorsMarkupOnly(t *testing.T) {
	cases := []struct{ in, want string }{
		{`<h2>Title</h2><p>Text <strong>bold</strong> <em>it</em> <u>u</u> <s>s</s></p>`, `<h2>Title</h2><p>Text <strong>bold</strong> <em>it</em> <u>u</u> <s>s</s></p>`},
		{`<ul><li>a</li></ul><ol><li>b</li></ol>`, `<ul><li>a</li></ul><ol><li>b</li></ol>`},
		{`<p style="text-align: center">c</p>`, `<p style="text-align: center">c</p>`},
		{`<p>x<script>alert(1)</script></p>`, `<p>x</p>`},
		{`<p onclick="alert(1)" onmouseover="x()">x</p>`, `<p>x</p>`},
		{`<img src=x onerror=alert(1)>`, ``},
		{`<a href="javascript:alert(1)">x</a>`, `x`},
		{`<a href="JaVaScRiPt:alert(1)">x</a>`, `x`},
		{`<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>`, `x`},
		{`<a href="vbscript:x">x</a>`, `x`},
		{`<p style="color: red; background: url(javascript:alert(1))">x</p>`, `<p>x</p>`},
		{`<p style="text-align: expression(alert(1))">x</p>`, `<p>x</p>`},
		{`<style>p{display:none}</style><p>x</p>`, `<p>x</p>`},
		{`<iframe src="https://evil.example"></iframe><p>x</p>`, `<p>x</p>`},
		{`<svg onload=alert(1)><p>x</p></svg>`, `<p>x</p>`},
	}
	for _, c := range cases {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, href := range []string{"https://swapbay.example/terms", "http://example.com", "mailto:ops@example.com", "tel:+15551234567"} {
		got := Sanitize(`<a href="` + href + `">link</a>`)
		if !strings.Contains(got, `href="`+href+`"`) || !strings.Contains(got, "nofollow") {
			t.Errorf("link %s became %q", href, got)
		}
	}
}
