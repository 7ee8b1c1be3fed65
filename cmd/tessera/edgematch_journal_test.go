package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"tessera/edgematch"
)

// FuzzSplitJournal: no journal makes its reader panic or hang; what it
// accepts is a prefix of complete lines, each subtree with a prefix of the
// pieces of the puzzle, no deeper than the split.
func FuzzSplitJournal(f *testing.F) {
	p, _, err := edgematch.Generate(edgematch.GenerateOptions{Kind: edgematch.Framed, Rows: 3, Cols: 3, Colours: 2, Frame: 1, Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	head := journalHeader{Journal: journalKind, Puzzle: puzzleDigest(p), Order: "auto", Depth: 2, Count: true}
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
