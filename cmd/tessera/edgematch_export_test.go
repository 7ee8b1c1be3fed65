package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/edgematch/sat"
)

// TestEdgematchExportAndSAT: export writes the CNF with its variables
// named, and solve -algo sat counts the 2x2 puzzle's 8 solutions as dfs
// does (skipped without a SAT solver on the PATH).
func TestEdgematchExportAndSAT(t *testing.T) {
	dir := t.TempDir()
	puzzle := writeTestFile(t, dir, "p.txt", solvable2x2)
	cnf := filepath.Join(dir, "p.cnf")
	mustRunCmd(t, "edgematch", "export", "-format", "dimacs", puzzle, "-o", cnf)
	data, err := os.ReadFile(cnf)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); !strings.Contains(s, "\np cnf ") || !strings.Contains(s, "\nc p 1 ") {
		t.Fatalf("export wrote %q", s)
	}
	if code, _, _ := runCmd(t, "", "edgematch", "export", "-format", "opb", puzzle); code != 2 {
		t.Errorf("-format opb: exit status %d, want 2", code)
	}
	if code, _, errOut := runCmd(t, "", "edgematch", "export", "-max-clauses", "3", puzzle); code != 1 || !strings.Contains(errOut, "-max-clauses") {
		t.Errorf("-max-clauses 3: exit status %d, %q", code, errOut)
	}
	if _, err := sat.FindSATSolver(""); err != nil {
		t.Skipf("no SAT solver on the PATH (%v); CI installs cadical", err)
	}
	code, out, errOut := runCmd(t, "", "edgematch", "solve", "-algo", "sat", "-count", puzzle)
	if code != 0 || !strings.Contains(out, "count    8 solutions") {
		t.Fatalf("sat -count: %d %q %s", code, out, errOut)
	}
	if code, _, _ := runCmd(t, "", "edgematch", "solve", "-algo", "sat", "-max-solutions", "2", puzzle); code != 2 {
		t.Errorf("-max-solutions without -count: exit status %d, want 2", code)
	}
}
