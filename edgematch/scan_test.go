package edgematch

import (
	"slices"
	"testing"
)

// checkPermutations checks that cells(rows, cols) lists every cell once
// on boards of several shapes.
func checkPermutations(t *testing.T, name string, cells func(rows, cols int) []int) {
	t.Helper()
	for _, sz := range [][2]int{{1, 1}, {1, 5}, {4, 1}, {2, 2}, {3, 7}, {6, 6}, {5, 4}} {
		got := cells(sz[0], sz[1])
		for i, c := range slices.Sorted(slices.Values(got)) {
			if c != i {
				t.Fatalf("%s on %v: %v is not a permutation", name, sz, got)
			}
		}
	}
}

func TestScans(t *testing.T) {
	scans := Scans()
	if len(scans) != 16 {
		t.Fatalf("%d scans, want 16", len(scans))
	}
	names := map[string]bool{}
	for _, s := range scans {
		name := s.String()
		if names[name] {
			t.Fatalf("two scans named %q", name)
		}
		names[name] = true
		if q, err := ParseScan(name); err != nil || q != s {
			t.Fatalf("ParseScan(%q) = %v, %v", name, q, err)
		}
		checkPermutations(t, s.String(), s.Cells)
	}
	// On a 3x4 board: where each scan starts and which cell comes next.
	for _, tc := range []struct {
		name        string
		first, next int
	}{
		{"rows from the top left", 0, 1},
		{"rows from the bottom right", 11, 10},
		{"columns from the top right", 3, 7},
		{"spiral clockwise from the top left", 0, 1},
		{"spiral counter-clockwise from the top left", 0, 4},
		{"spiral counter-clockwise from the bottom left", 8, 9},
		{"spiral clockwise from the bottom right", 11, 10},
	} {
		s, err := ParseScan(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if cells := s.Cells(3, 4); cells[0] != tc.first || cells[1] != tc.next {
			t.Errorf("%s on 3x4: starts %v", tc.name, cells[:2])
		}
	}
	if s, err := ParseScan("spiral"); err != nil || s != (Scan{Order: OrderSpiral}) {
		t.Fatalf("ParseScan(spiral) = %v, %v", s, err)
	}
	if _, err := ParseScan("rows from the middle"); err == nil {
		t.Fatal("ParseScan accepted a bad name")
	}
}

func TestOrders(t *testing.T) {
	for _, o := range []Order{OrderAuto, OrderRows, OrderColumns, OrderFrameFirst, OrderSpiral} {
		checkPermutations(t, o.String(), o.Cells)
		if q, err := ParseOrder(o.String()); err != nil || q != o {
			t.Fatalf("ParseOrder(%q) = %v, %v", o, q, err)
		}
	}
	if got := OrderSpiral.Cells(3, 3); !slices.Equal(got, []int{0, 1, 2, 5, 8, 7, 6, 3, 4}) {
		t.Fatalf("spiral 3x3: %v", got)
	}
	if got := OrderAuto.Cells(2, 3); !slices.Equal(got, OrderColumns.Cells(2, 3)) {
		t.Fatalf("auto on a wide board should scan columns: %v", got)
	}
}
