package photos

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"os"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	xdraw "golang.org/x/image/draw"

	"swapbay/lib/apierr"
	"swapbay/lib/imagebudget"
	"swapbay/lib/schema"
)

// MaxBytes is the largest image accepted (10 MB); a larger body is answered 413.
const MaxBytes = 10 << 20

// Limits bound a photo by its header, before anything decodes it (a small file that expands
// to a huge bitmap, a decompression bomb, is refused): what phone cameras take — at most
// 50 MP, 8 bits a channel — and a decoded picture of at most 100 MB (a 50 MP JPEG decodes to
// 75 MB; an RGBA PNG or lossless WebP to 4 bytes a pixel, so those stop at 25 MP).
var Limits = imagebudget.Limits{MaxPixels: 50_000_000, MaxBitDepth: 8, MaxDecodedBytes: 100 << 20}

// uprightBytesPerPixel is what turning a JPEG upright adds to its decode (an NRGBA copy).
const uprightBytesPerPixel = 4

// JPEGQuality is the quality JPEGs are re-encoded at once their metadata is dropped.
const JPEGQuality = 90

// Messages of the upload PUT.
const (
	MsgTooLarge    = "Photo is larger than 10 MB"
	MsgUnsupported = "Only JPEG, PNG and WebP images are accepted"
	MsgUnreadable  = "The image could not be read"
	MsgTooManyPix  = "Image dimensions are too large"
	MsgBitDepth    = "Only images with 8 bits per channel are accepted"
)

// clean is an image after processing: a temporary file holding metadata-free bytes.
type clean struct {
	path        string
	contentType string
	ext         string
	sha256      string
	size        int64
}

// process streams body (at most MaxBytes) to a temporary file in dir, decides the type from
// the bytes, refuses unreadable or oversized images, and writes a second temporary file
// without EXIF/GPS or text metadata, the picture turned upright. The caller removes c.path.
func process(body io.Reader, dir string) (*clean, error) {
	raw, err := os.CreateTemp(dir, "upload-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(raw.Name())
	defer raw.Close()
	n, err := io.Copy(raw, io.LimitReader(body, MaxBytes+1))
	if err != nil {
		return nil, apierr.Invalid("file", "Upload interrupted")
	}
	if n > MaxBytes {
		return nil, apierr.TooLarge(MsgTooLarge)
	}
	head := make([]byte, 512)
	m, _ := raw.ReadAt(head, 0)
	var ext string
	ct := http.DetectContentType(head[:m])
	switch ct {
	case "image/jpeg":
		ext = ".jpg"
	case "image/png":
		ext = ".png"
	case "image/webp":
		ext = ".webp"
	default:
		return nil, apierr.Unsupported(MsgUnsupported)
	}
	orientation, err := checkLimits(raw, n)
	if err != nil {
		return nil, err
	}

	out, err := os.CreateTemp(dir, "clean-*"+ext)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		out.Close()
		if !ok {
			os.Remove(out.Name())
		}
	}()
	h := sha256.New()
	counter := &countWriter{}
	w := bufio.NewWriter(io.MultiWriter(out, h, counter))
	// only a JPEG is decoded (to drop its metadata and turn it upright); a PNG and a WebP
	// lose their metadata chunks without decoding
	switch ct {
	case "image/jpeg":
		err = imagebudget.Decode(func() error {
			img, err := jpeg.Decode(io.NewSectionReader(raw, 0, n))
			if err != nil {
				return apierr.Unsupported(MsgUnreadable)
			}
			return jpeg.Encode(w, upright(img, orientation), &jpeg.Options{Quality: JPEGQuality})
		})
	case "image/png":
		err = stripPNG(w, io.NewSectionReader(raw, 0, n))
	case "image/webp":
		err = stripWebP(w, io.NewSectionReader(raw, 0, n))
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return nil, err
	}
	ok = true
	return &clean{path: out.Name(), contentType: ct, ext: ext, sha256: hex.EncodeToString(h.Sum(nil)), size: counter.n}, nil
}

