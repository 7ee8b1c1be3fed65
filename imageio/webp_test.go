package imageio

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"runtime"
	"testing"
	"time"

	"tessera/internal/imagetest"
)

func TestSolidWebP(t *testing.T) {
	img, err := DecodeBytesContext(t.Context(), imagetest.SolidWebP(33, 17, 10, 20, 30), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := img.Pix.NRGBA64At(32, 16); img.Format != "webp" || img.Pix.Bounds() != image.Rect(0, 0, 33, 17) || c.R != 10*257 || c.G != 20*257 || c.B != 30*257 || c.A != 0xffff {
		t.Fatalf("%s %v %v", img.Format, img.Pix.Bounds(), c)
	}
}

// TestDecodeReturnsOnCancel: a decoder that does not read its input (the
// WebP decoder filling a large image) no longer holds DecodeBytesContext
// past the end of its context (issue 38, items 6 and 7).
func TestDecodeReturnsOnCancel(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	blocking := func() (image.Image, error) { <-release; return nil, errors.New("released") }
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := background(ctx, blocking); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("returned %v after a 20 ms budget", d)
	}
	// A real one: decoding 4096x4096 solid pixels (16 Mpx) with a budget
	// of 5 ms returns in well under the time the whole decode takes.
	data := imagetest.SolidWebP(4096, 4096, 1, 2, 3)
	start = time.Now()
	if _, err := DecodeBytesContext(t.Context(), data, Options{}); err != nil {
		t.Fatal(err)
	}
	whole := time.Since(start)
	ctx, cancel = context.WithTimeout(t.Context(), 5*time.Millisecond)
	defer cancel()
	start = time.Now()
	if _, err := DecodeBytesContext(ctx, data, Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("4096x4096 WebP in 5 ms: %v", err)
	}
	if d := time.Since(start); d > whole/2 {
		t.Fatalf("4096x4096 WebP with a 5 ms budget: returned after %v; the whole decode takes %v", d, whole)
	} else {
		t.Logf("4096x4096 WebP with a 5 ms budget: returned after %v; the whole decode takes %v", d, whole)
	}
}

// TestDecodeCostBounds: DecodeCost bounds what DecodeReduced allocates
// beyond its output, measured, and counts the DCT coefficients that a
// progressive JPEG keeps (issue 38, item 7: the upload bound of 512 MiB
// was on estimates while the server peaked at 949 MiB).
func TestDecodeCostBounds(t *testing.T) {
	const w, h = 768, 512
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, pattern(w, h, false), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	// Images decoded whole (a streamed PNG allocates and drops zlib's
	// tables block by block: its total allocation is not what it holds).
	for name, data := range map[string][]byte{"jpeg": jpg.Bytes(), "webp": imagetest.SolidWebP(w, h, 1, 2, 3)} {
		cost, err := DecodeCost(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []int{1, 4} {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			out, err := DecodeReduced(data, image.Rect(0, 0, w, h), f)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			alloc := int64(after.TotalAlloc-before.TotalAlloc) - int64(len(out.Pix))
			if alloc > cost {
				t.Errorf("%s reduced by %d: allocated %d bytes beyond its output, DecodeCost says %d", name, f, alloc, cost)
			} else {
				t.Logf("%s reduced by %d: allocated %d bytes beyond its output, DecodeCost %d", name, f, alloc, cost)
			}
		}
	}
	// The same JPEG header marked progressive (SOF2): the coefficients,
	// 4 bytes a component a pixel, are counted before anything is decoded.
	prog := bytes.Clone(jpg.Bytes())
	i := bytes.Index(prog, []byte{0xff, 0xc0})
	prog[i+1] = 0xc2
	base, _ := DecodeCost(jpg.Bytes())
	if cost, err := DecodeCost(prog); err != nil || cost < base+12*w*h {
		t.Errorf("progressive JPEG: DecodeCost %d (%v), baseline %d: want the coefficients' %d more", cost, err, base, 12*w*h)
	}
}
