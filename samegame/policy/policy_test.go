package policy

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"tessera/samegame"
)

func randomBoards(n int, seed uint64) []*samegame.Board {
	rng := rand.New(rand.NewPCG(seed, 3))
	var bs []*samegame.Board
	for range n {
		b := samegame.Random(8, 6, 5, samegame.Dust, rng)
		// Play a few random clicks so that boards have holes too.
		for range rng.IntN(12) {
			gs := b.Groups(nil)
			if len(gs) == 0 {
				break
			}
			b.PlayGroup(gs[rng.IntN(len(gs))])
		}
		bs = append(bs, b)
	}
	return bs
}

func TestEncodeRoundTrip(t *testing.T) {
	g := DustGeometry
	for _, b := range randomBoards(50, 1) {
		x := g.Encode(nil, b)
		c, err := g.Decode(x, samegame.Dust)
		if err != nil {
			t.Fatal(err)
		}
		if !c.Equal(b) {
			t.Fatalf("decoded\n%vwant\n%v", c, b)
		}
	}
	if _, err := g.Decode(make([]float32, g.InputSize()), samegame.Dust); err == nil {
		t.Error("Decode accepted all zeros")
	}
}

// TestAugmentKeepsGroups checks that every recoloured mirror image is a
// settled dust board on which the label still marks exactly one group.
func TestAugmentKeepsGroups(t *testing.T) {
	g := DustGeometry
	rng := rand.New(rand.NewPCG(2, 2))
	for _, b := range randomBoards(100, 3) {
		gs := b.Groups(nil)
		if len(gs) == 0 {
			continue
		}
		gr := gs[rng.IntN(len(gs))]
		x, y := g.Encode(nil, b), g.Mask(nil, b, gr)
		g.Augment(x, y, rng)
		a, err := g.Decode(x, samegame.Dust)
		if err != nil {
			t.Fatalf("augmented board: %v", err)
		}
		if a.Cells() != b.Cells() || a.ColorsLeft() != b.ColorsLeft() {
			t.Fatalf("augmented board has %d cells and %d colours, want %d and %d", a.Cells(), a.ColorsLeft(), b.Cells(), b.ColorsLeft())
		}
		cell := -1
		marked := 0
		for i, v := range y {
			if v == 1 {
				cell, marked = i, marked+1
			}
		}
		h, ok := a.GroupAt(cell%g.W, cell/g.W)
		if !ok || int(h.Size) != marked || int(h.Size) != int(gr.Size) {
			t.Fatalf("label marks %d cells, the group there has %d, the original %d", marked, h.Size, gr.Size)
		}
	}
}

func TestExamples(t *testing.T) {
	f, err := os.Open("testdata/solved.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, err := samegame.ParseSet(f, samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	g := DustGeometry
	all, boards, err := g.Examples(entries, false, false)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, e := range entries {
		want += len(e.Moves)
	}
	if boards != len(entries) || all.N != want || len(all.X) != want*g.InputSize() || len(all.Y) != want*g.Cells() {
		t.Fatalf("%d examples of %d boards, want %d of %d", all.N, boards, want, len(entries))
	}
	opt, _, _ := g.Examples(entries, true, false)
	if opt.N >= all.N || opt.N == 0 {
		t.Fatalf("%d optimal examples of %d", opt.N, all.N)
	}
	// Each label marks the recorded group size.
	k := 0
	for _, e := range entries {
		for _, r := range e.Moves {
			n := 0
			for _, v := range all.Y[k*g.Cells() : (k+1)*g.Cells()] {
				n += int(v)
			}
			if n != r.Size {
				t.Fatalf("%s: label of %d cells, the file says %d", e.Name, n, r.Size)
			}
			k++
		}
	}
}

// TestShippedPolicyPlays plays the shipped network greedily and with the
// beam on fresh boards: every line must replay legally and clear the board.
func TestShippedPolicyPlays(t *testing.T) {
	p, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, b := range randomBoards(4, 9) {
		for name, play := range map[string]func() (samegame.Solution, error){
			"greedy": func() (samegame.Solution, error) { return p.Greedy(ctx, b) },
			"beam":   func() (samegame.Solution, error) { return p.Beam(ctx, b, BeamOptions{Width: 8}) },
		} {
			sol, err := play()
			if err != nil {
				t.Fatal(err)
			}
			res, err := samegame.Replay(b, sol.Moves)
			if err != nil || !res.Cleared || sol.Clicks != len(sol.Moves) || !sol.Cleared {
				t.Fatalf("board %d, %s: %d clicks replay to %+v, %v", i, name, sol.Clicks, res.Cleared, err)
			}
			if sol.Clicks < b.ColorsLeft() {
				t.Fatalf("board %d, %s: %d clicks, fewer than the %d colours", i, name, sol.Clicks, b.ColorsLeft())
			}
		}
	}
	if _, err := p.Greedy(ctx, samegame.Random(5, 5, 3, samegame.Dust, rand.New(rand.NewPCG(1, 1)))); err == nil {
		t.Error("Greedy accepted a 5x5 board")
	}
}
