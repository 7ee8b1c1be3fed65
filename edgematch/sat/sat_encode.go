package sat

import (
	"context"
	"fmt"
	"io"

	"tessera/edgematch"
	"tessera/edgematch/internal/kernel"
)

// SATEncodeOptions tune EncodeSAT. The zero value is the default encoding.
type SATEncodeOptions struct {
	// NoSymmetry keeps the board rotations in the formula. By default, on a
	// grey-framed puzzle with free rotations and no hints, the corner piece
	// of lowest number that has no identical twin is kept out of the
	// bottom corners (and, on a square board, out of the top right one),
	// as the backtracker does: every solution stands for Symmetry boards
	// (4 on a square board, 2 on another), all distinct.
	NoSymmetry bool
	// Direct drops the edge-colour variables: a placement implies,
	// through each inner side, the placements of the neighbour that show
	// the same colour there (one long clause per side) instead of a colour
	// variable. Kept to compare the encodings (docs/notes/edgematch-series.md).
	Direct bool
	// Pairwise is the largest set of literals whose at-most-one is
	// encoded pairwise; larger sets get Sinz's sequential counter (0: 6).
	// Pairwise clauses give the solver direct binary conflicts at the cost
	// of n(n-1)/2 clauses.
	Pairwise int
	// MaxClauses refuses a puzzle whose formula would have more clauses
	// than this, estimated before anything is built (0:
	// DefaultSATMaxClauses).
	MaxClauses int64
}

// DefaultSATMaxClauses bounds the formula of EncodeSAT: 20 million
// clauses, about 300 MB in memory. Eternity II needs about 1.3 million.
const DefaultSATMaxClauses = 20_000_000

// SATSizeError is the error of a puzzle whose formula would exceed
// SATEncodeOptions.MaxClauses.
type SATSizeError struct {
	Need, Max int64
}

func (e *SATSizeError) Error() string {
	return fmt.Sprintf("edgematch: the SAT formula would have about %d clauses, above the limit of %d", e.Need, e.Max)
}

// SATEncoding is an edge-matching puzzle as a CNF formula (EncodeSAT), with
// what turns a model back into a board.
//
// # The encoding
//
// Placement variables: p[cell, piece, rot] for each cell and each rotation
// of a piece that shows a distinct colour pattern (a piece that looks the
// same turned by 180 degrees has two, a plain one four, one rotation with
// FixedOrientation), kept only when the rotated piece fits the cell:
// every outward side shows the frame colour, no inner side shows grey,
// hints respected (a hinted cell has only its hint, a hinted piece only
// its cell). These are variables 1..Placements, ordered by cell.
//
// Piece-in-cell variables: q[cell, piece], the rotation folded away: the
// placement variable itself when only one rotation of the piece fits
// (border and corner cells), else a new variable with q -> p[r1] | ...
// | p[r4], p[r] -> q and at most one rotation.
//
// Edge-colour variables: c[edge, colour] for each inner edge and each
// colour both neighbours can show on it. A placement implies the colour of
// each of its inner edges (binary clauses p -> c), and a colour is
// supported on each side by the placements that show it (c ->
// p1 | p2 | ...); each edge has exactly one colour. Going through colours
// makes the neighbour relation O(placements) binary clauses instead of
// O(placements^2) pairs, and unit propagation on it is as strong as arc
// consistency on the edge: a colour no placement of one side can show is
// falsified, and with it every placement of the other side that needs it.
// This is the "diamond" encoding of Heule (Solving edge-matching problems
// with satisfiability solvers, SAT 2009 workshop), in a form that needs no
// case analysis of the piece's colour pattern. Direct drops the colour
// variables (SATEncodeOptions.Direct).
//
// Exactly one: every cell has exactly one q, every piece exactly one q
// (at least one as a clause, at most one pairwise up to 6 literals, by
// Sinz's sequential counter above: n-1 new variables and 3n-4 binary
// clauses, a ladder that propagates as well as the pairwise encoding).
//
// Before numbering, the placements are filtered to a fixed point by arc
// consistency on the edges (a placement whose colour on a side no
// placement of the neighbour can show is dropped), which shrinks the
// formula without changing its models. Hints are unit clauses.
//
// Models and boards: every model sets exactly one placement per cell, and
// distinct boards have distinct placement variables, so counting models
// projected on the placements counts boards; the sequential counter's
// variables are not determined by the placements, so a blocking clause
// names the placements only (SATEncoding.Block). Boards that differ by an
// exchange of identical pieces are distinct boards (as the backtracker's
// Count counts them); with symmetry breaking each model stands for
// Symmetry boards, the board's rotations.
type SATEncoding struct {
	CNF
	// Placements is the number of placement variables (1..Placements).
	Placements int
	// Symmetry is the number of boards each model stands for: 4 or 2 when
	// board rotations are folded away, else 1.
	Symmetry int
	// Unsat is true when the puzzle has no solution before any search (a
	// cell or a piece with no placement left); the formula is then the
	// contradiction x1, -x1.
	Unsat bool

	p      *edgematch.Puzzle
	yCell  []int32
	yPiece []int32
	yRot   []uint8
	yStart []int32 // the placements of cell i are yStart[i]..yStart[i+1]-1 (0-based)
	edges  []satEdge
	hinted []edgematch.Placement
}

