package neural

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tessera/mcts"
)

// spy wraps an evaluator, counts its calls and checks every state it is
// given.
type spy struct {
	Evaluator
	priors, values int
	check          func(s *State)
}

func (e *spy) Priors(states []*State) ([][]float64, error) {
	e.priors += len(states)
	for _, s := range states {
		if e.check != nil {
			e.check(s)
		}
	}
	return e.Evaluator.Priors(states)
}

func (e *spy) Values(states []*State) ([]float64, error) {
	e.values += len(states)
	for _, s := range states {
		if e.check != nil {
			e.check(s)
		}
	}
	return e.Evaluator.Values(states)
}

// skewed prefers cell 0 strongly, so that P's priors are not uniform.
type skewed struct{ oracle }

func (o skewed) Priors(states []*State) ([][]float64, error) {
	out, _ := o.oracle.Priors(states)
	for _, pr := range out {
		for c := range pr {
			if pr[c] > 0 {
				pr[c] = float64(len(pr) - c)
			}
		}
	}
	return out, nil
}

func testPuzzle(grid int, seed uint64) *Puzzle {
	pz := &Puzzle{Geometry: Geometry{Grid: grid, Patch: 40, Gap: 4}}
	pz.Truth = rand.New(rand.NewPCG(seed, 1)).Perm(grid * grid)
	return pz
}

