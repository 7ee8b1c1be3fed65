// Package search holds generic single-agent search algorithms over implicit
// state spaces: breadth-first search, bidirectional breadth-first search, A*
// (optionally weighted), IDA* and beam search.
//
// A problem is described by a small interface, Space: a key that identifies
// a state, the successors of a state as an iter.Seq2 of (move, state) pairs,
// and a goal test. Moves cost one each. Bidirectional search also needs the
// predecessors (Reversible). The algorithms are functions that take a
// context, the space, the start and Options, and return a Result with the
// moves to the goal and Stats (expanded, generated, peak stored states,
// elapsed time), in the style of gonum's path.AStar.
//
// Beam search keeps, depth by depth, the BeamOptions.Width successors that
// a ranking function (lower first, like a heuristic) prefers, optionally
// one per key: O(width) memory, a path fast, neither complete nor optimal.
// It returns ErrPruned when its beam empties after it dropped states.
//
// Every algorithm stops on the context and on the limits in Options
// (stored states, estimated memory, expansions). A limit returns an error
// wrapping ErrBudget together with the statistics so far, so a caller can
// report how far the search went; the search never grows until the process
// runs out of memory.
//
// A minimal space, the integers with the moves "+1" and "*2":
//
//	type numbers struct{ target int }
//
//	func (numbers) Key(n int) int { return n }
//	func (p numbers) IsGoal(n int) bool { return n == p.target }
//	func (p numbers) Successors(n int) iter.Seq2[string, int] {
//		return func(yield func(string, int) bool) {
//			_ = yield("+1", n+1) && yield("*2", 2*n)
//		}
//	}
//
//	res, err := search.BFS(ctx, numbers{target: 10}, 1, search.Options{})
//	// res.Moves: [+1 *2 +1 *2]
//
// The type parameters are inferred from the space. Generic code calls the
// space through an interface, which costs about a third more instructions
// per node than a hand-specialised loop; packages with a hot search (such as
// npuzzle's pattern-database IDA* and samegame's bit-board beam) keep a
// specialised solver and use these as their reference in tests.
package search
