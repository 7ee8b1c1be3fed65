package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTangramTurns: a classic figure written with its orientations hidden
// (generate -classic -turns flip) is solved by the exact solver; sdp on it
// works on the augmented puzzle and writes its pictures (two SDPs: the
// pictures, not the solve, are under test here); render -turns draws the
// augmented puzzle of the solution (Figure 7); generate -turns -given gives
// the orientations away, and sdp solves that translation-only puzzle.
func TestTangramTurns(t *testing.T) {
	dir, hidden, _ := generateFiles(t, "tangram", "", "-classic", "t", "-turns", "flip")
	sol := filepath.Join(dir, "s.txt")
	if b, _ := os.ReadFile(hidden); !strings.Contains(string(b), "turns flip") {
		t.Fatalf("no turns line: %s", b)
	}
	if code, out, errOut := runCmd(t, "", "tangram", "solve", "-algo", "exact", hidden, "-solution", sol); code != 0 {
		t.Fatalf("exact: %s %s", out, errOut)
	}
	snaps := filepath.Join(dir, "snaps")
	code, out, _ := runCmd(t, "", "tangram", "solve", "-algo", "sdp", "-max-iter", "2", "-snapshots", snaps, hidden)
	if code != 0 && code != 1 || !strings.Contains(out, "Z_i of 21 rows") {
		t.Fatalf("sdp: exit %d %q", code, out)
	}
	fig := filepath.Join(dir, "fig7.png")
	mustRunCmd(t, "tangram", "render", "-turns", "flip", hidden, sol, "-o", fig)
	checkPNGs(t, fig, filepath.Join(snaps, "augmented.png"), filepath.Join(snaps, "augmented-02.png"), filepath.Join(snaps, "iterates.png"))
	given := filepath.Join(dir, "g.txt")
	mustRunCmd(t, "tangram", "generate", "-seed", "3", "-turns", "rotate", "-given", "-o", given)
	if code, out, _ := runCmd(t, "", "tangram", "solve", "-algo", "sdp", given); code != 0 || !strings.Contains(out, "solved     true") {
		t.Fatalf("sdp on the given orientations: %d %q", code, out)
	}
	if code, _, _ := runCmd(t, "", "tangram", "solve", "-turns", "sideways", given); code != 2 {
		t.Errorf("-turns sideways: exit %d, want 2", code)
	}
}