// TestPriorModes: with uniform priors the root's children have equal
// priors and P is never called; with P they follow P.
func TestPriorModes(t *testing.T) {
	pz := testPuzzle(3, 1)
	for _, prior := range []Prior{PriorP, PriorUniform} {
		ev := &spy{Evaluator: skewed{oracle{pz.Truth}}}
		g := &game{eval: ev, pz: pz, opts: Options{Prior: prior}.defaults(), ctx: context.Background()}
		tr := mcts.NewTree(treeState{NewState([]int{0, 1, 2, 3, 4, 5, 6, 7, 8})},
			mcts.TreeOptions[treeState, int]{Selection: mcts.PUCT, Evaluator: treeEvaluator{g}, Batch: 1, EvaluateTerminal: true, MinValue: 0, MaxValue: 1})
		if err := tr.Think(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		kids := tr.Children()
		equal := true
		for _, k := range kids {
			equal = equal && k.Prior == kids[0].Prior
		}
		if len(kids) != 9 || equal != (prior == PriorUniform) {
			t.Fatalf("prior %v: children %+v", prior, kids)
		}
		if (ev.priors == 0) != (prior == PriorUniform) {
			t.Fatalf("prior %v: P called on %d states", prior, ev.priors)
		}
	}
	// The whole search with uniform priors never calls P and still
	// solves with a perfect value.
	ev := &spy{Evaluator: oracle{pz.Truth}}
	res, err := Search(context.Background(), ev, pz, Options{Sims: 30, Prior: PriorUniform})
	if err != nil || !pz.Score(res.Cells).Perfect || ev.priors != 0 {
		t.Fatalf("uniform priors: %v %v, P on %d states", res.Cells, err, ev.priors)
	}
}

// TestValueModes: the constant modes keep V away from complete
// reassemblies (const-end), unfinished ones (const-game) or all (const).
func TestValueModes(t *testing.T) {
	pz := testPuzzle(3, 2)
	for _, mode := range []ValueMode{ValueV, ValueConstEnd, ValueConstGame, ValueConst} {
		var done, open int
		ev := &spy{Evaluator: oracle{pz.Truth}}
		ev.check = func(s *State) {}
		vals := &valueSpy{spy: ev, done: &done, open: &open}
		res, err := Search(context.Background(), vals, pz, Options{Sims: 20, Value: mode, Attempts: 2})
		if err != nil || len(res.Cells) != 9 {
			t.Fatalf("%v: %v %v", mode, res.Cells, err)
		}
		if (done > 0) != mode.EndByV() || (open > 0) != mode.GameByV() {
			t.Fatalf("%v: V valued %d complete and %d unfinished reassemblies", mode, done, open)
		}
		if !mode.EndByV() && res.Value != ValueConstant {
			t.Fatalf("%v: answer valued %v", mode, res.Value)
		}
	}
	// With V constant during the game and the oracle's values at the end,
	// the search still solves a 2x2 puzzle, whose 24 complete reassemblies
	// it reaches.
	small := testPuzzle(2, 2)
	res, err := Search(context.Background(), oracle{small.Truth}, small, Options{Sims: 100, Value: ValueConstGame})
	if err != nil || !small.Score(res.Cells).Perfect {
		t.Fatalf("const-game: %v %v", res.Cells, err)
	}
}

// valueSpy counts V's calls on complete and unfinished states.
type valueSpy struct {
	*spy
	done, open *int
}

func (v *valueSpy) Values(states []*State) ([]float64, error) {
	for _, s := range states {
		if s.Done() {
			*v.done++
		} else {
			*v.open++
		}
	}
	return v.spy.Values(states)
}

// TestHintsStay: the hints are in their true cells in every state the
// networks see and in the answer; the central hint is the central
// cell's patch.
func TestHintsStay(t *testing.T) {
	pz := testPuzzle(3, 3)
	for _, opts := range []Options{
		{Sims: 20, Hints: 4, Seed: 5},
		{Sims: 20, Hints: 2, Seed: 5, Order: OrderFree, Prior: PriorUniform},
		{Sims: 10, CentralHint: true, Attempts: 3, Value: ValueConst},
	} {
		hints := HintPatches(pz, opts)
		if want := max(opts.Hints, 1); len(hints) != want {
			t.Fatalf("%+v: hints %v", opts, hints)
		}
		if opts.CentralHint && pz.Truth[hints[0]] != 4 {
			t.Fatalf("central hint %d belongs in cell %d", hints[0], pz.Truth[hints[0]])
		}
		seen := 0
		ev := &spy{Evaluator: skewed{oracle{pz.Truth}}, check: func(s *State) {
			seen++
			for _, p := range hints {
				if int(s.CellOf[p]) != pz.Truth[p] {
					t.Fatalf("%+v: hint %d in cell %d, not %d", opts, p, s.CellOf[p], pz.Truth[p])
				}
			}
		}}
		res, err := Search(context.Background(), ev, pz, opts)
		if err != nil || seen == 0 {
			t.Fatalf("%+v: %v, %d states", opts, err, seen)
		}
		for _, p := range hints {
			if res.Cells[p] != pz.Truth[p] {
				t.Fatalf("%+v: hint %d answered in cell %d", opts, p, res.Cells[p])
			}
		}
		for _, a := range res.Attempts {
			for _, p := range hints {
				if a.Cells[p] != pz.Truth[p] {
					t.Fatalf("%+v: an attempt moved hint %d", opts, p)
				}
			}
		}
	}
	// Hints need the truth and must leave a patch to place.
	if _, err := Search(context.Background(), oracle{pz.Truth}, &Puzzle{Geometry: pz.Geometry}, Options{Hints: 1}); err == nil {
		t.Error("hints without the truth")
	}
	if _, err := Search(context.Background(), oracle{pz.Truth}, pz, Options{Hints: 9}); err == nil {
		t.Error("9 hints of 9 patches")
	}
	if _, err := Search(context.Background(), oracle{[]int{0, 1, 2, 3}}, testPuzzle(2, 1), Options{CentralHint: true}); err == nil {
		t.Error("a central hint on a 2x2 grid")
	}
}

// TestFreeOrder: in the unordered game the search chooses the patch: the
// states it evaluates start with different patches, it has n^2 first
// moves, and it solves with a perfect value.
func TestFreeOrder(t *testing.T) {
	pz := testPuzzle(3, 4)
	s := NewFreeState([]int{0, 1, 2, 3, 4, 5, 6, 7, 8})
	if got := len(s.Moves(nil)); got != 81 {
		t.Fatalf("%d first moves, want 81", got)
	}
	c := s.Clone()
	c.PlayMove(5*9 + 2) // patch 5 in cell 2
	if c.CellOf[5] != 2 || c.Order[0] != 5 || s.Order[0] != 0 || s.Placed != 0 || len(c.Moves(nil)) != 64 {
		t.Fatalf("after patch 5 to cell 2: %+v (original %+v)", c, s)
	}
	if w := c.WithNext(7); w.Next() != 7 || w.Free || c.Order[1] == 7 && c.Next() != 7 {
		t.Fatalf("WithNext: %+v", w)
	}
	firsts := map[int]bool{}
	ev := &spy{Evaluator: oracle{pz.Truth}, check: func(s *State) {
		if s.Placed > 0 {
			firsts[s.Order[0]] = true
		}
	}}
	res, err := Search(context.Background(), ev, pz, Options{Sims: 60, Order: OrderFree})
	if err != nil || !pz.Score(res.Cells).Perfect {
		t.Fatalf("free order: %v %v", res.Cells, err)
	}
	if len(firsts) < 2 {
		t.Fatalf("the search placed only patches %v first", firsts)
	}
	// Greedy P in the unordered game takes the best (patch, cell) of all.
	res, err = searchWith(context.Background(), skewed{oracle{pz.Truth}}, pz, Options{Order: OrderFree}, algoGreedyP)
	if err != nil || len(res.Cells) != 9 {
		t.Fatalf("greedy-p free: %v %v", res.Cells, err)
	}
	res, err = searchWith(context.Background(), oracle{pz.Truth}, pz, Options{Order: OrderFree}, algoGreedyV)
	if err != nil || !pz.Score(res.Cells).Perfect {
		t.Fatalf("greedy-v free: %v %v", res.Cells, err)
	}
}

// TestRewards: the fractional rewards on a hand-made board (every row
// shifted one column right, as in TestScore): no patch right, 9 of 12
// neighbours.
func TestRewards(t *testing.T) {
	pz := &Puzzle{Geometry: Geometry{Grid: 3}, Truth: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}}
	s := NewState([]int{0, 1, 2, 3, 4, 5, 6, 7, 8})
	for _, c := range []int{1, 2, 0, 4, 5, 3, 7, 8, 6} {
		s.Play(c)
	}
	if got := Neighbours.of(s, pz); got != 9.0/12 {
		t.Errorf("neighbours %v", got)
	}
	if got := Patches.of(s, pz); got != 0 {
		t.Errorf("patches %v", got)
	}
	if got := GroundTruth.of(s, pz); got != 0 {
		t.Errorf("gt %v", got)
	}
	// Swap the patches of cells 0 and 1 only: 7 of 9 patches right.
	s = NewState([]int{0, 1, 2, 3, 4, 5, 6, 7, 8})
	for _, c := range []int{1, 0, 2, 3, 4, 5, 6, 7, 8} {
		s.Play(c)
	}
	// Kept: (1,2)? patch 1 at 0, patch 2 at 2: no; (0,1): 0 at 1, 1 at 0: no;
	// (3,4),(4,5),(6,7),(7,8) yes; vertical (0,3): no, (1,4): no, (2,5),
	// (3,6),(4,7),(5,8) yes: 8 of 12.
	if got := Patches.of(s, pz); got != 7.0/9 {
		t.Errorf("patches %v", got)
	}
	if got := Neighbours.of(s, pz); got != 8.0/12 {
		t.Errorf("neighbours %v", got)
	}
	for _, name := range []string{"predicted", "gt", "neighbours", "patches"} {
		if r, err := ParseReward(name); err != nil || r.String() != name {
			t.Errorf("%s: %v %v", name, r, err)
		}
	}
	// The oracle rewards solve with MCTS too, and stop at a perfect answer.
	for _, r := range []Reward{Neighbours, Patches} {
		pz := testPuzzle(3, 6)
		res, err := Search(context.Background(), oracle{pz.Truth}, pz, Options{Sims: 30, Reward: r, Attempts: 3})
		if err != nil || len(res.Attempts) != 1 {
			t.Fatalf("%v: %v, %d attempts", r, err, len(res.Attempts))
		}
	}
	if _, err := Search(context.Background(), oracle{pz.Truth}, pz, Options{Reward: GroundTruth, Value: ValueConstEnd}); err == nil {
		t.Error("const-end with the ground-truth reward")
	}
}

