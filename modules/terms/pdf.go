package terms

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png" // the signature image
	"strings"
	"time"
	"unicode"

	"github.com/signintech/gopdf"
	"golang.org/x/net/html"

	"swapbay/lib/pdffont"
)

const (
	fontFamily = pdffont.Family // any signer's name prints
	pageW      = 595.28         // A4 in points
	pageH      = 841.89
	margin     = 56.0
	footerY    = pageH - 34
	bodyWidth  = pageW - 2*margin
	bottom     = pageH - margin - 10
)

// Evidence is what the last page of an agreement PDF proves: who signed which text, when,
// from where, and how.
type Evidence struct {
	Title, Version, EffectiveDate string
	Content                       string // the sanitised HTML signed
	SignerName, SignerEmail       string
	SignedAt                      time.Time
	Zone                          *time.Location // the operation's time zone
	IP, UserAgent                 string
	ContentSHA256                 string
	Signature                     []byte // PNG
	SignatureMethod               string // SignatureDrawn or SignatureTyped ("" reads as drawn)
	SignatureText                 string // the typed name of a typed signature
	AgreementID                   string
}

// SignatureStatement says how a signature was made, as the evidence page and the admin's
// agreements list print it: "Signed by drawing", or "Signed by typing: <the typed name>".
func SignatureStatement(method, text string) string {
	if method == SignatureTyped {
		return "Signed by typing: " + text
	}
	return "Signed by drawing"
}

// RenderPDF lays out the signed terms (headings, paragraphs and lists, paginated, with page
// numbers) and an evidence page, and returns the PDF.
func RenderPDF(ev Evidence) (out []byte, err error) {
	defer func() { // gopdf panics on some malformed input; a PDF failure is an error, never a crash
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("pdf layout: %v", r)
		}
	}()
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	pdf.SetInfo(gopdf.PdfInfo{Title: ev.Title + " (" + ev.Version + ")", Author: "SwapBay", Subject: "Signed agreement " + ev.AgreementID,
		Creator: "SwapBay", Producer: "SwapBay (gopdf)", CreationDate: ev.SignedAt})
	if err := pdf.AddTTFFontDataWithOption(fontFamily, pdffont.Regular, gopdf.TtfOption{Style: gopdf.Regular}); err != nil {
		return nil, err
	}
	if err := pdf.AddTTFFontDataWithOption(fontFamily, pdffont.Bold, gopdf.TtfOption{Style: gopdf.Bold}); err != nil {
		return nil, err
	}
	w := &writer{pdf: pdf}
	w.newPage()

	// cover lines
	w.block([]run{{text: ev.Title, bold: true}}, 16, "left", 8)
	w.block([]run{{text: fmt.Sprintf("Version %s, effective %s", ev.Version, ev.EffectiveDate)}}, 10, "left", 14)

	blocks, err := parseBlocks(ev.Content)
	if err != nil {
		return nil, err
	}
	for _, b := range blocks {
		size, after := 10.5, 7.0
		switch b.tag {
		case "h1":
			size, after = 15, 9
		case "h2":
			size, after = 13, 7
		case "h3", "h4", "h5", "h6":
			size, after = 11.5, 6
		}
		if b.tag[0] == 'h' {
			for i := range b.runs {
				b.runs[i].bold = true
			}
			w.ensure(size * 3) // a heading does not end a page
		}
		w.indent = float64(b.depth) * 16
		w.block(b.runs, size, b.align, after)
		w.indent = 0
	}

	// the evidence page
	w.newPage()
	w.block([]run{{text: "Signature and evidence", bold: true}}, 15, "left", 12)
	row := func(label, value string) {
		w.block([]run{{text: label + ": ", bold: true}, {text: value}}, 10, "left", 5)
	}
	row("Agreement", ev.AgreementID)
	row("Terms", ev.Title)
	row("Terms version", ev.Version+" (effective "+ev.EffectiveDate+")")
	row("Signer", ev.SignerName)
	row("Email", ev.SignerEmail)
	row("Signed at (UTC)", ev.SignedAt.UTC().Format("2006-01-02 15:04:05 MST"))
	zone := ev.Zone
	if zone == nil {
		zone = time.UTC
	}
	row("Signed at ("+zone.String()+")", ev.SignedAt.In(zone).Format("2006-01-02 15:04:05 MST (-07:00)"))
	row("IP address", orDash(ev.IP))
	row("User agent", orDash(ev.UserAgent))
	row("SHA-256 of the signed terms", ev.ContentSHA256)
	w.y += 10
	w.block([]run{{text: "Signature", bold: true}}, 10, "left", 4)
	w.block([]run{{text: SignatureStatement(ev.SignatureMethod, ev.SignatureText)}}, 10, "left", 6)
	if len(ev.Signature) > 0 {
		cfg, _, err := image.DecodeConfig(bytes.NewReader(ev.Signature))
		if err != nil {
			return nil, fmt.Errorf("signature image: %w", err)
		}
		holder, err := gopdf.ImageHolderByBytes(ev.Signature)
		if err != nil {
			return nil, fmt.Errorf("signature image: %w", err)
		}
		boxW, boxH := 240.0, 100.0
		scale := min(boxW/float64(max(cfg.Width, 1)), boxH/float64(max(cfg.Height, 1)))
		rw, rh := float64(cfg.Width)*scale, float64(cfg.Height)*scale
		w.ensure(rh + 10)
		pdf.SetStrokeColor(180, 180, 180)
		pdf.RectFromUpperLeftWithStyle(margin, w.y, boxW+8, rh+8, "D")
		if err := pdf.ImageByHolder(holder, margin+4, w.y+4, &gopdf.Rect{W: rw, H: rh}); err != nil {
			return nil, fmt.Errorf("signature image: %w", err)
		}
		w.y += rh + 16
	}
	w.block([]run{{text: "This page records the electronic signature of the agreement above. The SHA-256 fingerprint " +
		"identifies the exact text signed; any change to the text changes the fingerprint."}}, 8.5, "left", 0)

	// page numbers, now that the count is known
	total := pdf.GetNumberOfPages()
	for p := 1; p <= total; p++ {
		if err := pdf.SetPage(p); err != nil {
			return nil, err
		}
		_ = pdf.SetFont(fontFamily, "", 8.5)
		pdf.SetTextColor(110, 110, 110)
		label := fmt.Sprintf("Page %d of %d", p, total)
		lw, _ := pdf.MeasureTextWidth(label)
		pdf.SetXY(pageW-margin-lw, footerY)
		_ = pdf.Text(label)
		pdf.SetXY(margin, footerY)
		_ = pdf.Text(truncate(ev.Title+" · "+ev.Version, 80))
	}
	var buf bytes.Buffer
	if _, err := pdf.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

