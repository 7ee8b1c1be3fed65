package main

import (
	"context"
	"flag"
	"strings"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/jigsaw/neural"
)

// neuralFlags are the settings of the learned gap-puzzle solvers, shared
// by "jigsaw solve -algo mcts" and "jigsaw neural bench": the puzzles'
// geometry and a flag per option of catalog.GapOptions (BindFlags).
type neuralFlags struct {
	fs   *flag.FlagSet
	geo  neural.Geometry
	o    catalog.GapOptions
	list []catalog.Option
}

func (f *neuralFlags) define(fs *flag.FlagSet) {
	f.fs = fs
	fs.IntVar(&f.geo.Grid, "grid", 3, "mcts: the puzzle is GRID x GRID patches")
	fs.IntVar(&f.geo.Patch, "patch", 40, "mcts: patch side in pixels (without -model, the model shipped for -patch and -gap is used: 40/4, 40/10, 40/20, 24/4, 96/48)")
	fs.IntVar(&f.geo.Gap, "gap", 4, "mcts: gap between patches in pixels (0: patches that touch)")
	// The defaults written out, as the flags show them.
	f.o = catalog.GapOptions{Reward: "predicted", Sims: 100, CPuct: 1.5, Batch: 8, Backup: "mean", Choose: "visits", Attempts: 1,
		Prior: "p", Value: "v", Select: "puct", Order: "fixed", Hints: "0"}
	f.list = catalog.BindFlags(fs, &f.o)
}

// options checks the flags for the gap solver algo (a flag of others, the
// lists of other solvers' options, set is refused as not applying) and
// returns the geometry, the options with seed and the hooks, the model
// loaded.
func (f *neuralFlags) options(algo string, seed uint64, others ...[]catalog.Option) (neural.Geometry, catalog.GapOptions, catalog.GapHooks, error) {
	g, o := f.geo, f.o
	g.Gap = neural.GapOf(g.Gap)
	o.Seed = seed
	var h catalog.GapHooks
	if _, err := catalog.Gaps.Lookup(algo); err != nil {
		return g, o, h, usagef("-algo %s: %v", algo, err)
	}
	if err := g.Validate(); err != nil {
		return g, o, h, usagef("%v", err)
	}
	if _, err := o.Neural(g.Grid); err != nil {
		return g, o, h, usagef("%v", err)
	}
	if err := catalog.Gaps.Applies(f.list, catalog.SetFlags(f.fs, f.list), algo); err != nil {
		return g, o, h, usagef("%v", err)
	}
	if err := refuseOthers(f.fs, algo, catalog.Jigsaw.IDs(), others); err != nil {
		return g, o, h, err
	}
	var err error
	h.Model, err = catalog.LoadGapModel(o.Model, g)
	return g, o, h, err
}

// neuralSolve is "jigsaw solve -algo mcts" (or another gap solver): the
// reassembly is written as a PNG with the gaps. others are the lists of
// the options of fs that the gap solvers do not read.
func neuralSolve(ctx context.Context, env *Env, f *neuralFlags, algo, path, out string, seed uint64, asJSON bool, others ...[]catalog.Option) error {
	g, opts, hooks, err := f.options(algo, seed, others...)
	if err != nil {
		return err
	}
	r, err := bench.SolveGap(ctx, path, out, algo, g, opts, hooks)
	if err != nil {
		return err
	}
	return r.Write(env.Stdout, asJSON)
}

var jigsawNeuralCmd = &Command{
	Name:     "neural",
	Short:    "learned solver of jigsaws with gaps (Alphazzle): train, bench, solve, accuracy",
	Commands: []*Command{jigsawNeuralTrainCmd, jigsawNeuralBenchCmd, jigsawNeuralSolveCmd, jigsawNeuralAccuracyCmd},
}

var jigsawNeuralSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-algo mcts|greedy-p|greedy-v|deepzzle] [-grid 3] [-patch 40] [-gap 4] [-seed S] [search flags as bench] [-o OUT.png] [-json] IMAGE|SHEET",
	Short:     "solve one gap puzzle: an image's central square, or a sheet of patches",
	Long: `Solve is "tessera jigsaw solve -algo mcts" with the flags of the gap
solvers only: the argument is an image, whose central square is cut into
-grid x -grid patches of -patch pixels -gap pixels apart and shuffled by
-seed (its truth known, so the answer is scored), or a sheet of such
patches. The search's flags are those of "jigsaw neural bench" (-sims,
-attempts, -reward, -prior, -value, -select, -order, -hints, ...). -o
writes the reassembly with its gaps.

The solvers:

` + catalog.Gaps.Help(),
	Args: want(1, "give one image or sheet"),
	Flags: func(fs *flag.FlagSet) Runner {
		algo := fs.String("algo", "mcts", strings.Join(catalog.Gaps.IDs(), ", "))
		var nf neuralFlags
		nf.define(fs)
		seed := seedFlag(fs)
		out := outFlag(fs, "the reassembly (PNG)")
		timeout := timeoutFlag(fs, 0)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			ctx, cancel := catalog.WithTimeout(ctx, *timeout)
			defer cancel()
			return neuralSolve(ctx, env, &nf, *algo, args[0], *out, *seed, *asJSON)
		}
	},
}

var jigsawNeuralBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set DIR|FILE,... [-grid 3] [-crops K] [-seed S] [-algo ID] [-reward predicted|gt|neighbours|patches] [-attempts K] [-report best,worst,oracle] [-sims N] [-prior p|uniform] [-value v|const-end|const-game|const] [-select puct|uct|spmcts] [-order fixed|free] [-hints N|central] [-model DIR] [-json]",
	Short:     "cut random gap puzzles from images, solve and score them",
	Long: `Bench cuts -crops random gap puzzles from every image of -set (folders
and files, comma-separated): a random square at a random scale, resampled
to GRID x (PATCH+GAP) pixels, each cell's central PATCH pixels kept, the
patches shuffled; all drawn from -seed. It solves each with -algo and
scores it: the share of patches in their true cell, of true neighbours
kept, and whether it is perfect. The solvers:

` + catalog.Gaps.Help() + `
The search's parts can be switched off or replaced, as in Alphazzle's
ablations: -prior uniform (P not used), -value const-end, const-game or
const (V replaced by the constant 1 for complete reassemblies, for
unfinished ones, or both), -select uct or spmcts, -order free (the search
chooses which patch to place and where), -hints N (N patches placed in
their true cell first; central: the central cell's). -report worst,oracle
also scores, among the -attempts, the worst and the best by the truth
(the answer is the one V prefers).

With -json: one line per puzzle {"puzzle", "image", "patch", "neighbor",
"perfect", "seconds", "value"} (with -report, "worst" and "oracle" objects
of patch, neighbor, perfect), then {"summary": true, "puzzles", "patch",
"neighbor", "perfect", "seconds", ...} (means; perfect as a fraction; with
-report, worst_patch, oracle_perfect, ...).

-errors adds the error distribution (two lines of text, or the summary's
fields wrong_misplaced[k], the wrong answers with k patches out of their
cell, wrong_flagged[k], how many of them V valued below 1/2, and
v_by_misplaced[k] over v_by_misplaced_n[k], V's accuracy at 1/2 on the true
reassembly, k = 0, and on one reassembly with exactly k random patches
misplaced per puzzle and k from 2 to the grid's patches).

-missing K and -foreign J make each puzzle one of fragments: K of its
patches taken away (their cells stay empty) and J strays from another image
of -set mixed in, to be set aside; the solver plays the game of fragments
(the model's fragment heads) and each puzzle is scored by its own patches,
the adjacencies between present patches, perfect (every own patch in its
cell and every stray set aside), strays_found and own_aside.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		set := fs.String("set", "", "folders and image files, comma-separated (required)")
		b := bench.Gaps{Crops: 1}
		catalog.BindFlags(fs, &b)
		algo := fs.String("algo", "mcts", strings.Join(catalog.Gaps.IDs(), ", "))
		var nf neuralFlags
		nf.define(fs)
		seed := seedFlag(fs)
		report := fs.String("report", "best", "attempts scored: best (V's choice), worst, oracle (the best by the truth), comma-separated")
		timeout := timeoutFlag(fs, 0)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			g, opts, hooks, err := nf.options(*algo, *seed)
			if err != nil {
				return err
			}
			b.Geometry, b.Spec, b.Hooks = g, catalog.Spec[catalog.GapOptions]{Solver: *algo, Options: opts}, hooks
			if err := b.Prepare(*set, *report, *natsURL != ""); err != nil {
				return err
			}
			ctx, cancel := catalog.WithTimeout(ctx, *timeout)
			defer cancel()
			b.Progress = newProgress(env, *prog)
			defer b.Progress.Done()
			return withRemote(ctx, *natsURL, func(remote bench.Remote) error {
				b.Remote = remote
				return b.Run(ctx, &bench.Writer{W: env.Stdout, JSON: *asJSON})
			})
		}
	},
}

var jigsawNeuralTrainCmd = &Command{
	Name:      "train",
	UsageLine: "-train DIR[,DIR] -val DIR [-stage all|pair|heads|finetune|selfplay] [-grids 3,4,5] [-init DIR] -o DIR",
	Short:     "train the pair network and the P and V heads on photographs",
	Long: `Train fits the learned solver on random gap puzzles cut from the images of
