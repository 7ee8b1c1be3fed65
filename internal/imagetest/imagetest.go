// Package imagetest writes picture files byte by byte for tests: PNG
// chunks and headers (for the colour types, depths and filters the
// standard encoder does not write, and for headers without a body) and a
// WebP that is cheap to store and slow to decode. Tests only: no solver
// or front end imports it.
package imagetest

import (
	"encoding/binary"
	"hash/crc32"
)

// PNGChunk returns a PNG chunk: the length of data, the type, data and
// the CRC of type and data.
func PNGChunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(append(out, typ...), data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[4:]))
}

// PNGHeader returns the start of a PNG of w x h pixels: the signature and
// the IHDR chunk with the bit depth and colour type (0 grey, 2 RGB, 3
// palette, 4 grey and alpha, 6 RGBA), not interlaced.
func PNGHeader(w, h uint32, depth, colorType byte) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, depth, colorType, 0, 0, 0)
	return append([]byte("\x89PNG\r\n\x1a\n"), PNGChunk("IHDR", ihdr)...)
}

// SolidWebP returns a lossless WebP (VP8L) of w x h pixels of one colour in
// a few bytes: every prefix code has a single symbol, so the pixels take no
// bits, and the decoder spends its time filling them.
func SolidWebP(w, h int, r, g, b uint8) []byte {
	var bits []bool
	put := func(v uint32, n int) {
		for i := range n {
			bits = append(bits, v>>i&1 == 1)
		}
	}
	put(uint32(w-1), 14)
	put(uint32(h-1), 14)
	put(0, 1)                                      // no alpha
	put(0, 3)                                      // version 0
	put(0, 1)                                      // no transform
	put(0, 1)                                      // no colour cache
	put(0, 1)                                      // no meta prefix codes
	for _, sym := range []uint8{g, r, b, 255, 0} { // green, red, blue, alpha, distance
		put(1, 1) // a simple code
		put(0, 1) // of one symbol
		put(1, 1) // written in 8 bits
		put(uint32(sym), 8)
	}
	data := []byte{0x2f}
	for i := 0; i < len(bits); i += 8 {
		var c byte
		for j := 0; j < 8 && i+j < len(bits); j++ {
			if bits[i+j] {
				c |= 1 << j
			}
		}
		data = append(data, c)
	}
	if len(data)%2 == 1 {
		data = append(data, 0)
	}
	out := []byte("RIFF\x00\x00\x00\x00WEBPVP8L")
	out = binary.LittleEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, data...)
	binary.LittleEndian.PutUint32(out[4:], uint32(len(out)-8))
	return out
}