// TestSelections: UCT and SP-MCTS descend the tree of the jigsaw too and
// solve with a perfect value.
func TestSelections(t *testing.T) {
	pz := testPuzzle(3, 7)
	for _, sel := range []Selection{SelectUCT, SelectSPMCTS} {
		res, err := Search(context.Background(), oracle{pz.Truth}, pz, Options{Sims: 60, Selection: sel})
		if err != nil || !pz.Score(res.Cells).Perfect {
			t.Fatalf("%v: %v %v", sel, res.Cells, err)
		}
		if s, err := ParseSelection(sel.String()); err != nil || s != sel {
			t.Fatalf("%v: parse %v %v", sel, s, err)
		}
	}
}

// TestAttemptsReport: with the shipped model and five attempts, the
// answer is one of the attempts, and the oracle-best attempt is at least
// as good as it, the worst at most.
func TestAttemptsReport(t *testing.T) {
	m := shippedModel(t)
	img := loadTestImage(t, "kodak23.png")
	for seed := uint64(1); seed <= 3; seed++ {
		pz := Random(img, Geometry{}, rand.New(rand.NewPCG(seed, 9)))
		res, err := Solve(context.Background(), m, pz, Options{Sims: 10, Attempts: 5, Seed: seed})
		if err != nil || len(res.Attempts) != 5 || !slices.Equal(res.Attempts[res.Attempt].Cells, res.Cells) {
			t.Fatalf("seed %d: %v, %d attempts", seed, err, len(res.Attempts))
		}
		key := func(cells []int) float64 { a := pz.Score(cells); return a.Patch*100 + a.Neighbor }
		lo, hi := key(res.Cells), key(res.Cells)
		for _, a := range res.Attempts {
			lo, hi = min(lo, key(a.Cells)), max(hi, key(a.Cells))
			if a.Value > res.Value {
				t.Fatalf("seed %d: attempt valued %v above the answer's %v", seed, a.Value, res.Value)
			}
		}
		if !(lo <= key(res.Cells) && key(res.Cells) <= hi) {
			t.Fatal("unordered")
		}
	}
}

