// Package bombs makes hostile images for tests: small files whose headers claim huge pictures
// (decompression bombs) in each format SwapBay accepts. Only tests import it.
package bombs

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/jpeg"
)

// PNG colour types.
const (
	Gray    = 0
	RGB     = 2
	Palette = 3
	RGBA    = 6
)

func chunk(b *bytes.Buffer, typ string, data []byte) {
	_ = binary.Write(b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	_ = binary.Write(b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

// PNG returns a w×h PNG of zero pixels at depth bits of colourType, compressed as far as
// zlib goes (an 8000×8000 grey one is about 64 KB). With headerOnly the image data is left
// out: the header is all a header check reads.
func PNG(w, h uint32, depth, colourType byte, headerOnly bool) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
	chunk(&b, "IHDR", append(ihdr, depth, colourType, 0, 0, 0))
	if colourType == Palette {
		chunk(&b, "PLTE", []byte{0, 0, 0, 255, 255, 255})
	}
	if !headerOnly {
		channels := map[byte]int{Gray: 1, RGB: 3, Palette: 1, RGBA: 4}[colourType]
		row := make([]byte, 1+(int(w)*channels*int(depth)+7)/8)
		var z bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
		for y := uint32(0); y < h; y++ {
			_, _ = zw.Write(row)
		}
		_ = zw.Close()
		chunk(&b, "IDAT", z.Bytes())
	}
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

// JPEG returns a w×h 4:2:0 JPEG of one flat colour (a 7000×7000 one is a few hundred KB
// and decodes to 73 MB).
func JPEG(w, h int) []byte {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 10})
	return b.Bytes()
}

// riff wraps one WebP chunk.
func riff(fourcc string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(4+8+len(payload)+len(payload)&1))
	b.WriteString("WEBP")
	b.WriteString(fourcc)
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(payload)))
	b.Write(payload)
	if len(payload)&1 == 1 {
		b.WriteByte(0)
	}
	return b.Bytes()
}

// WebPLossy returns a lossy WebP (VP8 key frame) claiming w×h (at most 16383 each), with
// garbage after its header: a decoder allocates the picture before it finds out.
func WebPLossy(w, h int) []byte {
	p := []byte{0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a} // key frame tag (first partition 16 bytes), start code
	p = binary.LittleEndian.AppendUint16(p, uint16(w&0x3fff))
	p = binary.LittleEndian.AppendUint16(p, uint16(h&0x3fff))
	return riff("VP8 ", append(p, make([]byte, 64)...))
}

// WebPLossless returns a lossless WebP (VP8L) claiming w×h (at most 16384 each), with
// garbage after its header.
func WebPLossless(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14
	p := binary.LittleEndian.AppendUint32([]byte{0x2f}, bits)
	return riff("VP8L", append(p, make([]byte, 64)...))
}
