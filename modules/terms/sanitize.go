package terms

import (
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
)

// policy allows exactly what the terms editor's toolbar makes (DESIGN.md §7): headings,
// paragraphs, bold, italic, underline, strike, bullet and numbered lists, links, line breaks
// and text alignment. Links keep only http, https, mailto and tel addresses and open safely.
var policy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("h1", "h2", "h3", "p", "br", "strong", "b", "em", "i", "u", "s", "ul", "ol", "li")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto", "tel")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowStyles("text-align").MatchingEnum("left", "center", "right", "justify").OnElements("p", "h1", "h2", "h3")
	return p
}()

// Sanitize returns html with everything the editor does not make removed: scripts, event
// handlers, styles other than text-align, javascript: and data: links, iframes, images.
func Sanitize(src string) string { return strings.TrimSpace(policy.Sanitize(src)) }

var blank = regexp.MustCompile(`\s+`)

// TextOf returns the visible text of sanitised html (blank when it shows nothing).
func TextOf(src string) string {
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return strings.TrimSpace(blank.ReplaceAllString(b.String(), " "))
}