// checkLimits reads the header of the image in r (n bytes) and refuses it over Limits, the
// memory of turning a JPEG upright counted; it returns the JPEG's orientation (1 otherwise).
func checkLimits(r io.ReaderAt, n int64) (int, error) {
	hdr, err := imagebudget.Inspect(r, n)
	if err != nil {
		return 0, apierr.Unsupported(MsgUnreadable)
	}
	orientation := 1
	if hdr.Format == "jpeg" {
		if orientation = jpegOrientation(io.NewSectionReader(r, 0, n)); orientation > 1 {
			hdr.DecodedBytes += uprightBytesPerPixel * hdr.Pixels()
		}
	}
	if err := Limits.Check(hdr); errors.Is(err, imagebudget.ErrBitDepth) {
		return 0, apierr.Unsupported(MsgBitDepth)
	} else if err != nil {
		return 0, apierr.TooLarge(MsgTooManyPix)
	}
	return orientation, nil
}

// thumbSide is the side of a photo's square thumbnail (schema.PhotoThumb, "400x400").
const thumbSide = 400

// thumbKey is the storage key of the thumbnail of rec's file name: the same layout as
// PocketBase's file API (apis/file.go).
func thumbKey(rec *core.Record, name string) string {
	return rec.BaseFilesPath() + "/thumbs_" + name + "/" + schema.PhotoThumb + "_" + name
}

// Thumb returns the stored 400x400 thumbnail of the photo rec (JPEG, or PNG for a PNG or
// WebP photo) from fsys, making and storing it first when there is none yet (in an
// imagebudget slot, after the header check): a reader of many photos (the incident report)
// never decodes the full pictures at once.
func Thumb(fsys *filesystem.System, rec *core.Record) ([]byte, error) {
	name := rec.GetString(schema.PhotoFile)
	if name == "" {
		return nil, apierr.NotFound(MsgPhotoNotFound)
	}
	thumb := thumbKey(rec, name)
	if ok, _ := fsys.Exists(thumb); !ok {
		if err := makeThumb(fsys, rec.BaseFilesPath()+"/"+name, thumb); err != nil {
			return nil, err
		}
	}
	r, err := fsys.GetReader(thumb)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, MaxBytes))
}

// makeThumb makes the thumbnail of the stored image at key and stores it at thumb, once the
// image's header is within Limits, in an imagebudget slot. It scales the picture's centre
// straight into the thumbnail: PocketBase's CreateThumb would also copy the whole picture
// (its crop), 4 bytes a pixel on top of the decode.
func makeThumb(fsys *filesystem.System, key, thumb string) error {
	r, err := fsys.GetReader(key)
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	r.Close()
	if err != nil {
		return err
	}
	if _, err := checkLimits(bytes.NewReader(raw), int64(len(raw))); err != nil {
		return err
	}
	var out bytes.Buffer
	err = imagebudget.Decode(func() error {
		img, format, err := image.Decode(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		small := fill(img, thumbSide, thumbSide)
		if format == "jpeg" {
			return jpeg.Encode(&out, small, &jpeg.Options{Quality: JPEGQuality})
		}
		return png.Encode(&out, small)
	})
	if err != nil {
		return err
	}
	return fsys.Upload(out.Bytes(), thumb)
}

// fill scales the largest centred w:h part of img to w×h, reading img where it is.
func fill(img image.Image, w, h int) *image.NRGBA {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw*h > sh*w {
		sw = sh * w / h
	} else {
		sh = sw * h / w
	}
	x0, y0 := b.Min.X+(b.Dx()-sw)/2, b.Min.Y+(b.Dy()-sh)/2
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, image.Rect(x0, y0, x0+sw, y0+sh), xdraw.Src, nil)
	return dst
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// jpegOrientation returns the EXIF orientation (1-8) of a JPEG, 1 when absent or unreadable.
func jpegOrientation(r io.Reader) int {
	br := bufio.NewReader(r)
	var soi [2]byte
	if _, err := io.ReadFull(br, soi[:]); err != nil || soi != [2]byte{0xFF, 0xD8} {
		return 1
	}
	for {
		var mk [4]byte
		if _, err := io.ReadFull(br, mk[:]); err != nil || mk[0] != 0xFF {
			return 1
		}
		marker := mk[1]
		size := int(binary.BigEndian.Uint16(mk[2:])) - 2
		if marker == 0xDA || size < 0 { // start of scan: no more metadata
			return 1
		}
		seg := make([]byte, size)
		if _, err := io.ReadFull(br, seg); err != nil {
			return 1
		}
		if marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return tiffOrientation(seg[6:])
		}
	}
}

