package partial

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"
	"unsafe"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
)

// Breaks is the break-schedule search of the Eternity II record boards
// (Joshua Blackwood's 468-470, 2020-2021), a Solver that maximises the
// score of complete boards; its fields are its parameters. The zero value
// runs one search per core until the context ends.
//
// The search is a backtracker in a fixed fill order in which a placement
// may leave one mismatched edge ("break"), but only after the fill
// indices of a schedule: after the k-th index of Schedule, at most k
// breaks in all. Grey faces out and edges between two border cells always
// match. Early in the fill order a heuristic asks for the sides of a few
// chosen colours to be placed at a given pace (Blackwood's heuristic
// sides and array), so that the colours that tile badly are used up
// before the breaks start. Each restart shuffles the candidates and runs
// for RestartNodes placements. Every board that reaches a new depth in
// its restart (or the same depth with fewer breaks) is completed (the empty cells by an
// optimal assignment per kind of cell, or in their best arrangement when
// at most 16 are empty, unless NoExactFill; then PolishMoves window and
// assignment repairs of Partial's large neighbourhood search) and scored
// by Puzzle.Score.
type Breaks struct {
	// Seed makes the search repeatable: restart r of worker w draws from a
	// stream derived from (Seed, w, r) and the Start board.
	Seed uint64
	// Workers is the number of independent searches (0: GOMAXPROCS).
	Workers int
	// Scan, when its Order is not OrderAuto, is the fill order; the
	// default (BreakOrder) fills rows from the bottom left, the last four
	// rows column by column, as the record holders do.
	Scan edgematch.Scan
	// Schedule lists the fill indices (counting every cell, hints
	// included, from 0 in fill order) from which one more break is
	// allowed, in increasing order; nil: DefaultSchedule. An empty
	// non-nil slice allows none.
	Schedule []int
	// Heuristic lists the colours whose sides must be placed early; nil:
	// HeuristicColours (Blackwood's 10, 13, 16 on Eternity II) on boards
	// of 256 cells or more, none on smaller ones. NoHeuristic turns the
	// heuristic off.
	Heuristic   []edgematch.Colour
	NoHeuristic bool
	// RestartNodes is the number of placements after which a worker
	// restarts with newly shuffled candidates (0: 500 million).
	RestartNodes int64
	// MaxNodes stops every worker after about this many placements (0: no
	// limit): with the same Seed and Workers the result is then
	// repeatable.
	MaxNodes int64
	// PolishMoves is the number of repair moves spent on every completed
	// board (0: 2000; negative: none).
	PolishMoves int64
	// CarryBar keeps, across restarts, the bar that a board must pass to
	// be completed (its key, 2 x depth - breaks, above the best completed
	// so far). By default every restart sets its own bar, so that each
	// restart completes its own deepest boards: a carried bar stops the
	// completions once the first restarts have gone deep (on Eternity II
	// after about ten seconds), and a long run then polishes nothing more.
	CarryBar bool
	// Target stops the search when a board of this score is found (0:
	// Puzzle.MaxScore).
	Target int
	// Start, when set, is a complete board to beat (a saved best): the
	// result is never worse, and the restarts draw new streams (from the
	// seed and the board), so a resumed run does not repeat the first.
	Start *edgematch.Board
	// OnBest, when set, is called (serially) with every new best board and
	// its score; the board must not be kept after the call returns.
	OnBest func(b *edgematch.Board, s edgematch.Score)
	// Progress, when set, is called about once a second.
	Progress func(BreaksProgress)
	// OnComplete, when set, is called (serially) with every distinct
	// complete board the search completes that scores EmitAt or more
	// (rescored by Puzzle.Score), each board once, at most EmitMax of them
	// (0: 100,000); the board must not be kept after the call returns.
	// It sees every completed board that the counts of BreaksProgress
	// count, not only the new best ones: the boards a run finds near the
	// top, for a rate of boards per CPU-hour.
	OnComplete func(b *edgematch.Board, s edgematch.Score)
	EmitAt     int
	EmitMax    int
	// By default the boards of at most exactFillCells empty cells are
	// completed in their best arrangement (CompleteBest's branch and bound
	// over the empty cells, the placed pieces kept) before the polish,
	// whenever that can reach within polishSlack of the best so far: on
	// Eternity II it finds about twice the boards of 463 and more per
	// CPU-hour (docs/results/edgematch.md). NoExactFill turns it off: the
	// assignment alone fills them (the search places the same pieces and
	// completes the same partial boards either way).
	NoExactFill bool

	// reserve, set by Tiles, saves a group of inner pieces chosen for
	// their tileability for the fill indices from reserveFrom on, instead
	// of the heuristic colours.
	reserve     int
	reserveFrom int
	tileIters   int

	// onBoard, for tests, sees every board of the backtracker before it is
	// completed: its first depth steps are placed.
	onBoard func(b *edgematch.Board, depth int)
}

var _ edgematch.Solver = Breaks{}

// BreaksProgress reports the state of a break-schedule search.
type BreaksProgress struct {
	Best     int   // the best score so far
	Nodes    int64 // placements, all workers together
	MaxDepth int   // the most cells filled (hints included)
	Restarts int64
	// Completed counts the boards of the backtracker completed and
	// scored; Near those that scored within NearGap edges of the maximum
	// (460 or more on Eternity II), and Top[d] those that scored the
	// maximum less d: the tail whose decay tells how many more boards a
	// score one edge higher takes. A board is polished before it is
	// scored only when it comes within 4 of the best so far, so the
	// counts more than 4 below the best are of unpolished boards.
	Completed, Near int64
	Top             [NearGap + 1]int64
	MaxScore        int // the puzzle's, for Top
	Elapsed         time.Duration
}

