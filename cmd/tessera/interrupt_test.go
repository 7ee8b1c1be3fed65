package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/internal/imagetest"
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

// TestInterruptDecoding: jigsaw scramble and jigsaw neural solve stop
// while decoding a WebP whose decoder does not read (issue 38, item 6).
func TestInterruptDecoding(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.webp")
	if err := os.WriteFile(big, imagetest.SolidWebP(4000, 4000, 100, 200, 50), 0o644); err != nil {
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
