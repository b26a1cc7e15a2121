package terms

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pdfText extracts a PDF's text with poppler's pdftotext (a real extractor: what a court's
// clerk would see). make tools installs it.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext not found: run make tools (apt-get install poppler-utils)")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "a.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", in, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

func signaturePNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 300, 100))
	for x := 20; x < 280; x++ {
		img.Set(x, 50+(x%20)-10, color.Black)
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// A PDF for a signer whose name needs Greek, Polish and Vietnamese letters, and terms of
// about 30 pages: every page numbered, the evidence fields and the hash in the extracted text.
func TestPDFUnicodeNamesLongTermsAndEvidence(t *testing.T) {
	var content strings.Builder
	content.WriteString(`<h1>Contractor Agreement</h1><p style="text-align: center">Centered preamble</p>`)
	for i := 1; i <= 120; i++ {
		content.WriteString(`<h2>Section ` + strconv.Itoa(i) + `</h2><p>The Contractor <strong>shall</strong> keep batteries safe and <u>report</u> damage at once. ` +
			strings.Repeat("Batteries are returned charged or flagged. ", 6) + `</p><ul><li>First duty</li><li>Second duty</li></ul><ol><li>Step one</li><li>Step two</li></ol>`)
	}
	name := "Ζωή Łukasz-Nguyễn Thị Ánh"
	zone, _ := time.LoadLocation("America/New_York")
	ev := Evidence{
		Title: "Micromobility Independent Contractor Agreement", Version: "2025.7", EffectiveDate: "2025-03-01",
		Content: content.String(), SignerName: name, SignerEmail: "zoe@example.com",
		SignedAt: time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC), Zone: zone,
		IP: "203.0.113.7", UserAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)",
		ContentSHA256: Hash(content.String()), Signature: signaturePNG(), AgreementID: "agr123456789012",
	}
	pdf, err := RenderPDF(ev)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("SWAPBAY_PDF_OUT"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "agreement.pdf"), pdf, 0o644)
	}
	text := pdfText(t, pdf)
	n := strings.Count(text, "Page ")
	if n < 25 {
		t.Fatalf("%d numbered pages, want about 30", n)
	}
	for _, want := range []string{
		name, "zoe@example.com", "2026-11-20 15:04:05 UTC", "2026-11-20 10:04:05 EST", "America/New_York",
		"203.0.113.7", "iPhone OS 18_0", "2025.7", ev.ContentSHA256, "Section 120", "Step two", "Centered preamble",
		"Page 1 of ", "Signature and evidence", "agr123456789012",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF text lacks %q", want)
		}
	}
}
