package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runInterrupted runs a command line whose context is cancelled after
// delay, as the first Ctrl-C does, and fails unless it returns within 2 s
// of the cancellation (issue 38, item 6). It returns the exit status and
// stderr.
func runInterrupted(t *testing.T, delay time.Duration, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}) }()
	select {
	case code := <-done:
		t.Fatalf("%q ended before the interrupt (exit %d): %s", args, code, errOut.String())
	case <-time.After(delay):
	}
	cancel()
	start := time.Now()
	select {
	case code := <-done:
		t.Logf("%q: exit %d %v after the interrupt", args, code, time.Since(start).Round(time.Millisecond))
		return code, errOut.String()
	case <-time.After(2 * time.Second):
		t.Fatalf("%q still running 2 s after the interrupt", args)
	}
	return 0, ""
}

func TestInterruptShuffle(t *testing.T) {
	code, errOut := runInterrupted(t, 100*time.Millisecond, "npuzzle", "shuffle", "-size", "10x10", "-moves", "100000000")
	if code != exitFailed || !strings.Contains(errOut, "canceled") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestInterruptTangramBench(t *testing.T) {
	code, errOut := runInterrupted(t, 200*time.Millisecond, "tangram", "bench", "-n", "100000", "-algo", "exact")
	if code != exitFailed || !strings.Contains(errOut, "canceled") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// solidWebP returns a lossless WebP of w x h pixels of one colour in a few
// bytes (every prefix code has one symbol): its decoder fills the pixels
// without reading, for seconds at 100 Mpx.
func solidWebP(w, h int) []byte {
	var bits []bool
	put := func(v uint32, n int) {
		for i := range n {
			bits = append(bits, v>>i&1 == 1)
		}
	}
	put(uint32(w-1), 14)
	put(uint32(h-1), 14)
	// No alpha, version 0, no transform, no colour cache, no meta codes.
	put(0, 7)
	// The codes of green, red, blue, alpha and distance.
	for _, sym := range []uint32{200, 100, 50, 255, 0} {
		put(0b101, 3) // a simple code of one symbol written in 8 bits
		put(sym, 8)
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

// TestInterruptDecoding: jigsaw scramble and jigsaw neural solve stop
// while decoding a WebP whose decoder does not read (issue 38, item 6).
func TestInterruptDecoding(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.webp")
	if err := os.WriteFile(big, solidWebP(4000, 4000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"jigsaw", "scramble", "-piece", "100", "-o", filepath.Join(t.TempDir(), "s.png"), big},
		{"jigsaw", "neural", "solve", big},
	} {
		code, errOut := runInterrupted(t, 50*time.Millisecond, args...)
		if code != exitFailed || !strings.Contains(errOut, "canceled") {
			t.Errorf("%q: exit %d: %s", args, code, errOut)
		}
	}
}
