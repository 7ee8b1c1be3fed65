package policy

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"tessera/nn"
	"tessera/samegame"
)

// TestSolvers checks that the solver values play as the methods they
// stand for, with the shipped networks when P is nil, and that After
// refuses a cell policy.
func TestSolvers(t *testing.T) {
	p, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	a, err := DefaultAfterstate()
	if err != nil {
		t.Fatal(err)
	}
	a2 := *a
	a2.Views = 2
	ctx := t.Context()
	b := randomBoards(1, 21)[0]
	for _, c := range []struct {
		name   string
		solver samegame.Solver
		want   func() (samegame.Solution, error)
	}{
		{"greedy", Greedy{}, func() (samegame.Solution, error) { return p.Greedy(ctx, b) }},
		{"after", After{Views: 2}, func() (samegame.Solution, error) { return a2.Greedy(ctx, b) }},
		{"value", Value{P: p}, func() (samegame.Solution, error) { return p.Lookahead(ctx, b) }},
		{"beam", Beam{Width: 16}, func() (samegame.Solution, error) { return p.Beam(ctx, b, BeamOptions{Width: 16}) }},
		{"mcts", MCTS{Iterations: 32, Batch: 8}, func() (samegame.Solution, error) {
			return p.MCTS(ctx, b, MCTSOptions{Iterations: 32, Batch: 8})
		}},
	} {
		got, err := c.solver.Solve(ctx, b)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err := c.want()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Moves, want.Moves) || !got.Cleared {
			t.Errorf("%s: %v, want %v", c.name, got.Moves, want.Moves)
		}
	}
	if a.Views != 0 && a.Views != 1 {
		t.Errorf("After changed the shared network's views to %d", a.Views)
	}
	if _, err := (After{P: p}).Solve(ctx, b); !errors.Is(err, ErrNotAfterstate) {
		t.Errorf("After with a cell policy: %v", err)
	}
}

// TestTrain trains a small cell policy a few steps on the solved boards
// and checks its provenance and that the same seed gives the same network;
// then an afterstate network from its layers.
func TestTrain(t *testing.T) {
	data := []Dataset{{Name: "solved.txt", Entries: solvedEntries(t)}}
	opts := TrainOptions{Arch: Arch{Conv: []int{4}, Hidden: []int{16}, Value: true}, All: true,
		TrainOptions: nn.TrainOptions{MaxSteps: 3, BatchSize: 8, Validation: -1, Seed: 3}}
	var files [2][]byte
	for i := range files {
		p, st, err := Train(t.Context(), data, opts)
		if err != nil {
			t.Fatal(err)
		}
		if st.Step != 3 || st.Boards != 4 || st.Examples == 0 || !p.HasValue() || p.IsAfterstate() {
			t.Fatalf("stats %+v, value head %v", st, p.HasValue())
		}
		for _, k := range []string{"data", "training", "result", "arch"} {
			if p.Info[k] == "" {
				t.Errorf("no %q in the provenance %v", k, p.Info)
			}
		}
		if !strings.Contains(p.Info["data"], "solved.txt") || !strings.Contains(p.Info["training"], "seed 3") {
			t.Errorf("provenance %v", p.Info)
		}
		var buf bytes.Buffer
		if err := p.Write(&buf); err != nil {
			t.Fatal(err)
		}
		files[i] = buf.Bytes()
		opts.Init, opts.InitName = p, "cell"
	}
	// The second run went on from the first network.
	if bytes.Equal(files[0], files[1]) || !strings.Contains(string(files[1]), `"init":"cell, trained on`) {
		t.Error("training from Init did not go on from it")
	}
	opts.Init = nil
	p, _, err := Train(t.Context(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	p.Write(&buf)
	if !bytes.Equal(buf.Bytes(), files[0]) {
		t.Error("the same seed trained a different network")
	}
	if _, _, err := Train(t.Context(), data, TrainOptions{After: 1}); err == nil {
		t.Error("After 1 accepted")
	}
	if _, _, err := Train(t.Context(), data, TrainOptions{Init: p, After: 4, InitName: "cell"}); err == nil {
		t.Error("an afterstate network trained on solutions without good lines")
	}
}
