package policy

import (
	"context"
	"math/rand/v2"
	"testing"

	"tessera/samegame"
)

// BenchmarkScores evaluates the shipped network on 1,000 boards in one
// call (encoding, the network, the groups' scores).
func BenchmarkScores(b *testing.B) {
	p, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	bs := randomBoards(1000, 3)
	for b.Loop() {
		if _, _, err := p.Scores(bs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(bs))/b.Elapsed().Seconds(), "boards/s")
}

// BenchmarkBeam runs Beam at width 1,000 on eight fresh 8x6 boards.
func BenchmarkBeam(b *testing.B) {
	p, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	var bs []*samegame.Board
	for range 8 {
		bs = append(bs, samegame.Random(8, 6, 5, samegame.Dust, rng))
	}
	clicks := 0
	for b.Loop() {
		clicks = 0
		for _, x := range bs {
			sol, err := p.Beam(context.Background(), x, BeamOptions{Width: 1000})
			if err != nil {
				b.Fatal(err)
			}
			clicks += sol.Clicks
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N*len(bs)), "s/board")
	b.ReportMetric(float64(clicks)/float64(len(bs)), "clicks/board")
}
