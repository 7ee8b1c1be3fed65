package samegame

import (
	"context"
	"fmt"
	"slices"
)

// The exact Dust solver: iterative-deepening A* on the number of clicks
// (Korf 1985) with a transposition table of learned lower bounds.
//
// The bound h(b) is the number of colours left, plus one when no colour is
// a single group (then the next click cannot finish a colour, so at least
// colours+1 clicks remain). It is admissible: every colour needs a click,
// and a click removes one group of one colour.
//
// The table maps a board's Zobrist hash to the best lower bound on its
// remaining clicks proved so far: when a depth-first iteration fails below
// a board, the least bound over its children plus one is stored. Later
// iterations and transpositions (the same board reached by clicks in
// another order) start from the learned bound, so each iteration mostly
// re-walks the parts that can still succeed. With a known solution of U
// clicks (from a quick DFS run first), the search stops when the bound
// reaches U: failing at U-1 proves U optimal, so the costly last iteration
// is often never run.

// table is a direct-mapped transposition table: each entry packs the upper
// 58 bits of a hash with a 6-bit lower bound.
type table struct {
	e     []uint64
	shift uint
}

func newTable(bits int) *table {
	return &table{e: make([]uint64, 1<<bits), shift: uint(64 - bits)}
}

// get returns the stored lower bound for hash h, or 0.
func (t *table) get(h uint64) int {
	if v := t.e[h>>t.shift]; v>>6 == h>>6 {
		return int(v & 63)
	}
	return 0
}

// put stores lower bound lb for hash h (always replacing).
func (t *table) put(h uint64, lb int) {
	t.e[h>>t.shift] = h&^63 | uint64(min(lb, 63))
}

type exactSearch struct {
	ctx     context.Context
	tt      *table
	nodes   int64
	max     int64
	err     error
	scr     scratch
	path    []Move     // clicks from the root to the current board
	found   []Move     // the solution, once found
	levels  []exactPly // per depth: the groups being tried
	boards  []Board    // per depth: the board being searched
	pending Solution   // for Progress
	opts    *Options
}

// exactPly holds the groups of one board during the search.
type exactPly struct {
	groups []Group
}

// colorsAndSingles returns the number of colours of the groups and whether
// some colour is a single group.
func colorsAndSingles(groups []Group) (int, bool) {
	var count [MaxColors]uint8
	for _, g := range groups {
		if count[g.Color] < 2 {
			count[g.Color]++
		}
	}
	k, single := 0, false
	for _, n := range count {
		if n > 0 {
			k++
		}
		single = single || n == 1
	}
	return k, single
}

// solveExact proves the fewest clicks for a Dust board.
func solveExact(ctx context.Context, b *Board, opts Options) (Solution, error) {
	if b.IsEmpty() {
		return Solution{Cleared: true, Optimal: true}, nil
	}
	// An upper bound from a short DFS run.
	dfsOpts := opts
	dfsOpts.MaxNodes = 20000
	dfsOpts.Progress = nil
	upper, _ := solveDFS(ctx, b, dfsOpts)
	bits := opts.TableBits
	if bits == 0 {
		bits = 23
	}
	if bits < 10 || bits > 32 {
		return Solution{}, fmt.Errorf("samegame: table bits %d out of range (10 to 32)", bits)
	}
	e := &exactSearch{ctx: ctx, tt: newTable(bits), max: opts.MaxNodes, opts: &opts, levels: make([]exactPly, b.Cells()+1), boards: make([]Board, b.Cells()+2)}
	for i := range e.boards {
		e.boards[i] = *b // setFrom copies cells only
	}
	e.pending = upper
	sol := upper
	sol.Optimal = false
	root := *b
	bound := b.ColorsLeft()
	for bound < upper.Clicks {
		lb := e.search(&root, b.Hash(), b.ColorsLeft(), 0, bound)
		if e.found != nil {
			sol.Moves = e.found
			break
		}
		if e.err != nil {
			sol.Nodes += e.nodes
			if err := finish(b, &sol); err != nil {
				return sol, err
			}
			return sol, e.err
		}
		bound = max(bound+1, lb)
	}
	sol.Optimal = true
	sol.Nodes += e.nodes
	return sol, finish(b, &sol)
}

// search looks for a solution of at most bound clicks from b (at depth
// g, with hash h and a lower bound lb0 on its clicks left, from its colours
// and the table) and returns a lower bound on b's remaining clicks. It
// sets e.found when it finds one.
func (e *exactSearch) search(b *Board, h uint64, lb0, g, bound int) int {
	ply := &e.levels[g]
	ply.groups = b.groupsWith(ply.groups[:0], 1, &e.scr)
	k, single := colorsAndSingles(ply.groups)
	lb := lb0
	if !single {
		lb = max(lb, k+1)
	}
	if g+lb > bound {
		e.tt.put(h, lb)
		return lb
	}
	e.nodes++
	if e.nodes&4095 == 0 {
		if err := e.ctx.Err(); err != nil {
			e.err = ctxErr(err)
		} else if e.max > 0 && e.nodes >= e.max {
			e.err = fmt.Errorf("%w: %d nodes", ErrBudget, e.nodes)
		}
		if e.opts.Progress != nil {
			e.pending.Nodes = e.nodes
			e.opts.Progress(e.pending)
		}
	}
	if e.err != nil {
		return lb
	}
	// A click that leaves every colour on the board leaves at least k
	// colours; when that alone exceeds the bound, only clicks that finish
	// a colour (the single groups) need a look.
	onlyFinishing := g+1+k > bound
	slices.SortStableFunc(ply.groups, func(x, y Group) int { return int(y.Size) - int(x.Size) })
	var count [MaxColors]uint8
	for _, grp := range ply.groups {
		count[grp.Color]++
	}
	child := &e.boards[g+1]
	best := 1 << 30
	if onlyFinishing {
		best = 1 + k
	}
	for _, grp := range ply.groups {
		if onlyFinishing && count[grp.Color] != 1 {
			continue
		}
		child.setFrom(b)
		child.PlayGroup(grp)
		if child.IsEmpty() {
			e.found = append(append([]Move(nil), e.path...), grp.Move())
			return 1
		}
		cl := child.ColorsLeft()
		if g+1+cl > bound {
			best = min(best, 1+cl)
			continue
		}
		ch := child.Hash()
		if t := e.tt.get(ch); g+1+t > bound {
			best = min(best, 1+t)
			continue
		} else {
			cl = max(cl, t)
		}
		e.path = append(e.path, grp.Move())
		d := 1 + e.search(child, ch, cl, g+1, bound)
		e.path = e.path[:len(e.path)-1]
		if e.found != nil || e.err != nil {
			return d
		}
		best = min(best, d)
	}
	best = max(best, lb)
	e.tt.put(h, best)
	return best
}
