package web

import (
	"fmt"
	"strings"
	"testing"

	"tessera/npuzzle"
)

// bfsTo returns the fewest moves from b to the goal with the blank's home
// at k, by breadth-first search (3x3 and smaller boards).
func bfsTo(b *npuzzle.Board, k int) int {
	goal := goalBoard(b.Size(), k).Line()
	seen := map[string]bool{b.Line(): true}
	layer := []*npuzzle.Board{b}
	for d := 0; len(layer) > 0; d++ {
		var next []*npuzzle.Board
		for _, x := range layer {
			if x.Line() == goal {
				return d
			}
			for _, m := range x.Moves() {
				y := x.Clone()
				y.Apply(m)
				if !seen[y.Line()] {
					seen[y.Line()] = true
					next = append(next, y)
				}
			}
		}
		layer = next
	}
	return -1
}

func replayTo(t *testing.T, board, moves string, k int) {
	t.Helper()
	end, err := replayLine(t, board, moves)
	if err != nil || !isGoal(end, k) {
		t.Fatalf("moves %s from %s end on %v (%v), not the goal with the blank at %d", moves, board, end.Line(), err, k)
	}
}

// Any cell may be the gap's home: the shuffle starts from that goal, the
// solvers reach it, and from a corner their shortest answers stay
// shortest.
func TestBlankAnywhere(t *testing.T) {
	s, _ := newServer(t, Config{})
	for _, size := range []string{"3x3", "2x3"} {
		sz, _ := npuzzle.ParseSize(size)
		n := sz.Rows * sz.Cols
		for k := range n {
			for _, uniform := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%d/%v", size, k, uniform), func(t *testing.T) {
					res := decode[shuffleResponse](t, call(t, s, "POST", "/api/npuzzle/shuffle",
						map[string]any{"size": size, "blank": k, "seed": 5, "uniform": uniform}), 200)
					b, _ := npuzzle.Parse(res.Board, npuzzle.Size{})
					if res.Blank != k || isGoal(b, k) || !solvableFor(b, k) {
						t.Fatalf("shuffle: %+v", res)
					}
					sol := decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve",
						map[string]any{"board": res.Board, "solver": "astar", "blank": k}), 200)
					if !sol.Solved {
						t.Fatalf("solve: %+v", sol)
					}
					replayTo(t, res.Board, sol.Moves, k)
					r, c := k/sz.Cols, k%sz.Cols
					corner := (r == 0 || r == sz.Rows-1) && (c == 0 || c == sz.Cols-1)
					best := bfsTo(b, k)
					if corner && (!sol.Optimal || sol.Length != best) || !corner && (sol.Optimal || sol.Length < best || sol.Note == "") {
						t.Fatalf("corner %v: %d moves, optimal %v, BFS %d; note %q", corner, sol.Length, sol.Optimal, best, sol.Note)
					}
					h := decode[hintResponse](t, call(t, s, "POST", "/api/npuzzle/hint", map[string]any{"board": res.Board, "blank": k}), 200)
					if !h.Solved || h.Move != h.Moves[:1] {
						t.Fatalf("hint: %+v", h)
					}
					replayTo(t, res.Board, h.Moves, k)
				})
			}
		}
	}
	// A board that reaches the blank-last goal does not always reach
	// another: the parity is checked against the home given.
	wantError(t, call(t, s, "POST", "/api/npuzzle/solve", `{"board":"2 1 3/4 5 6/7 8 0","blank":1}`), 422, "not solvable")
	wantError(t, call(t, s, "POST", "/api/npuzzle/solve", `{"board":"1 2 3/4 5 6/7 8 0","blank":9}`), 400, "bad blank")
	wantError(t, call(t, s, "POST", "/api/npuzzle/hint", `{"board":"1 0 2/3 4 5/6 7 8","blank":1}`), 422, "already solved")
}

// Auto and Hint work on every size the page offers: the fast solver on
// 10x10, a hint on 8x8.
func TestLargeBoards(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of search")
	}
	s, _ := newServer(t, Config{})
	for _, size := range []string{"8x8", "10x10"} {
		res := decode[shuffleResponse](t, call(t, s, "POST", "/api/npuzzle/shuffle", map[string]any{"size": size, "seed": 1, "uniform": true}), 200)
		sol := decode[solveResponse](t, call(t, s, "POST", "/api/npuzzle/solve", map[string]any{"board": res.Board, "solver": "fast", "timeout_ms": 30000}), 200)
		if !sol.Solved {
			t.Fatalf("%s fast: %+v", size, sol)
		}
		checkSolution(t, res.Board, sol.Moves)
	}
	res := decode[shuffleResponse](t, call(t, s, "POST", "/api/npuzzle/shuffle", map[string]any{"size": "8x8", "seed": 2, "blank": 0}), 200)
	h := decode[hintResponse](t, call(t, s, "POST", "/api/npuzzle/hint", map[string]any{"board": res.Board, "blank": 0}), 200)
	if !h.Solved || h.Move == "" || !strings.Contains(h.Message, "fast solver") {
		t.Fatalf("8x8 hint: %+v", h)
	}
	replayTo(t, res.Board, h.Moves, 0)
}
