package tangram

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestAugmentedDiagnose is a diagnosis (TESSERA_AUG_DIAG=house,square,
// classic names): Algorithm 2 on the augmented puzzle at K = 3 (turns and
// mirror images, 200 SDPs, restarts) reaches rank-one iterates that are
// not solutions; for the first six it logs how many pieces have a copy
// within 0.3 of the silhouette, what Snap or Check says of the poses read,
// the number of candidate copies per piece, and how many choices of one
// candidate a piece balance the edge vectors direction by direction (a
// tiling must), the first three of those then given to the
// translation-only Algorithm 2. docs/results/tangram.md quotes it.
func TestAugmentedDiagnose(t *testing.T) {
	names := os.Getenv("TESSERA_AUG_DIAG")
	if names == "" {
		t.Skip("set TESSERA_AUG_DIAG=house,square to diagnose the augmented Algorithm 2's rank-one iterates")
	}
	for _, name := range strings.Split(names, ",") {
		p, _ := unoriented(t, name, TurnsFlip)
		m, _, err := newAugmented(p, 3)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		_, err = SDP{K: 3, MaxIter: 200, OnIterate: func(it SDPIterate) {
			if it.Objective > 1e-6 || n >= 6 {
				return
			}
			n++
			// rank-one iterate: how many pieces have a copy in the silhouette, and Check's verdict on the best poses
			sil := p.Silhouette.Float()
			inside := 0
			worst := 0.0
			// out[i][o]: how far the o-copy of piece i lies out of the silhouette.
			out := make([][]float64, len(p.Pieces))
			for i := range p.Pieces {
				for _, o := range m.aug.Orients {
					ps := m.aug.Pose(p, i, o, it.Shifts[i])
					sh, _ := p.Pieces[i].Shape.Oriented(o)
					f := sh.Float()
					bad := 0.0
					for k := range f {
						bad = max(bad, outside(sil, [2]float64{f[k][0] + ps.X, f[k][1] + ps.Y}))
					}
					out[i] = append(out[i], bad)
				}
			}
			for i := range p.Pieces {
				best := slices.Min(out[i])
				if best <= 0.3 {
					inside++
				}
				worst = max(worst, best)
			}
			s, serr := Snap(p, it.Poses, 0.3)
			verdict := "snap: " + errString(serr)
			if serr == nil {
				verdict = "check: " + errString(Check(p, s))
			}
			// candidates per piece
			var cands [][]Orientation
			for i := range p.Pieces {
				var cs []Orientation
				for k, o := range m.aug.Orients {
					if out[i][k] <= 0.3 {
						cs = append(cs, o)
					}
				}
				cands = append(cands, cs)
			}
			combos, balanced, solved := 0, 0, 0
			var rec func(i int, os []Orientation)
			rec = func(i int, os []Orientation) {
				if combos > 20000 {
					return
				}
				if i == len(p.Pieces) {
					combos++
					if edgeBalance(p, os) {
						balanced++
						if balanced <= 3 {
							q := p.Clone()
							q.Turns = TurnsNone
							for k, o := range os {
								q.Pieces[k].Shape, _ = p.Pieces[k].Shape.Oriented(o)
							}
							if r2, _ := (SDP{MaxIter: 3}).Solve(context.Background(), q); r2.Solved {
								solved++
							}
						}
					}
					return
				}
				for _, o := range cands[i] {
					rec(i+1, append(os, o))
				}
			}
			rec(0, nil)
			var sizes []int
			for _, c := range cands {
				sizes = append(sizes, len(c))
			}
			verdict += fmt.Sprintf(" | candidates %v: %d combos, %d balanced, %d of the first 3 balanced solved translation-only", sizes, combos, balanced, solved)
			t.Logf("%s SDP %d obj %.2g: %d of %d pieces have a copy within 0.3 of the silhouette (worst piece %.2f units out); %s", name, it.Iteration, it.Objective, inside, len(p.Pieces), worst, verdict)
		}}.Solve(context.Background(), p)
		t.Logf("%s: %v", name, err)
	}
}

// edgeBalance: the pieces turned by os have, direction by direction, the
// silhouette's sum of edge vectors (necessary for a tiling).
func edgeBalance(p *Puzzle, os []Orientation) bool {
	var cls edgeClasses
	sum := map[int]Point{}
	for k, o := range os {
		sh, _ := p.Pieces[k].Shape.Oriented(o)
		for j := range sh {
			d := sh[(j+1)%len(sh)].Sub(sh[j])
			c, _ := cls.of(d)
			sum[c] = sum[c].Add(d)
		}
	}
	sil := p.Silhouette
	for j := range sil {
		d := sil[(j+1)%len(sil)].Sub(sil[j])
		c, _ := cls.of(d)
		sum[c] = sum[c].Sub(d)
	}
	for _, v := range sum {
		if v != (Point{}) {
			return false
		}
	}
	return true
}

func errString(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
