package imageio

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/ctxtest"
)

// DecodeContext stops when its context ends and Header reads only the
// header (issue 22, item 4: decoding inside the budget).
func TestDecodeContextAndHeader(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 300, 200))); err != nil {
		t.Fatal(err)
	}
	format, w, h, err := Header(b.Bytes(), Options{})
	if err != nil || format != "png" || w != 300 || h != 200 {
		t.Fatalf("header: %s %dx%d %v", format, w, h, err)
	}
	if _, _, _, err := Header(b.Bytes(), Options{MaxPixels: 1000}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("header over MaxPixels: %v", err)
	}
	if _, _, _, err := Header([]byte("GIF89a"), Options{}); !errors.Is(err, ErrFormat) {
		t.Errorf("header of a GIF: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := DecodeContext(ctx, bytes.NewReader(b.Bytes()), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := DecodeBytesContext(ctx, b.Bytes(), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled, bytes: %v", err)
	}
	img, err := DecodeContext(context.Background(), bytes.NewReader(b.Bytes()), Options{})
	if err != nil || img.Pix.Bounds().Dx() != 300 {
		t.Fatalf("decode: %v", err)
	}
}

// A budget that ends in the middle of decoding stops it.
func TestDecodeStopsMidway(t *testing.T) {
	m := image.NewNRGBA(image.Rect(0, 0, 1024, 1024))
	for i := range m.Pix {
		m.Pix[i] = uint8(i * 13)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	_, err := DecodeBytesContext(ctxtest.Countdown(context.Background(), 5), b.Bytes(), Options{})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "decoding") {
		t.Fatalf("%v", err)
	}
}

// ReadFileContext returns an open error as it is, names the file in a
// read error (over MaxBytes, or ctx ended) and reads what fits.
func TestReadFileContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.png")
	if err := os.WriteFile(path, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFileContext(t.Context(), path, Options{}); err != nil || len(data) != 100 {
		t.Fatalf("%d bytes, %v", len(data), err)
	}
	if _, err := ReadFileContext(t.Context(), path, Options{MaxBytes: 99}); !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("over MaxBytes: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ReadFileContext(ctx, path, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("ended context: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "missing.png")
	if _, err := ReadFileContext(t.Context(), missing, Options{}); !errors.Is(err, fs.ErrNotExist) || strings.HasPrefix(err.Error(), missing+": ") {
		t.Errorf("missing file: %v", err)
	}
}
