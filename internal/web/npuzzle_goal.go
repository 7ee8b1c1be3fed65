package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"tessera/npuzzle"
)

// A sliding game may have its gap anywhere: the source game lets the first
// tile tapped on the whole picture become the gap. The tiles are numbered
// in reading order around the gap's home cell k: tile t's home is cell t-1
// when t-1 < k, else cell t, so the goal reads 1 2 ... n-1 with the blank
// at k (k = n-1 is the usual blank-last goal).
//
// The solvers know the blank-last goal only, so a board with another home
// is solved through a goalMap: a mirror of the board (left-right, top-down
// or both) brings the home nearest the last cell, the tiles are renamed so
// that the mirrored goal with its blank walked to the last cell (right,
// then down) is the blank-last goal, the solver solves that board, and the
// answer is mapped back, followed by the walk undone. A home in a corner
// needs no walk, and the solver's shortest answers stay shortest; any other
// home adds the walk, and the answer is not proven shortest.

// goalMap maps boards with the blank's home at cell k to blank-last
// boards.
type goalMap struct {
	rows, cols, k int
	flipH, flipV  bool
	walk          []npuzzle.Move // from the mirrored home to the last cell
	rename        []int          // tile of the original numbering -> the solver's
}

// homeOf returns the home cell of tile t (1..n-1) when the blank's home is
// k, and k for the blank.
func homeOf(t, k int) int {
	switch {
	case t == 0:
		return k
	case t-1 < k:
		return t - 1
	}
	return t
}

// goalBoard returns the goal with the blank at home k.
func goalBoard(s npuzzle.Size, k int) *npuzzle.Board {
	n := s.Rows * s.Cols
	cells := make([]int, n)
	for t := 1; t < n; t++ {
		cells[homeOf(t, k)] = t
	}
	b, err := npuzzle.FromTiles(s, cells)
	if err != nil {
		panic(err) // a permutation by construction
	}
	return b
}

// isGoal reports whether b is the goal with the blank at home k.
func isGoal(b *npuzzle.Board, k int) bool { return b.Equal(goalBoard(b.Size(), k)) }

func newGoalMap(s npuzzle.Size, k int) *goalMap {
	g := &goalMap{rows: s.Rows, cols: s.Cols, k: k}
	r, c := k/s.Cols, k%s.Cols
	g.flipH = c < s.Cols-1-c
	g.flipV = r < s.Rows-1-r
	mr, mc := g.cell(r, c)
	for ; mc < s.Cols-1; mc++ {
		g.walk = append(g.walk, npuzzle.Left) // the blank moves right
	}
	for ; mr < s.Rows-1; mr++ {
		g.walk = append(g.walk, npuzzle.Up) // the blank moves down
	}
	// The mirrored goal, walked: its tile at cell c gets the name c+1.
	n := s.Rows * s.Cols
	mirrored, _ := npuzzle.FromTiles(s, g.mirror(goalBoard(s, k).Tiles()))
	walked, err := npuzzle.Replay(mirrored, g.walk)
	if err != nil {
		panic(err) // the walk stays on the board
	}
	g.rename = make([]int, n)
	for c, t := range walked.Tiles() {
		if t != 0 {
			g.rename[t] = c + 1
		}
	}
	return g
}

// cell returns where the mirror takes row r, column c.
func (g *goalMap) cell(r, c int) (int, int) {
	if g.flipH {
		c = g.cols - 1 - c
	}
	if g.flipV {
		r = g.rows - 1 - r
	}
	return r, c
}

// mirror returns the cells of a board mirrored.
func (g *goalMap) mirror(cells []int) []int {
	out := make([]int, len(cells))
	for i, t := range cells {
		r, c := g.cell(i/g.cols, i%g.cols)
		out[r*g.cols+c] = t
	}
	return out
}

// identity reports whether the map changes nothing: the usual goal.
func (g *goalMap) identity() bool { return !g.flipH && !g.flipV && len(g.walk) == 0 }

