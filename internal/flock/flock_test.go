package flock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A second lock on the same file is refused while the first is held, and
// taken once it is released.
func TestLock(t *testing.T) {
	if !Supported {
		t.Skip("no flock(2) here")
	}
	path := filepath.Join(t.TempDir(), "lock")
	a, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	b, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := Lock(b); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second lock: %v", err)
	}
	a.Close()
	if err := Lock(b); err != nil {
		t.Fatalf("after the first is released: %v", err)
	}
}
