package tangram

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// TestExactClassics: the exact solver, either corner rule, solves every
// classic figure.
func TestExactClassics(t *testing.T) {
	for _, name := range ClassicNames() {
		p, _, _ := Classic(name)
		for _, ll := range []bool{false, true} {
			res, err := Exact{LowestLeft: ll}.Solve(context.Background(), p)
			if err != nil || !res.Solved {
				t.Fatalf("%s: %v", name, err)
			}
			if err := Check(p, res.Solution); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			t.Logf("%s, lowest-left %v: %d nodes, %v", name, ll, res.Nodes, res.Elapsed)
		}
	}
}

// TestExactClassicsTurned gives the classics with turns and mirror images
// allowed: the solver must find the orientations too.
func TestExactClassicsTurned(t *testing.T) {
	for _, name := range ClassicNames() {
		p, _, _ := Classic(name)
		p.Turns = TurnsFlip
		for _, ll := range []bool{false, true} {
			res, err := Exact{LowestLeft: ll}.Solve(context.Background(), p)
			if err != nil || !res.Solved {
				t.Fatalf("%s: %v", name, err)
			}
			t.Logf("%s turned, lowest-left %v: %d nodes, %v", name, ll, res.Nodes, res.Elapsed)
		}
	}
}

func TestExactGenerated(t *testing.T) {
	for _, set := range SetNames() {
		pieces, _ := Set(set)
		for _, turns := range []Turns{TurnsNone, TurnsFlip} {
			for seed := range int64(10) {
				p, _, _ := GenerateWith(seed, pieces, GenerateOptions{Turns: turns})
				for _, ll := range []bool{false, true} {
					res, err := Exact{LowestLeft: ll}.Solve(context.Background(), p)
					if err != nil || !res.Solved {
						t.Fatalf("%s seed %d turns %v lowest-left %v: %v", set, seed, turns, ll, err)
					}
				}
			}
		}
	}
}

func TestExactUnsolvableAndBudget(t *testing.T) {
	tri := ipg(0, 0, 1, 0, 0, 1)
	p := &Puzzle{Pieces: []Piece{{"a", tri}, {"b", tri}}, Silhouette: ipg(0, 0, 1, 0, 1, 1, 0, 1)}
	for _, ll := range []bool{false, true} {
		if _, err := (Exact{LowestLeft: ll}).Solve(context.Background(), p); !errors.Is(err, ErrUnsolvable) {
			t.Fatalf("two equal triangles into a square, translation only: %v", err)
		}
	}
	p.Turns = TurnsRotate
	if res, err := (Exact{}).Solve(context.Background(), p); err != nil || !res.Solved {
		t.Fatalf("with turns: %v", err)
	}
	g, _, _ := Generate(3, Tans())
	res, err := Exact{MaxNodes: 2}.Solve(context.Background(), g)
	if !errors.Is(err, ErrBudget) || res.Solution == nil || res.Solution.PlacedCount() == 0 {
		t.Fatalf("budget: %v, %+v", err, res)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	g.Turns = TurnsFlip
	if _, err := (Exact{}).Solve(ctx, g); err != nil && !errors.Is(err, ErrBudget) {
		t.Fatalf("context: %v", err)
	}
}

// TestExactFifty is the figure of issue 21: the exact solver on 50
// generated seven-tan puzzles (seeds 1..50, translation only), each
// within a minute. It logs solved, the median and maximum seconds and
// nodes (go test -run Fifty -v), and the same with turns and mirror
// images allowed.
func TestExactFifty(t *testing.T) {
	for _, c := range []struct {
		turns      Turns
		lowestLeft bool
	}{{TurnsNone, false}, {TurnsNone, true}, {TurnsFlip, false}, {TurnsFlip, true}} {
		turns := c.turns
		var secs []float64
		var nodes []int64
		solved := 0
		for seed := int64(1); seed <= 50; seed++ {
			p, _, err := GenerateWith(seed, Tans(), GenerateOptions{Turns: turns})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			res, err := Exact{LowestLeft: c.lowestLeft}.Solve(ctx, p)
			cancel()
			if err != nil {
				t.Errorf("seed %d turns %v: %v", seed, turns, err)
				continue
			}
			solved++
			secs = append(secs, res.Elapsed.Seconds())
			nodes = append(nodes, res.Nodes)
		}
		slices.Sort(secs)
		slices.Sort(nodes)
		if solved > 0 {
			t.Logf("turns %v, lowest-left %v: solved %d/50, seconds median %.4f max %.4f, nodes median %d max %d",
				turns, c.lowestLeft, solved, secs[len(secs)/2], secs[len(secs)-1], nodes[len(nodes)/2], nodes[len(nodes)-1])
		}
	}
}

// TestExactTwoSets: fourteen pieces (two sets of tans), turns and mirror
// images allowed, 50 generated puzzles; skipped with -short.
func TestExactTwoSets(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds")
	}
	double := append(Tans(), Tans()...)
	for k := 7; k < 14; k++ {
		double[k].Name += "b"
	}
	var secs []float64
	var nodes []int64
	for seed := int64(1); seed <= 50; seed++ {
		p, _, _ := GenerateWith(seed, double, GenerateOptions{Turns: TurnsFlip})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := Exact{}.Solve(ctx, p)
		cancel()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		secs = append(secs, res.Elapsed.Seconds())
		nodes = append(nodes, res.Nodes)
	}
	slices.Sort(secs)
	slices.Sort(nodes)
	t.Logf("two sets of tans, turns flip: solved 50/50, seconds median %.4f max %.4f, nodes median %d max %d",
		secs[25], secs[49], nodes[25], nodes[49])
}

// BenchmarkExact solves generated seven-tan puzzles, translation only and
// with turns, in both branching modes.
func BenchmarkExact(b *testing.B) {
	for _, c := range []struct {
		name  string
		turns Turns
		ll    bool
	}{{"fixed", TurnsNone, false}, {"fixed-lowestleft", TurnsNone, true}, {"flip", TurnsFlip, false}, {"flip-lowestleft", TurnsFlip, true}} {
		var ps []*Puzzle
		for seed := range int64(8) {
			p, _, _ := GenerateWith(seed, Tans(), GenerateOptions{Turns: c.turns})
			ps = append(ps, p)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := (Exact{LowestLeft: c.ll}).Solve(context.Background(), ps[i%len(ps)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