// NearGap is how far below the maximum a completed board still counts in
// BreaksProgress.Near and Top.
const NearGap = 20

// BreakOrder returns the default fill order of Breaks on a rows x cols
// board: rows from the bottom left, each left to right, then the last
// four rows (all of them on boards of six rows or fewer) column by column,
// each column from the bottom up. Every cell then has its left and lower
// neighbours filled before it.
func BreakOrder(rows, cols int) []int {
	strip := min(4, rows)
	if rows <= 6 {
		strip = rows
	}
	out := make([]int, 0, rows*cols)
	for r := rows - 1; r >= strip; r-- {
		for c := range cols {
			out = append(out, r*cols+c)
		}
	}
	for c := range cols {
		for r := strip - 1; r >= 0; r-- {
			out = append(out, r*cols+c)
		}
	}
	return out
}

// blackwoodSchedule is the break schedule of Blackwood's record runs on
// the 256 cells of Eternity II.
var blackwoodSchedule = []int{201, 206, 211, 216, 221, 225, 229, 233, 237, 239}

// DefaultSchedule returns Blackwood's schedule (fill indices 201, 206,
// ..., 239: ten breaks) for 256 cells, and for other boards the same
// shape scaled: about one break per 48 internal edges, placed at the same
// fractions of the fill order.
func DefaultSchedule(p *edgematch.Puzzle) []int {
	n := p.Cells()
	if n == 256 {
		return slices.Clone(blackwoodSchedule)
	}
	k := max(1, (p.MaxScore()+24)/48)
	out := make([]int, 0, k)
	for j := range k {
		// Interpolate along Blackwood's schedule.
		x := float64(j) * float64(len(blackwoodSchedule)-1) / float64(max(1, k-1))
		lo := int(x)
		hi := min(lo+1, len(blackwoodSchedule)-1)
		f := float64(blackwoodSchedule[lo]) + (x-float64(lo))*float64(blackwoodSchedule[hi]-blackwoodSchedule[lo])
		idx := min(n-1, int(f*float64(n)/256))
		if len(out) > 0 && idx <= out[len(out)-1] {
			idx = min(n-1, out[len(out)-1]+1)
		}
		out = append(out, idx)
	}
	return out
}

// blackwoodCurve is Blackwood's heuristic array: the sides of the
// heuristic colours that must be placed by fill index i of 256 (122 such
// sides exist on Eternity II with his colours 10, 13, 16).
func blackwoodCurve(i int) float64 {
	x := float64(i)
	switch {
	case i <= 16:
		return 0
	case i <= 26:
		return (x - 16) * 2.8
	case i <= 56:
		return (x-26)*1.43333 + 28
	case i <= 76:
		return (x-56)*0.9 + 71
	case i <= 102:
		return (x-76)*0.6538 + 89
	case i <= 160:
		return (x-102)/4.4 + 106
	}
	return 0
}

// blackwoodSides is the number of sides of Blackwood's heuristic colours
// on Eternity II.
const blackwoodSides = 122

// HeuristicColours returns the colours Breaks asks to place early when
// Breaks.Heuristic is nil: on Eternity II Blackwood's 10, 13 and 16;
// otherwise, after Jakob Wortmann's rule, the frame colour least used on
// the corner pieces and the two inner colours that, with it, appear on the
// fewest pieces. It returns nil on a puzzle without frame or two inner
// colours.
func HeuristicColours(p *edgematch.Puzzle) []edgematch.Colour {
	if p.Cells() == 256 && p.Colours() == 23 && p.Tiles[0] == (edgematch.Tile{1, 17, 0, 0}) && p.Tiles[255] == (edgematch.Tile{21, 22, 8, 22}) {
		return []edgematch.Colour{10, 13, 16}
	}
	k := p.Colours()
	frame := make([]bool, k)
	inner := make([]bool, k)
	cornerUse := make([]int, k)
	for _, t := range p.Tiles {
		greys := 0
		for _, c := range t {
			if c == edgematch.Grey {
				greys++
			}
		}
		for d, c := range t {
			if c == edgematch.Grey {
				continue
			}
			// A side next to a grey side lies along the frame.
			if greys > 0 && (t[(d+1)&3] == edgematch.Grey || t[(d+3)&3] == edgematch.Grey) {
				frame[c] = true
				if greys == 2 {
					cornerUse[c]++
				}
			} else {
				inner[c] = true
			}
		}
	}
	c1 := -1
	for c := 1; c < k; c++ {
		if frame[c] && (c1 < 0 || cornerUse[c] < cornerUse[c1]) {
			c1 = c
		}
	}
	var in []int
	for c := 1; c < k; c++ {
		if inner[c] && !frame[c] {
			in = append(in, c)
		}
	}
	if c1 < 0 || len(in) < 2 {
		return nil
	}
	best, b2, b3 := -1, 0, 0
	for i, c2 := range in {
		for _, c3 := range in[i+1:] {
			n := 0
			for _, t := range p.Tiles {
				for _, c := range t {
					if int(c) == c1 || int(c) == c2 || int(c) == c3 {
						n++
						break
					}
				}
			}
			if best < 0 || n < best {
				best, b2, b3 = n, c2, c3
			}
		}
	}
	return []edgematch.Colour{edgematch.Colour(c1), edgematch.Colour(b2), edgematch.Colour(b3)}
}

// bcand is an entry of the break search's candidate lists.
type bcand struct {
	packed uint32 // N | E<<8 | S<<16 | W<<24
	piece  uint16
	rot    uint8
	h      uint8 // sides of heuristic colours
}

