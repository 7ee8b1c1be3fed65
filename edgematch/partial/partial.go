package partial

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
)

// Partial is the partial search, a Solver that maximises the score of
// complete boards; its fields are its parameters. The zero value runs one
// search per core until the context ends.
type Partial struct {
	// Seed makes the search repeatable: worker i draws from a stream
	// derived from (Seed, i).
	Seed uint64
	// Workers is the number of independent searches (0: GOMAXPROCS).
	Workers int
	// Start, when set, is a complete board to improve (a saved best: the
	// search resumes from it). Otherwise every worker builds its own.
	Start *edgematch.Board
	// DFSNodes bounds the exact backtracker that builds a start board (0:
	// 50 million placements); the break-schedule backtracker that
	// completes it gets a quarter of that.
	DFSNodes int64
	// MaxMoves stops every worker after this many improvement moves (0: no
	// limit). With one worker and a move limit the result depends only on
	// the seed.
	MaxMoves int64
	// Target stops the search when a board of this score is found (0:
	// Puzzle.MaxScore).
	Target int
	// OnBest, when set, is called (serially) with every new best board and
	// its score; the board must not be kept after the call returns.
	OnBest func(b *edgematch.Board, s edgematch.Score)
	// Progress, when set, is called about once a second.
	Progress func(PartialProgress)
}

var _ edgematch.Solver = Partial{}

// PartialProgress reports the state of a partial search.
type PartialProgress struct {
	Best    int   // the best score so far
	Moves   int64 // improvement moves tried, all workers together
	Elapsed time.Duration
}

// Solve searches for a board of maximal score when a complete
// solution is out of reach (Eternity II). Every worker builds a start
// board: the deepest error-free placement of a randomised row-scan
// backtracker, completed by a backtracker with a break schedule (a
// growing number of mismatched edges tolerated after that depth, as in
// Blackwood's record solver). It then improves the board by large
// neighbourhood search:
//
//   - window repair: free a random k x k window (or one around a
//     mismatch) and re-place its pieces by branch and bound in their best
//     arrangement given the surrounding cells (the very large
//     neighbourhoods of Schaus and Deville, "Hybridization of CP and VLNS
//     for Eternity II", JFPC 2008, repaired exactly);
//   - assignment repair: free a random set of pairwise non-adjacent cells
//     of one kind (inner or border) and re-place their pieces by the
//     Hungarian method, each piece with its best rotation;
//   - iterated local search: after a stall, kicks swap a few random
//     pieces; after longer stalls the worker returns to its best board,
//     and then restarts from a new start board.
//
// Grey always faces out and hints stay in place. Every new best board is
// passed to OnBest. The result is the best board of all workers; the
// error is the context's when it ends the search, nil when Target or
// MaxMoves is reached.
func (o Partial) Solve(ctx context.Context, p *edgematch.Puzzle) (edgematch.Result, error) {
	startTime := time.Now()
	c, err := kernel.Compile(p, kernel.CompileOptions{Order: edgematch.OrderRows})
	if err != nil {
		return edgematch.Result{}, err
	}
	if !c.HintsFit {
		return edgematch.Result{}, fmt.Errorf("%w: the hints disagree with each other or the frame", edgematch.ErrNoSolution)
	}
	if p.Frame != nil {
		return edgematch.Result{}, fmt.Errorf("edgematch: partial search needs a grey frame")
	}
	workers, target, err := searchDefaults(p, o.Start, o.Workers, o.Target)
	if err != nil {
		return edgematch.Result{}, err
	}
	o.Target = target
	if o.DFSNodes <= 0 {
		o.DFSNodes = 50_000_000
	}
	sh := &partialShared{o: o, bestOf: bestOf{start: startTime, best: -1}}
	inParallel(ctx, workers, func(ctx context.Context, cancel context.CancelFunc, w int) {
		rng := rand.New(rand.NewPCG(o.Seed, uint64(w)*0x9e3779b97f4a7c15+1))
		l := newLNS(c, rng)
		if o.Start != nil {
			l.load(o.Start)
		} else {
			nodes := l.build(ctx, o.DFSNodes)
			sh.addNodes(nodes)
		}
		sh.offer(l, w)
		if l.score >= o.Target {
			cancel()
			return
		}
		l.run(ctx, sh, w, cancel)
	})
	res := edgematch.Result{Board: sh.bestBoard, Stats: edgematch.Stats{Nodes: sh.nodes, Moves: sh.moves, Elapsed: time.Since(startTime), BestAt: sh.bestAt}}
	if res.Board == nil {
		res.Board = edgematch.NewBoard(p.Rows, p.Cols)
	}
	res.Score = p.Score(res.Board)
	res.Stats.MaxDepth = res.Board.Filled()
	if res.Score.Solved() {
		res.Stats.Solutions = 1
	}
	if res.Score.Matched >= o.Target || (o.MaxMoves > 0 && sh.moves >= o.MaxMoves*int64(workers)) {
		return res, nil
	}
	return res, ctx.Err()
}