// toSolver returns b mirrored and renamed: the board the solver solves.
func (g *goalMap) toSolver(b *npuzzle.Board) *npuzzle.Board {
	cells := g.mirror(b.Tiles())
	for i, t := range cells {
		cells[i] = g.rename[t]
	}
	out, err := npuzzle.FromTiles(b.Size(), cells)
	if err != nil {
		panic(err)
	}
	return out
}

// fromSolver maps moves found on the solver's board back to the original
// board (the mirror swaps left and right, or up and down); with finish
// set it appends the walk undone, which ends on the original goal.
func (g *goalMap) fromSolver(moves []npuzzle.Move, finish bool) []npuzzle.Move {
	out := make([]npuzzle.Move, 0, len(moves)+len(g.walk))
	out = append(out, moves...)
	if finish {
		for i := len(g.walk) - 1; i >= 0; i-- {
			out = append(out, g.walk[i].Inverse())
		}
	}
	for i, m := range out {
		switch {
		case g.flipH && (m == npuzzle.Left || m == npuzzle.Right):
			out[i] = m.Inverse()
		case g.flipV && (m == npuzzle.Up || m == npuzzle.Down):
			out[i] = m.Inverse()
		}
	}
	return out
}

// checkHome checks a blank home sent by a page for a board of size s: nil
// is the last cell.
func checkHome(home *int, s npuzzle.Size) (int, error) {
	n := s.Rows * s.Cols
	if home == nil {
		return n - 1, nil
	}
	if *home < 0 || *home >= n {
		return 0, errorf(http.StatusBadRequest, "bad blank: cell %d is not on a %v board (0..%d)", *home, s, n-1)
	}
	return *home, nil
}

// solvableFor reports whether b reaches the goal with the blank at k.
func solvableFor(b *npuzzle.Board, k int) bool {
	return npuzzle.Solvable(newGoalMap(b.Size(), k).toSolver(b), npuzzle.BlankLast)
}

// pdbSet holds the pattern databases of the optimal solver, one per board
// size that has one, loaded (or built) once on first use and kept.
type pdbSet struct {
	parts    map[npuzzle.Size]string // partition name by board size
	cacheDir string                  // "": the user cache folder
	noCache  bool
	maxBytes int64
	base     context.Context // a build outlives the job that started it

	mu      sync.Mutex
	entries map[pdbKey]*pdbEntry
	loads   int               // loads started (read or built), for the tests
	failed  map[pdbKey]string // why the last load failed
}

// pdbKey names a database: a board size and a partition, the size's own
// (parts) or its quick one (see quick).
type pdbKey struct {
	size npuzzle.Size
	part string
}

// pdbEntry is one database, being loaded or loaded.
type pdbEntry struct {
	done    chan struct{}
	pdb     *npuzzle.PDB
	err     error
	started time.Time

	mu       sync.Mutex
	progress npuzzle.BuildProgress
	watchers map[int]func(npuzzle.BuildProgress)
	next     int
}

// ready returns the database for size s when it is loaded, else nil.
func (p *pdbSet) ready(s npuzzle.Size) *npuzzle.PDB { return p.readyPart(s, p.parts[s]) }

// readyPart returns the database of partition part for size s when it is
// loaded, else nil.
func (p *pdbSet) readyPart(s npuzzle.Size, part string) *npuzzle.PDB {
	p.mu.Lock()
	e := p.entries[pdbKey{s, part}]
	p.mu.Unlock()
	if e == nil {
		return nil
	}
	select {
	case <-e.done:
		return e.pdb
	default:
		return nil
	}
}

// has reports whether boards of size s have a database.
func (p *pdbSet) has(s npuzzle.Size) bool { _, ok := p.parts[s]; return ok }

// quick returns the partition that stands in for the database of size s
// while that one is neither loaded nor on disk, or "" for none: the
// standard partition of the size (npuzzle.DefaultPartition, 6-6-3 on 4x4:
// seconds to build) when the server's is a larger one (7-8: a build of
// minutes and most of a GB, started only when someone asks for it).
func (p *pdbSet) quick(s npuzzle.Size) string {
	def, err := npuzzle.DefaultPartition(s)
	if err != nil || def.Name == p.parts[s] {
		return ""
	}
	own, err := npuzzle.PartitionFor(p.parts[s], s, npuzzle.BlankLast)
	if err != nil || entries(def) >= entries(own) {
		return ""
	}
	return def.Name
}

