package tangram

import (
	"errors"
	"fmt"
	"strings"
)

// Piece is a named polygon. Its vertices are given in the piece's own
// coordinates; a Placement moves it.
type Piece struct {
	Name  string
	Shape Polygon
}

// Puzzle is a dissection puzzle: pieces to place, without overlap, so
// that they cover the silhouette exactly. Turns says whether pieces may be
// turned (the paper's setting is TurnsNone: translation only).
type Puzzle struct {
	Name       string
	Turns      Turns
	Pieces     []Piece
	Silhouette Polygon
	// Parts are further pieces of the figure beside Silhouette (a figure
	// whose pieces touch at a single corner has several), and Holes are
	// cut out of it; both counter-clockwise and simple, and nil for the
	// usual one-polygon figure (see Region). Code that reads only
	// Silhouette is right for every puzzle where both are empty.
	Parts []Polygon
	Holes []Polygon
}

// Limits on what a puzzle may hold; the parsers check them before they
// allocate.
const (
	MaxPieces        = 64   // pieces in a puzzle
	MaxVertices      = 256  // vertices of one polygon
	MaxTotalVertices = 4096 // vertices of all polygons of a puzzle
	maxNameLen       = 32
	// MaxRegionPolygons bounds Parts and Holes together.
	MaxRegionPolygons = 32
)

// Sentinel errors of the package. Data-dependent failures wrap them.
var (
	// ErrAreas: the pieces' areas do not add up to the silhouette's.
	ErrAreas = errors.New("tangram: areas do not add up")
	// ErrOverlap: two placed pieces overlap with positive area.
	ErrOverlap = errors.New("tangram: pieces overlap")
	// ErrOutside: a placed piece is not inside the silhouette.
	ErrOutside = errors.New("tangram: piece outside the silhouette")
	// ErrGap: the placed pieces leave part of the silhouette uncovered.
	ErrGap = errors.New("tangram: pieces leave a gap")
	// ErrUnplaced: a solution leaves a piece unplaced.
	ErrUnplaced = errors.New("tangram: piece not placed")
	// ErrBudget: a solver ran out of its node budget or context.
	ErrBudget = errors.New("tangram: budget exhausted")
	// ErrUnsolvable: a complete search found no solution.
	ErrUnsolvable = errors.New("tangram: no solution")
)

// Validate checks the puzzle: 1 to MaxPieces pieces with unique non-empty
// names, every polygon simple (Polygon.Validate) and counter-clockwise,
// within the size limits, and the pieces' areas adding up to the
// silhouette's area. It does not decide solvability.
func (p *Puzzle) Validate() error {
	if len(p.Pieces) == 0 || len(p.Pieces) > MaxPieces {
		return fmt.Errorf("tangram: %d pieces, want 1 to %d", len(p.Pieces), MaxPieces)
	}
	if p.Turns > TurnsFlip {
		return fmt.Errorf("tangram: unknown turns %d", p.Turns)
	}
	total := len(p.Silhouette)
	names := map[string]int{}
	for i, pc := range p.Pieces {
		if err := checkName(pc.Name); err != nil {
			return fmt.Errorf("tangram: piece %d: %v", i+1, err)
		}
		if j, dup := names[pc.Name]; dup {
			return fmt.Errorf("tangram: pieces %d and %d are both named %q", j+1, i+1, pc.Name)
		}
		names[pc.Name] = i
		if err := checkPolygon(pc.Shape); err != nil {
			return wrap(err, fmt.Sprintf("piece %d (%s)", i+1, pc.Name))
		}
		total += len(pc.Shape)
	}
	if err := checkPolygon(p.Silhouette); err != nil {
		return wrap(err, "silhouette")
	}
	if err := p.validateRegion(); err != nil {
		return err
	}
	for _, pg := range p.Parts {
		total += len(pg)
	}
	for _, pg := range p.Holes {
		total += len(pg)
	}
	if total > MaxTotalVertices {
		return fmt.Errorf("tangram: %d vertices in all, at most %d", total, MaxTotalVertices)
	}
	var sum Area
	for _, pc := range p.Pieces {
		sum = sum.Add(pc.Shape.Area())
	}
	if s := p.RegionArea(); sum.Cmp(s) != 0 {
		return fmt.Errorf("%w: the pieces cover %v (%.6g), the silhouette %v (%.6g)", ErrAreas, sum, sum.Float64(), s, s.Float64())
	}
	return nil
}

