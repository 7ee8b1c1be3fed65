package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/catalog"
	"tessera/npuzzle"
)

// TestNpuzzleJournal: a run given the journal of an earlier run of the
// same set reports the instances solved there without solving them again,
// solves the others (those that ran out of time before too), and refuses a
// record whose moves do not solve its board; the projection of the
// unsolved instances scales the reference counts by the solver's nodes and
// rate.
func TestNpuzzleJournal(t *testing.T) {
	set, err := npuzzle.ParseSet(strings.NewReader("# goal blank-last\n1 2 3 4 0 6 7 5 8 2\n8 6 7 2 5 4 3 0 1 31\n6 4 7 8 5 0 3 2 1 31\n"), "eight.txt")
	if err != nil {
		t.Fatal(err)
	}
	opts := catalog.NpuzzleOptions{}
	head := NewNpuzzleJournalHeader(set.Instances, set.Goal, "bfs", opts)
	path := filepath.Join(t.TempDir(), "j.jsonl")
	run := func(instances []npuzzle.Instance, o catalog.NpuzzleOptions) (NpuzzleSetSummary, int) {
		t.Helper()
		j, err := OpenNpuzzleJournal(path, head, set.Instances, set.Goal)
		if err != nil {
			t.Fatal(err)
		}
		solves := 0
		var out bytes.Buffer
		s := NpuzzleSet{Title: "eight", Instances: instances, Goal: set.Goal, Algo: "bfs", Options: o, JSON: true,
			Journal: j, Reference: map[int]int64{1: 10, 2: 1000, 3: 2000}, Done: func() { solves++ }}
		s.Run(t.Context(), &out)
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		var sum NpuzzleSetSummary
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
			t.Fatal(err)
		}
		return sum, solves
	}
	// Instances 1 and 2 solved; 3 stops at a bound of states.
	sum, solves := run(set.Instances[:2], opts)
	if sum.Solved != 2 || sum.Journaled != 0 || solves != 2 {
		t.Fatalf("first run: %+v, %d solves", sum, solves)
	}
	sum, solves = run(set.Instances[2:], catalog.NpuzzleOptions{MaxStates: 2})
	if sum.Solved != 0 || solves != 1 || len(sum.Unsolved) != 1 {
		t.Fatalf("a bounded run of instance 3: %+v, %d solves", sum, solves)
	}
	// All three: 1 and 2 from the journal, 3 solved now.
	sum, solves = run(set.Instances, opts)
	if sum.Solved != 3 || sum.Journaled != 2 || solves != 1 || sum.Matched != 3 || sum.ProjectedCPUSeconds != 0 {
		t.Fatalf("the resumed run: %+v, %d solves", sum, solves)
	}

	// A forged record: instance 3's moves given to instance 2.
	recs, err := ReadNpuzzleJournal(mustOpen(t, path), head, set.Instances, set.Goal)
	if err != nil || len(recs) != 3 {
		t.Fatalf("journal read: %d records, %v", len(recs), err)
	}
	forged := recs[2]
	forged.Moves = recs[3].Moves
	line, _ := json.Marshal(forged)
	data, _ := os.ReadFile(path)
	data = append(data, append(line, '\n')...)
	if _, err := ReadNpuzzleJournal(bytes.NewReader(data), head, set.Instances, set.Goal); err == nil || !strings.Contains(err.Error(), "instance 2") {
		t.Fatalf("a forged record: %v", err)
	}
	other := NewNpuzzleJournalHeader(set.Instances, set.Goal, "bibfs", opts)
	if _, err := ReadNpuzzleJournal(bytes.NewReader(data), other, set.Instances, set.Goal); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("the journal of another solver: %v", err)
	}
}

// TestNpuzzleProjection: the unsolved instances' reference nodes, scaled
// by the solved ones' nodes per reference node, at their nodes per
// CPU-second.
func TestNpuzzleProjection(t *testing.T) {
	var sum NpuzzleSetSummary
	sum.add(catalog.NpuzzleRecord{Instance: 1, Solved: true, Generated: 200, CPUSeconds: 2})
	sum.add(catalog.NpuzzleRecord{Instance: 2, Solved: true, Generated: 600, CPUSeconds: 2})
	sum.add(catalog.NpuzzleRecord{Instance: 3, Generated: 50, CPUSeconds: 1})
	sum.finish(map[int]int64{1: 100, 2: 300, 3: 1000})
	// 800 nodes for 400 reference nodes: 2 a reference node; 200 a
	// CPU-second: instance 3 needs 2000 nodes, 10 CPU-seconds.
	if sum.ProjectedCPUSeconds != 10 || len(sum.Unsolved) != 1 || sum.Unsolved[0] != 3 {
		t.Fatalf("projection %+v", sum)
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