// run is a piece of text with one style.
type run struct {
	text            string
	bold, underline bool
}

// block is a paragraph, heading or list item of the terms.
type block struct {
	tag   string // p, h1..h6, li
	runs  []run
	align string // left, center, right, justify
	depth int    // list nesting
}

// parseBlocks reads the sanitised HTML into blocks; list items get their bullet or number.
func parseBlocks(src string) ([]block, error) {
	root, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("read terms: %w", err)
	}
	var out []block
	type list struct {
		ordered bool
		n       int
	}
	var lists []list
	var cur *block
	flush := func() {
		if cur != nil && strings.TrimSpace(runsText(cur.runs)) != "" {
			out = append(out, *cur)
		}
		cur = nil
	}
	open := func(tag, align string) {
		flush()
		cur = &block{tag: tag, align: align, depth: len(lists)}
	}
	var walk func(n *html.Node, bold, underline bool)
	walk = func(n *html.Node, bold, underline bool) {
		switch n.Type {
		case html.TextNode:
			if cur == nil {
				if strings.TrimSpace(n.Data) == "" {
					return
				}
				open("p", "left")
			}
			cur.runs = append(cur.runs, run{text: collapse(n.Data), bold: bold, underline: underline})
			return
		case html.ElementNode:
			switch n.Data {
			case "p", "h1", "h2", "h3", "h4", "h5", "h6":
				open(n.Data, alignOf(n))
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, bold, underline)
				}
				flush()
				return
			case "ul", "ol":
				flush()
				lists = append(lists, list{ordered: n.Data == "ol"})
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, bold, underline)
				}
				lists = lists[:len(lists)-1]
				return
			case "li":
				flush()
				marker := "•  "
				if l := &lists[max(len(lists)-1, 0)]; len(lists) > 0 && l.ordered {
					l.n++
					marker = fmt.Sprintf("%d.  ", l.n)
				}
				cur = &block{tag: "li", align: "left", depth: len(lists), runs: []run{{text: marker}}}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, bold, underline)
				}
				flush()
				return
			case "br":
				if cur != nil {
					cur.runs = append(cur.runs, run{text: "\n"})
				}
				return
			case "strong", "b":
				bold = true
			case "u":
				underline = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, bold, underline)
		}
	}
	walk(root, false, false)
	flush()
	return out, nil
}

