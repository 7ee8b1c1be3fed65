package tangram

import (
	"fmt"
	"slices"
	"strings"
)

// ParsePlaced reads a figure given by where each of the seven tans lies:
// one line per tan, its vertices in the puzzle format's numbers (so that
// pieces may lie in both lattices, a square turned by 45 degrees on a
// figure drawn square to the axes). Each polygon must be a tan turned,
// mirrored and moved; the figure is their union (parts touching at
// corners and holes allowed), the puzzle has the seven tans with turns and
// mirror images, and the solution says where they lie. The tans must not
// overlap (Check).
func ParsePlaced(name string, rows []string) (*Puzzle, *Solution, error) {
	if len(rows) != 7 {
		return nil, nil, fmt.Errorf("tangram: placed %q: %d lines, want one per tan (7)", name, len(rows))
	}
	tans := Tans()
	p := &Puzzle{Name: name, Turns: TurnsFlip, Pieces: tans}
	s := NewSolution(len(tans))
	var ch chain
	for r, row := range rows {
		f := strings.Fields(row)
		if len(f)%2 != 0 || len(f) < 6 || len(f) > 8 {
			return nil, nil, fmt.Errorf("tangram: placed %q: line %d: want 3 or 4 vertices", name, r+1)
		}
		pg, err := parsePolygon(f)
		if err != nil {
			return nil, nil, fmt.Errorf("tangram: placed %q: line %d: %v", name, r+1, err)
		}
		if err := pg.Validate(); err != nil {
			return nil, nil, fmt.Errorf("tangram: placed %q: line %d: %w", name, r+1, err)
		}
		pg = ccw(pg)
		k, o, t, ok := matchTan(tans, s, pg)
		if !ok {
			return nil, nil, fmt.Errorf("tangram: placed %q: line %d: %v is no unused tan", name, r+1, pg)
		}
		s.Place(k, t, o)
		ch.addPolygon(pg, 1)
	}
	outers, holes, ok := regionFromChain(&ch)
	if !ok || len(outers) == 0 {
		return nil, nil, fmt.Errorf("tangram: placed %q: the tans overlap along an edge", name)
	}
	p.setRegion(outers, holes)
	if err := Check(p, s); err != nil {
		return nil, nil, fmt.Errorf("tangram: placed %q: %w", name, err)
	}
	return p, s, nil
}

// matchTan finds an unplaced tan that some orientation and translation
// take onto pg.
func matchTan(tans []Piece, s *Solution, pg Polygon) (int, Orientation, Point, bool) {
	target := pg.Normalize()
	for k, pc := range tans {
		if s.Placements[k].Placed {
			continue
		}
		for o := range Orientation(16) {
			sh, err := pc.Shape.Oriented(o)
			if err != nil {
				continue
			}
			n := sh.Normalize()
			t := target[0].Sub(n[0])
			if slices.Equal(n.Translate(t), target) {
				return k, o, t, true
			}
		}
	}
	return 0, 0, Point{}, false
}
