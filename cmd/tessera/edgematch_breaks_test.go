package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEdgematchBreaksAndTiles runs the two record-method searches
// (partial, the break search, and tiles) on a generated 8x8 with a node
// budget: the board is saved as it improves, rescores to the reported
// score, the run is repeatable with the seed and -workers 1, and -resume
// keeps the saved board as the floor and is itself repeatable.
func TestEdgematchBreaksAndTiles(t *testing.T) {
	dir, puzzle, _ := generateFiles(t, "edgematch", "", "-size", "8x8", "-colors", "9", "-seed", "5")
	for _, algo := range []string{"partial", "tiles"} {
		best := filepath.Join(dir, algo+".board")
		args := []string{"edgematch", "solve", "-algo", algo, "-workers", "1", "-max-nodes", "300000", "-timeout", "0", "-seed", "4", "-json", "-o", best, puzzle}
		code, out, errOut := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: %d %s", algo, code, errOut)
		}
		var rec, rec2 struct {
			Score int    `json:"score"`
			Board string `json:"board"`
			Nodes int64  `json:"nodes"`
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatalf("%s: %v in %q", algo, err, out)
		}
		// The boards completed, and the near ones by score: the best is
		// among them.
		var counts struct {
			Max       int           `json:"max"`
			Completed int64         `json:"completed"`
			Near      map[int]int64 `json:"near"`
			Seconds   float64       `json:"seconds"`
			Best      float64       `json:"best_seconds"`
		}
		if err := json.Unmarshal([]byte(out), &counts); err != nil || counts.Completed == 0 ||
			(rec.Score >= counts.Max-20 && counts.Near[rec.Score] == 0) {
			t.Fatalf("%s: completed %d, near %v, score %d of %d (%v)", algo, counts.Completed, counts.Near, rec.Score, counts.Max, err)
		}
		if counts.Best <= 0 || counts.Best > counts.Seconds {
			t.Fatalf("%s: best score after %v s of %v s", algo, counts.Best, counts.Seconds)
		}
		code, again, _ := runCmd(t, "", args...)
		if code != 0 || json.Unmarshal([]byte(again), &rec2) != nil || rec2 != rec {
			t.Fatalf("%s: not repeatable with -seed and -max-nodes:\n%s\n%s", algo, out, again)
		}
		code, scored, _ := runCmd(t, "", "edgematch", "score", "-json", puzzle, best)
		var s struct {
			Score    int  `json:"score"`
			Complete bool `json:"complete"`
		}
		if code != 0 || json.Unmarshal([]byte(scored), &s) != nil || s.Score != rec.Score || !s.Complete {
			t.Fatalf("%s: reported %d, the saved board rescores to %q", algo, rec.Score, scored)
		}
		saved, _ := os.ReadFile(best)
		if !strings.Contains(string(saved), "-algo "+algo+" -seed 4") {
			t.Fatalf("%s: saved board does not name its search: %q", algo, saved)
		}
		resume := []string{"edgematch", "solve", "-algo", algo, "-workers", "1", "-max-nodes", "100000", "-timeout", "0", "-json", "-resume", best, puzzle}
		code, out, errOut = runCmd(t, "", resume...)
		if code != 0 || json.Unmarshal([]byte(out), &rec) != nil || rec.Score < s.Score {
			t.Fatalf("%s: resume: %d %q %s", algo, code, out, errOut)
		}
		code, again, _ = runCmd(t, "", resume...)
		if code != 0 || json.Unmarshal([]byte(again), &rec2) != nil || rec2 != rec {
			t.Fatalf("%s: resume not repeatable:\n%s\n%s", algo, out, again)
		}
	}
	code, _, errOut := runCmd(t, "", "edgematch", "solve", "-algo", "partial", "-count", puzzle)
	if code != 2 || !strings.Contains(errOut, "-count applies to -algo dfs") {
		t.Fatalf("partial -count: %d %s", code, errOut)
	}
}