// wrapped is an error with a place prefixed to its message.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// wrap returns err as "tangram: WHERE: message".
func wrap(err error, where string) error {
	return &wrapped{"tangram: " + where + ": " + strings.TrimPrefix(err.Error(), "tangram: "), err}
}

func checkPolygon(pg Polygon) error {
	if len(pg) > MaxVertices {
		return fmt.Errorf("tangram: %d vertices, at most %d", len(pg), MaxVertices)
	}
	for _, v := range pg {
		if !inRange(v.X) || !inRange(v.Y) {
			return fmt.Errorf("tangram: vertex %v beyond MaxCoord", v)
		}
	}
	if err := pg.Validate(); err != nil {
		return err
	}
	if pg.area8().sign() < 0 {
		return fmt.Errorf("tangram: polygon is clockwise (Normalize it)")
	}
	return nil
}

func inRange(x Num) bool {
	return x.a2 >= -2*MaxCoord && x.a2 <= 2*MaxCoord && x.b2 >= -2*MaxCoord && x.b2 <= 2*MaxCoord
}

func checkName(s string) error {
	if s == "" || len(s) > maxNameLen {
		return fmt.Errorf("name %q: want 1 to %d characters", s, maxNameLen)
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '.')) {
			return fmt.Errorf("name %q: want a letter or _ first, then letters, digits, _, - or .", s)
		}
	}
	return nil
}

// Placement says where a piece goes: its shape is turned by Orient (about
// its first vertex) and then moved by the translation T.
type Placement struct {
	Placed bool
	T      Point
	Orient Orientation
}

// Solution holds one Placement per piece of its puzzle, in order. A
// partial solution (a solver's best when its budget ran out) leaves some
// pieces unplaced.
type Solution struct {
	Placements []Placement
}

// NewSolution returns a solution with n pieces, none placed.
func NewSolution(n int) *Solution { return &Solution{Placements: make([]Placement, n)} }

// Place records that piece i goes to translation t with orientation o.
func (s *Solution) Place(i int, t Point, o Orientation) {
	s.Placements[i] = Placement{Placed: true, T: t, Orient: o}
}

// PlacedCount returns how many pieces are placed.
func (s *Solution) PlacedCount() int {
	n := 0
	for _, pl := range s.Placements {
		if pl.Placed {
			n++
		}
	}
	return n
}

// Clone returns a deep copy.
func (s *Solution) Clone() *Solution {
	return &Solution{Placements: append([]Placement(nil), s.Placements...)}
}

// Placed returns piece i's polygon as the solution places it, or an error
// when the piece is unplaced or its orientation cannot be exact.
func (p *Puzzle) Placed(s *Solution, i int) (Polygon, error) {
	pl := s.Placements[i]
	if !pl.Placed {
		return nil, fmt.Errorf("%w: piece %d (%s)", ErrUnplaced, i+1, p.Pieces[i].Name)
	}
	sh, err := p.Pieces[i].Shape.Oriented(pl.Orient)
	if err != nil {
		return nil, fmt.Errorf("piece %d (%s): %w", i+1, p.Pieces[i].Name, err)
	}
	return sh.Translate(pl.T), nil
}

// Clone returns a deep copy of the puzzle.
func (p *Puzzle) Clone() *Puzzle {
	q := &Puzzle{Name: p.Name, Turns: p.Turns, Silhouette: append(Polygon(nil), p.Silhouette...)}
	for _, pg := range p.Parts {
		q.Parts = append(q.Parts, append(Polygon(nil), pg...))
	}
	for _, pg := range p.Holes {
		q.Holes = append(q.Holes, append(Polygon(nil), pg...))
	}
	for _, pc := range p.Pieces {
		q.Pieces = append(q.Pieces, Piece{pc.Name, append(Polygon(nil), pc.Shape...)})
	}
	return q
}
