package datadir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestEnvOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sliding"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvVar, dir)
	got, err := Dir()
	if err != nil || got != dir {
		t.Fatalf("Dir() = %q, %v; want %q", got, err, dir)
	}
	if p, err := Path("sliding"); err != nil || p != filepath.Join(dir, "sliding") {
		t.Fatalf("Path(sliding) = %q, %v", p, err)
	}
	if _, err := Path("nosuch"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Path(nosuch) = %v, want ErrNotFound", err)
	}
	t.Setenv(EnvVar, filepath.Join(dir, "missing"))
	if _, err := Dir(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing folder: %v, want ErrNotFound", err)
	}
}
