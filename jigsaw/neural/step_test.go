package neural

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"
)

// TestOnStep checks the per-move report of MCTS: one Step per placement
// and attempt, the moves the empty cells, the priors normalised, the move
// played the one the next Step (and the answer) shows, V's estimate the
// evaluator's; and the answer the same as without the hook.
func TestOnStep(t *testing.T) {
	pz := testPuzzle(3, 7)
	opts := Options{Sims: 30, Attempts: 2, Seed: 3}
	plain, err := Search(context.Background(), skewed{oracle{pz.Truth}}, pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	var steps []Step
	opts.OnStep = func(s Step) { steps = append(steps, s) }
	res, err := Search(context.Background(), skewed{oracle{pz.Truth}}, pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	res.Elapsed, plain.Elapsed = 0, 0
	if !reflect.DeepEqual(res, plain) {
		t.Fatalf("with OnStep %+v, without %+v", res, plain)
	}
	n := pz.Cells()
	if len(steps) != 2*n {
		t.Fatalf("%d steps for 2 attempts of %d placements", len(steps), n)
	}
	for i, s := range steps {
		if s.Attempt != i/n || s.Placed != i%n {
			t.Fatalf("step %d: attempt %d, placed %d", i, s.Attempt, s.Placed)
		}
		var empty []int
		for c := range n {
			if !slices.Contains(s.Cells, c) {
				empty = append(empty, c)
			}
		}
		if !slices.Equal(s.Moves, empty) || len(s.Priors) != len(s.Moves) || len(s.Visits) != len(s.Moves) || len(s.Values) != len(s.Moves) {
			t.Fatalf("step %d: moves %v for the empty cells %v", i, s.Moves, empty)
		}
		sum, visits := 0.0, 0
		for j := range s.Moves {
			sum += s.Priors[j]
			visits += s.Visits[j]
		}
		if math.Abs(sum-1) > 1e-6 || visits == 0 {
			t.Fatalf("step %d: priors sum to %v, %d visits", i, sum, visits)
		}
		if s.Cells[s.Patch] != -1 {
			t.Fatalf("step %d: patch %d is placed already", i, s.Patch)
		}
		want := 1.0 // the oracle: 1 while every patch placed is in its true cell
		for p, c := range s.Cells {
			if c >= 0 && c != pz.Truth[p] {
				want = 0
			}
		}
		if s.Value != want {
			t.Fatalf("step %d: V's estimate %v, the evaluator's %v", i, s.Value, want)
		}
		// the move played shows in the next step, or in the attempt's answer
		next := res.Attempts[s.Attempt].Cells
		if i%n < n-1 {
			next = steps[i+1].Cells
		}
		if next[s.Patch] != s.Moves[s.Chosen] {
			t.Fatalf("step %d: played cell %d for patch %d, then it is in %d", i, s.Moves[s.Chosen], s.Patch, next[s.Patch])
		}
	}

	// Without V during the game there is no estimate to report.
	steps = nil
	opts.Value, opts.Attempts = ValueConstGame, 1
	if _, err := Search(context.Background(), oracle{pz.Truth}, pz, opts); err != nil {
		t.Fatal(err)
	}
	if len(steps) != n || steps[0].Value != -1 {
		t.Fatalf("%d steps, first value %v with value mode const-game", len(steps), steps[0].Value)
	}
}

// With the shipped networks too, OnStep (which asks V once more per
// placement) leaves the answer and the counts as they are.
func TestOnStepShippedModel(t *testing.T) {
	m := shippedModel(t)
	pz := Centre(loadTestImage(t, "kodak23.png"), Geometry{}, 1)
	opts := Options{Sims: 50, Attempts: 2}
	plain, err := Solve(context.Background(), m, pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	opts.OnStep = func(s Step) {
		if s.Value < 0 || s.Value > 1 {
			t.Errorf("V's estimate %v", s.Value)
		}
		steps++
	}
	hooked, err := Solve(context.Background(), m, pz, opts)
	if err != nil {
		t.Fatal(err)
	}
	plain.Elapsed, hooked.Elapsed = 0, 0
	if !reflect.DeepEqual(plain, hooked) || steps != 2*9 {
		t.Fatalf("%d steps; with OnStep %+v, without %+v", steps, hooked, plain)
	}
}