// entries returns the entries of the tables of part.
func entries(part npuzzle.Partition) int64 {
	var e int64
	for _, tiles := range part.TablePatterns() {
		e += placementCount(part.Size.Rows*part.Size.Cols, len(tiles))
	}
	return e
}

// onDisk reports whether every table of the database of size s is in the
// cache folder.
func (p *pdbSet) onDisk(s npuzzle.Size) bool {
	if p.noCache {
		return false
	}
	part, err := npuzzle.PartitionFor(p.parts[s], s, npuzzle.BlankLast)
	if err != nil {
		return false
	}
	files, _ := part.TableFiles(p.cacheDir)
	return len(files) > 0 && !slices.ContainsFunc(files, func(f npuzzle.TableFile) bool { return !f.Present })
}

// started reports whether the database of size s is being loaded or is
// loaded.
func (p *pdbSet) started(s npuzzle.Size) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.entries[pdbKey{s, p.parts[s]}] != nil
}

// load returns the database for size s, starting its load (read from the
// cache, or built) if none has started, and calling progress while it is
// built, until ctx ends. A failed load is forgotten so a later call tries
// again.
func (p *pdbSet) load(ctx context.Context, s npuzzle.Size, progress func(npuzzle.BuildProgress)) (*npuzzle.PDB, error) {
	name, ok := p.parts[s]
	if !ok {
		return nil, fmt.Errorf("no pattern database for %v boards", s)
	}
	return p.loadPart(ctx, s, name, progress)
}

// loadPart is load for the database of partition name on size s.
func (p *pdbSet) loadPart(ctx context.Context, s npuzzle.Size, name string, progress func(npuzzle.BuildProgress)) (*npuzzle.PDB, error) {
	key := pdbKey{s, name}
	p.mu.Lock()
	e := p.entries[key]
	if e == nil {
		e = &pdbEntry{done: make(chan struct{}), watchers: map[int]func(npuzzle.BuildProgress){}, started: time.Now()}
		p.loads++
		if p.entries == nil {
			p.entries = map[pdbKey]*pdbEntry{}
		}
		p.entries[key] = e
		go func() {
			part, err := npuzzle.PartitionFor(name, s, npuzzle.BlankLast)
			if err == nil {
				e.pdb, err = npuzzle.LoadPDB(p.base, part, npuzzle.PDBOptions{CacheDir: p.cacheDir, NoCache: p.noCache, MaxBytes: p.maxBytes,
					Progress: func(bp npuzzle.BuildProgress) {
						e.mu.Lock()
						e.progress = bp
						ws := make([]func(npuzzle.BuildProgress), 0, len(e.watchers))
						for _, w := range e.watchers {
							ws = append(ws, w)
						}
						e.mu.Unlock()
						for _, w := range ws {
							w(bp)
						}
					}})
			}
			if err != nil {
				e.err = fmt.Errorf("pattern database %s: %w", name, err)
				p.mu.Lock()
				delete(p.entries, key)
				if p.failed == nil {
					p.failed = map[pdbKey]string{}
				}
				p.failed[key] = e.err.Error()
				p.mu.Unlock()
			}
			close(e.done)
		}()
	}
	p.mu.Unlock()
	if progress != nil {
		e.mu.Lock()
		id := e.next
		e.next++
		e.watchers[id] = progress
		e.mu.Unlock()
		defer func() {
			e.mu.Lock()
			delete(e.watchers, id)
			e.mu.Unlock()
		}()
	}
	select {
	case <-e.done:
		return e.pdb, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fromSolverBoard is toSolver undone: the original board of a board in the
// solver's numbering.
func (g *goalMap) fromSolverBoard(b *npuzzle.Board) *npuzzle.Board {
	back := make([]int, len(g.rename))
	for t, u := range g.rename {
		back[u] = t
	}
	cells := b.Tiles()
	for i, t := range cells {
		cells[i] = back[t]
	}
	out, err := npuzzle.FromTiles(b.Size(), g.mirror(cells))
	if err != nil {
		panic(err)
	}
	return out
}
