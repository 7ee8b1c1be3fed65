// Package play holds the games Tessera plays in a terminal: Npuzzle, the
// sliding-tile game of `tessera npuzzle play`, with hints and an
// auto-solve, and SameGame, the cluster-clearing game of `tessera samegame
// play` (standard SameGame and the dust game: a cursor moved by the arrow
// keys, clicks, undo, hints from the family's solvers). A game reads keys
// (ReadKey) from an io.Reader and draws on an io.Writer; on a terminal it
// switches it to raw mode and redraws in place, otherwise it prints each
// screen in turn, so a script or a test can play it.
//
//	err := play.Npuzzle{Size: npuzzle.Size{Rows: 3, Cols: 3}, Seed: 1, Delay: 250 * time.Millisecond}.
//		Run(ctx, os.Stdin, os.Stdout)
//	err = play.SameGame{Rules: samegame.Dust, W: 8, H: 6, Colors: 5, Think: 2 * time.Second}.Run(ctx, os.Stdin, os.Stdout)
package play