// breakPlan is the part of a break search shared by its workers: the fill
// order compiled, the candidate lists in canonical order, the schedule
// and the heuristic per step.
type breakPlan struct {
	c     *kernel.Compiled
	order []int
	// Per step: the fill index of its cell, the breaks allowed once it is
	// filled, the heuristic sides that must be placed by then, and its
	// candidate table.
	fillIndex []int32
	allowed   []int32
	need      []int32
	tab       []int32
	// The tables: for t = tab[i] + a*k + b, the candidates matching both
	// key sides are cand[lo[t]:mid[t]], those that miss one of them
	// cand[mid[t]:hi[t]].
	cand        []bcand
	lo, mid, hi []int32
	// lists[t] is lo[t], mid[t], hi[t] side by side; steps[i] the fields
	// of step i that the loop reads.
	lists []breakList
	steps []breakStep
	// maskedTabs are the tables with candidate masks (breakmasks.go).
	maskedTabs  []int32
	hintNeed    int32 // heuristic sides the hints place
	maxSched    int
	firstBreak  int
	heuristic   []edgematch.Colour
	restartBase uint64
	// evalFrom is the first step whose boards are completed and scored:
	// the step of the first break's fill index.
	evalFrom int
}

// newBreakPlan compiles p for the break search.
func newBreakPlan(p *edgematch.Puzzle, o Breaks) (*breakPlan, error) {
	order := BreakOrder(p.Rows, p.Cols)
	if o.Scan.Order != edgematch.OrderAuto {
		order = o.Scan.Cells(p.Rows, p.Cols)
	}
	c, err := kernel.Compile(p, kernel.CompileOptions{Cells: order})
	if err != nil {
		return nil, err
	}
	bp := &breakPlan{c: c, order: order}
	sched := o.Schedule
	if sched == nil {
		sched = DefaultSchedule(p)
	}
	for i, s := range sched {
		if s < 0 || s >= p.Cells() || (i > 0 && s <= sched[i-1]) {
			return nil, fmt.Errorf("edgematch: break schedule %v: want increasing fill indices 0..%d", sched, p.Cells()-1)
		}
	}
	bp.maxSched = len(sched)
	bp.firstBreak = p.Cells()
	if len(sched) > 0 {
		bp.firstBreak = sched[0]
	}
	if !o.NoHeuristic && o.reserve == 0 {
		bp.heuristic = o.Heuristic
		if bp.heuristic == nil && p.Cells() >= 256 {
			// Blackwood's pace is made for 256 cells: scaled down to
			// META 2010's 10x10 it stops the search at depth 22 (172/180
			// without it, 154 with it, in 30 million placements).
			bp.heuristic = HeuristicColours(p)
		}
	}
	isH := make(colourFlags, 256)
	for _, h := range bp.heuristic {
		isH[h] = true
	}
	total := 0
	for _, t := range p.Tiles {
		total += int(isH.count(t))
	}
	hinted := make([]bool, p.Cells())
	for _, h := range p.Hints {
		hinted[h.Row*p.Cols+h.Col] = true
		if o.reserve == 0 {
			bp.hintNeed += int32(isH.count(p.Tiles[h.Piece]))
		}
	}
	bp.paceSteps(p, o, sched, total)
	bp.buildTables(p, hinted, isH)
	bp.finish(p, o)
	return bp, nil
}

// colourFlags marks colours (by colour number).
type colourFlags []bool

// count returns the sides of t whose colours are marked.
func (f colourFlags) count(t edgematch.Tile) uint8 {
	n := uint8(0)
	for _, c := range t {
		if f[c] {
			n++
		}
	}
	return n
}

// paceSteps sets, per step, the fill index of its cell (the steps of c
// skip the hints), the breaks allowed once it is filled and the heuristic
// sides (of total) that must be placed by then.
func (bp *breakPlan) paceSteps(p *edgematch.Puzzle, o Breaks, sched []int, total int) {
	c := bp.c
	fill := make([]int32, p.Cells())
	for i, cell := range bp.order {
		fill[cell] = int32(i)
	}
	n := p.Cells()
	for i := range c.N {
		f := fill[c.StepCell[i]]
		bp.fillIndex = append(bp.fillIndex, f)
		a := int32(0)
		for _, s := range sched {
			if int32(s) <= f {
				a++
			}
		}
		bp.allowed = append(bp.allowed, a)
		need := int32(0)
		if o.reserve > 0 {
			// Every step before the reserved part takes a piece outside
			// the group (h = 1): i+1 such pieces by step i.
			if int(f) < o.reserveFrom {
				need = int32(i + 1)
			}
		} else if len(bp.heuristic) > 0 {
			// Blackwood's array, scaled to the board and the colours' sides.
			need = int32(blackwoodCurve(int(f)*256/n) * float64(total) / blackwoodSides)
		}
		bp.need = append(bp.need, need)
	}
}

// breakKey names a break table: the cell's outward sides and its two key
// sides (-1: none).
type breakKey struct{ mask, a, b int }

// buildTables chooses the key sides of every step, as compile chose them
// (hinted: the cells known before the search), and builds each distinct
// table once.
func (bp *breakPlan) buildTables(p *edgematch.Puzzle, hinted []bool, isH colourFlags) {
	c := bp.c
	known := slices.Clone(hinted)
	tabs := map[breakKey]int32{}
	delta := [4][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}
	for i := range c.N {
		cell := int(c.StepCell[i])
		r, col := cell/p.Cols, cell%p.Cols
		var sides []int
		for _, d := range [4]int{edgematch.West, edgematch.North, edgematch.East, edgematch.South} {
			nr, nc := r+delta[d][0], col+delta[d][1]
			if nr < 0 || nr >= p.Rows || nc < 0 || nc >= p.Cols || known[nr*p.Cols+nc] {
				sides = append(sides, d)
			}
		}
		kk := breakKey{edgematch.OutwardMask(p.Rows, p.Cols, r, col), -1, -1}
		if len(sides) > 0 {
			kk.a = sides[0]
		}
		if len(sides) > 1 {
			kk.b = sides[1]
		}
		known[cell] = true
		t, ok := tabs[kk]
		if !ok {
			t = int32(len(bp.lo))
			tabs[kk] = t
			bp.addTable(p, kk, isH)
		}
		bp.tab = append(bp.tab, t)
	}
}