func runsText(rs []run) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.text)
	}
	return b.String()
}

// collapse turns runs of white space into single spaces, as a browser shows them.
func collapse(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// alignOf reads a text-align style (the only style the sanitiser keeps).
func alignOf(n *html.Node) string {
	for _, a := range n.Attr {
		if a.Key == "style" {
			for _, v := range []string{"center", "right", "justify"} {
				if strings.Contains(a.Val, "text-align: "+v) || strings.Contains(a.Val, "text-align:"+v) {
					return v
				}
			}
		}
	}
	return "left"
}

// writer places text top to bottom, starting a new page when one is full.
type writer struct {
	pdf    *gopdf.GoPdf
	y      float64
	indent float64
}

func (w *writer) newPage() {
	w.pdf.AddPage()
	w.y = margin
}

// ensure starts a new page unless h points of room are left.
func (w *writer) ensure(h float64) {
	if w.y+h > bottom {
		w.newPage()
	}
}

// word is a piece of a line: text without spaces (or one space) with its style.
type word struct {
	run
	width float64
}

func (w *writer) style(r run, size float64) {
	s := ""
	if r.bold {
		s += "B"
	}
	if r.underline {
		s += "U"
	}
	_ = w.pdf.SetFont(fontFamily, s, size)
}

// block lays out runs as wrapped lines of font size size, aligned, then moves down by after.
func (w *writer) block(runs []run, size float64, align string, after float64) {
	lineH := size * 1.45
	width := bodyWidth - w.indent
	var line []word
	lineW := 0.0
	emit := func(last bool) {
		// drop trailing spaces
		for len(line) > 0 && line[len(line)-1].text == " " {
			lineW -= line[len(line)-1].width
			line = line[:len(line)-1]
		}
		w.ensure(lineH)
		x := margin + w.indent
		switch align {
		case "center":
			x += (width - lineW) / 2
		case "right":
			x += width - lineW
		}
		w.pdf.SetTextColor(20, 20, 20)
		for _, wd := range line {
			w.style(wd.run, size)
			w.pdf.SetXY(x, w.y)
			_ = w.pdf.Cell(&gopdf.Rect{W: wd.width + 0.5, H: lineH}, wd.text)
			x += wd.width
		}
		w.y += lineH
		line, lineW = nil, 0
		_ = last
	}
	for _, r := range runs {
		for _, piece := range splitKeep(r.text) {
			if piece == "\n" {
				emit(false)
				continue
			}
			w.style(r, size)
			pw, err := w.pdf.MeasureTextWidth(piece)
			if err != nil {
				continue
			}
			if piece == " " && len(line) == 0 {
				continue // no leading space on a line
			}
			if lineW+pw > width && len(line) > 0 && piece != " " {
				emit(false)
			}
			// a single word wider than the line is cut by characters
			for pw > width {
				cut := fitPrefix(w.pdf, piece, width-lineW)
				if cut == "" {
					emit(false)
					continue
				}
				cw, _ := w.pdf.MeasureTextWidth(cut)
				line = append(line, word{run: run{text: cut, bold: r.bold, underline: r.underline}, width: cw})
				lineW += cw
				emit(false)
				piece = piece[len(cut):]
				pw, _ = w.pdf.MeasureTextWidth(piece)
			}
			line = append(line, word{run: run{text: piece, bold: r.bold, underline: r.underline}, width: pw})
			lineW += pw
		}
	}
	if len(line) > 0 {
		emit(true)
	}
	w.y += after
}

// splitKeep splits s into words, single spaces and line breaks, keeping each.
func splitKeep(s string) []string {
	var out []string
	var b strings.Builder
	for _, r := range s {
		if r == ' ' || r == '\n' {
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
			out = append(out, string(r))
			continue
		}
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// fitPrefix is the longest prefix of s (whole runes) that fits in width.
func fitPrefix(pdf *gopdf.GoPdf, s string, width float64) string {
	rs := []rune(s)
	lo, hi := 0, len(rs)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if mw, _ := pdf.MeasureTextWidth(string(rs[:mid])); mw <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return string(rs[:lo])
}