// TestAblationsRepeat: the same seed gives the same answer with every
// option away from its default.
func TestAblationsRepeat(t *testing.T) {
	m := shippedModel(t)
	img := loadTestImage(t, "kodak03.png")
	for _, opts := range []Options{
		{Sims: 10, Attempts: 2, Seed: 3, Order: OrderFree, Hints: 2, Prior: PriorUniform},
		{Sims: 10, Attempts: 2, Seed: 3, Selection: SelectSPMCTS, Value: ValueConstGame, Reward: Neighbours},
		{Sims: 10, Seed: 3, Selection: SelectUCT, Value: ValueConstEnd, CentralHint: true},
	} {
		run := func() Result {
			pz := Random(img, Geometry{}, rand.New(rand.NewPCG(5, 6)))
			res, err := Solve(context.Background(), m, pz, opts)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		a, b := run(), run()
		if !slices.Equal(a.Cells, b.Cells) || a.Value != b.Value || a.Evaluations != b.Evaluations {
			t.Fatalf("%+v: two runs differ: %+v and %+v", opts, a, b)
		}
	}
}

// TestTrainingHints: with hints, P learns only states with at least that
// many patches placed, and the wrong reassemblies of V keep the hints in
// their cells.
func TestTrainingHints(t *testing.T) {
	pz := testPuzzle(3, 8)
	tab := NewTable(9, func(d, a, b int) float32 { return float32(a - b) })
	for _, h := range []hintSpec{{}, {n: 4}, {n: 1, central: true}, {n: 8}} {
		p, v := headData([]headSample{{pz, tab}}, ValueCorrect, 1, h)
		if p.N != 9-h.n || v.N != 18 {
			t.Fatalf("%+v: %d P and %d V examples", h, p.N, v.N)
		}
		size := 9 * pChannels
		for e := range p.N {
			occupied := 0
			for c := range 9 {
				if p.X[e*size+c*pChannels] == 1 {
					occupied++
				}
			}
			if occupied < h.n {
				t.Fatalf("%+v: a P example with %d patches placed", h, occupied)
			}
		}
	}
	rng := rand.New(rand.NewPCG(2, 3))
	for range 200 {
		s := NewState(rng.Perm(9))
		k := 4 + rng.IntN(6)
		for s.Placed < k {
			s.Play(pz.Truth[s.Next()])
		}
		w := corrupt(s, rng, 3)
		for _, p := range s.Order[:3] {
			if w.CellOf[p] != s.CellOf[p] {
				t.Fatalf("corrupt moved fixed patch %d", p)
			}
		}
		if w.Correct(pz.Truth) {
			t.Fatal("corrupt left a correct reassembly")
		}
	}
}

// TestShortestPath: with a table that favours every true pair, the
// shortest path is the truth, with or without hints; a tiny node budget
// still gives a complete reassembly.
func TestShortestPath(t *testing.T) {
	for _, grid := range []int{3, 4} {
		pz := testPuzzle(grid, uint64(grid))
		n := grid * grid
		tab := NewTable(n, func(d, a, b int) float32 {
			ca, cb := pz.Truth[a], pz.Truth[b]
			if d == Right && cb == ca+1 && ca%grid != grid-1 || d == Below && cb == ca+grid {
				return 4
			}
			return float32((a*7+b*3)%5) - 2 // noise below the true pairs
		})
		for _, hints := range [][]int{nil, HintPatches(pz, Options{Hints: 2, Seed: 1})} {
			res, err := ShortestPath(context.Background(), tab, pz, hints, 0)
			if err != nil || !pz.Score(res.Cells).Perfect || res.Reward != 1 {
				t.Fatalf("%dx%d hints %v: %v %v", grid, grid, hints, res.Cells, err)
			}
		}
		res, err := ShortestPath(context.Background(), tab, pz, nil, 5)
		cells := slices.Clone(res.Cells)
		slices.Sort(cells)
		if err != nil || len(cells) != n {
			t.Fatalf("budget 5: %v %v", res.Cells, err)
		}
		for c := range n {
			if cells[c] != c {
				t.Fatalf("budget 5: cells %v are not a permutation", res.Cells)
			}
		}
	}
}

// TestShipped2x2: the shipped model has 2x2 heads, and MCTS with the
// ground-truth reward solves the 2x2 centres of the test images.
func TestShipped2x2(t *testing.T) {
	m := shippedModel(t)
	g := Geometry{Grid: 2}.Defaults()
	if err := m.Fits(g); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"kodak03.png", "kodak23.png"} {
		pz := Centre(loadTestImage(t, name), g, 1)
		res, err := Solve(context.Background(), m, pz, Options{Sims: 30, Reward: GroundTruth, Attempts: 2})
		if err != nil || !pz.Score(res.Cells).Perfect {
			t.Errorf("%s: %v %v", name, res.Cells, err)
		}
	}
}