// partialShared is the state the workers share.
type partialShared struct {
	o Partial
	bestOf
}

// bestOf is the best board the workers of a search have found and their
// counts, under mu.
type bestOf struct {
	start     time.Time
	mu        sync.Mutex
	best      int
	bestWho   int // -1: the board to beat (Start), not a worker's
	bestBoard *edgematch.Board
	bestAt    time.Duration // when best was first reached
	moves     int64
	nodes     int64
	lastProg  time.Time
}

// offerLocked records board() as the best if score beats it (ties go to
// the lower worker, so that the result does not depend on timing when
// scores tie, and never to a worker over the board to beat) and calls
// onBest with it. The caller holds mu.
func (b *bestOf) offerLocked(score, who int, board func() *edgematch.Board, p *edgematch.Puzzle, onBest func(*edgematch.Board, edgematch.Score)) {
	if score < b.best || (score == b.best && (b.bestWho < 0 || who >= b.bestWho)) {
		return
	}
	if score > b.best {
		b.bestAt = time.Since(b.start)
	}
	b.best, b.bestWho = score, who
	b.bestBoard = board()
	if onBest != nil {
		onBest(b.bestBoard, p.Score(b.bestBoard))
	}
}

// progressDue reports whether a progress line is due (one a second at
// most) and, if so, starts the next second. The caller holds mu.
func (b *bestOf) progressDue() bool {
	if time.Since(b.lastProg) < time.Second {
		return false
	}
	b.lastProg = time.Now()
	return true
}

func (sh *partialShared) addNodes(n int64) {
	sh.mu.Lock()
	sh.nodes += n
	sh.mu.Unlock()
}

// offer records l's board if it beats the best (ties go to the lower
// worker, so that the result does not depend on timing when scores tie).
func (sh *partialShared) offer(l *lns, who int) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.offerLocked(l.score, who, l.board, l.c.P, sh.o.OnBest)
}

// report adds moves and calls Progress at most once a second.
func (sh *partialShared) report(moves int64) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.moves += moves
	if sh.o.Progress != nil && sh.progressDue() {
		sh.o.Progress(PartialProgress{Best: sh.best, Moves: sh.moves, Elapsed: time.Since(sh.start)})
	}
}

// lns is one worker's board and its neighbourhood moves.
type lns struct {
	c     *kernel.Compiled
	p     *edgematch.Puzzle
	rng   *rand.Rand
	rows  int
	cols  int
	n     int
	ori   []int32 // oriented piece per cell
	col   []byte  // colours shown: col[cell*4+d]
	score int
	fixed []bool // hinted cells
	kind  []int8 // 0 inner, 1 edge, 2 corner (by outward mask)
	mask  []int  // outward mask per cell
	// oris[p] lists the oriented pieces of piece p.
	oris [][]int32
	// nb[cell*4+d] is the neighbour cell on side d, or -1 (frame).
	nb []int32

	// scratch for repairs
	asg kernel.Assigner
	win windowSolver
}

