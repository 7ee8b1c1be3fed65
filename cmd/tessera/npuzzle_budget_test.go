package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 22, items 5 and 13: the -timeout and -max-mem of npuzzle solve
// cover the pattern database's build, with a message that names the budget
// and the way out; a table that cannot be cached is warned of on stderr.
func TestNpuzzleSolvePDBBudgets(t *testing.T) {
	board := "8 6 7/2 5 4/3 0 1"
	part := []string{"-size", "3x3", "-partition", "1,2,3,4/5,6,7,8"}
	solve := func(flags ...string) (int, string, string) {
		return runCmd(t, "", append(append(append([]string{"npuzzle", "solve", "-algo", "idastar", "-h", "pdb"}, part...), flags...), board)...)
	}

	// -timeout ends during the build (nothing cached): a clear error.
	code, _, errOut := solve("-cache", t.TempDir(), "-timeout", "1ns")
	if code != 1 || !strings.Contains(errOut, "no pattern database") || !strings.Contains(errOut, "-timeout 1ns") ||
		!strings.Contains(errOut, "tessera npuzzle pdb build -size 3x3 -partition 1,2,3,4/5,6,7,8") {
		t.Errorf("-timeout 1ns: exit %d, %q", code, errOut)
	}

	// -max-mem below what a table's build needs: refused before building.
	cache := t.TempDir()
	code, _, errOut = runCmd(t, "", "npuzzle", "solve", "-algo", "idastar", "-h", "pdb", "-partition", "5-5-5", "-cache", cache, "-max-mem", "1",
		"1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15")
	if code != 1 || !strings.Contains(errOut, "-max-mem 1 MiB") || !strings.Contains(errOut, "building table 3 of 3 (5 tiles) needs about 2 MiB") ||
		!strings.Contains(errOut, "tessera npuzzle pdb build -partition 5-5-5") {
		t.Errorf("-max-mem 1: exit %d, %q", code, errOut)
	}
	if files, _ := os.ReadDir(cache); len(files) != 0 {
		t.Errorf("-max-mem 1 built %d files", len(files))
	}

	// A cache that cannot be written (a file in the way): solved, with one
	// warning naming the path and the reason.
	blocked := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocked, []byte("x"), 0o644)
	code, out, errOut := solve("-cache", blocked)
	if code != 0 || !strings.Contains(out, "length   31") || strings.Count(errOut, "warning") != 1 ||
		!strings.Contains(errOut, "not cached") || !strings.Contains(errOut, blocked) {
		t.Errorf("unwritable cache: exit %d, %q, %q", code, out, errOut)
	}
}

// -sparse (issue 43, item 2): the same solution as the zone tables, a
// refusal for plain tables, and over -max-mem a message that names the
// sparse tables and both ways out.
func TestNpuzzleSolveSparse(t *testing.T) {
	cache := t.TempDir()
	solve := func(flags ...string) (int, string, string) {
		return runCmd(t, "", append(append([]string{"npuzzle", "solve", "-algo", "idastar", "-h", "pdb", "-size", "3x3", "-cache", cache}, flags...),
			"8 6 7/2 5 4/3 0 1")...)
	}
	zone := []string{"-partition", "1,2,3,4/5,6,7,8+zero"}
	code, want, errOut := solve(zone...)
	if code != 0 || !strings.Contains(want, "length   31") {
		t.Fatalf("zone tables: exit %d, %q, %q", code, want, errOut)
	}
	// The moves and the counts, not the times.
	search := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(l, "moves"):
				keep = append(keep, l)
			case strings.HasPrefix(l, "search"):
				keep = append(keep, l[:strings.LastIndexByte(l, ',')+1])
			}
		}
		return strings.Join(keep, "\n")
	}
	if code, out, errOut := solve(append(zone, "-sparse")...); code != 0 || search(out) != search(want) || len(search(want)) < 40 {
		t.Errorf("-sparse: exit %d, %q, %q; want %q", code, out, errOut, want)
	}
	if code, _, errOut := solve("-partition", "1,2,3,4/5,6,7,8", "-sparse"); code != 1 || !strings.Contains(errOut, "zero-aware") {
		t.Errorf("-sparse with plain tables: exit %d, %q", code, errOut)
	}
	// The 24-puzzle's sparse tables (3.9 GB) and zone tables are refused
	// before any table is read or built.
	code, _, errOut = runCmd(t, "", "npuzzle", "solve", "-algo", "idastar", "-h", "pdb", "-partition", "6-6-6-6+zero", "-sparse", "-cache", cache,
		"-max-mem", "4096", "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24")
	if code != 1 || !strings.Contains(errOut, "sparse tables of 6-6-6-6+zero need about") || !strings.Contains(errOut, "drop -sparse") {
		t.Errorf("-sparse over -max-mem: exit %d, %q", code, errOut)
	}
}

// TestShuffleMovesBounded: -moves beyond 0..maxShuffleMoves is a usage
// error (issue 38, item 7), not a walk of 2^63 steps or the default.
func TestShuffleMovesBounded(t *testing.T) {
	for _, m := range []string{"-5", "-1", "9223372036854775807", "100000001"} {
		code, out, errOut := runCmd(t, "", "npuzzle", "shuffle", "-size", "10x10", "-moves", m)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "-moves") {
			t.Errorf("-moves %s: exit %d, stdout %q, stderr %q; want a usage error", m, code, out, errOut)
		}
	}
	if code, out, errOut := runCmd(t, "", "npuzzle", "shuffle", "-size", "3x3", "-moves", "0", "-json"); code != 0 || !strings.Contains(out, `"board":"1 2 3/4 5 6/7 8 0"`) {
		t.Errorf("-moves 0: exit %d %q %q", code, out, errOut)
	}
}
