package npuzzle

import (
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"tessera/search"
)

// Issue 22, item 6: Limits.MaxBytes bounds memory, not a count of stored
// states: a search that outgrows it stops with an error naming the bound,
// with the heap's objects (live or not yet collected) within 1.5 times
// the bound. Before, the bound counted the states' bytes and the heap
// reached 2.2 to 2.9 times it.
func TestMaxBytesBoundsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("searches until 48 MiB are used")
	}
	const bound = 48 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(4 * bound))
	b, err := Parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", Size{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Solver{BFS{}, BidirectionalBFS{}, AStar{Heuristic: Manhattan}} {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		peak := uint64(0)
		sample := func(search.Stats) { // the heap's objects, live or not yet collected
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc-min(base, ms.HeapAlloc))
		}
		limits := Limits{MaxBytes: bound, Progress: sample}
		switch v := s.(type) {
		case BFS:
			v.Limits = limits
			s = v
		case BidirectionalBFS:
			v.Limits = limits
			s = v
		case AStar:
			v.Limits = limits
			s = v
		}
		_, err := s.Solve(t.Context(), b, BlankFirst)
		sample(search.Stats{})
		if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "memory bound of 48 MiB") {
			t.Fatalf("%v: %v, want the memory bound", s, err)
		}
		t.Logf("%v: heap %.1f MiB at most for a bound of 48 MiB", s, float64(peak)/(1<<20))
		if peak > bound*3/2 {
			t.Errorf("%v: the heap reached %.1f MiB, over 1.5 times the bound of 48 MiB", s, float64(peak)/(1<<20))
		}
	}
}
