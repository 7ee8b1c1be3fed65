package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/jigsaw/neural"
	"tessera/nn"
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
	if err := regularFile(path); err != nil {
		return usagef("%v", err)
	}
	n, _ := opts.Neural(g.Grid)
	pz, err := neural.ReadPuzzleFileContext(ctx, path, g, seed)
	if err != nil {
		return err
	}
	if n.Reward.Oracle() && pz.Truth == nil {
		return usagef("-reward %s needs the solution: give an image, not a sheet", n.Reward)
	}
	if n.Hints > 0 && pz.Truth == nil {
		return usagef("-hints needs the solution: give an image, not a sheet")
	}
	s, err := catalog.Gaps.New(algo, catalog.GapRun{GapOptions: opts, Grid: g.Grid, Hooks: hooks})
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
	r := bench.GapSolved{Puzzle: pz, Image: filepath.Base(path), Algo: algo, Options: n, Result: res, Out: out, Err: err}
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
	Flags: func(fs *flag.FlagSet) Runner {
		algo := fs.String("algo", "mcts", strings.Join(catalog.Gaps.IDs(), ", "))
		var nf neuralFlags
		nf.define(fs)
		seed := seedFlag(fs)
		out := outFlag(fs, "the reassembly (PNG)")
		timeout := timeoutFlag(fs, 0)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("give one image or sheet")
			}
			ctx, cancel := withTimeout(ctx, *timeout)
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
		crops := fs.Int("crops", 1, "random puzzles per image")
		algo := fs.String("algo", "mcts", strings.Join(catalog.Gaps.IDs(), ", "))
		var nf neuralFlags
		nf.define(fs)
		seed := seedFlag(fs)
		outDir := fs.String("out", "", "write each reassembly as DIR/puzzle-N.png")
		report := fs.String("report", "best", "attempts scored: best (V's choice), worst, oracle (the best by the truth), comma-separated")
		timeout := timeoutFlag(fs, 0)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		natsURL := natsFlag(fs)
		errs := fs.Bool("errors", false, "also report the error distribution: wrong answers by patches misplaced, and V's verdict on reassemblies by patches misplaced (not with -nats)")
		missing := fs.Int("missing", 0, "puzzles of fragments: patches taken away from each puzzle (their cells stay empty)")
		foreign := fs.Int("foreign", 0, "puzzles of fragments: strays from another image of -set mixed into each puzzle (to be set aside)")
		return func(ctx context.Context, env *Env, args []string) error {
			if *set == "" || *crops < 1 {
				return usagef("-set is required and -crops must be positive")
			}
			if *missing < 0 || *foreign < 0 {
				return usagef("-missing and -foreign must be 0 or more")
			}
			var reports []string
			for _, r := range strings.Split(*report, ",") {
				if r = strings.TrimSpace(r); !slices.Contains(bench.GapReports, r) {
					return usagef("-report %q: want best, worst or oracle, comma-separated", *report)
				}
				reports = append(reports, r)
			}
			g, opts, hooks, err := nf.options(*algo, *seed)
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
			if *missing > 0 || *foreign > 0 {
				switch err := g.CheckFragments(*missing, *foreign); {
				case remote != nil || *outDir != "" || *report != "best":
					return usagef("-missing and -foreign run here, without -nats, -out or -report")
				case len(files) < 2 && *foreign > 0:
					return usagef("-foreign needs two images or more in -set (strays come from another image)")
				case err != nil:
					return usagef("%v", err)
				}
			}
			if *errs && remote != nil {
				return usagef("-errors needs the puzzles solved here, not with -nats")
			}
			b := bench.Gaps{Files: files, Crops: *crops, Geometry: g, Spec: catalog.Spec[catalog.GapOptions]{Solver: *algo, Options: opts},
				OutDir: *outDir, Report: reports, Errors: *errs, Missing: *missing, Foreign: *foreign, Progress: p, Hooks: hooks, Remote: remote}
			return b.Run(ctx, &bench.Writer{W: env.Stdout, JSON: *asJSON})
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
		trainSet := fs.String("train", "", "training images: folders and files, comma-separated (required)")
		valSet := fs.String("val", "", "validation images (for the reported accuracies)")
		stage := fs.String("stage", "all", "all (pair, heads, finetune), pair, heads, finetune, selfplay or fragments")
		maxMissing := fs.Int("max-missing", 2, "fragments: most patches missing per puzzle")
		maxForeign := fs.Int("max-foreign", 2, "fragments: most strays (patches of another image) per puzzle")
		fragPlay := fs.Int("frag-play", 0, "fragments: games per puzzle played by sampling the current P (-init's fragment heads), their states added to V's examples")
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
		patch := fs.Int("patch", 40, "patch side in pixels of a new model (-init: must be the model's)")
		gap := fs.Int("gap", 4, "gap between patches in pixels of a new model (-init: must be the model's)")
		hints := fs.String("hints", "0", "heads and finetune: patches always placed in their true cell in the examples, or central")
		spEpochs := fs.Int("selfplay-epochs", 5, "selfplay: most epochs of self-play (each on -finetune-puzzles fresh puzzles)")
		patience := fs.Int("patience", 2, "selfplay: stop after this many epochs without a better -bench-val score")
		explore := fs.Int("explore", 0, "selfplay: first placements of each game drawn from the root's visits")
		pTarget := fs.String("p-target", "visits", "selfplay: P learns the root's visit distribution (visits) or the true cell of correct roots (truth)")
		vTarget := fs.String("v-target", "label", "selfplay: V learns each state's label (label) or the game's outcome (outcome)")
		terminals := fs.Bool("terminals", false, "selfplay: V also learns every complete reassembly the search valued, labelled with the truth")
		replay := fs.Int("replay", 0, "selfplay: fresh puzzles of supervised examples mixed in per epoch (0: -finetune-puzzles; -1: none)")
		benchVal := fs.String("bench-val", "", "selfplay: images benched after every epoch (one MCTS attempt, predicted reward, 100 simulations, seed 1); the best epoch by perfect puzzles is kept")
		benchTest := fs.String("bench-test", "", "selfplay: images benched after every epoch for the curve only (never used to choose)")
		benchCrops := fs.Int("bench-crops", 1, "selfplay: puzzles per image of -bench-val (those of -bench-test: 1)")
		seed := seedFlag(fs)
		out := outFlag(fs, "the model folder (required)")
		prog := progressFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if *trainSet == "" || *out == "" {
				return usagef("-train and -o are required")
			}
			if !slices.Contains(neural.Stages, *stage) {
				return usagef("-stage %q: want all, pair, heads, finetune, selfplay or fragments", *stage)
			}
			if *maxMissing < 0 || *maxForeign < 0 {
				return usagef("-max-missing and -max-foreign must be 0 or more")
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
			geom := neural.Geometry{Grid: 3, Patch: *patch, Gap: neural.GapOf(*gap)}
			if err := geom.Validate(); err != nil {
				return usagef("-patch %d -gap %d: %v", *patch, *gap, err)
			}
			nh, central, err := parseHints(*hints)
			if err != nil {
				return err
			}
			train, err := bench.GapImages(*trainSet)
			if err != nil {
				return err
			}
			val, err := bench.GapImages(*valSet)
			if err != nil {
				return err
			}
			m, info, err := neuralTrainModel(fs, *initDir, *stage, geom, *seed)
			if err != nil {
				return err
			}
			so := neural.SelfPlayOptions{Puzzles: *ftPuzzles, Search: neural.Options{Sims: *sims}, Explore: *explore, Terminals: *terminals, Replay: *replay}
			if so.P, ok = map[string]neural.PTarget{"visits": neural.PVisits, "truth": neural.PTruth}[*pTarget]; !ok {
				return usagef("-p-target %q: want visits or truth", *pTarget)
			}
			if so.V, ok = map[string]neural.VTarget{"label": neural.VLabel, "outcome": neural.VOutcome}[*vTarget]; !ok {
				return usagef("-v-target %q: want label or outcome", *vTarget)
			}
			curve := bench.GapCurve{Val: *benchVal, Test: *benchTest, Crops: *benchCrops, Log: env.Stderr}
			var benchFn func(context.Context, *neural.Model, int, int) (float64, error)
			if *benchVal != "" {
				benchFn = curve.Bench
			}
			p := newProgress(env, *prog)
			defer p.Done()
			rep, err := m.Train(ctx, train, val, neural.Plan{Stage: *stage, Grids: gs, FineTunePuzzles: *ftPuzzles, FineTuneSims: *sims, ValPuzzles: *valCount,
				SelfPlay: so, SelfPlayEpochs: *spEpochs, Patience: *patience, Bench: benchFn,
				Fragments: neural.FragOptions{MaxMissing: *maxMissing, MaxForeign: *maxForeign, Play: *fragPlay},
				Options: neural.TrainOptions{Crops: *crops, Puzzles: *puzzles, Epochs: *epochs, MaxSteps: *maxSteps, LearningRate: *lr, Value: vt, Seed: *seed,
					Hints: nh, CentralHint: central,
					Progress: func(stage string, s nn.Stats) { bench.TrainProgress(p, stage+" ", s) }},
				Out: *out, Info: info, Source: *trainSet, Log: p.Logf,
				Command: trainCommand(*stage, *grids, m.Patch, m.Gap, *hints, *seed, *maxMissing, *maxForeign, *fragPlay)})
			if err != nil {
				return err
			}
			if curve.Points != nil {
				rep["bench_curve"] = curve.Points
			}
			p.Done()
			return bench.GapTrained(env.Stdout, rep, *asJSON)
		}
	},
}

