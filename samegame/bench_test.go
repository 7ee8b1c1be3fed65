package samegame

import (
	"context"
	"math/rand/v2"
	"testing"

	"tessera/mcts"
)

// BenchmarkPlayout measures uniform random playouts on standard position 1.
func BenchmarkPlayout(b *testing.B) {
	set := readSet(b, "standard20.txt", Standard)
	root := NewPosition(set[0].Board, true)
	p := root.Clone()
	rng := rand.New(rand.NewPCG(1, 2))
	var moves []Group
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		p.CopyFrom(root)
		for {
			moves = p.Moves(moves[:0])
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
			n++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(n)/float64(b.N), "clicks/playout")
}

// BenchmarkNRPA measures NRPA's playouts (policy sampling, records,
// adaptation) on standard position 1.
func BenchmarkNRPA(b *testing.B) {
	set := readSet(b, "standard20.txt", Standard)
	root := NewPosition(set[0].Board, true)
	b.ReportAllocs()
	var playouts int64
	for b.Loop() {
		res, _ := mcts.NRPA(context.Background(), root, mcts.NRPAOptions{Level: 2, Iterations: 30})
		playouts += res.Stats.Playouts
	}
	b.ReportMetric(float64(playouts)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkNRPALevel3 runs the search as the races do (level 3, 100
// iterations, the tabu colour) for 20,000 playouts of standard position 1,
// with NRPA's cache of move lists and without it.
func BenchmarkNRPALevel3(b *testing.B) {
	set := readSet(b, "standard20.txt", Standard)
	root := NewPosition(set[0].Board, true)
	for _, c := range []struct {
		name  string
		cache int
	}{{"cache", 0}, {"nocache", -1}} {
		b.Run(c.name, func(b *testing.B) {
			var playouts int64
			for b.Loop() {
				res, _ := mcts.NRPA(context.Background(), root, mcts.NRPAOptions{Cache: c.cache, Budget: mcts.Budget{MaxPlayouts: 20000}})
				playouts += res.Stats.Playouts
			}
			b.ReportMetric(float64(playouts)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}

// BenchmarkMoves measures the group finder on a full 15x15 board.
func BenchmarkMoves(b *testing.B) {
	set := readSet(b, "standard20.txt", Standard)
	p := NewPosition(set[0].Board, false)
	var moves []Group
	b.ReportAllocs()
	for b.Loop() {
		moves = p.Moves(moves[:0])
	}
	b.ReportMetric(float64(len(moves)), "moves")
}

// BenchmarkExactDust proves the optimum of boards 4 and 6 of the issue 43
// set (tessera samegame generate -rules dust -n 20 -seed 4301; 11 clicks
// each), beams included, and reports the nodes of a proof.
func BenchmarkExactDust(b *testing.B) {
	set := readSet(b, "dust_seed4301.txt", Dust)
	var nodes int64
	for b.Loop() {
		for _, i := range []int{3, 5} {
			sol, err := Exact{}.Solve(b.Context(), set[i].Board)
			if err != nil || !sol.Optimal || sol.Clicks != 11 {
				b.Fatalf("board %d: %d clicks, optimal %v, %v", i+1, sol.Clicks, sol.Optimal, err)
			}
			nodes += sol.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
