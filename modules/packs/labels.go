package packs

import (
	"compress/zlib"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/signintech/gopdf"
	qrcode "github.com/yeqown/go-qrcode/v2"

	"swapbay/lib/pdffont"
)

// The label sheet (DESIGN.md §14): A4, 3 columns × 8 rows of 70 × 37 mm stickers, each with a
// QR code (error correction High) holding <site>/p/<serial> and the serial in print.
const (
	mm          = 72 / 25.4 // points per millimetre
	labelCols   = 3
	labelRows   = 8
	labelW      = 70 * mm
	labelH      = 37 * mm
	sheetTop    = 0.5 * mm // (297 − 8 × 37) / 2: the sheet's rows sit centred
	qrSide      = 28 * mm  // the symbol without its quiet zone (≈ 30 mm with it)
	qrLeft      = 4 * mm
	textLeft    = qrLeft + qrSide + 3*mm
	textRight   = 3 * mm
	serialSize  = 12.0 // points, shrunk to fit a long imported serial
	detailSize  = 7.0
	minTextSize = 6.0
)

// LabelsPerSheet is how many labels one A4 page holds.
const LabelsPerSheet = labelCols * labelRows

// Label is what one sticker prints: the serial (in the QR's URL and in print) and, smaller,
// the model and lot.
type Label struct {
	Serial string
	Model  string
	Lot    string
}

// PackURL is the address a label's QR code holds: site (scheme and host, no trailing slash)
// + /p/<serial>, which any phone camera opens.
func PackURL(site, serial string) string {
	return strings.TrimRight(site, "/") + "/p/" + url.PathEscape(serial)
}

// WriteLabels writes the label sheet of labels (in order, 24 a page) to w.
func WriteLabels(w io.Writer, site string, labels []Label) (err error) {
	defer func() { // gopdf panics on some malformed input: an error, never a crash
		if r := recover(); r != nil {
			err = fmt.Errorf("label sheet: %v", r)
		}
	}()
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	pdf.SetCompressLevel(zlib.DefaultCompression)
	pdf.SetInfo(gopdf.PdfInfo{Title: "SwapBay pack labels", Creator: "SwapBay", Producer: "SwapBay (gopdf)"})
	if err := pdf.AddTTFFontDataWithOption(pdffont.Family, pdffont.Regular, gopdf.TtfOption{Style: gopdf.Regular}); err != nil {
		return fmt.Errorf("label font: %w", err)
	}
	if err := pdf.AddTTFFontDataWithOption(pdffont.Family, pdffont.Bold, gopdf.TtfOption{Style: gopdf.Bold}); err != nil {
		return fmt.Errorf("label font: %w", err)
	}
	if len(labels) == 0 {
		pdf.AddPage()
	}
	for i, l := range labels {
		if i%LabelsPerSheet == 0 {
			pdf.AddPage()
		}
		slot := i % LabelsPerSheet
		x := float64(slot%labelCols) * labelW
		y := sheetTop + float64(slot/labelCols)*labelH
		if err := drawLabel(pdf, x, y, site, l); err != nil {
			return fmt.Errorf("label %s: %w", l.Serial, err)
		}
	}
	return pdf.Write(w)
}

// drawLabel draws one sticker with its top left corner at x, y.
func drawLabel(pdf *gopdf.GoPdf, x, y float64, site string, l Label) error {
	qr, err := qrcode.NewWith(PackURL(site, l.Serial), qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionHighest))
	if err != nil {
		return err
	}
	bits := qrBitmap{}
	if err := qr.Save(&bits); err != nil {
		return err
	}
	n := len(bits.rows)
	module := qrSide / float64(n)
	top := y + (labelH-qrSide)/2
	pdf.SetGrayFill(0)
	for _, b := range qrBlocks(bits.rows) {
		pdf.RectFromUpperLeftWithStyle(x+qrLeft+float64(b.col)*module, top+float64(b.row)*module,
			float64(b.w)*module, float64(b.h)*module, "F")
	}

	width := labelW - textLeft - textRight
	size, err := fitSize(pdf, l.Serial, width)
	if err != nil {
		return err
	}
	lines, err := pdf.SplitText(l.Serial, width) // a serial longer than the smallest size allows wraps
	if err != nil {
		lines = []string{l.Serial}
	}
	ty := y + labelH/2 - float64(len(lines))*size*1.2/2 - 4*mm
	for _, line := range lines {
		pdf.SetXY(x+textLeft, ty)
		if err := pdf.Cell(nil, line); err != nil {
			return err
		}
		ty += size * 1.2
	}
	if err := pdf.SetFont(pdffont.Family, "", detailSize); err != nil {
		return err
	}
	for _, detail := range []string{l.Model, labelLot(l.Lot)} {
		if detail == "" {
			continue
		}
		ty += detailSize * 0.4
		parts, err := pdf.SplitText(detail, width)
		if err != nil || len(parts) == 0 {
			continue
		}
		pdf.SetXY(x+textLeft, ty)
		if err := pdf.Cell(nil, parts[0]); err != nil {
			return err
		}
		ty += detailSize * 1.2
	}
	return nil
}

func labelLot(lot string) string {
	if lot == "" {
		return ""
	}
	return "Lot " + lot
}

// fitSize sets the bold font at the largest size from serialSize down to minTextSize at which
// text fits width, and returns it.
func fitSize(pdf *gopdf.GoPdf, text string, width float64) (float64, error) {
	size := serialSize
	for {
		if err := pdf.SetFont(pdffont.Family, "B", size); err != nil {
			return 0, err
		}
		w, err := pdf.MeasureTextWidth(text)
		if err != nil || w <= width || size <= minTextSize {
			return size, err
		}
		size--
	}
}

// qrBlock is a rectangle of dark modules: its top left module and its size in modules.
type qrBlock struct{ row, col, w, h int }

// qrBlocks covers the dark modules of rows with rectangles: each row's runs of dark modules,
// a run continuing the same run of the row above growing that rectangle downwards. It keeps
// the sheet's drawing operations (and so its size and time) to a fraction of one per module.
func qrBlocks(rows [][]bool) []qrBlock {
	var out []qrBlock
	open := map[[2]int]int{} // run (first, end column) → index in out of the rectangle it grows
	for r, row := range rows {
		next := map[[2]int]int{}
		for c := 0; c < len(row); {
			if !row[c] {
				c++
				continue
			}
			start := c
			for c < len(row) && row[c] {
				c++
			}
			run := [2]int{start, c}
			if i, ok := open[run]; ok {
				out[i].h++
				next[run] = i
				continue
			}
			out = append(out, qrBlock{row: r, col: start, w: c - start, h: 1})
			next[run] = len(out) - 1
		}
		open = next
	}
	return out
}

// qrBitmap is a qrcode.Writer that keeps the symbol's modules (true = dark), row by row.
type qrBitmap struct{ rows [][]bool }

func (b *qrBitmap) Write(mat qrcode.Matrix) error {
	b.rows = mat.Bitmap()
	return nil
}

func (b *qrBitmap) Close() error { return nil }
