package partial

import (
	"context"
	"math/rand/v2"

	"tessera/edgematch"
)

// Tiles is a tileability-guided partial search in the manner of Louis
// Verhaard's eii, the solver of the 2008 prize board (467): a Solver
// whose fields are its parameters; the zero value runs one search per
// core until the context ends.
//
// Before each restart it chooses a "good" group of inner pieces, as many
// as the inner cells at the end of the fill order, by a local search that
// maximises the group's 2x3 tileability (the number of ways its pieces
// tile a 2x3 patch of the board, counted as the chains of three vertical
// dominoes whose touching colours agree, pieces reused allowed), and
// keeps those pieces for the end: before fill index ReserveFrom only the
// other ("bad") pieces may be placed. The rest is the engine of Breaks:
// the same fill order, break schedule, restarts, completion and polish,
// without Blackwood's heuristic colours and without the exact fill of
// near-full boards (Breaks' NoExactFill: not measured on this search). Verhaard's own groups, solver
// and restart rules are described in "Details of Eternity II solver eii"
// (2009); this is a reimplementation of the idea, not of his program.
type Tiles struct {
	Seed         uint64
	Workers      int
	Scan         edgematch.Scan
	Schedule     []int
	RestartNodes int64
	MaxNodes     int64
	PolishMoves  int64
	Target       int
	Start        *edgematch.Board
	// ReserveFrom is the fill index from which the good group may be
	// placed (0: 80% of the cells, 204 on Eternity II).
	ReserveFrom int
	// GroupIters is the number of exchanges the group's local search
	// tries (0: 3000).
	GroupIters int
	// CarryBar is that of Breaks.
	CarryBar bool
	OnBest   func(b *edgematch.Board, s edgematch.Score)
	Progress func(BreaksProgress)
}

var _ edgematch.Solver = Tiles{}

// Solve runs the search; the result and errors are those of Breaks.Solve.
func (t Tiles) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	if err := p.Validate(); err != nil {
		return edgematch.Result{}, err
	}
	from := t.ReserveFrom
	if from <= 0 {
		from = p.Cells() * 4 / 5
	}
	order := BreakOrder(p.Rows, p.Cols)
	if t.Scan.Order != edgematch.OrderAuto {
		order = t.Scan.Cells(p.Rows, p.Cols)
	}
	// The group has as many pieces as the inner cells from the reserve on.
	reserve := 0
	for i, cell := range order {
		if i >= from && edgematch.OutwardMask(p.Rows, p.Cols, cell/p.Cols, cell%p.Cols) == 0 {
			reserve++
		}
	}
	for _, h := range p.Hints {
		for i, cell := range order {
			if cell == h.Row*p.Cols+h.Col && i >= from && edgematch.OutwardMask(p.Rows, p.Cols, h.Row, h.Col) == 0 {
				reserve--
			}
		}
	}
	sched := t.Schedule
	if sched == nil {
		sched = TilesSchedule(p)
	}
	b := Breaks{Seed: t.Seed, Workers: t.Workers, Scan: t.Scan, Schedule: sched, NoHeuristic: true,
		RestartNodes: t.RestartNodes, MaxNodes: t.MaxNodes, PolishMoves: t.PolishMoves, Target: t.Target,
		Start: t.Start, CarryBar: t.CarryBar, OnBest: t.OnBest, Progress: t.Progress, NoExactFill: true,
		reserve: max(reserve, 1), reserveFrom: from, tileIters: t.GroupIters}
	if b.tileIters <= 0 {
		b.tileIters = 3000
	}
	return b.Solve(ctx, p)
}

// TilesSchedule is the default break schedule of Tiles: as many breaks
// as a 463 board of Eternity II has mismatches (17 of 480 edges, scaled
// to the board), spread evenly from 60% to 94% of the fill order, where
// the exact search without Blackwood's colours stalls.
func TilesSchedule(p *edgematch.Puzzle) []int {
	n := p.Cells()
	k := max(1, (p.MaxScore()*17+240)/480)
	lo, hi := n*6/10, n*94/100
	out := make([]int, 0, k)
	for j := range k {
		idx := lo + j*(hi-lo)/max(1, k-1)
		if len(out) > 0 && idx <= out[len(out)-1] {
			idx = out[len(out)-1] + 1
		}
		out = append(out, min(idx, n-1))
	}
	return out
}

