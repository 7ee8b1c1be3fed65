package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/nn"
	"tessera/samegame"
	"tessera/samegame/policy"
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
		var rf sgRandomFlags
		rf.define(fs, "dust", 100)
		seed := seedFlag(fs)
		solver := fs.String("solver", "exact", "exact, dfs or beam")
		width := fs.Int("width", 2000, "beam width of -solver beam")
		timeout := timeoutFlag(fs, time.Minute)
		workers := fs.Int("workers", 2, "boards solved at once")
		prefix := fs.Int("prefix", 0, "play 0 to this many random clicks on each board before solving (mid-game positions, cheaper to solve)")
		labels := fs.Int("labels", 0, "with -solver beam: write up to this many positions per depth on the beam's shortest lines, each with all its good clicks (see above)")
		prog := progressFlag(fs)
		out := outFlag(fs, "the boards with their solutions (required)")
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			rules, w, h, err := rf.parse()
			if err != nil {
				return err
			}
			if *workers < 1 || *prefix < 0 || *labels < 0 {
				return usagef("-workers (at least 1), -prefix or -labels (not negative) out of range")
			}
			if *out == "" {
				return usagef("-o FILE is required")
			}
			algo := strings.ToLower(*solver)
			switch {
			case (algo != "exact" && algo != "dfs" && algo != "beam") || *width < 1:
				return usagef("-solver %q: want exact, dfs or beam (with a positive -width)", *solver)
			case algo == "exact" && rules != samegame.Dust:
				return usagef("-solver exact needs dust rules")
			case *labels > 0 && (algo != "beam" || rules != samegame.Dust):
				return usagef("-labels needs -solver beam and dust rules")
			}
			remote, closeRemote, err := benchRemote(ctx, *natsURL)
			if err != nil {
				return err
			}
			defer closeRemote()
			entries := bench.SameGameBoards(rf.n, *seed, w, h, rf.colors, rules, *prefix)
			p := newProgress(env, *prog)
			defer p.Done()
			count := p.Counter("boards", rf.n)
			done := func() { count.Add(1) }
			var text, msg string
			if *labels > 0 {
				var boards, total, skipped int
				if text, boards, total, skipped, err = bench.SameGameLabels(ctx, remote, entries, *width, *labels, *workers, *timeout, done); err != nil {
					return err
				}
				msg = fmt.Sprintf("%d boards, %d labelled positions, written to %s", boards, total, *out)
				if skipped > 0 {
					msg += fmt.Sprintf(" (%d boards left out: over -timeout %v)", skipped, *timeout)
				}
			} else {
				var proven int
				text, proven, err = bench.SameGameDataset(ctx, remote, entries, rules, algo, catalog.SameGameOptions{Seed: *seed, Width: *width}, *timeout, *workers, done)
				if err != nil {
					return err
				}
				msg = fmt.Sprintf("%d boards, %d solved optimally, written to %s", rf.n, proven, *out)
			}
			p.Done()
			if err := writeFileAtomic(*out, []byte(text)); err != nil {
				return err
			}
			_, err = fmt.Fprintln(env.Stdout, msg)
			return err
		}
	},
}

