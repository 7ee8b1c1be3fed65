package main

import (
	"context"
	"flag"

	"tessera/internal/bench"
)

var samegameScoreCmd = &Command{
	Name:      "score",
	UsageLine: "[-rules standard|dust] [-json] FILE[:N] CLICKS|-",
	Short:     "replay a list of clicks on a board and print its score",
	Long: `Score replays CLICKS on the N-th board of FILE and prints the score
(standard rules: the points, +1000 for an empty board), the number of
clicks, the cells left and whether the game is over. CLICKS is one argument
of x,y tokens separated by spaces ("4,3 11,10 0,4"), or "-" to read them
from stdin (at most 1 MiB, x,y tokens or one "x y" pair per line). An
illegal click is an error naming it (exit 1).

It is the scorer of the SameGame race (docs/notes/samegame-race): every
line a program reports, Tessera's or a peer's, is replayed here.`,
	Args: want(2, "want FILE[:N] and CLICKS (or - for stdin)"),
	Flags: func(fs *flag.FlagSet) Runner {
		rules := fs.String("rules", "", "rules: standard or dust (default: dust for boards written in letters, else standard)")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			e, _, file, n, err := bench.ReadSameGameBoard(env.Stdin, args[0], *rules)
			if err != nil {
				return err
			}
			text, err := bench.ReadSameGameClicks(env.Stdin, args[1])
			if err != nil {
				return err
			}
			return bench.WriteSameGameScore(env.Stdout, e, file, n, text, *asJSON)
		}
	},
}