// addTable appends the table of key kk: for each pair of key colours, the
// candidates matching both, then (breaks only in inner cells keyed by two
// sides that face other cells) those that miss exactly one.
func (bp *breakPlan) addTable(p *edgematch.Puzzle, kk breakKey, isH colourFlags) {
	c := bp.c
	k := c.K
	brk := kk.mask == 0 && kk.b >= 0
	// The oriented pieces that fit, by the colour of each key side, in
	// the order of c.oriPacked: a list's candidates are then merged from
	// byA[ka] and byB[kb] rather than found among all pieces.
	side := func(pk uint32, d int) int {
		if d < 0 {
			return 0
		}
		return int(byte(pk >> (8 * d)))
	}
	byA := make([][]int, k)
	byB := make([][]int, k)
	for o, pk := range c.OriPacked {
		if c.Fits(o, kk.mask) {
			byA[side(pk, kk.a)] = append(byA[side(pk, kk.a)], o)
			byB[side(pk, kk.b)] = append(byB[side(pk, kk.b)], o)
		}
	}
	add := func(o int) {
		pc := c.OriPiece[o]
		bp.cand = append(bp.cand, bcand{packed: c.OriPacked[o], piece: uint16(pc), rot: c.OriRot[o], h: isH.count(p.Tiles[pc])})
	}
	for ka := range k {
		for kb := range k {
			bp.lo = append(bp.lo, int32(len(bp.cand)))
			for _, o := range byA[ka] {
				if side(c.OriPacked[o], kk.b) == kb {
					add(o)
				}
			}
			bp.mid = append(bp.mid, int32(len(bp.cand)))
			if brk {
				// One key side matches: merge the two lists.
				as, bs := byA[ka], byB[kb]
				for len(as) > 0 || len(bs) > 0 {
					var o int
					if len(bs) == 0 || (len(as) > 0 && as[0] < bs[0]) {
						o, as = as[0], as[1:]
					} else {
						o, bs = bs[0], bs[1:]
					}
					if (side(c.OriPacked[o], kk.a) == ka) != (side(c.OriPacked[o], kk.b) == kb) {
						add(o)
					}
				}
			}
			bp.hi = append(bp.hi, int32(len(bp.cand)))
		}
	}
}

// finish lays the tables and steps out for the loop, chooses the masked
// tables, the first step whose boards are completed, and the restarts'
// base from the start board.
func (bp *breakPlan) finish(p *edgematch.Puzzle, o Breaks) {
	c := bp.c
	for t := range bp.lo {
		bp.lists = append(bp.lists, breakList{bp.lo[t], bp.mid[t], bp.hi[t]})
	}
	for i := range c.N {
		cs := c.Steps[i]
		bp.steps = append(bp.steps, breakStep{tab: bp.tab[i], allowed: bp.allowed[i], need: bp.need[i],
			pad4: cs.Pad4, srcA: cs.SrcA, srcB: cs.SrcB, xs: cs.Xs, xe: cs.Xe, aSh: cs.ASh, bSh: cs.BSh})
	}
	bp.chooseMasked()
	bp.evalFrom = c.N
	evalFill := bp.firstBreak
	if o.reserve > 0 {
		// Tiles breaks early: complete only the boards that come near the
		// reserved part (it rarely gets far into it).
		evalFill = max(evalFill, o.reserveFrom-p.Cells()/50)
	}
	for i, f := range bp.fillIndex {
		if int(f) >= evalFill {
			bp.evalFrom = i
			break
		}
	}
	if o.Start != nil {
		h := fnv.New64a()
		for _, pl := range o.Start.Cells {
			fmt.Fprintf(h, "%d/%d ", pl.Piece, pl.Rot)
		}
		bp.restartBase = h.Sum64()
	}
}

// Solve runs the break-schedule search until the context ends, MaxNodes
// is spent on every worker or a board of Target is found. The result is
// the best complete board of all workers (or Start if none beats it); the
// error is the context's when it ends the search, nil otherwise.
func (o Breaks) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	startTime := time.Now()
	if err := p.Validate(); err != nil {
		return edgematch.Result{}, err
	}
	if p.Frame != nil {
		return edgematch.Result{}, fmt.Errorf("edgematch: the break search needs a grey frame")
	}
	if !kernel.HintsFit(p) {
		return edgematch.Result{}, fmt.Errorf("%w: the hints disagree with each other or the frame", edgematch.ErrNoSolution)
	}
	workers, target, err := searchDefaults(p, o.Start, o.Workers, o.Target)
	if err != nil {
		return edgematch.Result{}, err
	}
	o.Target = target
	bp, err := newBreakPlan(p, o)
	if err != nil {
		return edgematch.Result{}, err
	}
	if o.RestartNodes <= 0 {
		o.RestartNodes = 500_000_000
	}
	if o.PolishMoves == 0 {
		o.PolishMoves = 2000
	}
	sh := &breakShared{o: o, p: p, bestOf: bestOf{start: startTime, best: -1}}
	if o.Start != nil {
		sh.best, sh.bestWho = p.Score(o.Start).Matched, -1
		sh.bestBoard = o.Start.Clone()
	}
	inParallel(ctx, workers, func(ctx context.Context, cancel context.CancelFunc, w int) {
		newBreakWorker(bp, sh, w).search(ctx, cancel)
	})
	if o.Progress != nil {
		o.Progress(sh.progressLocked())
	}
	res := edgematch.Result{Board: sh.bestBoard, Stats: edgematch.Stats{Nodes: sh.nodes, MaxDepth: sh.maxDepth, Moves: sh.moves, Elapsed: time.Since(startTime), Subtrees: int(sh.restarts),
		Completed: sh.completed, Top: slices.Clone(sh.top[:]), BestAt: sh.bestAt}}
	if res.Board == nil {
		res.Board = edgematch.NewBoard(p.Rows, p.Cols)
	}
	res.Score = p.Score(res.Board)
	if res.Score.Solved() {
		res.Stats.Solutions = 1
	}
	if sh.best >= o.Target {
		return res, nil
	}
	return res, ctx.Err()
}

