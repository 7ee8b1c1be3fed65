package npuzzle

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// Issue 22, item 5: LoadPDB's memory bound refuses a table whose build
// would go over it, before allocating anything, under a small memory limit
// that building 7-8 (519 MB) would blow; its context stops a build.
func TestLoadPDBBudgets(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(128 << 20))
	part, err := PartitionFor("7-8", Size{}, BlankFirst)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LoadPDB(t.Context(), part, PDBOptions{NoCache: true, MaxBytes: 32 << 20})
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "building table 1 of 2 (7 tiles) needs about 56 MiB, over the memory bound of 32 MiB") {
		t.Fatalf("7-8 under 32 MiB: %v", err)
	}
	// Refused before any table is built: the 8-tile one needs 519 MB
	// (the table in two orders), with the 7-tile table kept, 523 MiB.
	_, err = LoadPDB(t.Context(), part, PDBOptions{NoCache: true, MaxBytes: 512 << 20})
	if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "building table 2 of 2 (8 tiles) needs about 523 MiB, over the memory bound of 512 MiB") {
		t.Fatalf("7-8 under 512 MiB: %v", err)
	}
	if got := TableBuildBytes(Size{4, 4}, 8); got != 518918400/2*2 {
		t.Errorf("TableBuildBytes(4x4, 8) = %d", got)
	}
	small, _ := PartitionFor("1,2,3,4/5,6,7,8", Size{3, 3}, BlankLast)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := LoadPDB(ctx, small, PDBOptions{NoCache: true}); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "building table 1 of 2") {
		t.Fatalf("cancelled build: %v", err)
	}
}

// Issue 22, item 13: a table that cannot be written to the cache says why.
func TestLoadPDBNotCached(t *testing.T) {
	blocked := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocked, []byte("x"), 0o644)
	part, _ := PartitionFor("1,2,3,4/5,6,7,8", Size{3, 3}, BlankLast)
	d, err := LoadPDB(t.Context(), part, PDBOptions{CacheDir: blocked})
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range d.Tables() {
		if ti.NotCached == "" || ti.Path != "" || !strings.Contains(ti.NotCached, blocked) {
			t.Errorf("table %v: not cached %q, path %q", ti.Tiles, ti.NotCached, ti.Path)
		}
	}
}
