package catalog

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"tessera/npuzzle"
)

// The job with a Blank solves the gap-anywhere goal on any worker: for
// every home on 3x3 and 2x3 boards, a board drawn from that goal's
// solvable boards is solved by BFS as a job; its moves, replayed on the
// board as given, end on that goal; from a corner they are called
// shortest, and are as long as BFS's straight to blank-first or blank-last
// for those homes; from elsewhere they end with the walk home and a note,
// and are not called shortest.
func TestNpuzzleJobBlank(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, size := range []npuzzle.Size{{Rows: 3, Cols: 3}, {Rows: 2, Cols: 3}} {
		n := size.Rows * size.Cols
		for k := range n {
			gm := NewNpuzzleGoalMap(size, k)
			b := gm.FromSolverBoard(npuzzle.Random(size, npuzzle.BlankLast, rng))
			if !NpuzzleSolvableFor(b, k) {
				t.Fatalf("%v home %d: drawn board %s not solvable", size, k, b.Line())
			}
			j := NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "bfs"}, Board: b.Line(), Blank: &k}
			spec, _ := json.Marshal(j)
			out, err := JobKinds()[NpuzzleKind](t.Context(), spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := out.(NpuzzleRecord)
			moves, err := npuzzle.ParseMoves(rec.Moves)
			if err != nil {
				t.Fatal(err)
			}
			end, err := npuzzle.Replay(b, moves)
			if err != nil || !NpuzzleIsGoal(end, k) || !rec.Solved || rec.Board != b.Line() || rec.Goal != NpuzzleGoalName(size, k) {
				t.Fatalf("%v home %d: %+v ends on %v (%v)", size, k, rec, end, err)
			}
			best := -1
			if goal, ok := map[int]npuzzle.Goal{0: npuzzle.BlankFirst, n - 1: npuzzle.BlankLast}[k]; ok {
				sol, err := npuzzle.BFS{}.Solve(t.Context(), b, goal)
				if err != nil {
					t.Fatal(err)
				}
				best = len(sol.Moves)
			}
			r, c := k/size.Cols, k%size.Cols
			corner := (r == 0 || r == size.Rows-1) && (c == 0 || c == size.Cols-1)
			if corner && (!rec.Optimal || best >= 0 && rec.Length != best || rec.Note != "") ||
				!corner && (rec.Optimal || !strings.Contains(rec.Note, "walk the gap home")) {
				t.Fatalf("%v home %d (corner %v): %d moves, optimal %v, BFS %d; note %q", size, k, corner, rec.Length, rec.Optimal, best, rec.Note)
			}
		}
	}
	bad := 9
	for _, j := range []NpuzzleJob{
		{Spec: Spec[NpuzzleOptions]{Solver: "bfs"}, Board: "1 2 3/4 0 5/6 7 8", Blank: &bad},
		{Spec: Spec[NpuzzleOptions]{Solver: "bfs"}, Board: "1 2 3/4 0 5/6 7 8", Blank: new(int), Goal: "blank-first"},
	} {
		if rec := j.Run(t.Context(), NpuzzleHooks{}); rec.Solved || rec.Error == "" {
			t.Errorf("%+v: %+v, want an error", j, rec)
		}
	}
}

// A worker builds a small database it lacks (6-6-3: 5 MiB a table) in its
// own cache, with the database phase on progress, and refuses one whose
// build takes more than the job's BuildMiB, naming the command that builds
// it; the fast solver then goes without it and says so.
func TestNpuzzleJobBuildBound(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	board := "5 1 2 3/9 6 7 4/13 10 11 8/14 15 12 0" // 12 moves from the goal
	run := func(j NpuzzleJob) (NpuzzleRecord, []NpuzzleProgress) {
		spec, _ := json.Marshal(j)
		var seen []NpuzzleProgress
		out, err := JobKinds()[NpuzzleKind](t.Context(), spec, func(v any) { seen = append(seen, v.(NpuzzleProgress)) })
		if err != nil {
			t.Fatal(err)
		}
		return out.(NpuzzleRecord), seen
	}
	pdb := NpuzzleOptions{Heuristic: "pdb", Partition: "6-6-3"}
	rec, seen := run(NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "idastar", Options: pdb}, Board: board, BuildMiB: 1})
	if rec.Solved || !strings.Contains(rec.Error, "tessera npuzzle pdb build -size 4x4 -partition 6-6-3") || !strings.Contains(rec.Error, ErrNpuzzleBigBuild.Error()) {
		t.Fatalf("refused build: %+v", rec)
	}
	if len(seen) == 0 || seen[0].Phase != "database" || !strings.Contains(seen[0].Message, "6-6-3") {
		t.Fatalf("progress of the refused build: %+v", seen)
	}
	rec, _ = run(NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "fast", Options: pdb}, Board: board, BuildMiB: 1})
	if !rec.Solved || rec.Partition != "" || !strings.Contains(rec.Note, "went without its database") {
		t.Fatalf("fast without its database: %+v", rec)
	}
	rec, seen = run(NpuzzleJob{Spec: Spec[NpuzzleOptions]{Solver: "idastar", Options: pdb}, Board: board, BuildMiB: 64})
	if !rec.Solved || !rec.Optimal || rec.Length != 12 || rec.Partition != "6-6-3" {
		t.Fatalf("built: %+v", rec)
	}
	if last := seen[len(seen)-1]; seen[0].Phase != "database" || last.Phase != "search" || !strings.Contains(last.Message, "Searching with IDA* (pattern database 6-6-3)") {
		t.Fatalf("progress: first %+v, last %+v", seen[0], last)
	}
}