func TestRegap(t *testing.T) {
	for _, c := range []struct {
		patch, gap int
		stage      string
		ok         bool
		gapAfter   int
	}{{12, 2, "heads", true, 2}, {12, 4, "pair", true, 4}, {12, 4, "all", true, 4}, {12, 4, "heads", false, 2}, {16, 2, "pair", false, 2}} {
		m := &Model{Patch: 12, Gap: 2}
		if ok := m.Regap(Geometry{Grid: 3, Patch: c.patch, Gap: c.gap}, c.stage); ok != c.ok || m.Gap != c.gapAfter || m.Patch != 12 {
			t.Errorf("%+v: %v, model %d/%d", c, ok, m.Patch, m.Gap)
		}
	}
}

// TestOptionNames: each option's values read back from their names, ""
// reads as the default, and an unknown name is refused with the list of
// the names.
func TestOptionNames(t *testing.T) {
	type enum struct {
		names []string
		parse func(string) (string, error) // the value read, as its String
		def   string
		err   string
	}
	for _, e := range []enum{
		{[]string{"predicted", "gt", "neighbours", "patches"}, func(s string) (string, error) { v, err := ParseReward(s); return v.String(), err },
			"predicted", `neural: reward "x": want predicted, gt, neighbours or patches`},
		{[]string{"p", "uniform"}, func(s string) (string, error) { v, err := ParsePrior(s); return v.String(), err },
			"p", `neural: prior "x": want p or uniform`},
		{[]string{"v", "const-end", "const-game", "const"}, func(s string) (string, error) { v, err := ParseValueMode(s); return v.String(), err },
			"v", `neural: value "x": want v, const-end, const-game or const`},
		{[]string{"puct", "uct", "spmcts"}, func(s string) (string, error) { v, err := ParseSelection(s); return v.String(), err },
			"puct", `neural: selection "x": want puct, uct or spmcts`},
		{[]string{"fixed", "free"}, func(s string) (string, error) { v, err := ParseOrder(s); return v.String(), err },
			"fixed", `neural: order "x": want fixed or free`},
		{[]string{"v", "pairs", "both"}, func(s string) (string, error) { v, err := ParseJudge(s); return v.String(), err },
			"v", `neural: judge "x": want v, pairs or both`},
	} {
		for _, name := range append(e.names, "") {
			want := cmp.Or(name, e.def)
			if got, err := e.parse(name); err != nil || got != want {
				t.Errorf("%q reads as %q (%v), want %q", name, got, err, want)
			}
		}
		if _, err := e.parse("x"); err == nil || err.Error() != e.err {
			t.Errorf("x: %v, want %s", err, e.err)
		}
	}
	if s := Order(7).String(); s != "Order(7)" {
		t.Errorf("Order(7) is %q", s)
	}
}

