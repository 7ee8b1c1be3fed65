package samegame

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// Issue 22, item 15: a beam whose budget ends before any game in it ends
// still answers, with its best state completed greedily: under Dust a
// line that clears the board, under Standard a finished game.
func TestBeamAnswersAtBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	boards := map[string]*Board{
		"dust 8x6 (bit boards)": Random(8, 6, 5, Dust, rng),
		"dust 15x10":            Random(15, 10, 5, Dust, rng),
		"standard 15x15":        Random(15, 15, 5, Standard, rng),
	}
	for name, b := range boards {
		for _, budget := range []string{"nodes", "deadline"} {
			s := Beam{Width: 1_000_000}
			ctx := context.Background()
			if budget == "nodes" {
				s.MaxNodes = 500
			} else {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 30*time.Millisecond)
				defer cancel()
			}
			sol, err := s.Solve(ctx, b)
			if err == nil || !(errors.Is(err, ErrBudget) || errors.Is(err, context.DeadlineExceeded)) {
				t.Fatalf("%s, %s budget: err %v, want the budget's", name, budget, err)
			}
			res, rerr := Replay(b, sol.Moves)
			if len(sol.Moves) == 0 || rerr != nil || !res.Over || (b.Rules() == Dust && !sol.Cleared) || sol.Score != res.Score {
				t.Fatalf("%s, %s budget: %d clicks, cleared %v, replay %v (over %v)", name, budget, len(sol.Moves), sol.Cleared, rerr, res.Over)
			}
		}
	}
}
