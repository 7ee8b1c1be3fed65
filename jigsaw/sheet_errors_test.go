package jigsaw

import (
	"bytes"
	"errors"
	"image/png"
	"testing"

	"tessera/imageio"
	"tessera/internal/imagetest"
)

// A file that is not a usable image is reported as such, not as a sheet
// that does not record its piece size (issue 22, item 9).
func TestReadSheetReportsBadFileFirst(t *testing.T) {
	var sheet bytes.Buffer
	if err := png.Encode(&sheet, noise(56, 28, 3)); err != nil {
		t.Fatal(err)
	}
	bomb := append(imagetest.PNGHeader(60000, 60000, 8, 2), imagetest.PNGChunk("IEND", nil)...)
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
