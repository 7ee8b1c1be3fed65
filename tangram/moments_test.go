package tangram

import (
	"math"
	"math/rand/v2"
	"testing"
)

// quad integrates x^i y^j over the segment by the composite Simpson rule.
func quad(a, b [2]float64, i, j int) float64 {
	const n = 2000
	L := math.Hypot(b[0]-a[0], b[1]-a[1])
	s := 0.0
	for k := 0; k <= n; k++ {
		u := float64(k) / n
		x, y := a[0]+u*(b[0]-a[0]), a[1]+u*(b[1]-a[1])
		w := 2.0
		if k == 0 || k == n {
			w = 1
		} else if k%2 == 1 {
			w = 4
		}
		s += w * math.Pow(x, float64(i)) * math.Pow(y, float64(j))
	}
	return s * L / (3 * n)
}

func TestSegmentMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const K = 6
	for range 10 {
		a := [2]float64{rng.Float64()*4 - 2, rng.Float64()*4 - 2}
		b := [2]float64{rng.Float64()*4 - 2, rng.Float64()*4 - 2}
		m := SegmentMoments(a, b, K)
		tx, ty := rng.Float64()*2-1, rng.Float64()*2-1
		mt := m.Translate(tx, ty)
		direct := SegmentMoments([2]float64{a[0] + tx, a[1] + ty}, [2]float64{b[0] + tx, b[1] + ty}, K)
		mid := [2]float64{a[0] + 0.3*(b[0]-a[0]), a[1] + 0.3*(b[1]-a[1])}
		split := SegmentMoments(a, mid, K)
		split.AddScaled(1, SegmentMoments(mid, b, K))
		for i := 0; i <= K; i++ {
			for j := 0; i+j <= K; j++ {
				if q := quad(a, b, i, j); math.Abs(m.At(i, j)-q) > 1e-9*(1+math.Abs(q)) {
					t.Fatalf("moment (%d,%d) = %v, quadrature %v", i, j, m.At(i, j), q)
				}
				if d := mt.At(i, j) - direct.At(i, j); math.Abs(d) > 1e-9*(1+math.Abs(direct.At(i, j))) {
					t.Fatalf("Translate (%d,%d): %v vs %v", i, j, mt.At(i, j), direct.At(i, j))
				}
				if d := split.At(i, j) - m.At(i, j); math.Abs(d) > 1e-9*(1+math.Abs(m.At(i, j))) {
					t.Fatalf("not additive (%d,%d)", i, j)
				}
			}
		}
		// the exponential moment against quadrature of e^{k·z}.
		kx, ky := rng.Float64()-0.5, rng.Float64()-0.5
		want := 0.0
		m30 := SegmentMoments(a, b, 30)
		for p := 0; p <= 30; p++ { // Σ_n (k·z)^n / n! by moments
			for i := 0; i <= p; i++ {
				j := p - i
				want += math.Pow(kx, float64(i)) * math.Pow(ky, float64(j)) / (fact(i) * fact(j)) * m30.At(i, j)
			}
		}
		if got := SegmentExp(a, b, kx, ky); math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Fatalf("SegmentExp %v, series %v", got, want)
		}
	}
}

func fact(n int) float64 {
	f := 1.0
	for k := 2; k <= n; k++ {
		f *= float64(k)
	}
	return f
}

// residualScale returns the largest residual relative to the size of the
// terms that make it up.
func residualScale(s *System, poses []Pose) (worst float64) {
	res := s.Residual(poses)
	for c := range res {
		for i := 0; i <= s.K; i++ {
			for j := 0; i+j <= s.K; j++ {
				scale := math.Abs(s.Frame[c].At(i, j))
				for k := range s.Piece {
					scale += math.Abs(s.Piece[k][c].Translate(poses[k].X, poses[k].Y).At(i, j))
				}
				if scale > 0 {
					worst = math.Max(worst, math.Abs(res[c].At(i, j))/scale)
				}
			}
		}
	}
	return worst
}