func newLNS(c *kernel.Compiled, rng *rand.Rand) *lns {
	p := c.P
	n := p.Cells()
	l := &lns{c: c, p: p, rng: rng, rows: p.Rows, cols: p.Cols, n: n,
		ori: make([]int32, n), col: make([]byte, 4*n), fixed: make([]bool, n),
		kind: make([]int8, n), mask: make([]int, n), oris: make([][]int32, len(p.Tiles)), nb: make([]int32, 4*n)}
	for o, pc := range c.OriPiece {
		l.oris[pc] = append(l.oris[pc], int32(o))
	}
	for cell := range n {
		r, cc := cell/p.Cols, cell%p.Cols
		l.mask[cell] = edgematch.OutwardMask(p.Rows, p.Cols, r, cc)
		switch kernel.BitsSet(l.mask[cell]) {
		case 0:
			l.kind[cell] = 0
		case 1:
			l.kind[cell] = 1
		default:
			l.kind[cell] = 2
		}
		for d := range 4 {
			nr, nc := r+[4]int{-1, 0, 1, 0}[d], cc+[4]int{0, 1, 0, -1}[d]
			if nr < 0 || nr >= p.Rows || nc < 0 || nc >= p.Cols {
				l.nb[cell*4+d] = -1
			} else {
				l.nb[cell*4+d] = int32(nr*p.Cols + nc)
			}
		}
	}
	for _, h := range p.Hints {
		l.fixed[h.Row*p.Cols+h.Col] = true
	}
	l.win.init(l)
	return l
}

// set places oriented piece o in cell (colours only; the score is not
// updated).
func (l *lns) set(cell int, o int32) {
	l.ori[cell] = o
	packed := l.c.OriPacked[o]
	for d := range 4 {
		l.col[cell*4+d] = byte(packed >> (8 * d))
	}
}

// oriOf returns the oriented piece showing piece p turned rot, which
// exists unless rot is a duplicate rotation of a symmetric piece, in which
// case the equivalent smaller rotation is returned.
func (l *lns) oriOf(piece, rot int) int32 {
	want := l.p.Tiles[piece].Rotate(rot)
	for _, o := range l.oris[piece] {
		pk := l.c.OriPacked[o]
		if (edgematch.Tile{edgematch.Colour(pk), edgematch.Colour(pk >> 8), edgematch.Colour(pk >> 16), edgematch.Colour(pk >> 24)}) == want {
			return o
		}
	}
	panic(fmt.Sprintf("edgematch: piece %d has no rotation %d", piece+1, rot))
}

// load sets the board to b (complete).
func (l *lns) load(b *edgematch.Board) {
	for cell, pl := range b.Cells {
		l.set(cell, l.oriOf(pl.Piece, pl.Rot))
	}
	l.score = l.fullScore()
}

// board returns the current board.
func (l *lns) board() *edgematch.Board {
	b := edgematch.NewBoard(l.rows, l.cols)
	for cell, o := range l.ori {
		b.Cells[cell] = edgematch.Placement{Piece: int(l.c.OriPiece[o]), Rot: int(l.c.OriRot[o])}
	}
	return b
}

// fullScore counts the matched internal edges.
func (l *lns) fullScore() int {
	s := 0
	for cell := range l.n {
		for _, d := range [2]int{edgematch.East, edgematch.South} {
			if nb := l.nb[cell*4+d]; nb >= 0 {
				a := l.col[cell*4+d]
				if a != 0 && a == l.col[int(nb)*4+(d+2)&3] {
					s++
				}
			}
		}
	}
	return s
}

// build makes a start board: the deepest error-free placement that a
// randomised row-scan backtracker reaches within maxNodes placements,
// completed by the break-schedule backtracker (one more mismatch allowed
// per cell after that depth) within maxNodes/4 more. It returns the
// placements made.
func (l *lns) build(ctx context.Context, maxNodes int64) int64 {
	c, err := kernel.Compile(l.p, kernel.CompileOptions{Order: edgematch.OrderRows, Shuffle: l.rng})
	if err != nil {
		panic(err) // the puzzle compiled once already
	}
	if c.N == 0 {
		l.load(c.Board(nil)) // the hints fill the board
		return 0
	}
	w := kernel.NewWorker(c)
	w.Reset(nil)
	w.StopNodes = kernel.CheckEvery
	lo, hi := w.RootRange(0)
	w.Run(0, c.N, lo, hi, func([]uint16) bool { return true }, func(int) bool {
		w.StopNodes = w.Nodes + kernel.CheckEvery
		return w.Nodes >= maxNodes || ctx.Err() != nil
	})
	d := len(w.Deepest)
	schedule := breakSchedule(c.N, d, 1)
	for i := d; i < c.N; i++ {
		schedule[i]++
	}
	best, _, nodes := breakDFS(ctx, c, w.Deepest, schedule, max(maxNodes/4, kernel.CheckEvery))
	if best != nil {
		l.load(c.Board(best))
	} else {
		l.fill(c.Board(w.Deepest)) // stopped before a completion
	}
	return w.Nodes + nodes
}