// trainCommand is the command recorded in a trained model's info.
func trainCommand(stage, grids string, patch, gap int, hints string, seed uint64, missing, foreign, play int) string {
	c := fmt.Sprintf("tessera jigsaw neural train -stage %s -grids %s -patch %d -gap %d -hints %s -seed %d", stage, grids, patch, gap, hints, seed)
	if stage == "fragments" {
		c += fmt.Sprintf(" -max-missing %d -max-foreign %d -frag-play %d", missing, foreign, play)
	}
	return c
}

// neuralTrainModel is the model train starts from: the model of folder
// initDir (another -gap given on the command line for a warm start of
// the pair stage, neural.Model.Regap), or a new one of geometry geom
// drawn from seed.
func neuralTrainModel(fs *flag.FlagSet, initDir, stage string, geom neural.Geometry, seed uint64) (*neural.Model, map[string]string, error) {
	if initDir == "" {
		m, err := neural.NewModel(geom, neural.Arch{}, seed)
		return m, map[string]string{}, err
	}
	m, info, err := neural.Load(initDir)
	if err != nil || m.Patch == geom.Patch && m.Gap == geom.GapPx() || !isSet(fs, "patch") && !isSet(fs, "gap") {
		return m, info, err
	}
	gap := m.Gap
	if !m.Regap(geom, stage) {
		return nil, nil, usagef("-init %s is a model for %d px patches with %d px gaps, not -patch %d -gap %d (another gap needs -stage pair or all)",
			initDir, m.Patch, m.Gap, geom.Patch, geom.GapPx())
	}
	info["warm_start"] = fmt.Sprintf("from %s (%d px gaps)", initDir, gap)
	return m, info, nil
}