// TestSystemCancels is Proposition 1 with eq. (26): at the planted (or
// known) translations the signed path moments of every edge class cancel
// up to degree K, for the classics and for generated puzzles, where edges
// often pair with several shorter ones; moving one piece breaks it.
func TestSystemCancels(t *testing.T) {
	const K = 5
	var puzzles []*Puzzle
	var sols []*Solution
	for _, name := range ClassicNames() {
		p, s, _ := Classic(name)
		puzzles, sols = append(puzzles, p), append(sols, s)
	}
	for seed := range int64(10) {
		p, s, _ := Generate(seed, Tans())
		puzzles, sols = append(puzzles, p), append(sols, s)
		p, s, _ = Generate(seed, TPieces())
		puzzles, sols = append(puzzles, p), append(sols, s)
	}
	for n, p := range puzzles {
		sys, err := NewSystem(p, K)
		if err != nil {
			t.Fatal(err)
		}
		poses := sols[n].Poses()
		if r := residualScale(sys, poses); r > 1e-12 {
			t.Fatalf("%s: residual %g at the solution", p.Name, r)
		}
		// a wrong translation: move a piece by a vertex step.
		bad := append([]Pose(nil), poses...)
		bad[0].X += 0.5
		if r := residualScale(sys, bad); r < 1e-3 {
			t.Fatalf("%s: residual %g with a piece moved", p.Name, r)
		}
		// the paper's exponential form: Σ α_i e^{k·t_i} + frame = 0.
		for _, k := range [][2]float64{{0.3, 0}, {0, 0.2}, {0.25, -0.15}, {1, 1}} {
			alpha, frame := sys.ExpCoefficients(k[0], k[1])
			for c := range alpha {
				sum, scale := frame[c], math.Abs(frame[c])
				for i := range alpha[c] {
					v := alpha[c][i] * math.Exp(k[0]*poses[i].X+k[1]*poses[i].Y)
					sum, scale = sum+v, scale+math.Abs(v)
				}
				if scale > 0 && math.Abs(sum) > 1e-12*scale {
					t.Fatalf("%s: exponential residual %g (k %v, class %d)", p.Name, sum/scale, k, c)
				}
			}
		}
	}
}

// TestCoincidingEdgesCancel takes every pair of piece edges that coincide,
// reversed, after the planted translations and checks that their
// translated moments cancel exactly as matched edge elements should.
func TestCoincidingEdgesCancel(t *testing.T) {
	const K = 6
	pairs := 0
	for seed := range int64(5) {
		p, s, _ := Generate(seed, Tans())
		var placed []Polygon
		for k := range p.Pieces {
			pg, _ := p.Placed(s, k)
			placed = append(placed, pg)
		}
		for i := range placed {
			for j := i + 1; j < len(placed); j++ {
				for a := range placed[i] {
					e0, e1 := placed[i][a], placed[i][(a+1)%len(placed[i])]
					for b := range placed[j] {
						f0, f1 := placed[j][b], placed[j][(b+1)%len(placed[j])]
						if e0 != f1 || e1 != f0 {
							continue
						}
						pairs++
						// moments of each edge in piece coordinates, translated.
						ti, tj := s.Placements[i].T, s.Placements[j].T
						le := SegmentMoments(fl(e0.Sub(ti)), fl(e1.Sub(ti)), K).Translate(ti.X.Float64(), ti.Y.Float64())
						lf := SegmentMoments(fl(f0.Sub(tj)), fl(f1.Sub(tj)), K).Translate(tj.X.Float64(), tj.Y.Float64())
						// opposite directions: signs +1 and -1 in the same class.
						for x := 0; x <= K; x++ {
							for y := 0; x+y <= K; y++ {
								if d := le.At(x, y) - lf.At(x, y); math.Abs(d) > 1e-10*(1+math.Abs(le.At(x, y))) {
									t.Fatalf("seed %d: coinciding edges differ at (%d,%d): %v", seed, x, y, d)
								}
							}
						}
					}
				}
			}
		}
	}
	if pairs == 0 {
		t.Fatal("no coinciding edge pairs found")
	}
	t.Logf("%d coinciding edge pairs cancel", pairs)
}

func fl(p Point) [2]float64 { return [2]float64{p.X.Float64(), p.Y.Float64()} }
