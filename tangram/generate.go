package tangram

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// GenerateOptions tune GenerateWith; the zero value is the paper's
// setting.
type GenerateOptions struct {
	// Turns lets the generator turn (and mirror) pieces at random; the
	// puzzle then lists the pieces as given with Turns set, and the
	// planted solution records each orientation. TurnsNone (the default)
	// keeps every piece's orientation: a translation-only puzzle.
	Turns Turns
	// Name names the puzzle; default "gen-SEED".
	Name string
	// Jagged draws each new piece's place uniformly among the contacts
	// instead of favouring long ones: more ragged outlines.
	Jagged bool
}

// Generate returns a random translation-only puzzle made of the given
// pieces and its planted solution: the pieces, in their given
// orientations, laid one by one edge to edge (each new piece shares part
// of an edge with those before it, placed by matching one of its vertices
// with an end of a boundary edge, the pairing favouring longer contact),
// never overlapping, such that their union stays a simple polygon without
// holes; that union is the silhouette. The same seed and pieces give the
// same puzzle. The pieces must be valid counter-clockwise polygons;
// ErrUnsolvable is returned (wrapped) in the rare case where no layout is
// found after 100 restarts.
func Generate(seed int64, pieces []Piece) (*Puzzle, *Solution, error) {
	return GenerateWith(seed, pieces, GenerateOptions{})
}

// GenerateWith is Generate with options.
func GenerateWith(seed int64, pieces []Piece, o GenerateOptions) (*Puzzle, *Solution, error) {
	if len(pieces) == 0 || len(pieces) > MaxPieces {
		return nil, nil, fmt.Errorf("tangram: generate: %d pieces, want 1 to %d", len(pieces), MaxPieces)
	}
	for k, pc := range pieces {
		if err := checkPolygon(pc.Shape); err != nil {
			return nil, nil, wrap(err, fmt.Sprintf("generate: piece %d (%s)", k+1, pc.Name))
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x74616e6772616d))
	name := o.Name
	if name == "" {
		name = fmt.Sprintf("gen-%d", seed)
	}
	for range 100 {
		sil, sol, ok := layout(rng, pieces, o.Turns, o.Jagged)
		if !ok {
			continue
		}
		p := &Puzzle{Name: name, Turns: o.Turns, Silhouette: sil}
		for _, pc := range pieces {
			p.Pieces = append(p.Pieces, Piece{pc.Name, append(Polygon(nil), pc.Shape...)})
		}
		// put the silhouette's lowest-leftmost vertex at the origin.
		shift := sil[0].Neg()
		p.Silhouette = sil.Translate(shift)
		for k := range sol.Placements {
			sol.Placements[k].T = sol.Placements[k].T.Add(shift)
		}
		if err := Check(p, sol); err != nil {
			return nil, nil, fmt.Errorf("tangram: generate: internal error, the planted solution fails: %w", err)
		}
		return p, sol, nil
	}
	return nil, nil, fmt.Errorf("%w: generate found no layout of the pieces", ErrUnsolvable)
}

// layout makes one attempt; ok is false when it got stuck.
func layout(rng *rand.Rand, pieces []Piece, turns Turns, jagged bool) (Polygon, *Solution, bool) {
	n := len(pieces)
	sol := NewSolution(n)
	order := rng.Perm(n)
	var c chain
	var placedParts [][]Polygon
	for step, k := range order {
		or := Orientation(0)
		switch turns {
		case TurnsRotate:
			or = Orientation(rng.IntN(8))
		case TurnsFlip:
			or = Orientation(rng.IntN(16))
		}
		shape, err := pieces[k].Shape.Oriented(or)
		if err != nil {
			or, shape = 0, pieces[k].Shape
		}
		if step == 0 {
			c.addPolygon(shape, 1)
			placedParts = append(placedParts, convexParts(shape))
			sol.Place(k, Point{}, or)
			continue
		}
		type cand struct {
			t Point
			w float64
		}
		var cands []cand
		seen := map[Point]bool{}
		perim := chainLength(&c)
		for _, s := range c.segments() {
			ab := s.b.Sub(s.a)
			m := len(shape)
			for e := range m {
				u, v := shape[e], shape[(e+1)%m]
				uv := v.Sub(u)
				if cross(ab, uv).sign() != 0 || dot(ab, uv).sign() >= 0 {
					continue
				}
				for _, t := range []Point{s.b.Sub(u), s.a.Sub(v)} {
					if seen[t] {
						continue
					}
					seen[t] = true
					placed := shape.Translate(t)
					parts := convexParts(placed)
					clash := false
					for _, q := range placedParts {
						if partsOverlap(parts, q) {
							clash = true
							break
						}
					}
					if clash {
						continue
					}
					c2 := c.clone()
					c2.addPolygon(placed, 1)
					pgs, ok := c2.boundaryPolygons()
					if !ok || len(pgs) != 1 || pgs[0].Validate() != nil {
						continue
					}
					contact := (perim + polyLength(placed) - chainLength(&c2)) / 2
					if contact <= 1e-9 {
						continue
					}
					w := contact * contact
					if jagged {
						w = 1
					}
					cands = append(cands, cand{t, w})
				}
			}
		}
		if len(cands) == 0 {
			return nil, nil, false
		}
		total := 0.0
		for _, cd := range cands {
			total += cd.w
		}
		x := rng.Float64() * total
		pick := len(cands) - 1
		for j, cd := range cands {
			if x < cd.w {
				pick = j
				break
			}
			x -= cd.w
		}
		t := cands[pick].t
		placed := shape.Translate(t)
		c.addPolygon(placed, 1)
		placedParts = append(placedParts, convexParts(placed))
		sol.Place(k, t, or)
	}
	pgs, ok := c.boundaryPolygons()
	if !ok || len(pgs) != 1 {
		return nil, nil, false
	}
	return pgs[0].Normalize(), sol, true
}

