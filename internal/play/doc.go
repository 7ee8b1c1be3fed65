// Package play holds the games Tessera plays in a terminal: Npuzzle, the
// sliding-tile game of `tessera npuzzle play`, with hints and an
// auto-solve. A game reads keys from an io.Reader and draws on an
// io.Writer; on a terminal it switches it to raw mode and redraws in place,
// otherwise it prints each screen in turn, so a script or a test can play
// it.
//
//	err := play.Npuzzle{Size: npuzzle.Size{Rows: 3, Cols: 3}, Seed: 1, Delay: 250 * time.Millisecond}.
//		Run(ctx, os.Stdin, os.Stdout)
package play