// breakShared is the state the workers share.
type breakShared struct {
	o Breaks
	p *edgematch.Puzzle
	bestOf
	restarts  int64
	maxDepth  int
	completed int64
	top       [NearGap + 1]int64 // Near is their sum
	emitted   map[string]bool    // the boards given to OnComplete, by their cells
}

// offer records b if it beats the best (ties go to the lower worker, so
// that the result does not depend on timing when scores tie).
func (sh *breakShared) offer(b *edgematch.Board, score, who int) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.completed++
	if d := sh.p.MaxScore() - score; d <= NearGap {
		sh.top[d]++
	}
	if sh.o.OnComplete != nil && score >= sh.o.EmitAt {
		sh.emitLocked(b)
	}
	sh.offerLocked(score, who, b.Clone, sh.p, sh.o.OnBest)
}

// emitLocked gives b to OnComplete unless it was given before or
// EmitMax boards were.
func (sh *breakShared) emitLocked(b *edgematch.Board) {
	limit := sh.o.EmitMax
	if limit <= 0 {
		limit = 100_000
	}
	if len(sh.emitted) >= limit {
		return
	}
	key := make([]byte, 0, 3*len(b.Cells))
	for _, c := range b.Cells {
		key = append(key, byte(c.Piece), byte(c.Piece>>8), byte(c.Rot))
	}
	if sh.emitted[string(key)] {
		return
	}
	if sh.emitted == nil {
		sh.emitted = make(map[string]bool)
	}
	sh.emitted[string(key)] = true
	sh.o.OnComplete(b, sh.p.Score(b))
}

// bestScore returns the best score so far (-1: none).
func (sh *breakShared) bestScore() int {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.best
}

// reached reports whether the best board has reached the target.
func (sh *breakShared) reached() bool {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.best >= sh.o.Target
}

// report adds a worker's counts and calls Progress at most once a second.
func (sh *breakShared) report(nodes, moves, restarts int64, depth int) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.nodes += nodes
	sh.moves += moves
	sh.restarts += restarts
	sh.maxDepth = max(sh.maxDepth, depth)
	if sh.o.Progress != nil && sh.progressDue() {
		sh.o.Progress(sh.progressLocked())
	}
}

func (sh *breakShared) progressLocked() BreaksProgress {
	var near int64
	for _, n := range sh.top {
		near += n
	}
	return BreaksProgress{Best: sh.best, Nodes: sh.nodes, MaxDepth: sh.maxDepth, Restarts: sh.restarts,
		Completed: sh.completed, Near: near, Top: sh.top, MaxScore: sh.p.MaxScore(), Elapsed: time.Since(sh.start)}
}

// breakWorker is one worker's state.
type breakWorker struct {
	bp   *breakPlan
	sh   *breakShared
	who  int
	cand []bcand // the plan's candidates, shuffled per restart
	col  []byte
	used []uint64
	// Per step: the candidate placed, the state of the loop.
	path   []int32
	frames []breakFrame

	// The candidate masks (breakmasks.go).
	avail, hmask []uint64
	tog4         [][4]uint32

	l        *lns
	in       []bool
	rng      *rand.Rand
	nodes    int64 // over all restarts
	moves    int64
	restarts int64
	// deep is the deepest board while none reached evalFrom.
	deep []bcand
	// bestKey is the best (2*depth - breaks) completed by this worker in
	// this restart (or in all, with CarryBar); lastEval the node count of
	// the last completion.
	bestKey  int
	lastEval int64
	maxDepth int

	steps  []breakStep // the plan's steps with the worker's watch flags
	kernel breakKernel // run's loop state
}

func newBreakWorker(bp *breakPlan, sh *breakShared, who int) *breakWorker {
	c := bp.c
	n := c.N
	w := &breakWorker{bp: bp, sh: sh, who: who, cand: slices.Clone(bp.cand),
		col: make([]byte, len(c.ColInit)), used: make([]uint64, len(c.UsedInit)),
		path: make([]int32, n), frames: make([]breakFrame, n), bestKey: -1}
	w.rng = rand.New(rand.NewPCG(sh.o.Seed^bp.restartBase, uint64(who)*0x9e3779b97f4a7c15+1))
	w.l = newLNS(c, w.rng)
	w.in = make([]bool, c.P.Cells())
	return w
}

// shuffle reorders every candidate list for restart r.
func (w *breakWorker) shuffle(r int64) {
	bp := w.bp
	rng := rand.New(rand.NewPCG(w.sh.o.Seed^bp.restartBase^uint64(r)*0xbf58476d1ce4e5b9, uint64(w.who)*0x94d049bb133111eb+7))
	copy(w.cand, bp.cand)
	if o := w.sh.o; o.reserve > 0 {
		// A new good group per restart: its pieces wait for the end.
		good := tileGroup(bp.c.P, o.reserve, o.tileIters, rng)
		for j := range w.cand {
			w.cand[j].h = 1
			if good[w.cand[j].piece] {
				w.cand[j].h = 0
			}
		}
	}
	for t := range bp.lo {
		for _, s := range [2][2]int32{{bp.lo[t], bp.mid[t]}, {bp.mid[t], bp.hi[t]}} {
			part := w.cand[s[0]:s[1]]
			rng.Shuffle(len(part), func(i, j int) { part[i], part[j] = part[j], part[i] })
			if len(bp.heuristic) > 0 && w.sh.o.reserve == 0 {
				// Pieces with heuristic colours first (Blackwood's and
				// Wortmann's order), the more such sides the earlier.
				slices.SortStableFunc(part, func(a, b bcand) int { return int(b.h) - int(a.h) })
			}
		}
	}
	w.buildMasks()
}