func chainLength(c *chain) float64 {
	s := 0.0
	for _, sg := range c.segments() {
		s += float64(sg.w) * segLen(sg.a, sg.b)
	}
	return s
}

func polyLength(pg Polygon) float64 {
	s := 0.0
	for k := range pg {
		s += segLen(pg[k], pg[(k+1)%len(pg)])
	}
	return s
}

func segLen(a, b Point) float64 {
	d := b.Sub(a)
	return math.Hypot(d.X.Float64(), d.Y.Float64())
}

// HardOptions tune GenerateHard.
type HardOptions struct {
	// Tries is how many random layouts are drawn (default 64); the
	// hardest is kept.
	Tries int
	// MaxEdge bounds the length of every straight edge of the silhouette
	// (default 2: no edge longer than a large triangle's leg); layouts
	// with a longer edge are refused.
	MaxEdge float64
}

// GenerateHard returns a random figure meant to be hard to see: the
// pieces turned and mirrored at random (Turns is TurnsFlip, the pieces
// listed as given), laid as Generate lays them but without favouring long
// contacts (GenerateOptions.Jagged), over Tries layouts the one
// with the most reflex corners among those whose straight edges are all
// at most MaxEdge long (a silhouette without long straight edges gives a
// solver, or a person, few places to start). Its planted solution comes
// with it, and Hardness says what was reached. Seeded and reproducible.
func GenerateHard(seed int64, pieces []Piece, o HardOptions) (*Puzzle, *Solution, error) {
	if o.Tries <= 0 {
		o.Tries = 64
	}
	if o.MaxEdge <= 0 {
		o.MaxEdge = 2
	}
	var bestP *Puzzle
	var bestS *Solution
	best := -1
	for k := range o.Tries {
		p, s, err := GenerateWith(seed*1_000_003+int64(k), pieces, GenerateOptions{Turns: TurnsFlip, Name: fmt.Sprintf("hard-%d", seed), Jagged: true})
		if err != nil {
			return nil, nil, err
		}
		h := Hardness(p.Silhouette)
		if h.LongestEdge > o.MaxEdge+1e-9 {
			continue
		}
		if h.Reflex > best {
			bestP, bestS, best = p, s, h.Reflex
		}
	}
	if bestP == nil {
		return nil, nil, fmt.Errorf("%w: generate hard: no layout of %d without an edge longer than %g", ErrUnsolvable, o.Tries, o.MaxEdge)
	}
	return bestP, bestS, nil
}

// HardnessStats describe a silhouette: its corners, the reflex ones (more
// than a half-turn inside) and its longest straight edge.
type HardnessStats struct {
	Corners, Reflex int
	LongestEdge     float64
}

// Hardness measures a counter-clockwise polygon (collinear vertices are
// not corners: a straight edge is measured whole).
func Hardness(pg Polygon) HardnessStats {
	pg = dropCollinear(pg)
	n := len(pg)
	h := HardnessStats{Corners: n}
	for i := range n {
		if orient(pg[(i+n-1)%n], pg[i], pg[(i+1)%n]) < 0 {
			h.Reflex++
		}
		h.LongestEdge = math.Max(h.LongestEdge, segLen(pg[i], pg[(i+1)%n]))
	}
	return h
}