// fill completes the partial board b: each kind of empty cell (inner,
// border, corner) gets the remaining pieces of that kind by an optimal
// assignment.
func (l *lns) fill(b *edgematch.Board) {
	filled := make([]bool, l.n)
	used := make([]bool, len(l.p.Tiles))
	for cell, pl := range b.Cells {
		if pl.Piece != edgematch.NoPiece {
			l.set(cell, l.oriOf(pl.Piece, pl.Rot))
			filled[cell], used[pl.Piece] = true, true
		}
	}
	for kind := int8(0); kind <= 2; kind++ {
		var cells, pieces []int
		for cell := range l.n {
			if !filled[cell] && l.kind[cell] == kind {
				cells = append(cells, cell)
			}
		}
		for pc := range l.p.Tiles {
			if !used[pc] && l.pieceFits(pc, kind) {
				pieces = append(pieces, pc)
			}
		}
		if len(cells) != len(pieces) {
			panic(fmt.Sprintf("edgematch: %d cells and %d pieces of kind %d", len(cells), len(pieces), kind))
		}
		l.assign(cells, pieces, filled)
		for _, cell := range cells {
			filled[cell] = true
		}
	}
	l.score = l.fullScore()
}

// pieceFits reports whether piece pc can stand in a cell of the kind.
func (l *lns) pieceFits(pc int, kind int8) bool {
	for cell := range l.n {
		if l.kind[cell] != kind {
			continue
		}
		for _, o := range l.oris[pc] {
			if l.c.Fits(int(o), l.mask[cell]) {
				return true
			}
		}
		return false
	}
	return false
}

// gain returns the matched edges between oriented piece o at cell and
// the neighbours for which ok is true (nil: all).
func (l *lns) gain(cell int, o int32, ok []bool) int {
	packed := l.c.OriPacked[o]
	g := 0
	for d := range 4 {
		nb := l.nb[cell*4+d]
		if nb < 0 || (ok != nil && !ok[nb]) {
			continue
		}
		a := byte(packed >> (8 * d))
		if a != 0 && a == l.col[int(nb)*4+(d+2)&3] {
			g++
		}
	}
	return g
}

// assign places pieces into cells (same length) to maximise the matches
// with the neighbours marked in fixed, each piece with its best rotation
// that fits the cell, by the Hungarian method. No two cells may be
// adjacent unless their mutual edges can be ignored.
func (l *lns) assign(cells, pieces []int, fixed []bool) {
	m := len(cells)
	if m == 0 {
		return
	}
	cost := make([]float64, m*m)
	best := make([]int32, m*m)
	for i, cell := range cells {
		for j, pc := range pieces {
			b, bo := -1, int32(-1)
			for _, o := range l.oris[pc] {
				if !l.c.Fits(int(o), l.mask[cell]) {
					continue
				}
				// Random tie-breaks keep the moves diverse.
				if g := l.gain(cell, o, fixed); g > b || (g == b && l.rng.IntN(2) == 0) {
					b, bo = g, o
				}
			}
			if bo < 0 {
				cost[i*m+j] = 1e6
			} else {
				cost[i*m+j] = -float64(b)
			}
			best[i*m+j] = bo
		}
	}
	perm := l.asg.Solve(m, cost)
	for i, cell := range cells {
		o := best[i*m+perm[i]]
		if o < 0 {
			panic("edgematch: assignment placed a piece where it does not fit")
		}
		l.set(cell, o)
	}
}

