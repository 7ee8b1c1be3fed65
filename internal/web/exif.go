package web

import (
	"encoding/binary"
	"image"
)

// exifOrientation returns the EXIF orientation (1 to 8) of a JPEG file, or
// 1 when it has none or the data is malformed. It reads the APP1 "Exif"
// segment's first IFD for tag 0x0112, and stops at the image data.
func exifOrientation(jpg []byte) int {
	if len(jpg) < 4 || jpg[0] != 0xFF || jpg[1] != 0xD8 {
		return 1
	}
	for p := 2; p+4 <= len(jpg); {
		if jpg[p] != 0xFF {
			return 1
		}
		marker := jpg[p+1]
		if marker == 0xFF { // fill byte
			p++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			return 1
		}
		n := int(binary.BigEndian.Uint16(jpg[p+2:]))
		if n < 2 || p+2+n > len(jpg) {
			return 1
		}
		seg := jpg[p+4 : p+2+n]
		if marker == 0xE1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
		p += 2 + n
	}
	return 1
}

// tiffOrientation reads the orientation tag from a TIFF header and its
// first IFD.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:4]) {
	case "II*\x00":
		bo = binary.LittleEndian
	case "MM\x00*":
		bo = binary.BigEndian
	default:
		return 1
	}
	ifd := int64(bo.Uint32(t[4:]))
	if ifd+2 > int64(len(t)) {
		return 1
	}
	count := int64(bo.Uint16(t[ifd:]))
	for i := range count {
		e := ifd + 2 + 12*i
		if e+12 > int64(len(t)) {
			return 1
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		if bo.Uint16(t[e+2:]) != 3 { // SHORT
			return 1
		}
		if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
			return o
		}
		return 1
	}
	return 1
}

// orient returns the square picture m turned by EXIF orientation o, so
// that it shows upright: 2 mirrors it, 3 turns it half a turn, 4 flips it,
// 5 transposes it, 6 turns it a quarter clockwise, 7 transverses it, 8
// turns it a quarter counter-clockwise.
func orient(m *image.RGBA, o int) *image.RGBA {
	if o <= 1 || o > 8 {
		return m
	}
	n := m.Rect.Dx() // square
	out := image.NewRGBA(m.Rect)
	for y := range n {
		for x := range n {
			// (x, y) in the output comes from (sx, sy) in m.
			var sx, sy int
			switch o {
			case 2:
				sx, sy = n-1-x, y
			case 3:
				sx, sy = n-1-x, n-1-y
			case 4:
				sx, sy = x, n-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, n-1-x
			case 7:
				sx, sy = n-1-y, n-1-x
			case 8:
				sx, sy = n-1-y, x
			}
			copy(out.Pix[out.PixOffset(x, y):][:4], m.Pix[m.PixOffset(sx, sy):][:4])
		}
	}
	return out
}
