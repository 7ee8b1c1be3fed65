package imageio

import (
	"bytes"
	"encoding/binary"
	"image"
)

// Orientation returns the EXIF orientation (1 to 8) recorded in an encoded
// PNG (eXIf chunk), JPEG (APP1 Exif segment) or WebP (EXIF chunk), or 1 when
// there is none or it cannot be read. It never panics on malformed data.
func Orientation(data []byte) int {
	var tiff []byte
	switch Sniff(data) {
	case "jpeg":
		tiff = jpegExif(data)
	case "png":
		tiff = pngChunk(data, "eXIf")
	case "webp":
		tiff = webpChunk(data, "EXIF")
	}
	tiff = bytes.TrimPrefix(tiff, []byte("Exif\x00\x00"))
	if o := tiffOrientation(tiff); o >= 1 && o <= 8 {
		return o
	}
	return 1
}

// jegExif returns the TIFF data of the first APP1 Exif segment.
func jpegExif(d []byte) []byte {
	for i := 2; i+4 <= len(d); {
		if d[i] != 0xff {
			return nil
		}
		marker := d[i+1]
		if marker == 0xff { // fill byte
			i++
			continue
		}
		if marker == 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker == 0x01 {
			i += 2
			continue
		}
		if marker == 0xda || marker == 0xd9 { // start of scan, end of image
			return nil
		}
		n := int(binary.BigEndian.Uint16(d[i+2:]))
		if n < 2 || i+2+n > len(d) {
			return nil
		}
		seg := d[i+4 : i+2+n]
		if marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return seg
		}
		i += 2 + n
	}
	return nil
}

// pngChunk returns the data of the first chunk of the given type.
func pngChunk(d []byte, typ string) []byte {
	for i := 8; i+12 <= len(d); {
		n := int(binary.BigEndian.Uint32(d[i:]))
		if n < 0 || n > len(d)-i-12 {
			return nil
		}
		if string(d[i+4:i+8]) == typ {
			return d[i+8 : i+8+n]
		}
		if string(d[i+4:i+8]) == "IDAT" {
			return nil // eXIf must come before the image data
		}
		i += 12 + n
	}
	return nil
}

// webpChunk returns the data of the first RIFF chunk of the given type.
func webpChunk(d []byte, typ string) []byte {
	for i := 12; i+8 <= len(d); {
		n := int(binary.LittleEndian.Uint32(d[i+4:]))
		if n < 0 || n > len(d)-i-8 {
			return nil
		}
		if string(d[i:i+4]) == typ {
			return d[i+8 : i+8+n]
		}
		i += 8 + n + n&1
	}
	return nil
}

// tiffOrientation reads tag 0x0112 of IFD0, or returns 0.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	off := int64(bo.Uint32(t[4:]))
	if off < 8 || off+2 > int64(len(t)) {
		return 0
	}
	n := int64(bo.Uint16(t[off:]))
	for k := range n {
		e := off + 2 + 12*k
		if e+12 > int64(len(t)) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 && bo.Uint16(t[e+2:]) == 3 { // SHORT
			return int(bo.Uint16(t[e+8:]))
		}
	}
	return 0
}

// Orient returns m turned upright for display according to EXIF
// orientation o: 2 mirrors left-right, 3 turns 180 degrees, 4 mirrors
// top-bottom, 5 transposes, 6 turns 90 degrees clockwise, 7 transverses,
// 8 turns 90 degrees counter-clockwise. Orientation 1 or an unknown value
// returns m itself.
func Orient(m *image.NRGBA64, o int) *image.NRGBA64 {
	if o < 2 || o > 8 {
		return m
	}
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := w, h
	if o >= 5 {
		ow, oh = h, w
	}
	out := image.NewNRGBA64(image.Rect(0, 0, ow, oh))
	for y := range oh {
		for x := range ow {
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
			s := m.PixOffset(b.Min.X+sx, b.Min.Y+sy)
			copy(out.Pix[y*out.Stride+8*x:y*out.Stride+8*x+8], m.Pix[s:s+8])
		}
	}
	return out
}
