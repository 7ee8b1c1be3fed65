package samegame

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// reversedNRPA runs the calls of a round last first, one at a time: a
// schedule unlike LocalNRPA's.
type reversedNRPA struct{ rounds int }

func (r *reversedNRPA) RunNRPA(ctx context.Context, b *Board, tabu bool, calls []NRPACall) ([]Solution, error) {
	r.rounds++
	sols := make([]Solution, len(calls))
	for i := len(calls) - 1; i >= 0; i-- {
		var err error
		if sols[i], err = SolveNRPACall(ctx, b, tabu, calls[i]); err != nil {
			return sols, err
		}
	}
	return sols, nil
}

// TestDistNRPADeterministic: with a fixed seed the distributed NRPA gives
// the same clicks whatever runs its searches (one goroutine, one per
// call, a reversed schedule), and the clicks replay to the reported score;
// every progress report of a new best replays to its score too.
func TestDistNRPADeterministic(t *testing.T) {
	b := readSet(t, "standard20.txt", Standard)[15].Board // position 16
	var first Solution
	rev := &reversedNRPA{}
	for i, exec := range []NRPAExecutor{LocalNRPA{Workers: 1}, LocalNRPA{}, rev} {
		var bests []Solution
		s := DistNRPA{Level: 2, Iterations: 12, Parallel: 5, Seed: 7, Exec: exec, Progress: func(sol Solution) {
			if sol.Moves != nil {
				bests = append(bests, sol)
			}
		}}
		sol, err := s.Solve(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Replay(b, sol.Moves)
		if err != nil || res.Score != sol.Score || sol.Score <= 0 || sol.Playouts != 12*12 {
			t.Fatalf("executor %d: score %d, replayed %d (%v), %d playouts", i, sol.Score, res.Score, err, sol.Playouts)
		}
		if len(bests) == 0 || bests[len(bests)-1].Score != sol.Score {
			t.Fatalf("executor %d: progress %v, final %d", i, len(bests), sol.Score)
		}
		for _, p := range bests {
			if r, err := Replay(b, p.Moves); err != nil || r.Score != p.Score {
				t.Fatalf("progress: score %d, replayed %d (%v)", p.Score, r.Score, err)
			}
		}
		if i == 0 {
			first = sol
		} else if !slices.Equal(sol.Moves, first.Moves) {
			t.Fatalf("executor %d: %d points, executor 0 %d: the schedule changed the result", i, sol.Score, first.Score)
		}
	}
	if rev.rounds != 3 { // 12 iterations, 5 at a time
		t.Fatalf("%d rounds, want 3", rev.rounds)
	}
	// Another seed, another game.
	other, err := DistNRPA{Level: 2, Iterations: 12, Parallel: 5, Seed: 8}.Solve(context.Background(), b)
	if err != nil || slices.Equal(other.Moves, first.Moves) {
		t.Fatalf("seed 8: %v, same clicks as seed 7", err)
	}
}

// TestDistNRPADust: under the dust rules the clicks clear the board and
// replay to the reported count.
func TestDistNRPADust(t *testing.T) {
	b := readSet(t, "dust_blog_examples.txt", Dust)[0].Board
	sol, err := DistNRPA{Level: 2, Iterations: 10, Parallel: 3, Seed: 1}.Solve(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(b, sol.Moves)
	if err != nil || !res.Cleared || res.Clicks != sol.Clicks || !sol.Cleared {
		t.Fatalf("%d clicks, replayed %+v %v", sol.Clicks, res, err)
	}
}

// TestDistNRPABudgets: a deadline ends the restarting search with its
// best so far (legal, replaying to its score) and the context's error; a
// playout budget ends it after the round that spends it.
func TestDistNRPABudgets(t *testing.T) {
	b := readSet(t, "standard20.txt", Standard)[0].Board
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	sol, err := DistNRPA{Level: 3, Iterations: 20, Parallel: 2, Seed: 1}.Solve(ctx, b)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline: %v", err)
	}
	if res, rerr := Replay(b, sol.Moves); rerr != nil || res.Score != sol.Score || len(sol.Moves) == 0 {
		t.Fatalf("deadline: score %d, replayed %d (%v)", sol.Score, res.Score, rerr)
	}
	sol, err = DistNRPA{Level: 2, Iterations: 10, Parallel: 4, Seed: 1, MaxPlayouts: 250}.Solve(context.Background(), b)
	if !errors.Is(err, ErrBudget) || sol.Playouts < 250 || sol.Playouts > 250+4*10 {
		t.Fatalf("budget: %d playouts, %v", sol.Playouts, err)
	}
	if _, err := (DistNRPA{Level: 11}).Solve(context.Background(), b); err == nil {
		t.Fatal("level 11 accepted")
	}
}

// recordNRPA runs the calls in process and records the colour each kept
// for last.
type recordNRPA struct{ colours []Color }

func (r *recordNRPA) RunNRPA(ctx context.Context, b *Board, tabu bool, calls []NRPACall) ([]Solution, error) {
	for _, c := range calls {
		k := Empty
		if c.TabuColor != nil {
			k = *c.TabuColor
		}
		r.colours = append(r.colours, k)
	}
	return LocalNRPA{Workers: 1}.RunNRPA(ctx, b, tabu, calls)
}

// TestDistNRPATabuColors: with TabuColors the restarts keep the tied
// colours for last in turn, every search of a restart keeping the same,
// and a search told to keep a colour keeps it; on a board with one
// largest colour the option changes nothing.
func TestDistNRPATabuColors(t *testing.T) {
	set := readSet(t, "standard20.txt", Standard)
	b := set[10].Board // position 11: five colours of 45 cells
	cands := TabuCandidates(b, 5)
	if len(cands) != 5 {
		t.Fatalf("position 11: candidates %v, want five", cands)
	}
	rec := &recordNRPA{}
	s := DistNRPA{Level: 2, Iterations: 4, Parallel: 2, Seed: 3, TabuColors: 5, MaxPlayouts: 7 * 16, Exec: rec}
	sol, err := s.Solve(context.Background(), b)
	if !errors.Is(err, ErrBudget) || sol.Playouts != 7*16 {
		t.Fatalf("%d playouts, %v; want 7 restarts of 16 and the budget error", sol.Playouts, err)
	}
	if len(rec.colours) != 7*4 {
		t.Fatalf("%d searches dispatched, want 28", len(rec.colours))
	}
	for i, c := range rec.colours {
		if want := cands[i/4%len(cands)]; c != want {
			t.Fatalf("search %d (restart %d) keeps colour %d, want %d", i, i/4, c, want)
		}
	}
	// The same run through the default executor gives the same clicks.
	again, _ := DistNRPA{Level: 2, Iterations: 4, Parallel: 2, Seed: 3, TabuColors: 5, MaxPlayouts: 7 * 16}.Solve(context.Background(), b)
	if !slices.Equal(again.Moves, sol.Moves) {
		t.Fatalf("the executor changed the result: %d against %d points", again.Score, sol.Score)
	}
	// One largest colour (position 1): the option is a no-op.
	b1 := set[0].Board
	plain, err1 := DistNRPA{Level: 2, Iterations: 6, Parallel: 3, Seed: 5}.Solve(context.Background(), b1)
	race, err2 := DistNRPA{Level: 2, Iterations: 6, Parallel: 3, Seed: 5, TabuColors: 5}.Solve(context.Background(), b1)
	if err1 != nil || err2 != nil || !slices.Equal(plain.Moves, race.Moves) {
		t.Fatalf("position 1: %d (%v) against %d (%v) points", plain.Score, err1, race.Score, err2)
	}
	// A call that keeps a colour the board lacks, or without the filter, fails.
	c := Color(7)
	if _, err := SolveNRPACall(context.Background(), b, true, NRPACall{Level: 1, Iterations: 2, TabuColor: &c}); err == nil {
		t.Fatal("colour 7 (not on the board) accepted")
	}
	c = cands[1]
	if _, err := SolveNRPACall(context.Background(), b, false, NRPACall{Level: 1, Iterations: 2, TabuColor: &c}); err == nil {
		t.Fatal("a kept colour without the tabu filter accepted")
	}
	got, err := SolveNRPACall(context.Background(), b, true, NRPACall{Level: 1, Iterations: 8, Seed: 1, TabuColor: &c})
	if err != nil || len(got.Moves) == 0 {
		t.Fatal(err)
	}
	// The filter kept c: a click of c removes all of c that is left, or
	// comes when no other colour has a group to click.
	cur := b.Clone()
	for i, m := range got.Moves {
		before := cur.ColorCounts()[c]
		others := 0
		for _, g := range cur.Moves(nil) {
			if g.Color != c {
				others++
			}
		}
		g, err := cur.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		if g.Color == c && int(g.Size) != before && others > 0 {
			t.Fatalf("click %d removes %d of colour %d's %d cells while other groups are left", i+1, g.Size, c, before)
		}
	}
}
