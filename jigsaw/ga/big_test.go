package ga

import (
	"context"
	"slices"
	"testing"

	"tessera/jigsaw"
)

// TestStall: a search told to stop after 3 generations without a better
// layout (by 0.01%) stops at the first such run, and its history
// is the start of the full search's (the same seed).
func TestStall(t *testing.T) {
	pz, _ := jigsaw.Scramble([]*jigsaw.Grid{grid(t, testImages[1])}, jigsaw.ScrambleOptions{Rotate: true, Seed: 4})
	c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := Solver{Pop: 20, Gens: 40, Stall: -1, Seed: 1}.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Compat: c})
	if err != nil {
		t.Fatal(err)
	}
	short, err := Solver{Pop: 20, Gens: 40, Stall: 3, Seed: 1}.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Compat: c})
	if err != nil {
		t.Fatal(err)
	}
	h, k := full.History, len(short.History)
	if len(h) != 41 || k >= len(h) || !slices.Equal(short.History, h[:k]) {
		t.Fatalf("full history %v, stalled %v", h, short.History)
	}
	// stopped at the first run of 3 generations without improvement
	for g := 1; g < k; g++ {
		ref := h[0]
		still := 0
		for x := 1; x <= g; x++ {
			if h[x] < ref*(1-stallGain) {
				ref, still = h[x], 0
			} else {
				still++
			}
		}
		if (still >= 3) != (g == k-1) {
			t.Fatalf("stopped after generation %d, history %v", k-1, h)
		}
	}
}

// TestCompatProgress: a solver that computes the compatibilities reports
// them through Problem.Progress before the first generation.
func TestCompatProgress(t *testing.T) {
	defer func(v int) { compatProgressPieces = v }(compatProgressPieces)
	compatProgressPieces = 1
	pz, _ := jigsaw.Scramble([]*jigsaw.Grid{grid(t, testImages[0]), grid(t, testImages[1])}, jigsaw.ScrambleOptions{Rotate: true, Seed: 5})
	// one picture of the two crops' pieces: only the progress matters here
	var stages []jigsaw.Generation
	_, err := Solver{Pop: 10, Gens: 1}.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz,
		Progress: func(g jigsaw.Generation) { stages = append(stages, g) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) < 3 || stages[0].Stage != jigsaw.StageCompat {
		t.Fatalf("progress %+v", stages)
	}
	k := 0
	for k < len(stages) && stages[k].Stage == jigsaw.StageCompat {
		k++
	}
	last := stages[k-1]
	if last.Total == 0 || last.Done != last.Total || len(stages)-k != 2 || stages[k].Index != 0 || stages[k+1].Index != 1 {
		t.Fatalf("progress %+v", stages)
	}
}
