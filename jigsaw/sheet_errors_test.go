package jigsaw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image/png"
	"testing"

	"tessera/imageio"
)

// pngChunk encodes one PNG chunk.
func pngChunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(append(out, typ...), data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[4:]))
}

// A file that is not a usable image is reported as such, not as a sheet
// that does not record its piece size (issue 22, item 9).
func TestReadSheetReportsBadFileFirst(t *testing.T) {
	var sheet bytes.Buffer
	if err := png.Encode(&sheet, noise(56, 28, 3)); err != nil {
		t.Fatal(err)
	}
	ihdr := binary.BigEndian.AppendUint32(nil, 60000)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 60000)
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	bomb := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
	bomb = append(bomb, pngChunk("IEND", nil)...)
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, imageio.ErrEmpty},
		{"garbage", []byte("this is not a picture at all, just some text"), imageio.ErrFormat},
		{"truncated", sheet.Bytes()[:sheet.Len()/2], imageio.ErrCorrupt},
		{"bomb", bomb, imageio.ErrTooLarge},
	}
	for _, c := range cases {
		_, err := ReadSheet(bytes.NewReader(c.data), SheetOptions{})
		if !errors.Is(err, c.want) || errors.Is(err, ErrPieceSize) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}