// tileGroup returns m inner pieces (hints excluded) of high 2x3
// tileability, by hill climbing over exchanges from a random group.
func tileGroup(p *edgematch.Puzzle, m, iters int, rng *rand.Rand) []bool {
	hinted := make([]bool, len(p.Tiles))
	for _, h := range p.Hints {
		hinted[h.Piece] = true
	}
	var inner []int
	for i, t := range p.Tiles {
		if !hinted[i] && t[0] != edgematch.Grey && t[1] != edgematch.Grey && t[2] != edgematch.Grey && t[3] != edgematch.Grey {
			inner = append(inner, i)
		}
	}
	good := make([]bool, len(p.Tiles))
	if m >= len(inner) {
		for _, i := range inner {
			good[i] = true
		}
		return good
	}
	rng.Shuffle(len(inner), func(i, j int) { inner[i], inner[j] = inner[j], inner[i] })
	in, out := append([]int(nil), inner[:m]...), append([]int(nil), inner[m:]...)
	tc := newTileCounter(p)
	score := tc.count(in)
	for range iters {
		a, b := rng.IntN(len(in)), rng.IntN(len(out))
		in[a], out[b] = out[b], in[a]
		if s := tc.count(in); s >= score {
			score = s
		} else {
			in[a], out[b] = out[b], in[a]
		}
	}
	for _, i := range in {
		good[i] = true
	}
	return good
}

// tileCounter counts the 2x3 tilings of a group of pieces.
type tileCounter struct {
	p       *edgematch.Puzzle
	k       int
	byNorth [][]edgematch.Tile // scratch: the oriented pieces by north colour
	owner   [][]int
	cntE    []float64
	cntW    []float64
	dom     [][2]int32 // west pair, east pair of each domino
}

func newTileCounter(p *edgematch.Puzzle) *tileCounter {
	k := p.Colours()
	return &tileCounter{p: p, k: k, byNorth: make([][]edgematch.Tile, k), owner: make([][]int, k), cntE: make([]float64, k*k), cntW: make([]float64, k*k)}
}

// count returns the number of chains of three vertical dominoes (two
// pieces, the upper's south matching the lower's north) in which the
// touching colours of neighbouring dominoes agree: the 2x3 patches the
// group tiles with every internal edge matched (a piece may be reused).
func (tc *tileCounter) count(group []int) float64 {
	k := tc.k
	for c := range tc.byNorth {
		tc.byNorth[c] = tc.byNorth[c][:0]
		tc.owner[c] = tc.owner[c][:0]
	}
	for _, i := range group {
		for r := range 4 {
			t := tc.p.Tiles[i].Rotate(r)
			tc.byNorth[t[edgematch.North]] = append(tc.byNorth[t[edgematch.North]], t)
			tc.owner[t[edgematch.North]] = append(tc.owner[t[edgematch.North]], i)
		}
	}
	clear(tc.cntE)
	clear(tc.cntW)
	tc.dom = tc.dom[:0]
	for _, i := range group {
		for r := range 4 {
			u := tc.p.Tiles[i].Rotate(r)
			for j, l := range tc.byNorth[u[edgematch.South]] {
				if tc.owner[u[edgematch.South]][j] == i {
					continue
				}
				w, e := int32(u[edgematch.West])*int32(k)+int32(l[edgematch.West]), int32(u[edgematch.East])*int32(k)+int32(l[edgematch.East])
				tc.dom = append(tc.dom, [2]int32{w, e})
				tc.cntE[e]++
				tc.cntW[w]++
			}
		}
	}
	s := 0.0
	for _, d := range tc.dom {
		s += tc.cntE[d[0]] * tc.cntW[d[1]]
	}
	return s
}