// search runs restarts until a limit.
func (w *breakWorker) search(ctx context.Context, stopAll context.CancelFunc) {
	o := w.sh.o
	if o.Start != nil && w.who == 0 && o.PolishMoves > 0 {
		// Try to improve the saved board first.
		w.l.load(o.Start)
		w.polish()
		w.sh.offer(w.l.board(), w.l.score, w.who)
	}
	defer func() {
		if w.bestKey < 0 && len(w.deep) > 0 {
			w.completeDeep() // no board reached the breaks: the deepest
		}
	}()
	for r := int64(0); ; r++ {
		if ctx.Err() != nil || (o.MaxNodes > 0 && w.nodes >= o.MaxNodes) {
			return
		}
		if r > 0 && w.bestKey < 0 && len(w.deep) > 0 {
			w.completeDeep()
		}
		if r > 0 && w.bestKey >= 0 && !o.CarryBar {
			w.bestKey = -1 // this restart's own bar
		}
		w.shuffle(r)
		budget := o.RestartNodes
		if o.MaxNodes > 0 {
			budget = min(budget, o.MaxNodes-w.nodes)
		}
		before := w.nodes
		done := w.run(ctx, budget, stopAll)
		w.sh.report(0, 0, 1, 0)
		if done {
			return
		}
		if w.nodes == before {
			return // nothing to search (the hints fill the board)
		}
	}
}

// run is one restart: a backtracker over the fill order with the break
// schedule and the heuristic, for at most budget placements. It returns
// true when the search should stop (context, target).
//
// The inner loop is breakRun, which allocates nothing and keeps the state
// of the current step in locals: its candidate range, where the
// candidates that cost a break start, the heuristic sides still missing
// and the breaks so far. run does the looks: a new depth, a board to
// complete, the clock and the budget.
func (w *breakWorker) run(ctx context.Context, budget int64, stopAll context.CancelFunc) bool {
	bp := w.bp
	c := bp.c
	n := c.N
	copy(w.col, c.ColInit)
	copy(w.used, c.UsedInit)
	if n == 0 {
		b := c.Board(nil)
		w.sh.offer(b, c.P.Score(b).Matched, w.who)
		return true
	}
	col, cand, path := w.col, w.cand, w.path
	w.fillAvail()
	// The worker's copy of the steps, with the watch flags set from step
	// watch-1 on: watch is the depth from which a placement needs a look
	// (a new maximum depth, or a board to complete).
	if len(w.steps) != len(bp.steps) {
		w.steps = slices.Clone(bp.steps)
	}
	steps := w.steps
	evalFrom := bp.evalFrom
	watch := min(w.maxDepth+1, evalFrom)
	for j := range steps {
		steps[j].watch = j+1 >= watch
	}
	reported := int64(0)
	stop := int64(kernel.CheckEvery)
	stopped := false
	k := &w.kernel
	*k = breakKernel{n: int32(n), left: kernel.CheckEvery, kc: int32(c.K),
		steps: steps, cand: cand, used: w.used, avail: w.avail, hmask: w.hmask, tog4: w.tog4,
		frames: w.frames, path: path, col: col, lists: bp.lists, xSide: c.XSide, xSrc: c.XSrc}
	// Step 0's state, keyed by its list t.
	{
		st := &steps[0]
		t := st.tab + int32(col[st.srcA])*k.kc + int32(col[st.srcB])
		l := &bp.lists[t]
		k.lb, k.cur, k.mid, k.last = l.lo, l.lo, l.mid, l.hi
		k.b, k.h = 0, bp.hintNeed
		if k.b >= st.allowed {
			k.last = k.mid
		}
		k.miss = st.need - k.h
		if st.masked {
			k.r = w.avail[t] & w.hmask[t<<3+min(max(k.miss, 0), 5)]
			k.cur = k.mid
		}
	}
	entry := kernel.KernelTop
	for breakRun(k, entry) == kernel.KernelLook {
		// A look at the placement of candidate ci at step i.
		i := int(k.i)
		ci := k.ci
		e := cand[ci]
		path[i] = ci
		binary.LittleEndian.PutUint32(col[steps[i].pad4:], e.packed)
		nb := k.b
		if ci >= k.mid {
			nb++
		}
		nodes := stop - k.left
		if i+1 >= watch {
			if i+1 > w.maxDepth {
				w.maxDepth = i + 1
				if i+1 < evalFrom {
					w.deep = w.deep[:0]
					for j := range i + 1 {
						w.deep = append(w.deep, cand[path[j]])
					}
				}
				for j := watch - 1; j < min(w.maxDepth+1, evalFrom)-1; j++ {
					steps[j].watch = false
				}
				watch = min(w.maxDepth+1, evalFrom)
			}
			if key := 2*(i+1) - int(nb); i+1 >= evalFrom && (key > w.bestKey || (key == w.bestKey && w.nodes+nodes-w.lastEval >= evalGap)) {
				w.bestKey = key
				w.lastEval = w.nodes + nodes
				w.complete(i + 1)
				if w.sh.reached() {
					stopAll()
				}
			}
		}
		if k.left <= 0 {
			stop += kernel.CheckEvery
			k.left = stop - nodes
			w.sh.report(nodes-reported, 0, 0, w.maxDepth+len(c.P.Hints))
			reported = nodes
			if ctx.Err() != nil {
				stopped = true
				break
			}
			if nodes >= budget {
				break
			}
		}
		entry = kernel.KernelResume
	}
	nodes := stop - k.left
	w.nodes += nodes
	w.sh.report(nodes-reported, 0, 0, w.maxDepth+len(c.P.Hints))
	return stopped || ctx.Err() != nil || w.sh.reached()
}