// TestJudgePairs: the pair judge scores the true reassembly above any
// other on a table that favours the true neighbours, picks each attempt by
// that score in Solve, and needs the table (Search refuses it).
func TestJudgePairs(t *testing.T) {
	pz := testPuzzle(3, 4)
	byCell := make([]int, len(pz.Truth))
	for p, c := range pz.Truth {
		byCell[c] = p
	}
	tab := NewTable(9, func(d, a, b int) float32 {
		ca, cb := pz.Truth[a], pz.Truth[b]
		if d == Right && cb == ca+1 && ca%3 != 2 || d == Below && cb == ca+3 {
			return 4
		}
		return 0
	})
	play := func(cells []int) *State {
		s := NewState([]int{0, 1, 2, 3, 4, 5, 6, 7, 8})
		for p := range 9 {
			s.Play(cells[p])
		}
		return s
	}
	truth := tab.PairScore(play(pz.Truth), 3)
	swapped := slices.Clone(pz.Truth)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	if other := tab.PairScore(play(swapped), 3); !(truth > other && truth <= 1) {
		t.Fatalf("pair score of the truth %v, of a swap %v", truth, other)
	}
	if _, err := Search(context.Background(), oracle{pz.Truth}, pz, Options{Judge: JudgePairs}); err == nil {
		t.Fatal("Search judged by pairs without a table")
	}
	for _, name := range []string{"v", "pairs", "both"} {
		if j, err := ParseJudge(name); err != nil || j.String() != name {
			t.Fatalf("ParseJudge(%q) = %v, %v", name, j, err)
		}
	}
	m := shippedModel(t)
	img := loadTestImage(t, "kodak23.png")
	for seed := uint64(1); seed <= 2; seed++ {
		pz := Random(img, Geometry{}, rand.New(rand.NewPCG(seed, 9)))
		res, err := Solve(context.Background(), m, pz, Options{Sims: 10, Attempts: 4, Seed: seed, Judge: JudgePairs})
		if err != nil || len(res.Attempts) != 4 {
			t.Fatalf("seed %d: %v", seed, err)
		}
		tab, err := m.Table(pz)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res.Attempts {
			s := NewState(make([]int, 9))
			for p, c := range a.Cells {
				s.At[c] = int8(p)
			}
			if math.Abs(a.Value-tab.PairScore(s, 3)) > 1e-9 || a.Value > res.Value {
				t.Fatalf("seed %d: attempt value %v, pair score %v, answer %v", seed, a.Value, tab.PairScore(s, 3), res.Value)
			}
		}
	}
}
