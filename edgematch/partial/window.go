package partial

// windowSolver re-places the pieces of a set of cells in their best
// arrangement, by depth-first branch and bound over the cells in order.
type windowSolver struct {
	l      *lns
	cells  []int
	pos    []int // window index of each board cell, or -1
	pieces []int
	cands  [][]windowCand
	used   []bool
	placed []int32
	best   []int32
	// bound[i]: the most the cells i.. can still add: their best matches
	// with the fixed cells plus the window's edges decided at i or later.
	bound     []int
	bestScore int
	nodes     int
	maxNodes  int
}

type windowCand struct {
	piece int // index into pieces
	o     int32
	fixed int // matches with the cells outside the window
}

func (ws *windowSolver) init(l *lns) {
	ws.l = l
	ws.pos = make([]int, l.n)
	for i := range ws.pos {
		ws.pos[i] = -1
	}
}

// solve finds the best arrangement of the pieces of cells (marked in in)
// with at least minScore matched edges touching them, within maxNodes
// placements; it applies it and returns its score, or returns -1 and
// leaves the board unchanged.
func (ws *windowSolver) solve(cells []int, in []bool, minScore, maxNodes int) int {
	l := ws.l
	m := len(cells)
	ws.cells = cells
	ws.pieces = ws.pieces[:0]
	for i, cell := range cells {
		ws.pos[cell] = i
		ws.pieces = append(ws.pieces, int(l.c.OriPiece[l.ori[cell]]))
	}
	defer func() {
		for _, cell := range cells {
			ws.pos[cell] = -1
		}
	}()
	old := make([]int32, m)
	for i, cell := range cells {
		old[i] = l.ori[cell]
	}
	// Candidates per cell, best fixed matches first, ties shuffled.
	ws.cands = growCands(ws.cands, m)
	ws.bound = append(ws.bound[:0], make([]int, m+1)...)
	for i, cell := range cells {
		cs := ws.cands[i][:0]
		for j, pc := range ws.pieces {
			for _, o := range l.oris[pc] {
				if !l.c.Fits(int(o), l.mask[cell]) {
					continue
				}
				f := 0
				packed := l.c.OriPacked[o]
				for d := range 4 {
					nb := l.nb[cell*4+d]
					if nb < 0 || in[nb] {
						continue
					}
					if a := byte(packed >> (8 * d)); a != 0 && a == l.col[int(nb)*4+(d+2)&3] {
						f++
					}
				}
				cs = append(cs, windowCand{j, o, f})
			}
		}
		l.rng.Shuffle(len(cs), func(a, b int) { cs[a], cs[b] = cs[b], cs[a] })
		sortCands(cs)
		ws.cands[i] = cs
		maxF := 0
		if len(cs) > 0 {
			maxF = cs[0].fixed
		}
		ws.bound[i] = maxF
		// Window edges decided when cell i is placed: those to earlier cells.
		for d := range 4 {
			if nb := l.nb[cell*4+d]; nb >= 0 && in[nb] && ws.pos[nb] < i {
				ws.bound[i]++
			}
		}
	}
	for i := m - 1; i >= 0; i-- {
		ws.bound[i] += ws.bound[i+1]
	}
	ws.used = append(ws.used[:0], make([]bool, m)...)
	ws.placed = append(ws.placed[:0], make([]int32, m)...)
	ws.best = append(ws.best[:0], make([]int32, m)...)
	ws.bestScore = minScore - 1
	ws.nodes, ws.maxNodes = 0, maxNodes
	found := false
	ws.search(0, 0, &found)
	if !found {
		for i, cell := range cells {
			l.set(cell, old[i])
		}
		return -1
	}
	for i, cell := range cells {
		l.set(cell, ws.best[i])
	}
	return ws.bestScore
}

func growCands(c [][]windowCand, m int) [][]windowCand {
	for len(c) < m {
		c = append(c, nil)
	}
	return c[:m]
}

// sortCands orders candidates by fixed matches, descending (a stable
// insertion sort: the lists are short and the shuffle breaks ties).
func sortCands(cs []windowCand) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].fixed > cs[j-1].fixed; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// search places cells i.. given the score so far.
func (ws *windowSolver) search(i, score int, found *bool) {
	l := ws.l
	if i == len(ws.cells) {
		if score > ws.bestScore {
			ws.bestScore = score
			copy(ws.best, ws.placed)
			*found = true
		}
		return
	}
	if score+ws.bound[i] <= ws.bestScore || ws.nodes >= ws.maxNodes {
		return
	}
	cell := ws.cells[i]
	for _, cd := range ws.cands[i] {
		if ws.used[cd.piece] {
			continue
		}
		if score+cd.fixed+ws.bound[i+1]+(ws.bound[i]-ws.bound[i+1]-ws.cands[i][0].fixed) <= ws.bestScore {
			break // candidates are sorted by fixed matches
		}
		ws.nodes++
		l.set(cell, cd.o)
		g := cd.fixed
		for d := range 4 {
			nb := l.nb[cell*4+d]
			if nb < 0 || ws.pos[nb] < 0 || ws.pos[nb] >= i {
				continue
			}
			if a := l.col[cell*4+d]; a != 0 && a == l.col[int(nb)*4+(d+2)&3] {
				g++
			}
		}
		ws.used[cd.piece] = true
		ws.placed[i] = cd.o
		ws.search(i+1, score+g, found)
		ws.used[cd.piece] = false
		if ws.nodes >= ws.maxNodes {
			return
		}
	}
}
