package terms

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"

	"swapbay/lib/imagebudget"
)

// SignatureLimits bound a signature image by its header, before any decode: the signature pad
// draws at most 450×120 CSS pixels (ui/src/features/auth/utils/terms-acceptance.ts), so
// 2000×1000 leaves room for any screen density, and 8 bits a channel is what a canvas makes.
var SignatureLimits = imagebudget.Limits{MaxWidth: 2000, MaxHeight: 1000, MaxBitDepth: 8}

// Refusals of BoundSignature.
var (
	ErrSignatureNotPNG     = errors.New("the signature is not a readable PNG image")
	ErrSignatureDimensions = errors.New("the signature image is larger than 2000×1000 pixels or deeper than 8 bits a channel")
)

// BoundSignature checks a signature PNG's header against SignatureLimits, then decodes it (in
// an imagebudget slot) and returns it re-encoded: the agreement stores, and its PDF embeds,
// this bounded image, never the bytes uploaded.
func BoundSignature(raw []byte) ([]byte, error) {
	if err := checkSignature(raw); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	err := imagebudget.Decode(func() error {
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			return ErrSignatureNotPNG
		}
		return png.Encode(&out, img) // a fresh PNG: only the pixels, no chunk of the upload
	})
	if err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// checkSignature refuses a signature whose header is not a PNG within SignatureLimits.
func checkSignature(raw []byte) error {
	h, err := imagebudget.Inspect(bytes.NewReader(raw), int64(len(raw)))
	if err != nil || h.Format != "png" {
		return ErrSignatureNotPNG
	}
	if err := SignatureLimits.Check(h); err != nil {
		return fmt.Errorf("%w (%v)", ErrSignatureDimensions, err)
	}
	return nil
}