// localScore counts the matched edges that touch the cells in set.
func (l *lns) localScore(set []int, in []bool) int {
	s := 0
	for _, cell := range set {
		for d := range 4 {
			nb := l.nb[cell*4+d]
			if nb < 0 {
				continue
			}
			if in[nb] && int(nb) < cell {
				continue // counted from the other side
			}
			a := l.col[cell*4+d]
			if a != 0 && a == l.col[int(nb)*4+(d+2)&3] {
				s++
			}
		}
	}
	return s
}

// independentMove re-places a random set of pairwise non-adjacent cells of
// one kind by assignment. It never lowers the score.
func (l *lns) independentMove(in []bool) {
	kind := int8(0)
	if l.rng.IntN(4) == 0 {
		kind = 1
	}
	want := 8 + l.rng.IntN(l.n/3)
	order := l.rng.Perm(l.n)
	var cells []int
	for _, cell := range order {
		if l.kind[cell] != kind || l.fixed[cell] {
			continue
		}
		free := true
		for d := range 4 {
			if nb := l.nb[cell*4+d]; nb >= 0 && in[nb] {
				free = false
			}
		}
		if free {
			in[cell] = true
			cells = append(cells, cell)
			if len(cells) == want {
				break
			}
		}
	}
	pieces := make([]int, len(cells))
	for i, cell := range cells {
		pieces[i] = int(l.c.OriPiece[l.ori[cell]])
	}
	before := l.localScore(cells, in)
	for _, cell := range cells {
		in[cell] = false
	}
	l.assign(cells, pieces, nil)
	for _, cell := range cells {
		in[cell] = true
	}
	l.score += l.localScore(cells, in) - before
	for _, cell := range cells {
		in[cell] = false
	}
}

// run improves the board until the context ends, the target is reached
// or the move budget is spent: an iterated local search whose local
// search is the window and assignment repairs (which never lose an edge)
// and whose kicks, after a stall, swap a few random pieces; after longer
// stalls it returns to the worker's best board, then restarts.
func (l *lns) run(ctx context.Context, sh *partialShared, who int, stopAll context.CancelFunc) {
	in := make([]bool, l.n)
	bestScore := l.score
	bestOri := append([]int32(nil), l.ori...)
	stall, kicks, returns := 0, 0, 0
	var moves, reported int64
	for {
		if sh.o.MaxMoves > 0 && moves >= sh.o.MaxMoves {
			break
		}
		if moves&63 == 0 {
			if ctx.Err() != nil {
				break
			}
			sh.report(moves - reported)
			reported = moves
		}
		moves++
		saved := l.score
		if l.rng.IntN(8) == 0 {
			l.independentMove(in)
		} else {
			l.windowMove(in)
		}
		switch {
		case l.score > bestScore:
			bestScore = l.score
			copy(bestOri, l.ori)
			stall, kicks, returns = 0, 0, 0
			sh.offer(l, who)
			if l.score >= sh.o.Target {
				stopAll()
			}
		case l.score > saved:
			stall = 0
		default:
			stall++
		}
		if stall < stallMoves {
			continue
		}
		stall = 0
		kicks++
		if kicks > maxKicks {
			kicks = 0
			returns++
			if returns > maxReturns && sh.o.Start == nil {
				// Restart from a new start board.
				sh.addNodes(l.build(ctx, sh.o.DFSNodes))
				bestScore, returns = l.score, 0
				copy(bestOri, l.ori)
				sh.offer(l, who)
				continue
			}
			// Back to the best board of this worker.
			for cell, o := range bestOri {
				l.set(cell, o)
			}
			l.score = bestScore
		}
		l.kick(1 + l.rng.IntN(3))
	}
	sh.report(moves - reported)
}

// Iterated local search: a kick after stallMoves moves without gain, a
// return to the worker's best after maxKicks kicks without a new best, a
// restart from a new start board after maxReturns such returns (unless
// the search resumes a given board).
const (
	stallMoves = 150
	maxKicks   = 30
	maxReturns = 8
)