// breakKernel is the state of the break search's inner loop (breakRun):
// step i, its candidates still to try (r: the masked ones, bits above
// lb; then cur..last, from mid on those that cost a break), the breaks b
// before it, the heuristic sides h placed before it and miss still
// missing, the placements left before the next look at the clock, the
// candidate ci of the last look, and the tables.
type breakKernel struct {
	i, n                           int32
	r                              uint64
	lb, cur, last, mid, miss, b, h int32
	ci                             int32
	kc                             int32 // colours: lists are keyed a*kc + b
	left                           int64
	steps                          []breakStep
	cand                           []bcand
	used, avail, hmask             []uint64
	tog4                           [][4]uint32
	frames                         []breakFrame
	path                           []int32
	col                            []byte
	lists                          []breakList
	xSide                          []uint8
	xSrc                           []int32
}

// breakRun is the inner loop of the break search: it places, looks
// ahead, descends and backtracks until a placement needs a look (the
// step's watch flag, or the countdown to the next check ends: it returns
// kernelLook with the candidate in ci) or the search is exhausted
// (kernelDone). path[i] and the colours of step i are written only when
// it descends.
func breakRun(k *breakKernel, entry int) int {
	steps, cand, used, avail, hmask, tog4 := k.steps, k.cand, k.used, k.avail, k.hmask, k.tog4
	frames, path, col, lists, xSide, xSrc := k.frames, k.path, k.col, k.lists, k.xSide, k.xSrc
	n, kc := k.n, k.kc
	i, r, lb, cur, last, cmid, miss, b, h := k.i, k.r, k.lb, k.cur, k.last, k.mid, k.miss, k.b, k.h
	left, ci := k.left, k.ci
	resume := entry == kernel.KernelResume
	for {
		var e bcand
		var st *breakStep
		if resume {
			resume = false
			e, st = *kernel.At(cand, ci), kernel.At(steps, i)
		} else {
			if r != 0 {
				// Free and with enough heuristic sides, by the masks.
				ci = lb + int32(bits.TrailingZeros64(r))
				r &= r - 1
				e = *kernel.At(cand, ci)
			} else {
				// Skip the used pieces and those short of heuristic sides
				// in a tight loop.
				for cur < last {
					e = *kernel.At(cand, cur)
					if p := e.piece; *kernel.At(used, int32(p>>6))&(1<<(p&63)) == 0 && int32(e.h) >= miss {
						break
					}
					cur++
				}
				if cur >= last {
					if i == 0 {
						k.i, k.r, k.lb, k.cur, k.last, k.mid, k.miss, k.b, k.h = i, r, lb, cur, last, cmid, miss, b, h
						k.left = left
						return kernel.KernelDone
					}
					i--
					f := kernel.At(frames, i)
					r, lb, cur, last, cmid, b, h, miss = f.r, f.lb, f.cur, f.last, f.mid, f.b, f.h, f.miss
					p := f.p
					*kernel.At(used, int32(p>>6)) &^= 1 << (p & 63)
					tg := kernel.At(tog4, int32(p))
					*kernel.At(avail, int32(tg[0]>>6)) ^= 1 << (tg[0] & 63)
					*kernel.At(avail, int32(tg[1]>>6)) ^= 1 << (tg[1] & 63)
					*kernel.At(avail, int32(tg[2]>>6)) ^= 1 << (tg[2] & 63)
					*kernel.At(avail, int32(tg[3]>>6)) ^= 1 << (tg[3] & 63)
					continue
				}
				ci = cur
				cur++
			}
			st = kernel.At(steps, i)
			if xs, xe := st.xs, st.xe; xs != xe && !kernel.ExtrasMatch(e.packed, col, xSide[xs:xe], xSrc[xs:xe]) {
				continue
			}
			left--
			if left <= 0 || st.watch {
				k.i, k.r, k.lb, k.cur, k.last, k.mid, k.miss, k.b, k.h = i, r, lb, cur, last, cmid, miss, b, h
				k.left, k.ci = left, ci
				return kernel.KernelLook
			}
		}
		if i+1 == n {
			continue
		}
		nb := b
		if ci >= cmid {
			nb++
		}
		// The next step's candidates, as they will be once p is placed:
		// when its masks leave none and it allows no break, the placement
		// is a leaf, and p need not be marked nor step i's state saved.
		st1 := kernel.At(steps, i+1)
		var ka, kb int32
		if sh := st1.aSh; sh >= 0 {
			ka = int32(byte(e.packed >> (uint8(sh) & 31)))
		} else {
			ka = int32(*kernel.At(col, st1.srcA))
		}
		if sh := st1.bSh; sh >= 0 {
			kb = int32(byte(e.packed >> (uint8(sh) & 31)))
		} else {
			kb = int32(*kernel.At(col, st1.srcB))
		}
		t := st1.tab + ka*kc + kb
		l := kernel.At(lists, t)
		p := e.piece
		tg := kernel.At(tog4, int32(p))
		h1 := h + int32(e.h)
		miss1 := st1.need - h1
		last1 := l.hi
		if nb >= st1.allowed {
			last1 = l.mid
		}
		var rn uint64
		cur1 := l.lo
		if st1.masked {
			rn = *kernel.At(avail, t)
			if int32(tg[0]>>6) == t {
				rn ^= 1 << (tg[0] & 63)
			}
			if int32(tg[1]>>6) == t {
				rn ^= 1 << (tg[1] & 63)
			}
			if int32(tg[2]>>6) == t {
				rn ^= 1 << (tg[2] & 63)
			}
			if int32(tg[3]>>6) == t {
				rn ^= 1 << (tg[3] & 63)
			}
			if miss1 > 0 { // every candidate has at least 0 heuristic sides
				rn &= *kernel.At(hmask, t<<3+min(miss1, 5))
			}
			cur1 = l.mid
			if rn == 0 && cur1 >= last1 {
				continue
			}
		}
		*kernel.At(path, i) = ci
		*(*uint32)(unsafe.Pointer(kernel.At(col, st.pad4))) = e.packed
		*kernel.At(used, int32(p>>6)) |= 1 << (p & 63)
		*kernel.At(avail, int32(tg[0]>>6)) ^= 1 << (tg[0] & 63)
		*kernel.At(avail, int32(tg[1]>>6)) ^= 1 << (tg[1] & 63)
		*kernel.At(avail, int32(tg[2]>>6)) ^= 1 << (tg[2] & 63)
		*kernel.At(avail, int32(tg[3]>>6)) ^= 1 << (tg[3] & 63)
		*kernel.At(frames, i) = breakFrame{r: r, lb: lb, cur: cur, last: last, mid: cmid, b: b, h: h, miss: miss, p: p}
		i++
		r, lb, cur, cmid, last = rn, l.lo, cur1, l.mid, last1
		b, h, miss = nb, h1, miss1
	}
}

