package edgematch_test

import (
	"path/filepath"
	"strings"
	"testing"

	"tessera/edgematch"
	"tessera/internal/emtest"
)

// TestSharedSolutionsScoreMaximum rescores every solution board of the
// shared data: Brendan Owen's set 1 and the four clue puzzles.
func TestSharedSolutionsScoreMaximum(t *testing.T) {
	boards := emtest.SharedFiles(t, "brendan_set1/*.solution.board", "clue_puzzles/*.solution.board")
	if len(boards) != 171+4 {
		t.Fatalf("%d solution boards, want 175", len(boards))
	}
	for _, bf := range boards {
		p := emtest.MustPuzzle(t, strings.TrimSuffix(bf, ".solution.board")+".txt")
		b := emtest.MustBoard(t, bf, p)
		if err := p.Verify(b); err != nil {
			t.Errorf("%s: %v", bf, err)
		}
		if s := p.Score(b); !s.Solved() || s.Matched != p.MaxScore() {
			t.Errorf("%s: %v", bf, s)
		}
	}
}

// TestRecordBoards rescores the best known Eternity II boards.
func TestRecordBoards(t *testing.T) {
	dir := emtest.SharedData(t)
	want := map[string]struct{ clues, score int }{
		"eternity2_467_verhaard.board":     {1, 467},
		"eternity2_468_blackwood.board":    {1, 468},
		"eternity2_469_mcgavin.board":      {1, 469},
		"eternity2_470_blackwood.board":    {1, 470},
		"eternity2_470_bucas.board":        {1, 470},
		"eternity2_465_5clues_pejic.board": {5, 465},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "records", "*.board"))
	if len(files) != len(want) {
		t.Fatalf("%d record boards, want %d", len(files), len(want))
	}
	for _, f := range files {
		w, ok := want[filepath.Base(f)]
		if !ok {
			t.Fatalf("unexpected record %s", f)
		}
		p := emtest.MustPuzzle(t, filepath.Join(dir, "eternity2.txt"))
		p.Hints = emtest.MustHints(t, filepath.Join(dir, "eternity2_clues.txt"), p, w.clues)
		b := emtest.MustBoard(t, f, p)
		if err := p.Verify(b); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if s := p.Score(b); s.Matched != w.score || s.FrameErrors != 0 {
			t.Errorf("%s: %v, want %d", f, s, w.score)
		}
	}
}

// TestSharedPuzzlesParse reads every piece set of the shared folder; the
// generator sets are listed in solved order and score 480 as listed.
func TestSharedPuzzlesParse(t *testing.T) {
	files := emtest.SharedFiles(t, "*/*.txt")
	n := 0
	for _, f := range files {
		p := emtest.MustPuzzle(t, f)
		n++
		if strings.Contains(f, "bucas_generator") {
			b := edgematch.NewBoard(p.Rows, p.Cols)
			for i := range b.Cells {
				b.Cells[i] = edgematch.Placement{i, 0}
			}
			if s := p.Score(b); !s.Solved() {
				t.Errorf("%s in file order: %v", f, s)
			}
		}
	}
	if n < 171+4+4+8+88 {
		t.Fatalf("only %d puzzles", n)
	}
}