// kick swaps k random pairs of pieces of the same kind, each with its
// best fitting rotation.
func (l *lns) kick(k int) {
	for range k {
		a := l.rng.IntN(l.n)
		b := l.rng.IntN(l.n)
		if a == b || l.fixed[a] || l.fixed[b] || l.kind[a] != l.kind[b] {
			continue
		}
		cells := []int{a, b}
		pieces := []int{int(l.c.OriPiece[l.ori[b]]), int(l.c.OriPiece[l.ori[a]])}
		for i, cell := range cells {
			bestO, bestG := int32(-1), -1
			for _, o := range l.oris[pieces[i]] {
				if l.c.Fits(int(o), l.mask[cell]) {
					if g := l.gain(cell, o, nil); g > bestG {
						bestO, bestG = o, g
					}
				}
			}
			l.set(cell, bestO)
		}
	}
	l.score = l.fullScore()
}

// windowMove frees a window (random, or around a mismatch) and re-places
// its pieces in their best arrangement by branch and bound. The score
// never drops; ties may change the arrangement. Windows are 2x2 to 3x3,
// and one in six is 3x4 or 4x3: larger ones rarely pay for their search.
func (l *lns) windowMove(in []bool) {
	h, w := 2+l.rng.IntN(2), 2+l.rng.IntN(2)
	if l.rng.IntN(6) == 0 {
		h, w = 3, 4
		if l.rng.IntN(2) == 0 {
			h, w = 4, 3
		}
	}
	h, w = min(h, l.rows), min(w, l.cols)
	var r0, c0 int
	if l.rng.IntN(2) == 0 {
		cell, _ := l.randomMismatch()
		if cell < 0 {
			return
		}
		r0, c0 = cell/l.cols-l.rng.IntN(h), cell%l.cols-l.rng.IntN(w)
	} else {
		r0, c0 = l.rng.IntN(l.rows-h+1), l.rng.IntN(l.cols-w+1)
	}
	r0 = min(max(r0, 0), l.rows-h)
	c0 = min(max(c0, 0), l.cols-w)
	var cells []int
	for r := r0; r < r0+h; r++ {
		for c := c0; c < c0+w; c++ {
			if cell := r*l.cols + c; !l.fixed[cell] {
				cells = append(cells, cell)
			}
		}
	}
	if len(cells) < 2 {
		return
	}
	for _, cell := range cells {
		in[cell] = true
	}
	before := l.localScore(cells, in)
	if after := l.win.solve(cells, in, before, windowNodes); after >= 0 {
		l.score += after - before
	}
	for _, cell := range cells {
		in[cell] = false
	}
}

// windowNodes bounds one window repair.
const windowNodes = 20_000

// randomMismatch returns a cell and side (East or South) of a random
// mismatched internal edge, or -1.
func (l *lns) randomMismatch() (int, int) {
	start := l.rng.IntN(l.n)
	for k := range l.n {
		cell := (start + k) % l.n
		for _, d := range [2]int{edgematch.East, edgematch.South} {
			if nb := l.nb[cell*4+d]; nb >= 0 {
				a := l.col[cell*4+d]
				if a == 0 || a != l.col[int(nb)*4+(d+2)&3] {
					return cell, d
				}
			}
		}
	}
	return -1, 0
}

// searchDefaults checks the start board of a search of p, when it has one
// (a placement of p's pieces with grey facing out), and returns its number
// of workers (0: one per core) and its target score (0: p's maximum).
func searchDefaults(p *edgematch.Puzzle, start *edgematch.Board, workers, target int) (int, int, error) {
	if start != nil {
		if err := p.Verify(start); err != nil {
			return 0, 0, fmt.Errorf("edgematch: start board: %w", err)
		}
		if s := p.Score(start); s.FrameErrors > 0 {
			return 0, 0, fmt.Errorf("edgematch: start board has %d frame errors", s.FrameErrors)
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if target <= 0 {
		target = p.MaxScore()
	}
	return workers, target, nil
}

// inParallel runs work(ctx, cancel, w) for the workers w = 0 to n-1 at
// once, under a context of ctx that cancel (a worker that reached the
// target) ends for all, and waits for them.
func inParallel(ctx context.Context, n int, work func(ctx context.Context, cancel context.CancelFunc, w int)) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() { work(ctx, cancel, w) })
	}
	wg.Wait()
}