// satEdge is an inner edge: cell a's side da faces cell b; its colour
// variables are first+i for the colours cols[i].
type satEdge struct {
	a, b  int32
	da    uint8
	first int32
	cols  []edgematch.Colour
}

// colourSet is a set of colours 0..255.
type colourSet [4]uint64

func (s *colourSet) add(c edgematch.Colour)      { s[c>>6] |= 1 << (c & 63) }
func (s *colourSet) has(c edgematch.Colour) bool { return s[c>>6]>>(c&63)&1 != 0 }
func (s colourSet) and(t colourSet) colourSet {
	return colourSet{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}

// EncodeSAT encodes p as a CNF formula (the encoding is described on
// SATEncoding). It estimates the size first and returns a *SATSizeError
// above o.MaxClauses; it checks ctx while building. The work is linear in
// the size of the formula, O(cells * pieces * 4) placements.
func EncodeSAT(ctx context.Context, p *edgematch.Puzzle, o SATEncodeOptions) (*SATEncoding, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rots := 4
	if p.FixedOrientation {
		rots = 1
	}
	b := &satBuilder{ctx: ctx, p: p, o: o, rows: p.Rows, cols: p.Cols, n: p.Cells(), oris: satOrientations(p, rots)}
	pw, err := b.checkSize()
	if err != nil {
		return nil, err
	}
	e := &SATEncoding{p: p, Symmetry: 1, hinted: make([]edgematch.Placement, b.n)}
	e.pairwise = pw
	b.e = e
	hintPiece := b.hints()
	forbidPiece, forbidMask := b.symmetry()
	if err := b.placements(hintPiece, forbidPiece, forbidMask); err != nil {
		return nil, err
	}
	b.innerEdges()
	if err := b.arcConsistency(); err != nil {
		return nil, err
	}
	b.compact()
	if unsat, err := b.oneEach(); unsat || err != nil {
		if err != nil {
			return nil, err
		}
		return e.contradiction(), nil
	}
	for i := range e.edges {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.Direct {
			b.directEdge(&e.edges[i])
		} else {
			b.colourEdge(&e.edges[i])
		}
	}
	// Hints as unit clauses (their cells have one placement left).
	for cell, h := range e.hinted {
		if h.Piece != edgematch.NoPiece {
			e.add(e.yStart[cell] + 1)
		}
	}
	return e, nil
}

// satOri is a distinct orientation of a piece.
type satOri struct {
	piece int32
	rot   uint8
	t     edgematch.Tile
}

// satOrientations lists the distinct orientations of each piece (of the
// first rots rotations), by piece and rotation.
func satOrientations(p *edgematch.Puzzle, rots int) []satOri {
	var oris []satOri
	for i, t := range p.Tiles {
		var seen []edgematch.Tile
		for r := range rots {
			rt := t.Rotate(r)
			dup := false
			for _, s := range seen {
				dup = dup || s == rt
			}
			if dup {
				continue
			}
			seen = append(seen, rt)
			oris = append(oris, satOri{int32(i), uint8(r), rt})
		}
	}
	return oris
}

// satBuilder is EncodeSAT's state between its steps.
type satBuilder struct {
	ctx           context.Context
	p             *edgematch.Puzzle
	o             SATEncodeOptions
	e             *SATEncoding
	rows, cols, n int
	oris          []satOri
	yTile         []edgematch.Tile // the tile each placement shows
	alive         []bool           // placements not dropped by arc consistency
	tick          int              // ctxErr's counter
}

// fits reports whether tile t may stand in cell: the frame's colours on
// its outward sides, no grey inside.
func (b *satBuilder) fits(cell int, t edgematch.Tile) bool {
	r, c := cell/b.cols, cell%b.cols
	for d := range 4 {
		if edgematch.FrameIndex(b.rows, b.cols, r, c, d) >= 0 {
			if t[d] != b.p.FrameColour(r, c, d) {
				return false
			}
		} else if t[d] == edgematch.Grey {
			return false
		}
	}
	return true
}

// checkSize estimates the clauses from the orientations fitting each
// kind of cell and returns the pairwise bound of at-most-one, or a
// *SATSizeError over o.MaxClauses.
func (b *satBuilder) checkSize() (int, error) {
	maxClauses := b.o.MaxClauses
	if maxClauses <= 0 {
		maxClauses = DefaultSATMaxClauses
	}
	var perMask [16]int64
	var seenMask [16]bool
	var y0 int64
	for cell := range b.n {
		m := edgematch.OutwardMask(b.rows, b.cols, cell/b.cols, cell%b.cols)
		if !seenMask[m] {
			seenMask[m] = true
			for _, or := range b.oris {
				if b.fits(cell, or.t) {
					perMask[m]++
				}
			}
		}
		y0 += perMask[m]
	}
	k := int64(b.p.Colours())
	inner := int64(b.p.MaxScore())
	pw := b.o.Pairwise
	if pw <= 0 {
		pw = defaultPairwise
	}
	need := 6*y0 + 2*int64(b.n)*(1+amoClauses(b.n, pw)) + inner*(1+2*k+amoClauses(int(k), pw))
	if need > maxClauses {
		return 0, &SATSizeError{Need: need, Max: maxClauses}
	}
	return pw, nil
}

// hints sets e.hinted and returns, per piece, the cell its hint fixes
// (-1: none).
func (b *satBuilder) hints() []int {
	e := b.e
	for i := range e.hinted {
		e.hinted[i].Piece = edgematch.NoPiece
	}
	hintPiece := make([]int, len(b.p.Tiles))
	for i := range hintPiece {
		hintPiece[i] = -1
	}
	for _, h := range b.p.Hints {
		cell := h.Row*b.cols + h.Col
		e.hinted[cell] = edgematch.Placement{Piece: h.Piece, Rot: h.Rot}
		hintPiece[h.Piece] = cell
	}
	return hintPiece
}

// symmetry breaks the board's rotations as the backtracker's compile
// does: the first unique corner piece may not stand in the corners that
// forbidMask marks (by outward mask); it sets e.Symmetry. forbidPiece is
// -1 when nothing is folded away.
func (b *satBuilder) symmetry() (forbidPiece int, forbidMask [16]bool) {
	p, e := b.p, b.e
	forbidPiece = -1
	if b.o.NoSymmetry || p.Frame != nil || p.FixedOrientation || len(p.Hints) != 0 || b.rows < 2 || b.cols < 2 {
		return forbidPiece, forbidMask
	}
	canon := make(map[edgematch.Tile]int)
	for _, t := range p.Tiles {
		canon[kernel.Canonical(t, 4)]++
	}
	for i, t := range p.Tiles {
		if kernel.IsCornerTile(t) && canon[kernel.Canonical(t, 4)] == 1 {
			forbidPiece = i
			break
		}
	}
	if forbidPiece >= 0 {
		forbidMask[1<<edgematch.South|1<<edgematch.East], forbidMask[1<<edgematch.South|1<<edgematch.West] = true, true
		e.Symmetry = 2
		if b.rows == b.cols {
			forbidMask[1<<edgematch.North|1<<edgematch.East] = true
			e.Symmetry = 4
		}
	}
	return forbidPiece, forbidMask
}

// placements lists the placements that fit, by cell.
func (b *satBuilder) placements(hintPiece []int, forbidPiece int, forbidMask [16]bool) error {
	e := b.e
	e.yStart = make([]int32, b.n+1)
	for cell := range b.n {
		e.yStart[cell] = int32(len(e.yCell))
		m := edgematch.OutwardMask(b.rows, b.cols, cell/b.cols, cell%b.cols)
		h := e.hinted[cell]
		for _, or := range b.oris {
			if err := ctxErr(b.ctx, &b.tick); err != nil {
				return err
			}
			pc := int(or.piece)
			switch {
			case h.Piece != edgematch.NoPiece && (pc != h.Piece || or.t != b.p.Tiles[pc].Rotate(h.Rot)):
				continue
			case h.Piece == edgematch.NoPiece && hintPiece[pc] >= 0:
				continue
			case pc == forbidPiece && forbidMask[m]:
				continue
			case !b.fits(cell, or.t):
				continue
			}
			e.yCell = append(e.yCell, int32(cell))
			e.yPiece = append(e.yPiece, or.piece)
			e.yRot = append(e.yRot, or.rot)
			b.yTile = append(b.yTile, or.t)
		}
	}
	e.yStart[b.n] = int32(len(e.yCell))
	return nil
}

// innerEdges lists the inner edges: each cell's east and south sides.
func (b *satBuilder) innerEdges() {
	e := b.e
	for cell := range b.n {
		r, c := cell/b.cols, cell%b.cols
		if c+1 < b.cols {
			e.edges = append(e.edges, satEdge{a: int32(cell), b: int32(cell + 1), da: edgematch.East})
		}
		if r+1 < b.rows {
			e.edges = append(e.edges, satEdge{a: int32(cell), b: int32(cell + b.cols), da: edgematch.South})
		}
	}
}

// sideSet returns the colours that the live placements of cell show on
// side d.
func (b *satBuilder) sideSet(cell int32, d int) colourSet {
	var s colourSet
	for y := b.e.yStart[cell]; y < b.e.yStart[cell+1]; y++ {
		if b.alive[y] {
			s.add(b.yTile[y][d])
		}
	}
	return s
}

// arcConsistency drops, to a fixed point, the placements showing on an
// inner side a colour the neighbour cannot show.
func (b *satBuilder) arcConsistency() error {
	e := b.e
	b.alive = make([]bool, len(e.yCell))
	for i := range b.alive {
		b.alive[i] = true
	}
	for changed := true; changed; {
		changed = false
		for _, ed := range e.edges {
			da, db := int(ed.da), int(ed.da+2)&3
			both := b.sideSet(ed.a, da).and(b.sideSet(ed.b, db))
			for _, side := range [2]struct {
				cell int32
				d    int
			}{{ed.a, da}, {ed.b, db}} {
				for y := e.yStart[side.cell]; y < e.yStart[side.cell+1]; y++ {
					if b.alive[y] && !both.has(b.yTile[y][side.d]) {
						b.alive[y] = false
						changed = true
					}
				}
			}
		}
		if err := b.ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// compact keeps the live placements, numbered 1..Placements.
func (b *satBuilder) compact() {
	e := b.e
	var ny int32
	newStart := make([]int32, b.n+1)
	for cell := range b.n {
		newStart[cell] = ny
		for y := e.yStart[cell]; y < e.yStart[cell+1]; y++ {
			if b.alive[y] {
				e.yCell[ny], e.yPiece[ny], e.yRot[ny], b.yTile[ny] = e.yCell[y], e.yPiece[y], e.yRot[y], b.yTile[y]
				ny++
			}
		}
	}
	newStart[b.n] = ny
	e.yStart = newStart
	e.yCell, e.yPiece, e.yRot, b.yTile = e.yCell[:ny], e.yPiece[:ny], e.yRot[:ny], b.yTile[:ny]
	e.Placements = int(ny)
	b.alive = b.alive[:ny]
	for i := range b.alive {
		b.alive[i] = true
	}
	e.Vars = int(ny)
}

// oneEach adds the q variables (piece in cell) and the clauses that put
// exactly one piece in each cell and each piece in exactly one cell. It
// reports unsat when a cell or a piece has no placement left.
func (b *satBuilder) oneEach() (unsat bool, err error) {
	e := b.e
	pieceQ := make([][]int32, len(b.p.Tiles))
	for cell := range b.n {
		lo, hi := e.yStart[cell], e.yStart[cell+1]
		if lo == hi {
			return true, nil
		}
		var cellQ []int32
		for y := lo; y < hi; {
			z := y
			for z < hi && e.yPiece[z] == e.yPiece[y] {
				z++
			}
			q := y + 1
			if z-y > 1 {
				q = e.newVar()
				clause := []int32{-q}
				for v := y + 1; v <= z; v++ {
					e.add(-v, q)
					clause = append(clause, v)
				}
				e.add(clause...)
				e.atMostOne(clause[1:])
			}
			cellQ = append(cellQ, q)
			pieceQ[e.yPiece[y]] = append(pieceQ[e.yPiece[y]], q)
			y = z
		}
		e.add(cellQ...)
		e.atMostOne(cellQ)
		if err := ctxErr(b.ctx, &b.tick); err != nil {
			return false, err
		}
	}
	for _, qs := range pieceQ {
		if len(qs) == 0 {
			return true, nil
		}
		e.add(qs...)
		e.atMostOne(qs)
	}
	return false, nil
}

// directEdge encodes an inner edge without colour variables: a placement
// implies the neighbour's placements showing the same colour.
func (b *satBuilder) directEdge(ed *satEdge) {
	e := b.e
	da, db := int(ed.da), int(ed.da+2)&3
	for _, s := range [2][2]int32{{ed.a, ed.b}, {ed.b, ed.a}} {
		d, nd := da, db
		if s[0] == ed.b {
			d, nd = db, da
		}
		for y := e.yStart[s[0]]; y < e.yStart[s[0]+1]; y++ {
			clause := []int32{-(y + 1)}
			for z := e.yStart[s[1]]; z < e.yStart[s[1]+1]; z++ {
				if b.yTile[z][nd] == b.yTile[y][d] {
					clause = append(clause, z+1)
				}
			}
			e.add(clause...)
		}
	}
}

// colourEdge encodes an inner edge by its colour variables: exactly one
// colour, each placement implies the colour it shows, and a colour
// implies one of the placements showing it on either side.
func (b *satBuilder) colourEdge(ed *satEdge) {
	e := b.e
	da, db := int(ed.da), int(ed.da+2)&3
	both := b.sideSet(ed.a, da) // every placement is alive now
	both = both.and(b.sideSet(ed.b, db))
	ed.first = int32(e.Vars + 1)
	for c := range 256 {
		if both.has(edgematch.Colour(c)) {
			ed.cols = append(ed.cols, edgematch.Colour(c))
			e.newVar()
		}
	}
	colVar := func(c edgematch.Colour) int32 {
		for j, cc := range ed.cols {
			if cc == c {
				return ed.first + int32(j)
			}
		}
		panic("edgematch: colour outside the edge's domain")
	}
	vars := make([]int32, len(ed.cols))
	for j := range vars {
		vars[j] = ed.first + int32(j)
	}
	e.add(vars...)
	e.atMostOne(vars)
	for _, side := range [2]struct {
		cell int32
		d    int
	}{{ed.a, da}, {ed.b, db}} {
		support := make([][]int32, len(ed.cols))
		for j := range support {
			support[j] = []int32{-vars[j]}
		}
		for y := e.yStart[side.cell]; y < e.yStart[side.cell+1]; y++ {
			cv := colVar(b.yTile[y][side.d])
			e.add(-(y + 1), cv)
			j := cv - ed.first
			support[j] = append(support[j], y+1)
		}
		for _, s := range support {
			e.add(s...)
		}
	}
}

// contradiction makes e the unsatisfiable formula x1, -x1.
func (e *SATEncoding) contradiction() *SATEncoding {
	e.Unsat = true
	e.CNF = CNF{Vars: 1, pairwise: e.pairwise}
	e.add(1)
	e.add(-1)
	return e
}

// Decode turns a model (model[v] for variable v) into the board it sets,
// and checks it: one placement per cell, every piece once, hints in
// place, every edge matched. An error says the model is not a solution (a
// solver's wrong answer, or a model of another formula).
func (e *SATEncoding) Decode(model []bool) (*edgematch.Board, error) {
	p := e.p
	if e.Unsat {
		return nil, fmt.Errorf("edgematch: a model of an unsatisfiable puzzle")
	}
	if len(model) <= e.Placements {
		return nil, fmt.Errorf("edgematch: model of %d variables, want at least %d", len(model)-1, e.Placements)
	}
	b := edgematch.NewBoard(p.Rows, p.Cols)
	for cell := range p.Cells() {
		for y := e.yStart[cell]; y < e.yStart[cell+1]; y++ {
			if !model[y+1] {
				continue
			}
			if b.Cells[cell].Piece != edgematch.NoPiece {
				return nil, fmt.Errorf("edgematch: the model places two pieces at row %d, column %d", cell/p.Cols+1, cell%p.Cols+1)
			}
			b.Cells[cell] = edgematch.Placement{Piece: int(e.yPiece[y]), Rot: int(e.yRot[y])}
		}
		if h := e.hinted[cell]; h.Piece != edgematch.NoPiece && b.Cells[cell].Piece == h.Piece {
			b.Cells[cell] = h // the hint's own rotation of a symmetric piece
		}
	}
	if err := p.Verify(b); err != nil {
		return nil, fmt.Errorf("edgematch: the model is not a solution: %w", err)
	}
	if s := p.Score(b); !s.Solved() {
		return nil, fmt.Errorf("edgematch: the model is not a solution: score %v", s)
	}
	return b, nil
}

// Block adds the clause that excludes board b (a complete board of the
// puzzle, as Decode returns): some cell other than a hinted one must hold
// another placement. Counting adds one per solution found.
func (e *SATEncoding) Block(b *edgematch.Board) error {
	p := e.p
	if b.Rows != p.Rows || b.Cols != p.Cols {
		return fmt.Errorf("edgematch: blocking a %dx%d board in a %dx%d puzzle", b.Rows, b.Cols, p.Rows, p.Cols)
	}
	var clause []int32
	for cell, pl := range b.Cells {
		if e.hinted[cell].Piece != edgematch.NoPiece {
			continue
		}
		v := e.placementVar(cell, pl)
		if v == 0 {
			return fmt.Errorf("edgematch: blocking a board with piece %d rotation %d at row %d, column %d, which the formula never allows", pl.Piece+1, pl.Rot, cell/p.Cols+1, cell%p.Cols+1)
		}
		clause = append(clause, -v)
	}
	e.add(clause...)
	return nil
}

// placementVar returns the variable of placement pl in cell, or 0.
func (e *SATEncoding) placementVar(cell int, pl edgematch.Placement) int32 {
	for y := e.yStart[cell]; y < e.yStart[cell+1]; y++ {
		if int(e.yPiece[y]) == pl.Piece && int(e.yRot[y]) == pl.Rot {
			return y + 1
		}
	}
	return 0
}

// WriteDIMACS writes the formula in DIMACS CNF with a header of comments
// that names the variables: one "c p VAR ROW COL PIECE ROT" line per
// placement variable (rows, columns and pieces from 1, ROT clockwise
// quarter turns) and one "c e VAR ROW COL SIDE COLOUR" line per edge-colour
// variable (the edge on side SIDE, N E S W, of the cell), so that a model
// can be turned into a board by other tools.
func (e *SATEncoding) WriteDIMACS(w io.Writer, title string) error {
	p := e.p
	f := e.CNF
	f.Comments = append([]string(nil), e.Comments...)
	f.Comments = append(f.Comments,
		title,
		fmt.Sprintf("edge-matching puzzle %s as CNF (tessera edgematch export -format dimacs)", p.Describe()),
		fmt.Sprintf("%d variables, %d clauses; placements 1..%d, then pieces in cells, edge colours and ladder (sequential counter) variables", e.Vars, e.Clauses, e.Placements),
		"p VAR ROW COL PIECE ROT: VAR true places PIECE turned ROT clockwise quarter turns at ROW, COL (from 1)",
		"e VAR ROW COL SIDE COLOUR: VAR true gives the edge on side SIDE (N E S W) of cell ROW, COL the colour COLOUR",
	)
	if e.Symmetry > 1 {
		f.Comments = append(f.Comments, fmt.Sprintf("board rotations folded away: each model stands for %d solutions", e.Symmetry))
	}
	if e.Unsat {
		f.Comments = append(f.Comments, "the puzzle has no solution (a cell or a piece has no placement): the formula is x1, -x1")
	} else {
		for y := range e.Placements {
			c := int(e.yCell[y])
			f.Comments = append(f.Comments, fmt.Sprintf("p %d %d %d %d %d", y+1, c/p.Cols+1, c%p.Cols+1, e.yPiece[y]+1, e.yRot[y]))
		}
		for _, ed := range e.edges {
			for j, c := range ed.cols {
				f.Comments = append(f.Comments, fmt.Sprintf("e %d %d %d %c %d", ed.first+int32(j), int(ed.a)/p.Cols+1, int(ed.a)%p.Cols+1, "NESW"[ed.da], c))
			}
		}
	}
	_, err := f.WriteTo(w)
	return err
}
