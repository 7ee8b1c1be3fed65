//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOInputsRefused: a FIFO named as a puzzle, a board, a journal, a
// picture or a set is a usage error at once; opening it blocked forever
// (issue 38, item 6).
func TestFIFOInputsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	puzzle := filepath.Join(dir, "p.txt")
	if code, _, errOut := runCmd(t, "", "edgematch", "generate", "-size", "4x4", "-colors", "4", "-o", puzzle); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{
		{"edgematch", "solve", fifo},
		{"edgematch", "score", puzzle, fifo},
		{"edgematch", "solve", "-count", "-split", "2", "-journal", fifo, puzzle},
		{"tangram", "solve", fifo},
		{"samegame", "solve", fifo},
		{"npuzzle", "bench", "-set", fifo},
		{"jigsaw", "scramble", "-o", filepath.Join(dir, "s.png"), fifo},
		{"jigsaw", "mosaic", "-o", filepath.Join(dir, "m.png"), fifo},
		{"jigsaw", "neural", "solve", fifo},
	} {
		done := make(chan struct{})
		var code int
		var errOut string
		go func() {
			defer close(done)
			code, _, errOut = runCmd(t, "", args...)
		}()
		select {
		case <-done:
			if code != exitUsage || !strings.Contains(errOut, "not a regular file") {
				t.Errorf("%q: exit %d %q", args, code, errOut)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q: still blocked after 5 s", args)
		}
	}
}
