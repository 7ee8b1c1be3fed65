package ga

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"tessera/jigsaw"
	"tessera/jigsaw/greedy"
)

// TestHoleEdgeCosts: with holeEdges, a chromosome's fitness is the sum of
// its adjacencies' dissimilarities plus, for each free edge, the
// dissimilarity of that edge's best candidate, counted here from the
// compatibilities directly.
func TestHoleEdgeCosts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 40 {
		n := 2 + rng.IntN(30)
		pz := randomPuzzle(rng, n, 3, trial%2 == 1, false)
		c, err := jigsaw.NewCompat(context.Background(), pz, jigsaw.CompatOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pr := newProblem(c, 0, 0, 2*c.Mean())
		pr.holeEdges()
		ch := pr.newChromosome()
		x := newBuilder(pr)
		x.reset(uint64(trial), 1)
		x.random(ch)
		pr.rate(ch)
		want, free := 0.0, 0
		for e, f := range ch.rel {
			p, a := e/4, jigsaw.Side(e%4)
			if f < 0 {
				free++
				want += float64(c.Candidates(p, a)[0].D)
			} else if int32(e) < f {
				want += float64(c.D(p, a, int(f/4), jigsaw.Side(f%4)))
			}
		}
		if math.Abs(ch.fit-want) > 1e-9*math.Max(1, want) || ch.free != free {
			t.Fatalf("trial %d: fitness %v with %d free edges, want %v with %d", trial, ch.fit, ch.free, want, free)
		}
	}
}

// On MIT's 4.png (Type 2) with 20% of its pieces lost, in the frame that
// the greedy solver estimates, the search used to move the holes beside
// the pieces that fit nothing well and fell from the greedy layout's
// 59.0% neighbour accuracy to 38.4%: now its answer is no worse than
// the greedy one's.
func TestHolesNoWorseThanGreedy(t *testing.T) {
	if testing.Short() {
		t.Skip("a 346-piece search")
	}
	g := grid(t, filepath.Join(mitDir(t), "4.png"))
	pz, truth := jigsaw.Scramble([]*jigsaw.Grid{g}, jigsaw.ScrambleOptions{Rotate: true, Seed: 1, Drop: 0.2})
	score := func(s jigsaw.Solver) jigsaw.Accuracy {
		res, err := s.Solve(context.Background(), &jigsaw.Problem{Puzzle: pz, Holes: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Placement.Validate(len(pz.Pieces), true); err != nil {
			t.Fatal(err)
		}
		a, err := jigsaw.Score(truth, res.Placement, jigsaw.ScoreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	gr, ga := score(greedy.Solver{}), score(Solver{Seed: 1})
	if ga.Neighbor < gr.Neighbor || ga.HolesRight < gr.HolesRight {
		t.Errorf("ga %v, %d holes right; greedy %v, %d", ga, ga.HolesRight, gr, gr.HolesRight)
	}
}
