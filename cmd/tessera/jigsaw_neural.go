package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/jigsaw/neural"
	"tessera/nn"
)

// neuralFlags are the settings of the learned gap-puzzle solvers, shared
// by "jigsaw solve -algo mcts" and "jigsaw neural bench".
type neuralFlags struct{ catalog.GapSettings }

func (f *neuralFlags) define(fs *flag.FlagSet) {
	fs.IntVar(&f.Grid, "grid", 3, "mcts: the puzzle is GRID x GRID patches")
	fs.IntVar(&f.Patch, "patch", 40, "mcts: patch side in pixels")
	fs.IntVar(&f.Gap, "gap", 4, "mcts: gap between patches in pixels")
	fs.StringVar(&f.Reward, "reward", "predicted", "mcts: reward of a complete reassembly: predicted (by V) or gt (the truth, an oracle)")
	fs.IntVar(&f.Sims, "sims", 100, "mcts: simulations before each placement")
	fs.Float64Var(&f.CPuct, "cpuct", 1.5, "mcts: c_puct, the weight of P's prior in PUCT")
	fs.IntVar(&f.Batch, "batch", 8, "mcts: leaves evaluated per network call")
	fs.StringVar(&f.Backup, "backup", "mean", "mcts: backup of values, mean or max")
	fs.StringVar(&f.Choose, "choose", "visits", "mcts: action played, by visits or by value")
	fs.IntVar(&f.Attempts, "attempts", 1, "mcts: attempts with reshuffled patch orders, the best by V")
	fs.Float64Var(&f.Hybrid, "hybrid", 0, "mcts: weight of the classic compatibilities (MGC across the gap) multiplied into P's prior (0: purely learned)")
	fs.StringVar(&f.Model, "model", "", "mcts: model folder written by 'jigsaw neural train' (default: the shipped one)")
}

// options checks the flags and returns the geometry and the solvers'
// options, the model loaded.
func (f *neuralFlags) options(seed uint64) (neural.Geometry, catalog.GapOptions, error) {
	g, o, err := f.Options(seed)
	if err != nil {
		return g, o, usagef("%v", err)
	}
	o.Model, err = catalog.LoadGapModel(f.Model, g)
	return g, o, err
}

// neuralSolve is "jigsaw solve -algo mcts" (or another gap solver): the
// reassembly is written as a PNG with the gaps.
func neuralSolve(ctx context.Context, env *Env, f *neuralFlags, algo, path, out string, seed uint64, asJSON bool) error {
	g, opts, err := f.options(seed)
	if err != nil {
		return err
	}
	pz, err := neural.ReadPuzzleFile(path, g, seed)
	if err != nil {
		return err
	}
	if opts.Reward == neural.GroundTruth && pz.Truth == nil {
		return usagef("-reward gt needs the solution: give an image, not a sheet")
	}
	s, err := catalog.Gaps.New(algo, opts)
	if err != nil {
		return err
	}
	res, err := s.Solve(ctx, pz)
	if res.Cells == nil {
		return err
	}
	if out != "" {
		if werr := bench.WriteGapPicture(out, pz, res.Cells); werr != nil {
			return werr
		}
	}
	r := bench.GapSolved{Puzzle: pz, Geometry: g, Algo: algo, Options: opts, Result: res, Out: out, Err: err}
	return r.Write(env.Stdout, asJSON)
}

var jigsawNeuralCmd = &Command{
	Name:     "neural",
	Short:    "learned solver of jigsaws with gaps (Alphazzle): train, bench",
	Commands: []*Command{jigsawNeuralTrainCmd, jigsawNeuralBenchCmd},
}

var jigsawNeuralBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set DIR|FILE,... [-grid 3] [-crops K] [-seed S] [-algo ID] [-reward predicted|gt] [-attempts K] [-sims N] [-model DIR] [-json]",
	Short:     "cut random gap puzzles from images, solve and score them",
	Long: `Bench cuts -crops random gap puzzles from every image of -set (folders
and files, comma-separated): a random square at a random scale, resampled
to GRID x (PATCH+GAP) pixels, each cell's central PATCH pixels kept, the
patches shuffled; all drawn from -seed. It solves each with -algo and
scores it: the share of patches in their true cell, of true neighbours
kept, and whether it is perfect. The solvers:

` + catalog.Gaps.Help() + `
With -json: one line per puzzle {"puzzle", "image", "patch", "neighbor",
"perfect", "seconds"}, then {"summary": true, "puzzles", "patch",
"neighbor", "perfect", "seconds"} (means; perfect as a fraction).`,
	Flags: func(fs *flag.FlagSet) Runner {
		set := fs.String("set", "", "folders and image files, comma-separated (required)")
		crops := fs.Int("crops", 1, "random puzzles per image")
		algo := fs.String("algo", "mcts", strings.Join(catalog.Gaps.IDs(), ", "))
		var nf neuralFlags
		nf.define(fs)
		seed := seedFlag(fs)
		outDir := fs.String("out", "", "write each reassembly as DIR/puzzle-N.png")
		timeout := timeoutFlag(fs, 0)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			if *set == "" || *crops < 1 {
				return usagef("-set is required and -crops must be positive")
			}
			if _, err := catalog.Gaps.Lookup(*algo); err != nil {
				return usagef("-algo %s: %v", *algo, err)
			}
			g, opts, err := nf.options(*seed)
			if err != nil {
				return err
			}
			files, err := bench.GapSet(*set)
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			p := newProgress(env, *prog)
			defer p.Done()
			remote, closeRemote, err := benchRemote(ctx, *natsURL)
			if err != nil {
				return err
			}
			defer closeRemote()
			b := bench.Gaps{Files: files, Crops: *crops, Geometry: g, Algo: *algo, Options: opts, OutDir: *outDir, Progress: p,
				Remote: remote, Settings: nf.GapSettings}
			return b.Run(ctx, &bench.Writer{W: env.Stdout, JSON: *asJSON})
		}
	},
}

