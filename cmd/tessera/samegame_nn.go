package main

import (
	"context"
	"flag"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
)

var samegameDatasetCmd = &Command{
	Name:      "dataset",
	UsageLine: "[-rules dust] [-n K] [-seed S] [-solver exact|dfs|beam] [-width W] [-prefix P] [-timeout D] [-workers W] [-nats URL] -o FILE",
	Short:     "solve random boards and write them with their solutions, for training",
	Long: `Dataset draws K random boards (as generate does with the same -seed, -size
and -colors), solves each with -solver on -workers cores at a time, each within -timeout:
exact gives the proven fewest clicks (or, stopped by -timeout, the best
line found, which its beam seed makes near-optimal); dfs is the blog's
branch-and-bound (the source's labels); beam (-width, default 2000) is about
50 times cheaper than exact and was optimal on 24 of the 27 boards exact
proved in 30 s (the other 3 one click over). It writes them in the set format that
bench -o writes: "position I", the board, "optimal N" when the solution is
proven optimal, and the clicks with the colour and size of each group.
-prefix P first plays 0 to P random clicks on each board (uniformly), for
positions off the optimal lines, which are also much cheaper to solve.
"samegame train" reads these files: every position along a solution with
the group clicked next is one example.

-labels N (with -solver beam) writes, instead of one solution per board,
positions on the shortest lines the beam found, up to N per depth, each
with every click that stays on one of them ("good x,y;x,y", the clicks
as x,y with y from the bottom) and the clicks left ("left K"): labels
that mark all the good groups of a position, where a solution marks
the one its solver took (samegame.BeamLabels). "samegame train" makes
one example of each.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		d := bench.DefaultSameGameData()
		catalog.BindFlags(fs, &d)
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, time.Minute)
		prog := progressFlag(fs)
		out := outFlag(fs, "the boards with their solutions (required)")
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			d.Seed, d.Timeout, d.Out = *seed, *timeout, *out
			if err := d.Check(); err != nil {
				return err
			}
			return withRemote(ctx, *natsURL, func(remote bench.Remote) error {
				p := newProgress(env, *prog)
				defer p.Done()
				return d.Run(ctx, remote, p, env.Stdout)
			})
		}
	},
}

var samegameTrainCmd = &Command{
	Name:      "train",
	UsageLine: "-data FILE[,FILE...] [-conv C,C] [-hidden W,W,W] [-value] [-after K] [-init MODEL] [-epochs N] [-batch B] [-lr R] [-seed S] -o MODEL",
	Short:     "train the dust game's policy network on solved boards",
	Long: `Train fits a policy network to the solutions in the -data files (written by
"samegame dataset" or "bench -o"): the input is a board one-hot encoded
(empty + one plane per colour, per cell), the outputs one sigmoid per cell
marking the group to click, the loss binary cross-entropy, the optimizer
Adam (the source's design). Every position along every solution is one
example; each batch sees a random recolouring and mirror image of it (the
game's symmetries). -val of the examples are held out; training stops
after -patience epochs without a better validation loss and keeps the best.

The architecture is -conv (3x3 convolution channels) then -hidden (dense
widths): the default (the shipped network's), two 3x3 convolutions of 32
channels and a dense layer of 512, trained on 75,000 positions in 40
minutes on a loaded 2-core machine; an MLP such as -conv "" -hidden
512,512,512 runs faster but learns groups worse. The source's network is
-conv "" -hidden 1500,1500,1500,1500,1500,1500,1500,1500,1500,1500.
-value (on by default) adds a value head: 24 more sigmoid outputs, an
ordinal code of the clicks left along the solution (bit k: more than k
clicks remain), for -algo nn-value (one step of lookahead) and nn-mcts
(PUCT); -value=false trains the source's pure policy.

-after K trains an afterstate network instead, on positions labelled with
every good click ("samegame dataset -solver beam -labels N"): one output
that rates a board, trained so that the softmax over the boards a
position's clicks leave (K of them: up to K/2 good, the rest other clicks,
padded when fewer) puts its mass on the good ones. Played by -algo
nn-after -model MODEL, it clicks the group whose resulting board it rates
best (one batch of a position's children per click). With -init naming a cell policy it starts
from that network's convolution and hidden layers.
Progress (loss, validation accuracy: how often the highest output falls on
the solver's group, examples/s) goes to stderr with -progress or on a
terminal, and a summary to stdout. Build with GOEXPERIMENT=simd for speed.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		t := bench.DefaultSameGameTrain()
		catalog.BindFlags(fs, &t)
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, 0)
		prog := progressFlag(fs)
		out := outFlag(fs, "the trained network (required)")
		return func(ctx context.Context, env *Env, args []string) error {
			t.Seed, t.Timeout, t.Out = *seed, *timeout, *out
			p := newProgress(env, *prog)
			defer p.Done()
			return t.Run(ctx, env.Stdin, env.Stdout, p)
		}
	},
}