// parseWidths reads a comma-separated list of layer widths ("" is none).
func parseWidths(s, name string) ([]int, error) {
	var ws []int
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > 1<<16 {
			return nil, usagef("bad %s width %q", name, f)
		}
		ws = append(ws, v)
	}
	return ws, nil
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
		data := fs.String("data", "", "training files, comma-separated (required)")
		conv := fs.String("conv", "32,32", "3x3 convolution channels, comma-separated (empty: none)")
		hidden := fs.String("hidden", "512", "dense layer widths, comma-separated")
		epochs := fs.Int("epochs", 30, "most epochs")
		steps := fs.Int("steps", 0, "stop after this many batches (0: no limit)")
		batch := fs.Int("batch", 64, "batch size")
		lr := fs.Float64("lr", 1e-3, "Adam learning rate")
		val := fs.Float64("val", 0.1, "fraction of examples held out for validation (0: none, and no early stopping)")
		patience := fs.Int("patience", 4, "epochs without a better validation loss before stopping")
		all := fs.Bool("all", false, "also train on solutions not proven optimal")
		value := fs.Bool("value", true, "add a value head (clicks left, for -algo nn-value and nn-mcts)")
		init := fs.String("init", "", "start from this network file (its architecture; -conv and -hidden are ignored); with -after and a cell policy, from its convolution and hidden layers")
		after := fs.Int("after", 0, "train an afterstate network (one output rating the board a click leaves; greedy play clicks the best-rated) on -labels data, K children per position (0: the cell policy)")
		seed := seedFlag(fs)
		timeout := timeoutFlag(fs, 0)
		prog := progressFlag(fs)
		out := outFlag(fs, "the trained network (required)")
		return func(ctx context.Context, env *Env, args []string) error {
			if *data == "" || *out == "" {
				return usagef("-data FILE and -o MODEL are required")
			}
			convW, err := parseWidths(*conv, "-conv")
			if err != nil {
				return err
			}
			hiddenW, err := parseWidths(*hidden, "-hidden")
			if err != nil {
				return err
			}
			if *epochs < 1 || *batch < 1 || *lr <= 0 || *val >= 1 || *steps < 0 {
				return usagef("-epochs, -batch and -lr must be positive, -val below 1")
			}
			if *after == 1 || *after < 0 {
				return usagef("-after K needs K of at least 2 children per position")
			}
			p := newProgress(env, *prog)
			defer p.Done()
			opts := policy.TrainOptions{Arch: policy.Arch{Conv: convW, Hidden: hiddenW, Value: *value}, After: *after, All: *all,
				TrainOptions: nn.TrainOptions{Epochs: *epochs, MaxSteps: *steps, BatchSize: *batch, LearningRate: *lr,
					Patience: *patience, Seed: *seed, Validation: *val, NoValidation: *val == 0, Progress: func(s nn.Stats) {
						if s.EpochDone {
							p.Logf("epoch %d: loss %.4f, validation loss %.4f, accuracy %.3f, %.0f examples/s", s.Epoch, s.Loss, s.ValLoss, s.ValMetric, s.ExamplesSec)
						} else {
							p.Printf("epoch %d step %d: loss %.4f, %.0f examples/s", s.Epoch, s.Step, s.Loss, s.ExamplesSec)
						}
					}}}
			if *init != "" {
				if opts.Init, err = policy.Load(*init); err != nil {
					return err
				}
				if opts.InitName = *init; opts.Init.IsAfterstate() && *after == 0 {
					return usagef("%s is an afterstate network: train it with -after K", *init)
				}
			}
			var sets []policy.Dataset
			for f := range strings.SplitSeq(*data, ",") {
				entries, _, err := bench.ReadSameGameSet(env.Stdin, f, "dust")
				if err != nil {
					return err
				}
				sets = append(sets, policy.Dataset{Name: f, Entries: entries})
			}
			ctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			pol, st, err := policy.Train(ctx, sets, opts)
			p.Done()
			if err != nil && !(errors.Is(err, context.DeadlineExceeded) && *timeout > 0) {
				return err
			}
			if err := pol.Save(*out); err != nil {
				return err
			}
			what := fmt.Sprintf("on %d positions of %d boards", st.Examples, st.Boards)
			if *after > 0 {
				what = fmt.Sprintf("an afterstate network on %d positions (%d children each)", st.Boards, *after)
			}
			fmt.Fprintf(env.Stdout, "trained %s: %d epochs (best %d), %d steps, %.0f examples/s; validation loss %.4f, accuracy %.3f; %d weights written to %s\n",
				what, st.Epoch, st.BestEpoch, st.Step, st.ExamplesSec, st.ValLoss, st.ValMetric, pol.Net().Params(), *out)
			return nil
		}
	},
}