-train, in stages (-stage all runs them in order):

  pair      the pair network, on -crops random 3x3 puzzles per image: each
            true adjacency against a false one from the same puzzle;
  heads     for each grid of -grids, P (softmax cross-entropy on the next
            patch's true cell, over the empty cells of correct partial
            reassemblies) and V (squared error against 1 for correct and 0
            for wrong reassemblies) on -puzzles random puzzles;
  finetune  for each grid, MCTS (-sims, ground-truth reward) on
            -finetune-puzzles fresh puzzles; every state it evaluated is
            labelled and P and V train further on them;
  selfplay  (only when named) AlphaZero-style fine-tuning: for each grid,
            -selfplay-epochs epochs, each playing -finetune-puzzles fresh
            puzzles with MCTS (-sims, the predicted reward), P trained
            towards the visit distribution at the root of every placement
            (-p-target), V towards the states' labels (-v-target; with
            -terminals also every complete reassembly the search valued),
            mixed with the supervised examples of -replay fresh puzzles,
            at Adam's -lr for -epochs; after every epoch the model goes to
            OUT/epoch-K and, with -bench-val, is benched (one attempt, the
            predicted reward, seed 1): the epoch with the most perfect
            puzzles there is kept (early stopping after -patience), and
            -bench-test adds the test images' figures to the curve;
  fragments (only when named) for each grid, the heads of puzzles of
            fragments (fp<g>.nn, fv<g>.nn: P with one more output, set
            aside) on -puzzles random puzzles, each with 0 to -max-missing
            patches missing and 0 to -max-foreign strays from another
            image; the pair network is kept as it is. The puzzles are
            cut on every core (GOMAXPROCS), each from its own stream of
            -seed, so the examples do not depend on the cores.

-init DIR starts from a model folder (needed by heads and finetune alone).
Interrupted (Ctrl-C), it saves the networks with their best weights so far.
-o DIR writes the model (pair.nn, p3.nn, v3.nn, ...). The accuracies of
the pair network, P and V are measured on puzzles of -val (never trained
on). Progress goes to stderr with -progress.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		t := bench.DefaultGapTrain()
		catalog.BindFlags(fs, &t)
		seed := seedFlag(fs)
		out := outFlag(fs, "the model folder (required)")
		prog := progressFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			t.Seed, t.Out, t.Regap = *seed, *out, isSet(fs, "patch") || isSet(fs, "gap")
			p := newProgress(env, *prog)
			defer p.Done()
			rep, err := t.Run(ctx, p, env.Stderr)
			if err != nil {
				return err
			}
			p.Done()
			return bench.GapTrained(env.Stdout, rep, *asJSON)
		}
	},
}

var jigsawNeuralAccuracyCmd = &Command{
	Name:      "accuracy",
	UsageLine: "-set DIR|FILE,... [-grid 3] [-hints N|central] [-puzzles 200] [-model DIR] [-seed S] [-json]",
	Short:     "measure the P and V networks on random puzzles, by number of patches placed",
	Long: `Accuracy cuts -puzzles random puzzles from the images of -set (as training
does; give images never trained on) and measures the model's heads for
-grid: P's accuracy is the share of correct partial reassemblies where its
best empty cell is the next patch's true cell; V's the share of
reassemblies, half correct and half wrong (one or two patches moved), it
classifies right at 1/2. With -hints N (or central) every reassembly has
at least N patches (the central cell's first) in their true cells
(Alphazzle's Table 6); the accuracies are also given per number of
patches placed (Table 7; V from one patch placed).`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		a := bench.DefaultGapAccuracy()
		catalog.BindFlags(fs, &a)
		seed := seedFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			a.Seed = *seed
			return a.Run(ctx, env.Stdout, *asJSON)
		}
	},
}
