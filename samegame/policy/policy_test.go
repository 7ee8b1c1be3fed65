package policy

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"tessera/nn"
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

// solvedEntries reads testdata/solved.txt: four boards with solutions.
func solvedEntries(t *testing.T) []samegame.Entry {
	t.Helper()
	f, err := os.Open("testdata/solved.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entries, err := samegame.ParseSet(f, samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func TestExamples(t *testing.T) {
	entries := solvedEntries(t)
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

// TestValueTargets checks the value head's targets: along a solution of k
// clicks, the position before click i has k-i clicks left, which the
// ordinal bits spell, and the policy targets are unchanged.
func TestValueTargets(t *testing.T) {
	entries := solvedEntries(t)
	g := DustGeometry
	plain, _, _ := g.Examples(entries, false, false)
	d, _, err := g.Examples(entries, false, true)
	if err != nil {
		t.Fatal(err)
	}
	out := g.Cells() + ValueBits
	if d.N != plain.N || len(d.Y) != d.N*out {
		t.Fatalf("%d examples of %d targets, want %d of %d", d.N, len(d.Y)/max(d.N, 1), plain.N, out)
	}
	k := 0
	for _, e := range entries {
		for i := range e.Moves {
			y := d.Y[k*out : (k+1)*out]
			if !slices.Equal(y[:g.Cells()], plain.Y[k*g.Cells():(k+1)*g.Cells()]) {
				t.Fatalf("%s, click %d: policy targets differ", e.Name, i+1)
			}
			left := 0
			for _, v := range y[g.Cells():] {
				left += int(v)
			}
			if left != len(e.Moves)-i || y[g.Cells()+left-1] != 1 {
				t.Fatalf("%s, click %d: value bits say %d left, want %d", e.Name, i+1, left, len(e.Moves)-i)
			}
			k++
		}
	}
}

// TestValueHeadLearns trains a small network with a value head on the
// solved boards for a few hundred steps: its estimate of the clicks left
// must fall to within half a click of the truth on average on the training
// positions (an untrained head is off by about 6).
func TestValueHeadLearns(t *testing.T) {
	entries := solvedEntries(t)
	p, err := New(DustGeometry, Arch{Hidden: []int{64}, Value: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := DustGeometry.Examples(entries, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Net().Train(context.Background(), d, nn.TrainOptions{MaxSteps: 300, Epochs: 1000, BatchSize: 16,
		LearningRate: 3e-3, Validation: -1, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	var boards []*samegame.Board
	var want []int
	for _, e := range entries {
		b := e.Board.Clone()
		for i, r := range e.Moves {
			boards = append(boards, b.Clone())
			want = append(want, len(e.Moves)-i)
			b.Play(r.Move)
		}
	}
	v, err := p.Values(boards)
	if err != nil {
		t.Fatal(err)
	}
	errSum := 0.0
	for i := range v {
		errSum += math.Abs(v[i] - float64(want[i]))
	}
	mae := errSum / float64(len(v))
	t.Logf("value head: mean absolute error %.2f clicks on %d positions", mae, len(v))
	if mae > 0.5 {
		t.Errorf("value head off by %.2f clicks on average after training", mae)
	}
	sol, err := p.Lookahead(context.Background(), entries[0].Board)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := samegame.Replay(entries[0].Board, sol.Moves); err != nil || !res.Cleared || res.Clicks != sol.Clicks {
		t.Fatalf("lookahead line does not replay: %v", err)
	}
}

// TestShippedPolicyPlays plays the shipped network greedily and with the
// beam on fresh boards: every line must replay legally and clear the board.
func TestShippedPolicyPlays(t *testing.T) {
	p, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	a, err := DefaultAfterstate()
	if err != nil || !a.IsAfterstate() || a.Geometry() != DustGeometry || p.IsAfterstate() {
		t.Fatalf("shipped afterstate network: %v", err)
	}
	a4 := *a
	a4.Views = 4
	ctx := context.Background()
	for i, b := range randomBoards(4, 9) {
		for name, play := range map[string]func() (samegame.Solution, error){
			"greedy":           func() (samegame.Solution, error) { return p.Greedy(ctx, b) },
			"afterstate":       func() (samegame.Solution, error) { return a.Greedy(ctx, b) },
			"afterstate views": func() (samegame.Solution, error) { return a4.Greedy(ctx, b) },
			"beam":             func() (samegame.Solution, error) { return p.Beam(ctx, b, BeamOptions{Width: 8}) },
			"value":            func() (samegame.Solution, error) { return p.Lookahead(ctx, b) },
			"mcts":             func() (samegame.Solution, error) { return p.MCTS(ctx, b, MCTSOptions{Iterations: 64, Batch: 8}) },
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

// labelledText is a labelled position as "samegame dataset -labels"
// writes it: 11 clicks left, the groups at 4,0 and 1,2 good.
const labelledText = `position 1.1
board
OBBYROGG
YRYROYOO
YYRBYRYG
RGRYOGBR
RYYYGGYY
YYBBGRRB
left 11
good 4,0;1,2
`

// parseDust parses a set of dust boards, as "samegame dataset" writes it.
func parseDust(t *testing.T, text string) []samegame.Entry {
	t.Helper()
	entries, err := samegame.ParseSet(strings.NewReader(text), samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestLabelledExamples checks the examples of labelled positions (as
// "samegame dataset -labels" writes them): one per position, marking the
// cells of every good group and the clicks left, with clear errors for
// bad labels.
func TestLabelledExamples(t *testing.T) {
	const text = labelledText
	entries := parseDust(t, text)
	g := DustGeometry
	d, boards, err := g.Examples(entries, true, true)
	if err != nil || d.N != 1 || boards != 0 {
		t.Fatalf("%d examples of %d boards, %v", d.N, boards, err)
	}
	b := entries[0].Board
	want := 0
	for _, m := range []samegame.Move{{X: 4, Y: 0}, {X: 1, Y: 2}} {
		gr, ok := b.GroupAt(int(m.X), int(m.Y))
		if !ok {
			t.Fatal("no group")
		}
		want += int(gr.Size)
		if d.Y[int(m.Y)*g.W+int(m.X)] != 1 {
			t.Fatalf("group %v not marked", m)
		}
	}
	marked := 0
	for _, v := range d.Y[:g.Cells()] {
		marked += int(v)
	}
	if marked != want {
		t.Fatalf("%d cells marked, the two groups have %d", marked, want)
	}
	for k, v := range d.Y[g.Cells():] {
		if (v == 1) != (k < 11) {
			t.Fatalf("value bit %d is %v for 11 clicks left", k, v)
		}
	}
	for _, bad := range []string{"left 0\ngood 4,0\n", "left 3\ngood 4;0\n", "left 3\ngood 4,9\n", "good 4,0\n"} {
		es := parseDust(t, strings.SplitAfter(text, "RRB\n")[0]+bad)
		if _, _, err := g.Examples(es, false, true); err == nil {
			t.Errorf("labels %q accepted", bad)
		}
	}
}

// TestAfterExamples checks the afterstate examples of a labelled
// position: each group holds the boards the good clicks leave (sharing
// the target), then other children (target 0), then padding.
func TestAfterExamples(t *testing.T) {
	const text = labelledText
	entries := parseDust(t, text)
	g := DustGeometry
	b := entries[0].Board
	child := func(x, y int) string {
		gr, ok := b.GroupAt(x, y)
		if !ok {
			t.Fatal("no group")
		}
		c := b.Clone()
		c.PlayGroup(gr)
		return c.String()
	}
	groups := b.Groups(nil)
	for _, k := range []int{4, len(groups) + 3} {
		d, n, err := g.AfterExamples(entries, k, 1)
		if err != nil || n != 1 || d.N != k || len(d.Y) != k || len(d.X) != k*g.InputSize() {
			t.Fatalf("k %d: %d examples of %d positions, %v", k, d.N, n, err)
		}
		seen := map[string]bool{}
		for i := range k {
			x := d.X[i*g.InputSize() : (i+1)*g.InputSize()]
			if i >= len(groups) {
				if d.Y[i] != -1 || slices.ContainsFunc(x, func(v float32) bool { return v != 0 }) {
					t.Fatalf("k %d: example %d should be padding: target %v", k, i, d.Y[i])
				}
				continue
			}
			c, err := g.Decode(x, samegame.Dust)
			if err != nil {
				t.Fatal(err)
			}
			s := c.String()
			good := s == child(4, 0) || s == child(1, 2)
			if want := float32(0); good != (i < 2) || d.Y[i] != map[bool]float32{true: 0.5, false: want}[good] {
				t.Fatalf("k %d: example %d (good %v) has target %v", k, i, good, d.Y[i])
			}
			if seen[s] {
				t.Fatalf("k %d: child %d twice", k, i)
			}
			seen[s] = true
		}
		if k > len(groups) && len(seen) != len(groups) {
			t.Fatalf("k %d: %d distinct children of %d groups", k, len(seen), len(groups))
		}
	}
	// Every click good: nothing to learn.
	var all []string
	for _, gr := range groups {
		all = append(all, fmt.Sprintf("%d,%d", gr.X, gr.Y))
	}
	es := parseDust(t, strings.Replace(text, "4,0;1,2", strings.Join(all, ";"), 1))
	if d, n, err := g.AfterExamples(es, 4, 1); err != nil || n != 0 || d.N != 0 {
		t.Fatalf("all clicks good: %d examples of %d positions, %v", d.N, n, err)
	}
	if _, _, err := g.AfterExamples(entries, 1, 1); err == nil {
		t.Error("groups of 1 accepted")
	}
}

// TestAfterstatePolicy checks an afterstate network's scores (a softmax
// over the groups; a click that empties the board takes it all), its file
// round trip and greedy play to the end of a board.
func TestAfterstatePolicy(t *testing.T) {
	p, err := New(DustGeometry, Arch{Conv: []int{4}, Hidden: []int{8}, After: true}, 1)
	if err != nil || !p.IsAfterstate() || p.HasValue() {
		t.Fatalf("%v: afterstate %v, value %v", err, p != nil && p.IsAfterstate(), p != nil && p.HasValue())
	}
	if _, err := New(DustGeometry, Arch{After: true, Value: true}, 1); err == nil {
		t.Error("afterstate network with a value head accepted")
	}
	rows := make([][]samegame.Color, 6)
	for r := range rows {
		rows[r] = make([]samegame.Color, 8)
		for x := range rows[r] {
			rows[r][x] = samegame.Color((x/3 + r/2) % 5)
		}
	}
	mixed, err := samegame.FromRows(rows, 5, samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	for r := range rows {
		for x := range rows[r] {
			rows[r][x] = 2
		}
	}
	one, _ := samegame.FromRows(rows, 5, samegame.Dust)
	scores, groups, err := p.Scores([]*samegame.Board{mixed, one})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, s := range scores[0] {
		sum += s
	}
	if len(scores[0]) != len(groups[0]) || len(groups[0]) < 2 || math.Abs(sum-1) > 1e-9 || len(scores[1]) != 1 || scores[1][0] != 1 {
		t.Fatalf("scores %v of %d groups (sum %v), %v", scores[0], len(groups[0]), sum, scores[1])
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := Read(&buf)
	if err != nil || !q.IsAfterstate() {
		t.Fatalf("read back: %v", err)
	}
	again, _, _ := q.Scores([]*samegame.Board{mixed})
	if !slices.Equal(again[0], scores[0]) {
		t.Fatalf("scores after a round trip %v, want %v", again[0], scores[0])
	}
	sol, err := q.Greedy(context.Background(), mixed)
	if err != nil || !sol.Cleared {
		t.Fatalf("greedy: %+v, %v", sol, err)
	}
	if res, err := samegame.Replay(mixed, sol.Moves); err != nil || res.Clicks != len(sol.Moves) {
		t.Fatalf("replay: %+v, %v", res, err)
	}
	if _, err := q.Lookahead(context.Background(), mixed); err == nil {
		t.Error("lookahead without a value head accepted")
	}
}