// tiffOrientation reads tag 0x0112 from IFD0 of a TIFF block.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[off:]))
	for i := 0; i < count; i++ {
		e := off + 2 + i*12
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:]) == 0x0112 {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}

// upright applies EXIF orientation o to img, so the re-encoded picture (which carries no
// orientation tag) shows the way the camera meant it.
func upright(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			var sx, sy int
			switch o {
			case 2:
				sx, sy = w-1-x, y
			case 3:
				sx, sy = w-1-x, h-1-y
			case 4:
				sx, sy = x, h-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, h-1-x
			case 7:
				sx, sy = w-1-y, h-1-x
			case 8:
				sx, sy = w-1-y, x
			}
			dst.Set(x, y, img.At(b.Min.X+sx, b.Min.Y+sy))
		}
	}
	return dst
}

// errBadWebP is a WebP whose RIFF structure could not be walked.
var errBadWebP = errors.New("malformed WebP")

// stripWebP copies a WebP without its EXIF and XMP chunks, clearing their VP8X flags and
// fixing the RIFF size. The image data is copied as is (lossless).
func stripWebP(w io.Writer, r io.Reader) error {
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil || string(hdr[:4]) != "RIFF" || string(hdr[8:]) != "WEBP" {
		return apierr.Unsupported(MsgUnreadable)
	}
	var body bytes.Buffer // chunks kept; bounded by MaxBytes
	for {
		var ch [8]byte
		if _, err := io.ReadFull(r, ch[:]); err == io.EOF {
			break
		} else if err != nil {
			return apierr.Unsupported(MsgUnreadable)
		}
		size := binary.LittleEndian.Uint32(ch[4:])
		if size > MaxBytes {
			return errBadWebP
		}
		data := make([]byte, int(size)+int(size&1))
		if _, err := io.ReadFull(r, data); err != nil {
			return apierr.Unsupported(MsgUnreadable)
		}
		switch string(ch[:4]) {
		case "EXIF", "XMP ":
			continue
		case "VP8X":
			if len(data) > 0 {
				data[0] &^= 0x08 | 0x04 // EXIF and XMP present flags
			}
		}
		body.Write(ch[:])
		body.Write(data)
	}
	binary.LittleEndian.PutUint32(hdr[4:], uint32(4+body.Len()))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := body.WriteTo(w)
	return err
}

// pngKept are the chunks a stored PNG keeps: the picture and how to show its colours. Text,
// EXIF, time and any unknown chunk are dropped.
var pngKept = map[string]bool{"IHDR": true, "PLTE": true, "IDAT": true, "IEND": true, "tRNS": true,
	"gAMA": true, "cHRM": true, "sRGB": true, "iCCP": true, "sBIT": true, "pHYs": true}

// stripPNG copies a PNG without its metadata chunks (each kept chunk as is, CRC included).
func stripPNG(w io.Writer, r io.Reader) error {
	var sig [8]byte
	if _, err := io.ReadFull(r, sig[:]); err != nil || string(sig[:]) != "\x89PNG\r\n\x1a\n" {
		return apierr.Unsupported(MsgUnreadable)
	}
	if _, err := w.Write(sig[:]); err != nil {
		return err
	}
	for {
		var hdr [8]byte
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return apierr.Unsupported(MsgUnreadable) // a PNG ends with IEND
		}
		size := binary.BigEndian.Uint32(hdr[:4])
		if size > MaxBytes {
			return apierr.Unsupported(MsgUnreadable)
		}
		typ := string(hdr[4:])
		if !pngKept[typ] {
			if _, err := io.CopyN(io.Discard, r, int64(size)+4); err != nil {
				return apierr.Unsupported(MsgUnreadable)
			}
			continue
		}
		if _, err := w.Write(hdr[:]); err != nil {
			return err
		}
		if _, err := io.CopyN(w, r, int64(size)+4); err != nil {
			return apierr.Unsupported(MsgUnreadable)
		}
		if typ == "IEND" {
			return nil
		}
	}
}