// breakList is a candidate list of the break search: cand[lo:mid] match
// both key sides, cand[mid:hi] one of them.
type breakList struct{ lo, mid, hi int32 }

// breakStep is what the break search's loop reads of a step: its table,
// the breaks allowed once it is filled, the heuristic sides needed by
// then, and the fields of loopStep.
type breakStep struct {
	tab, allowed, need int32
	pad4, srcA, srcB   int32
	xs, xe             int32
	aSh, bSh           int8
	masked             bool // its table has masks (breakmasks.go)
	watch              bool // in a worker's copy: a placement needs a look
}

// breakFrame is a step's state saved by the break search's loop.
type breakFrame struct {
	r                              uint64
	lb, cur, last, mid, b, h, miss int32
	p                              uint16 // the piece placed
}

// evalGap is the placements between two completions of boards that only
// tie the worker's best depth and breaks.
const evalGap = 1 << 25

// complete turns the first depth steps into a complete board (the empty
// cells by assignment, then polish) and offers it.
func (w *breakWorker) complete(depth int) {
	c := w.bp.c
	placed := make([]uint16, depth)
	for i := range depth {
		e := w.cand[w.path[i]]
		placed[i] = uint16(w.l.oriOf(int(e.piece), int(e.rot)))
	}
	b := c.Board(placed)
	if f := w.sh.o.onBoard; f != nil {
		f(b, depth)
	}
	if depth == c.N {
		w.l.load(b)
	} else {
		w.l.fill(b)
		if !w.sh.o.NoExactFill && c.P.Cells()-len(c.P.Hints)-depth <= exactFillCells {
			w.exactFill(b)
		}
	}
	// Polish only boards that may come near the best: the repairs rarely
	// gain more than a few edges, and they cost far more than the search.
	if best := w.sh.bestScore(); best < 0 || w.l.score+polishSlack >= best {
		w.polish()
	}
	w.sh.offer(w.l.board(), w.l.score, w.who)
}

// exactFillCells is the most empty cells the exact fill searches, and
// exactFillNodes the placements it spends on one board at most.
const (
	exactFillCells = 16
	exactFillNodes = 2_000_000
)

// exactFill re-places the pieces of b's empty cells, which the lns board
// holds after fill, in their best arrangement when that reaches within
// polishSlack of the best so far.
func (w *breakWorker) exactFill(b *edgematch.Board) {
	l := w.l
	var cells []int
	for cell, pl := range b.Cells {
		if pl.Piece == edgematch.NoPiece {
			cells = append(cells, cell)
			w.in[cell] = true
		}
	}
	before := l.localScore(cells, w.in)
	want := before
	if best := w.sh.bestScore(); best >= 0 {
		want = max(want, best-polishSlack-(l.score-before))
	}
	if after := l.win.solve(cells, w.in, want, exactFillNodes); after >= 0 {
		l.score += after - before
	}
	for _, cell := range cells {
		w.in[cell] = false
	}
}

// polishSlack: a completed board is polished when it scores at most this
// much below the best.
const polishSlack = 4

// completeDeep completes and offers the deepest board.
func (w *breakWorker) completeDeep() {
	placed := make([]uint16, len(w.deep))
	for i, e := range w.deep {
		placed[i] = uint16(w.l.oriOf(int(e.piece), int(e.rot)))
	}
	b := w.bp.c.Board(placed)
	if f := w.sh.o.onBoard; f != nil {
		f(b, len(placed))
	}
	w.l.fill(b)
	w.polish()
	w.sh.offer(w.l.board(), w.l.score, w.who)
	w.bestKey = 0
}

// polish spends PolishMoves repair moves on the worker's lns board; they
// never lower its score.
func (w *breakWorker) polish() {
	moves := w.sh.o.PolishMoves
	for range max(moves, 0) {
		if w.l.rng.IntN(8) == 0 {
			w.l.independentMove(w.in)
		} else {
			w.l.windowMove(w.in)
		}
	}
	if moves > 0 {
		w.sh.report(0, moves, 0, 0)
	}
}
