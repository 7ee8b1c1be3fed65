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
	// variable. Kept to compare the encodings (docs/results/edgematch.md).
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
	maxClauses := o.MaxClauses
	if maxClauses <= 0 {
		maxClauses = DefaultSATMaxClauses
	}
	rows, cols, n := p.Rows, p.Cols, p.Cells()
	rots := 4
	if p.FixedOrientation {
		rots = 1
	}
	// Distinct orientations of each piece.
	type ori struct {
		piece int32
		rot   uint8
		t     edgematch.Tile
	}
	var oris []ori
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
			oris = append(oris, ori{int32(i), uint8(r), rt})
		}
	}
	fits := func(cell int, t edgematch.Tile) bool {
		r, c := cell/cols, cell%cols
		for d := range 4 {
			if edgematch.FrameIndex(rows, cols, r, c, d) >= 0 {
				if t[d] != p.FrameColour(r, c, d) {
					return false
				}
			} else if t[d] == edgematch.Grey {
				return false
			}
		}
		return true
	}

	// Size estimate from the orientations fitting each kind of cell.
	var perMask [16]int64
	var seenMask [16]bool
	var y0 int64
	for cell := range n {
		m := edgematch.OutwardMask(rows, cols, cell/cols, cell%cols)
		if !seenMask[m] {
			seenMask[m] = true
			for _, or := range oris {
				if fits(cell, or.t) {
					perMask[m]++
				}
			}
		}
		y0 += perMask[m]
	}
	k := int64(p.Colours())
	inner := int64(p.MaxScore())
	pw := o.Pairwise
	if pw <= 0 {
		pw = defaultPairwise
	}
	need := 6*y0 + 2*int64(n)*(1+amoClauses(n, pw)) + inner*(1+2*k+amoClauses(int(k), pw))
	if need > maxClauses {
		return nil, &SATSizeError{Need: need, Max: maxClauses}
	}

	e := &SATEncoding{p: p, Symmetry: 1, hinted: make([]edgematch.Placement, n)}
	e.pairwise = pw
	for i := range e.hinted {
		e.hinted[i].Piece = edgematch.NoPiece
	}
	hintPiece := make([]int, len(p.Tiles))
	for i := range hintPiece {
		hintPiece[i] = -1
	}
	for _, h := range p.Hints {
		cell := h.Row*cols + h.Col
		e.hinted[cell] = edgematch.Placement{Piece: h.Piece, Rot: h.Rot}
		hintPiece[h.Piece] = cell
	}

	// Symmetry breaking, as compile does for the backtracker.
	forbidPiece := -1
	var forbidMask [16]bool
	if !o.NoSymmetry && p.Frame == nil && !p.FixedOrientation && len(p.Hints) == 0 && rows >= 2 && cols >= 2 {
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
			if rows == cols {
				forbidMask[1<<edgematch.North|1<<edgematch.East] = true
				e.Symmetry = 4
			}
		}
	}

	// Placements that fit, by cell.
	var tick int
	e.yStart = make([]int32, n+1)
	var yTile []edgematch.Tile
	for cell := range n {
		e.yStart[cell] = int32(len(e.yCell))
		m := edgematch.OutwardMask(rows, cols, cell/cols, cell%cols)
		h := e.hinted[cell]
		for _, or := range oris {
			if err := ctxErr(ctx, &tick); err != nil {
				return nil, err
			}
			pc := int(or.piece)
			switch {
			case h.Piece != edgematch.NoPiece && (pc != h.Piece || or.t != p.Tiles[pc].Rotate(h.Rot)):
				continue
			case h.Piece == edgematch.NoPiece && hintPiece[pc] >= 0:
				continue
			case pc == forbidPiece && forbidMask[m]:
				continue
			case !fits(cell, or.t):
				continue
			}
			e.yCell = append(e.yCell, int32(cell))
			e.yPiece = append(e.yPiece, or.piece)
			e.yRot = append(e.yRot, or.rot)
			yTile = append(yTile, or.t)
		}
	}
	e.yStart[n] = int32(len(e.yCell))

	// Inner edges: each cell's east and south sides.
	for cell := range n {
		r, c := cell/cols, cell%cols
		if c+1 < cols {
			e.edges = append(e.edges, satEdge{a: int32(cell), b: int32(cell + 1), da: edgematch.East})
		}
		if r+1 < rows {
			e.edges = append(e.edges, satEdge{a: int32(cell), b: int32(cell + cols), da: edgematch.South})
		}
	}

	// Arc consistency to a fixed point: drop placements showing, on an
	// inner side, a colour the neighbour cannot show.
	alive := make([]bool, len(e.yCell))
	for i := range alive {
		alive[i] = true
	}
	sideSet := func(cell int32, d int) colourSet {
		var s colourSet
		for y := e.yStart[cell]; y < e.yStart[cell+1]; y++ {
			if alive[y] {
				s.add(yTile[y][d])
			}
		}
		return s
	}
	for changed := true; changed; {
		changed = false
		for _, ed := range e.edges {
			da, db := int(ed.da), int(ed.da+2)&3
			both := sideSet(ed.a, da).and(sideSet(ed.b, db))
			for _, side := range [2]struct {
				cell int32
				d    int
			}{{ed.a, da}, {ed.b, db}} {
				for y := e.yStart[side.cell]; y < e.yStart[side.cell+1]; y++ {
					if alive[y] && !both.has(yTile[y][side.d]) {
						alive[y] = false
						changed = true
					}
				}
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	// Compact the placements.
	var ny int32
	newStart := make([]int32, n+1)
	for cell := range n {
		newStart[cell] = ny
		for y := e.yStart[cell]; y < e.yStart[cell+1]; y++ {
			if alive[y] {
				e.yCell[ny], e.yPiece[ny], e.yRot[ny], yTile[ny] = e.yCell[y], e.yPiece[y], e.yRot[y], yTile[y]
				ny++
			}
		}
	}
	newStart[n] = ny
	e.yStart = newStart
	e.yCell, e.yPiece, e.yRot, yTile = e.yCell[:ny], e.yPiece[:ny], e.yRot[:ny], yTile[:ny]
	e.Placements = int(ny)
	alive = alive[:ny]
	for i := range alive {
		alive[i] = true
	}
	e.Vars = int(ny)

	// q variables and the pieces' lists.
	pieceQ := make([][]int32, len(p.Tiles))
	for cell := range n {
		lo, hi := e.yStart[cell], e.yStart[cell+1]
		if lo == hi {
			return e.contradiction(), nil
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
		if err := ctxErr(ctx, &tick); err != nil {
			return nil, err
		}
	}
	for _, qs := range pieceQ {
		if len(qs) == 0 {
			return e.contradiction(), nil
		}
		e.add(qs...)
		e.atMostOne(qs)
	}

	// Edges.
	for i := range e.edges {
		ed := &e.edges[i]
		da, db := int(ed.da), int(ed.da+2)&3
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.Direct {
			// p -> the neighbour's placements showing the same colour.
			for _, s := range [2][2]int32{{ed.a, ed.b}, {ed.b, ed.a}} {
				d, nd := da, db
				if s[0] == ed.b {
					d, nd = db, da
				}
				for y := e.yStart[s[0]]; y < e.yStart[s[0]+1]; y++ {
					clause := []int32{-(y + 1)}
					for z := e.yStart[s[1]]; z < e.yStart[s[1]+1]; z++ {
						if yTile[z][nd] == yTile[y][d] {
							clause = append(clause, z+1)
						}
					}
					e.add(clause...)
				}
			}
			continue
		}
		both := sideSet(ed.a, da) // every placement is alive now
		both = both.and(sideSet(ed.b, db))
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
				cv := colVar(yTile[y][side.d])
				e.add(-(y + 1), cv)
				j := cv - ed.first
				support[j] = append(support[j], y+1)
			}
			for _, s := range support {
				e.add(s...)
			}
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