// parseHints reads -hints as the gap solvers' option reads it: a number
// of patches, or "central" (one hint, the central cell's patch).
func parseHints(s string) (int, bool, error) {
	if n, err := (catalog.GapOptions{Hints: s}).Neural(0); err == nil && s != "" {
		return n.Hints, n.CentralHint, nil
	}
	return 0, false, usagef("-hints %q: want a number of patches, or central", s)
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
		set := fs.String("set", "", "images: folders and files, comma-separated (required)")
		grid := fs.Int("grid", 3, "the puzzles are GRID x GRID patches")
		hints := fs.String("hints", "0", "patches always placed in their true cell, or central")
		puzzles := fs.Int("puzzles", 200, "random puzzles")
		model := fs.String("model", "", "model folder (default: the one shipped for -patch and -gap)")
		patch := fs.Int("patch", 40, "patch side in pixels (picks the shipped model; with -model, the model's own)")
		gap := fs.Int("gap", 4, "gap between patches in pixels (picks the shipped model; with -model, the model's own)")
		seed := seedFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if *set == "" || *puzzles < 1 {
				return usagef("-set is required and -puzzles must be positive")
			}
			nh, central, err := parseHints(*hints)
			if err != nil {
				return err
			}
			if nh >= *grid**grid {
				return usagef("-hints %d: want fewer than the %d patches", nh, *grid**grid)
			}
			var m *neural.Model
			if *model == "" {
				m, _, err = neural.For(neural.Geometry{Grid: *grid, Patch: *patch, Gap: neural.GapOf(*gap)})
			} else {
				m, _, err = neural.Load(*model)
			}
			if err != nil {
				return err
			}
			if err := m.Fits(m.Geometry(*grid)); err != nil {
				return err
			}
			imgs, err := bench.GapImages(*set)
			if err != nil {
				return err
			}
			acc, err := m.HeadAccuracyHints(ctx, imgs, *grid, *puzzles, *seed, nh, central)
			if err != nil {
				return err
			}
			return bench.GapHeadAccuracy(env.Stdout, acc, *grid, *hints, *puzzles, *seed, *asJSON)
		}
	},
}