var jigsawNeuralTrainCmd = &Command{
	Name:      "train",
	UsageLine: "-train DIR[,DIR] -val DIR [-stage all|pair|heads|finetune] [-grids 3,4,5] [-init DIR] -o DIR",
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
            labelled and P and V train further on them.

-init DIR starts from a model folder (needed by heads and finetune alone).
Interrupted (Ctrl-C), it saves the networks with their best weights so far.
-o DIR writes the model (pair.nn, p3.nn, v3.nn, ...). The accuracies of
the pair network, P and V are measured on puzzles of -val (never trained
on). Progress goes to stderr with -progress.`,
	Flags: func(fs *flag.FlagSet) Runner {
		trainSet := fs.String("train", "", "training images: folders and files, comma-separated (required)")
		valSet := fs.String("val", "", "validation images (for the reported accuracies)")
		stage := fs.String("stage", "all", "all, pair, heads or finetune")
		grids := fs.String("grids", "3", "grid sizes of the heads, comma-separated")
		initDir := fs.String("init", "", "start from this model folder")
		crops := fs.Int("crops", 20, "pair: random 3x3 puzzles per training image")
		puzzles := fs.Int("puzzles", 1000, "heads: random puzzles per grid")
		ftPuzzles := fs.Int("finetune-puzzles", 100, "finetune: puzzles solved by MCTS per grid")
		sims := fs.Int("sims", 50, "finetune: MCTS simulations per placement")
		epochs := fs.Int("epochs", 10, "most epochs per network")
		maxSteps := fs.Int("max-steps", 0, "most batches per network (0: no limit)")
		lr := fs.Float64("lr", 1e-3, "Adam's learning rate")
		valueTarget := fs.String("value", "correct", "V's target for a correct partial reassembly: correct (1) or random (1/k! for k patches left)")
		valCount := fs.Int("val-puzzles", 200, "validation puzzles per measure")
		seed := seedFlag(fs)
		out := outFlag(fs, "the model folder (required)")
		prog := progressFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			if *trainSet == "" || *out == "" {
				return usagef("-train and -o are required")
			}
			if !slices.Contains(neural.Stages, *stage) {
				return usagef("-stage %q: want all, pair, heads or finetune", *stage)
			}
			var gs []int
			for _, s := range strings.Split(*grids, ",") {
				var g int
				if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d", &g); err != nil || g < 2 || g > 8 {
					return usagef("-grids %q: sizes 2 to 8, comma-separated", *grids)
				}
				gs = append(gs, g)
			}
			vt, ok := map[string]neural.ValueTarget{"correct": neural.ValueCorrect, "random": neural.ValueRandom}[*valueTarget]
			if !ok {
				return usagef("-value %q: want correct or random", *valueTarget)
			}
			if *stage != "all" && *stage != "pair" && *initDir == "" {
				return usagef("-stage %s needs -init", *stage)
			}
			train, err := bench.GapImages(*trainSet)
			if err != nil {
				return err
			}
			val, err := bench.GapImages(*valSet)
			if err != nil {
				return err
			}
			m, info := (*neural.Model)(nil), map[string]string{}
			if *initDir != "" {
				m, info, err = neural.Load(*initDir)
			} else {
				m, err = neural.NewModel(neural.Geometry{}, neural.Arch{}, *seed)
			}
			if err != nil {
				return err
			}
			p := newProgress(env, *prog)
			defer p.Done()
			rep, err := m.Train(ctx, train, val, neural.Plan{Stage: *stage, Grids: gs, FineTunePuzzles: *ftPuzzles, FineTuneSims: *sims, ValPuzzles: *valCount,
				Options: neural.TrainOptions{Crops: *crops, Puzzles: *puzzles, Epochs: *epochs, MaxSteps: *maxSteps, LearningRate: *lr, Value: vt, Seed: *seed,
					Progress: func(stage string, s nn.Stats) {
						if s.EpochDone {
							p.Logf("%s epoch %d: loss %.4f, validation loss %.4f, accuracy %.3f, %.0f examples/s", stage, s.Epoch, s.Loss, s.ValLoss, s.ValMetric, s.ExamplesSec)
						} else {
							p.Printf("%s epoch %d step %d: loss %.4f, %.0f examples/s", stage, s.Epoch, s.Step, s.Loss, s.ExamplesSec)
						}
					}},
				Out: *out, Info: info, Source: *trainSet, Log: p.Logf,
				Command: fmt.Sprintf("tessera jigsaw neural train -stage %s -grids %s -seed %d", *stage, *grids, *seed)})
			if err != nil {
				return err
			}
			p.Done()
			if *asJSON {
				return writeJSON(env.Stdout, rep)
			}
			for _, k := range slices.Sorted(maps.Keys(rep)) {
				fmt.Fprintf(env.Stdout, "%-22s %v\n", k, rep[k])
			}
			return nil
		}
	},
}
