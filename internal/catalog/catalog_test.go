package catalog

import (
	"strings"
	"testing"
)

type fakeSolver struct{ n int }

func TestTableLookup(t *testing.T) {
	tab := Table[fakeSolver, int]{
		{ID: "a", Name: "A", Doc: "first", Optimal: true, New: func(n int) (fakeSolver, error) { return fakeSolver{n}, nil }},
		{ID: "b", Name: "B", Doc: "second", New: func(n int) (fakeSolver, error) { return fakeSolver{2 * n}, nil }},
	}
	s, err := tab.New("b", 3)
	if err != nil || s.n != 6 {
		t.Fatalf("New(b, 3) = %v, %v; want {6}", s, err)
	}
	if _, err := tab.New("c", 1); err == nil || !strings.Contains(err.Error(), "a, b") {
		t.Errorf("New(c) error %v; want one naming a, b", err)
	}
	if h := tab.Help(); !strings.Contains(h, "optimal") || !strings.Contains(h, "second") {
		t.Errorf("Help() = %q", h)
	}
	if m := tab.Menu(); len(m) != 2 || m[0].ID != "a" || !m[0].Optimal || m[1].Optimal {
		t.Errorf("Menu() = %+v", m)
	}
}

// TestTablesWellFormed checks every family table: unique lower-case ids,
// a name and a doc line for each.
func TestTablesWellFormed(t *testing.T) {
	for fam, menu := range Families() {
		seen := map[string]bool{}
		for _, e := range menu {
			if e.ID == "" || e.ID != strings.ToLower(e.ID) || strings.ContainsAny(e.ID, " ,") {
				t.Errorf("%s: bad id %q", fam, e.ID)
			}
			if seen[e.ID] {
				t.Errorf("%s: id %q twice", fam, e.ID)
			}
			seen[e.ID] = true
			if e.Name == "" || e.Doc == "" || strings.Contains(e.Doc, "\n") {
				t.Errorf("%s %s: needs a name and a one-line doc", fam, e.ID)
			}
		}
	}
}
