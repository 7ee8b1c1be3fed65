package tangram

import (
	"fmt"
	"math"
)

// Snap turns approximate translations (the poses a numerical method such
// as Algorithm 2 reads from its Z_i) into an exact Solution that Check can
// judge: a piece is anchored when one of its vertices, where the pose puts
// it, lies within tol of a silhouette vertex or of a vertex of a piece
// anchored before, and its exact translation is the one that makes those
// two vertices meet; pieces are anchored in rounds until none is left.
// Orientations are taken from the poses. It fails (naming the piece) when
// some placed piece cannot be anchored; unplaced poses stay unplaced. The
// result is not checked: call Check. O(rounds · N · V²).
func Snap(p *Puzzle, poses []Pose, tol float64) (*Solution, error) {
	if len(poses) != len(p.Pieces) {
		return nil, fmt.Errorf("tangram: snap: %d poses for %d pieces", len(poses), len(p.Pieces))
	}
	n := len(p.Pieces)
	shapes := make([]Polygon, n)
	for k, ps := range poses {
		if !ps.Placed {
			continue
		}
		sh, err := p.Pieces[k].Shape.Oriented(ps.Orient)
		if err != nil {
			return nil, fmt.Errorf("tangram: snap: piece %d (%s): %w", k+1, p.Pieces[k].Name, err)
		}
		shapes[k] = sh
	}
	anchors := append([]Point(nil), p.Silhouette...)
	s := NewSolution(n)
	left := 0
	for _, ps := range poses {
		if ps.Placed {
			left++
		}
	}
	for left > 0 {
		progress := false
		for k, ps := range poses {
			if !ps.Placed || s.Placements[k].Placed {
				continue
			}
			best, bestD := Point{}, math.Inf(1)
			for _, w := range shapes[k] {
				wx, wy := w.X.Float64()+ps.X, w.Y.Float64()+ps.Y
				for _, a := range anchors {
					if d := math.Hypot(a.X.Float64()-wx, a.Y.Float64()-wy); d < bestD {
						best, bestD = a.Sub(w), d
					}
				}
			}
			if bestD > tol {
				continue
			}
			s.Place(k, best, ps.Orient)
			anchors = append(anchors, shapes[k].Translate(best)...)
			left--
			progress = true
		}
		if !progress {
			for k, ps := range poses {
				if ps.Placed && !s.Placements[k].Placed {
					return s, fmt.Errorf("tangram: snap: piece %d (%s) has no vertex within %g of an anchored vertex", k+1, p.Pieces[k].Name, tol)
				}
			}
		}
	}
	return s, nil
}
