// Package imagebudget keeps image decoding within SwapBay's memory budget (issue 34, DESIGN.md
// §9, README "Running in production"): an image's dimensions, bit depth and the memory its
// decoded picture takes are read from its header before any decode and refused over the
// caller's Limits, and every decode runs through one pool of Slots.
package imagebudget

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // the formats SwapBay accepts: JPEG, PNG, WebP
	_ "image/png"
	"io"

	_ "golang.org/x/image/webp"
)

// Header is what an image's header says, read without decoding its pixels.
type Header struct {
	Format        string // "jpeg", "png" or "webp"
	Width, Height int
	BitDepth      int   // bits per channel sample (8 for WebP)
	DecodedBytes  int64 // the memory Go's decoder allocates for the picture
}

// Pixels is Width × Height.
func (h Header) Pixels() int64 { return int64(h.Width) * int64(h.Height) }

// Errors of Inspect and Check. ErrUnreadable: not a JPEG, PNG or WebP whose header can be read.
var (
	ErrUnreadable = errors.New("imagebudget: unreadable image header")
	ErrTooLarge   = errors.New("imagebudget: image over the limits")
	ErrBitDepth   = errors.New("imagebudget: more than 8 bits per channel")
)

// Inspect reads the header of the image in r (n bytes long).
func Inspect(r io.ReaderAt, n int64) (Header, error) {
	cfg, format, err := image.DecodeConfig(io.NewSectionReader(r, 0, n))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return Header{}, ErrUnreadable
	}
	h := Header{Format: format, Width: cfg.Width, Height: cfg.Height, BitDepth: 8}
	px := h.Pixels()
	switch format {
	case "png":
		var ihdr [26]byte // signature, length, "IHDR", width, height, bit depth, colour type
		if _, err := r.ReadAt(ihdr[:], 0); err != nil {
			return Header{}, ErrUnreadable
		}
		h.BitDepth = int(ihdr[24])
		h.DecodedBytes = px * bytesPerPixel(cfg.ColorModel)
	case "jpeg":
		planes, precision, err := jpegFrame(io.NewSectionReader(r, 0, n), cfg.Width, cfg.Height)
		if err != nil {
			return Header{}, ErrUnreadable
		}
		h.BitDepth, h.DecodedBytes = precision, planes
	case "webp":
		switch cfg.ColorModel {
		case color.YCbCrModel: // lossy: 4:2:0
			h.DecodedBytes = px + 2*((px+3)/4)
		case color.NYCbCrAModel: // lossy with alpha
			h.DecodedBytes = 2*px + 2*((px+3)/4)
		default: // lossless: NRGBA
			h.DecodedBytes = 4 * px
		}
	default:
		return Header{}, ErrUnreadable
	}
	return h, nil
}

// bytesPerPixel is what Go's PNG decoder allocates per pixel for a colour model (RGB decodes
// to RGBA; a palette to one byte an index).
func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.GrayModel:
		return 1
	case color.Gray16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}

// jpegFrame walks a JPEG's segments to its frame header (SOFn) and returns the bytes of the
// planes Go's decoder allocates (one per component, subsampled as the frame says) and the
// sample precision.
func jpegFrame(r io.Reader, w, h int) (int64, int, error) {
	br := bufio.NewReader(r)
	var soi [2]byte
	if _, err := io.ReadFull(br, soi[:]); err != nil || soi != [2]byte{0xFF, 0xD8} {
		return 0, 0, ErrUnreadable
	}
	for {
		var mk [4]byte
		if _, err := io.ReadFull(br, mk[:]); err != nil || mk[0] != 0xFF {
			return 0, 0, ErrUnreadable
		}
		for mk[1] == 0xFF { // fill bytes
			mk[1], mk[2] = mk[2], mk[3]
			b, err := br.ReadByte()
			if err != nil {
				return 0, 0, ErrUnreadable
			}
			mk[3] = b
		}
		size := int(binary.BigEndian.Uint16(mk[2:])) - 2
		if size < 0 || mk[1] == 0xDA {
			return 0, 0, ErrUnreadable
		}
		seg := make([]byte, size)
		if _, err := io.ReadFull(br, seg); err != nil {
			return 0, 0, ErrUnreadable
		}
		m := mk[1]
		if m < 0xC0 || m > 0xCF || m == 0xC4 || m == 0xC8 || m == 0xCC {
			continue
		}
		// SOFn: precision, height, width, components × (id, sampling, table)
		if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) {
			return 0, 0, ErrUnreadable
		}
		nc := int(seg[5])
		hmax, vmax := 1, 1
		for i := 0; i < nc; i++ {
			s := seg[7+3*i]
			hmax, vmax = max(hmax, int(s>>4)), max(vmax, int(s&15))
		}
		var total int64
		for i := 0; i < nc; i++ {
			s := seg[7+3*i]
			hi, vi := max(int(s>>4), 1), max(int(s&15), 1)
			cw := (int64(w)*int64(hi) + int64(hmax) - 1) / int64(hmax)
			ch := (int64(h)*int64(vi) + int64(vmax) - 1) / int64(vmax)
			total += cw * ch
		}
		if nc == 4 { // CMYK / YCCK decode to 4 bytes a pixel
			total = max(total, 4*int64(w)*int64(h))
		}
		return total, int(seg[0]), nil
	}
}

// Limits bound an image by its header. A zero field is no limit.
type Limits struct {
	MaxWidth, MaxHeight int
	MaxPixels           int64
	MaxBitDepth         int
	MaxDecodedBytes     int64
}

// Check refuses h over l: ErrBitDepth for a deeper image, ErrTooLarge for anything larger,
// each wrapped with what was found.
func (l Limits) Check(h Header) error {
	if l.MaxBitDepth > 0 && h.BitDepth > l.MaxBitDepth {
		return fmt.Errorf("%w: %d bits per channel", ErrBitDepth, h.BitDepth)
	}
	if (l.MaxWidth > 0 && h.Width > l.MaxWidth) || (l.MaxHeight > 0 && h.Height > l.MaxHeight) ||
		(l.MaxPixels > 0 && h.Pixels() > l.MaxPixels) || (l.MaxDecodedBytes > 0 && h.DecodedBytes > l.MaxDecodedBytes) {
		return fmt.Errorf("%w: %d×%d, %d MB decoded", ErrTooLarge, h.Width, h.Height, h.DecodedBytes>>20)
	}
	return nil
}

// Slots is how many images are decoded at once in this process, whatever decodes them (photo
// uploads and thumbnails, signatures, the PDF render): each decode holds one slot.
const Slots = 2

var slots = make(chan struct{}, Slots)

// Decode runs fn, which decodes an image already checked against its Limits, while holding
// one of the Slots; it waits for a slot first.
func Decode(fn func() error) error {
	slots <- struct{}{}
	defer func() { <-slots }()
	return fn()
}
