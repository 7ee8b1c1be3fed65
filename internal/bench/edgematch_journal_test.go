package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/edgematch"
	"tessera/internal/flock"
	"tessera/internal/journal"
)

// FuzzSplitJournal: no journal makes its reader panic or hang; what it
// accepts is a prefix of complete lines, each subtree with a prefix of the
// pieces of the puzzle, no deeper than the split.
func FuzzSplitJournal(f *testing.F) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 2, Frame: 1, Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	head := SplitJournalHeader{Journal: journalKind, Puzzle: PuzzleDigest(p), Order: "auto", Depth: 2, Count: true}
	line, _ := json.Marshal(head)
	line = append(line, '\n')
	f.Add(line)
	f.Add(append(bytes.Clone(line), `{"subtree":1,"prefix":"1/0 2/3","placements":10,"solutions":0,"max_depth":4,"seconds":0.1}`+"\n"...))
	f.Add(append(bytes.Clone(line), `{"subtree":1,"prefix":"1/0 2/3","placements":10,"solutions":1,"max_depth":9,"seconds":0.1,"board":"3 3\n1/0 2/0 3/0\n4/0 5/0 6/0\n7/0 8/0 9/0\n"}`+"\n"...))
	f.Add(append(bytes.Clone(line), `{"subtree":1,"prefix":"1/0`...))
	f.Add([]byte("not a journal\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		searched, good, err := readSplitJournal(bytes.NewReader(data), head, p)
		if err != nil {
			return
		}
		if good > int64(len(data)) || good > 0 && data[good-1] != '\n' {
			t.Fatalf("%d good bytes of %d", good, len(data))
		}
		for _, ss := range searched {
			if len(ss.Prefix) > head.Depth {
				t.Fatalf("a prefix of %d at depth %d", len(ss.Prefix), head.Depth)
			}
			for _, pl := range ss.Prefix {
				if pl.Piece < 0 || pl.Piece >= len(p.Tiles) || pl.Rot < 0 || pl.Rot > 3 {
					t.Fatalf("placement %+v", pl)
				}
			}
		}
	})
}

// TestSplitJournalLocked: while a run holds a journal, a second run given
// it is refused (it would search the same subtrees again and record them
// twice); once the first closes it, the journal opens again.
func TestSplitJournalLocked(t *testing.T) {
	if !flock.Supported {
		t.Skip("no flock(2) here: journals are not locked")
	}
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 2, Frame: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "j.jsonl")
	head := SplitJournalHeader{Puzzle: PuzzleDigest(p), Order: "auto", Depth: 2, Count: true}
	j, _, err := OpenSplitJournal(path, head, p)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenSplitJournal(path, head, p); !errors.Is(err, journal.ErrBusy) {
		t.Fatalf("a second open of a journal in use: %v, want %v", err, journal.ErrBusy)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Fatalf("the refused open changed the journal: %q, was %q (%v)", after, before, err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j, _, err = OpenSplitJournal(path, head, p)
	if err != nil {
		t.Fatalf("the journal after its run closed it: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSplitJournalOneSolution: without -count, a subtree has at most one
// solution.
func TestSplitJournalOneSolution(t *testing.T) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 4, Cols: 4, Colours: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Without -count, a subtree has at most one solution.
	head := SplitJournalHeader{Journal: journalKind, Puzzle: "x", Order: "auto", Depth: 2}
	line, _ := json.Marshal(head)
	bad := append(line, "\n"+`{"subtree":1,"prefix":"1/0 2/3","placements":10,"solutions":2,"max_depth":16,"seconds":0.1}`+"\n"...)
	if _, _, err := readSplitJournal(bytes.NewReader(bad), head, p); err == nil || !strings.Contains(err.Error(), "2 solutions") {
		t.Errorf("two solutions in a search for one: %v", err)
	}
}
