package datadir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// Resolve: a name that exists is itself; else it is looked up in the data
// folder and its family's folder, with or without ".txt"; without a data
// folder the error says what to set.
func TestResolve(t *testing.T) {
	d := t.TempDir()
	for _, f := range []string{"sliding/korf100.txt", "samegame/standard20.txt", "jigsaw/mit432/1.png"} {
		p := filepath.Join(d, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvVar, d)
	for _, c := range []struct{ name, family, want string }{
		{"korf100", "sliding", "sliding/korf100.txt"},
		{"sliding/korf100.txt", "sliding", "sliding/korf100.txt"},
		{"sliding/korf100", "", "sliding/korf100.txt"},
		{"standard20.txt", "samegame", "samegame/standard20.txt"},
		{"mit432", "jigsaw", "jigsaw/mit432"},
	} {
		got, err := Resolve(c.name, c.family)
		if err != nil || got != filepath.Join(d, c.want) {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %s", c.name, c.family, got, err, c.want)
		}
	}
	if _, err := Resolve("korf1000", "sliding"); err == nil || !strings.Contains(err.Error(), "no such file, nor") {
		t.Errorf("a missing set: %v", err)
	}
	t.Setenv(EnvVar, filepath.Join(d, "none"))
	if _, err := Resolve("korf100", "sliding"); err == nil || !strings.Contains(err.Error(), "set "+EnvVar) {
		t.Errorf("no data folder: %v", err)
	}
}
