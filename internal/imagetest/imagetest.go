// Package imagetest writes picture files byte by byte for tests: PNG
// chunks and headers, for the colour types, depths and filters the
// standard encoder does not write, and for headers without a body. Tests
// only: no solver or front end imports it.
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
