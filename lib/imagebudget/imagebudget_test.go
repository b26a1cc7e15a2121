package imagebudget_test

import (
	"bytes"
	"errors"
	"testing"

	"swapbay/internal/bombs"
	"swapbay/lib/imagebudget"
)

// The header tells the format, size, bit depth and what Go's decoder would allocate.
func TestInspectReadsTheHeaderOnly(t *testing.T) {
	for _, tc := range []struct {
		name    string
		img     []byte
		format  string
		depth   int
		decoded int64
	}{
		{"grey PNG", bombs.PNG(8000, 8000, 8, bombs.Gray, true), "png", 8, 64_000_000},
		{"16-bit RGBA PNG", bombs.PNG(7000, 7000, 16, bombs.RGBA, true), "png", 16, 392_000_000},
		{"palette PNG", bombs.PNG(7000, 7000, 8, bombs.Palette, false), "png", 8, 49_000_000},
		{"RGB PNG (decodes to RGBA)", bombs.PNG(100, 100, 8, bombs.RGB, true), "png", 8, 40_000},
		{"4:2:0 JPEG", bombs.JPEG(1000, 1000), "jpeg", 8, 1_500_000},
		{"lossy WebP", bombs.WebPLossy(7000, 7000), "webp", 8, 73_500_000},
		{"lossless WebP", bombs.WebPLossless(7000, 7000), "webp", 8, 196_000_000},
	} {
		h, err := imagebudget.Inspect(bytes.NewReader(tc.img), int64(len(tc.img)))
		if err != nil || h.Format != tc.format || h.BitDepth != tc.depth || h.DecodedBytes != tc.decoded {
			t.Errorf("%s: %+v %v, want %s, %d bits, %d bytes", tc.name, h, err, tc.format, tc.depth, tc.decoded)
		}
	}
	if _, err := imagebudget.Inspect(bytes.NewReader([]byte("GIF89a")), 6); !errors.Is(err, imagebudget.ErrUnreadable) {
		t.Errorf("a GIF: %v", err)
	}
}

func TestLimitsCheck(t *testing.T) {
	l := imagebudget.Limits{MaxWidth: 2000, MaxHeight: 1000, MaxPixels: 1_500_000, MaxBitDepth: 8, MaxDecodedBytes: 4_000_000}
	for _, tc := range []struct {
		h    imagebudget.Header
		want error
	}{
		{imagebudget.Header{Width: 2000, Height: 500, BitDepth: 8, DecodedBytes: 4_000_000}, nil},
		{imagebudget.Header{Width: 2001, Height: 10, BitDepth: 8}, imagebudget.ErrTooLarge},
		{imagebudget.Header{Width: 10, Height: 1001, BitDepth: 8}, imagebudget.ErrTooLarge},
		{imagebudget.Header{Width: 1500, Height: 1001, BitDepth: 8}, imagebudget.ErrTooLarge},
		{imagebudget.Header{Width: 100, Height: 100, BitDepth: 8, DecodedBytes: 4_000_001}, imagebudget.ErrTooLarge},
		{imagebudget.Header{Width: 100, Height: 100, BitDepth: 16}, imagebudget.ErrBitDepth},
	} {
		if err := l.Check(tc.h); !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
			t.Errorf("%+v: %v, want %v", tc.h, err, tc.want)
		}
	}
}
