package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"tessera/nn"
	"tessera/samegame"
	"tessera/samegame/policy"
)

// The network solvers are Algorithm values beyond package samegame's own.
const (
	algoNN      samegame.Algorithm = 200 + iota // greedy play of the policy network
	algoNNBeam                                  // beam search guided by the network
	algoNNValue                                 // greedy one-step lookahead on the value head
	algoNNMCTS                                  // PUCT tree search with the network's priors and values
	algoNNAfter                                 // greedy play of the afterstate network
)

// sgModelPath is the -model flag of the solvers (empty: the shipped model),
// sgViews their -views.
var (
	sgModelPath string
	sgViews     int
)

// defineNNFlags adds the network solvers' flags to a solver flag set.
func defineNNFlags(fs *flag.FlagSet) {
	fs.StringVar(&sgModelPath, "model", "", "nn, nn-after, nn-value, nn-beam, nn-mcts: the network file (default: the shipped dust network, for nn-after the shipped afterstate network; nn-beam -width defaults to 2000)")
	fs.IntVar(&sgViews, "views", 1, "with an afterstate -model: symmetric views of each board whose ratings are averaged (2: and its mirror image; up to 10)")
}

// sgParseAlgorithm reads the -algo names of package samegame plus nn and
// nn-beam.
func sgParseAlgorithm(s string) (samegame.Algorithm, error) {
	switch strings.ToLower(s) {
	case "nn":
		return algoNN, nil
	case "nn-beam":
		return algoNNBeam, nil
	case "nn-value":
		return algoNNValue, nil
	case "nn-mcts":
		return algoNNMCTS, nil
	case "nn-after":
		return algoNNAfter, nil
	}
	a, err := samegame.ParseAlgorithm(s)
	if err != nil {
		return 0, fmt.Errorf("%w, nn, nn-after, nn-value, nn-beam or nn-mcts", err)
	}
	return a, nil
}

// sgAlgoName names an algorithm as -algo reads it.
func sgAlgoName(a samegame.Algorithm) string {
	switch a {
	case algoNN:
		return "nn"
	case algoNNBeam:
		return "nn-beam"
	case algoNNValue:
		return "nn-value"
	case algoNNMCTS:
		return "nn-mcts"
	case algoNNAfter:
		return "nn-after"
	}
	return a.String()
}

var (
	policyMu    sync.Mutex
	policyCache = map[policyKey]*policy.Policy{}
)

// policyKey is a loaded policy's file and -views.
type policyKey struct {
	path    string
	views   int
	shipped bool // the shipped afterstate network
}

// loadPolicy returns the policy of the file path ("" for the shipped one,
// or with after the shipped afterstate network), loading each file once,
// with -views set.
func loadPolicy(path string, after bool) (*policy.Policy, error) {
	policyMu.Lock()
	defer policyMu.Unlock()
	key := policyKey{path, sgViews, after && path == ""}
	if p, ok := policyCache[key]; ok {
		return p, nil
	}
	var p *policy.Policy
	var err error
	if path == "" {
		def := policy.Default
		if after {
			def = policy.DefaultAfterstate
		}
		var d *policy.Policy
		if d, err = def(); err == nil {
			c := *d // the shared default stays as it is
			p = &c
		}
	} else {
		p, err = policy.Load(path)
	}
	if err != nil {
		return nil, err
	}
	p.Views = sgViews
	policyCache[key] = p
	return p, nil
}

// sgSolve is samegame.Solve with the network solvers added.
func sgSolve(ctx context.Context, b *samegame.Board, opts samegame.Options) (samegame.Solution, error) {
	if opts.Algorithm < algoNN {
		return samegame.Solve(ctx, b, opts)
	}
	p, err := loadPolicy(sgModelPath, opts.Algorithm == algoNNAfter)
	if err != nil {
		return samegame.Solution{}, err
	}
	switch opts.Algorithm {
	case algoNN:
		return p.Greedy(ctx, b)
	case algoNNAfter:
		if !p.IsAfterstate() {
			return samegame.Solution{}, fmt.Errorf("nn-after: %s is not an afterstate network (samegame train -after)", sgModelPath)
		}
		return p.Greedy(ctx, b)
	case algoNNValue:
		return p.Lookahead(ctx, b)
	case algoNNMCTS:
		return p.MCTS(ctx, b, policy.MCTSOptions{Iterations: int64(opts.Iterations)})
	}
	return p.Beam(ctx, b, policy.BeamOptions{Width: opts.BeamWidth})
}

var samegameDatasetCmd = &Command{
	Name:      "dataset",
	UsageLine: "[-rules dust] [-n K] [-seed S] [-solver exact|dfs|beam] [-width W] [-prefix P] [-timeout D] [-workers W] -o FILE",
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
	Flags: func(fs *flag.FlagSet) Runner {
		rulesName := fs.String("rules", "dust", "rules: dust (or standard with -solver dfs)")
		size := fs.String("size", "8x6", "board size COLSxROWS")
		colors := fs.Int("colors", 5, "number of colours")
		n := fs.Int("n", 100, "number of boards")
		seed := seedFlag(fs)
		solver := fs.String("solver", "exact", "exact, dfs or beam")
		width := fs.Int("width", 2000, "beam width of -solver beam")
		timeout := timeoutFlag(fs, time.Minute)
		workers := fs.Int("workers", 2, "boards solved at once")
		prefix := fs.Int("prefix", 0, "play 0 to this many random clicks on each board before solving (mid-game positions, cheaper to solve)")
		labels := fs.Int("labels", 0, "with -solver beam: write up to this many positions per depth on the beam's shortest lines, each with all its good clicks (see above)")
		prog := progressFlag(fs)
		out := outFlag(fs, "the boards with their solutions (required)")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			rules, err := samegame.ParseRules(*rulesName)
			if err != nil {
				return usagef("%v", err)
			}
			w, h, err := parseWxH(*size)
			if err != nil {
				return err
			}
			if *colors < 1 || *colors > samegame.MaxColors || *n < 1 || *n > 1000000 || *workers < 1 || *prefix < 0 || *labels < 0 {
				return usagef("-colors (1 to %d), -n (1 to 1,000,000), -workers (at least 1), -prefix or -labels (not negative) out of range", samegame.MaxColors)
			}
			if *out == "" {
				return usagef("-o FILE is required")
			}
			algo, err := samegame.ParseAlgorithm(*solver)
			if err != nil || (algo != samegame.Exact && algo != samegame.DFS && algo != samegame.Beam) || *width < 1 {
				return usagef("-solver %q: want exact, dfs or beam (with a positive -width)", *solver)
			}
			if algo == samegame.Exact && rules != samegame.Dust {
				return usagef("-solver exact needs dust rules")
			}
			notation := samegame.Digits
			if rules == samegame.Dust {
				notation = samegame.Letters
			}
			rng := rand.New(rand.NewPCG(*seed, 0x67656e)) // the generator of "samegame generate"
			entries := make([]samegame.Entry, *n)
			list := make([]int, *n)
			for i := range entries {
				b := samegame.Random(w, h, *colors, rules, rng)
				if *prefix > 0 {
					for range rng.IntN(*prefix + 1) {
						if gs := b.Moves(nil); len(gs) > 0 {
							b.PlayGroup(gs[rng.IntN(len(gs))])
						}
					}
				}
				entries[i] = samegame.Entry{Name: "position " + strconv.Itoa(i+1), Board: b, Notation: notation}
				list[i] = i + 1
			}
			if *labels > 0 {
				if algo != samegame.Beam || rules != samegame.Dust {
					return usagef("-labels needs -solver beam and dust rules")
				}
				return writeLabels(ctx, env, entries, *width, *labels, *workers, *timeout, *prog, *out)
			}
			opts := samegame.Options{Algorithm: algo, Seed: *seed, BeamWidth: *width}
			p := newProgress(env, *prog)
			defer p.Done()
			count := p.Counter("boards", *n)
			recs := make([]sgBenchRecord, *n)
			var mu sync.Mutex
			proven := 0
			parallelFor(ctx, *n, *workers, func(i int) {
				r := benchOne(ctx, entries[i], i+1, rules, opts, *timeout, false)
				mu.Lock()
				recs[i] = r
				if r.Optimal != nil && *r.Optimal {
					proven++
				}
				mu.Unlock()
				count.Add(1)
			})
			p.Done()
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := writeFileAtomic(*out, []byte(formatBenchSet(entries, list, recs, rules, opts, *timeout))); err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "%d boards, %d solved optimally, written to %s\n", *n, proven, *out)
			return nil
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
	Flags: func(fs *flag.FlagSet) Runner {
		data := fs.String("data", "", "training files, comma-separated (required)")
		conv := fs.String("conv", "32,32", "3x3 convolution channels, comma-separated (empty: none)")
		hidden := fs.String("hidden", "512", "dense layer widths, comma-separated")
		epochs := fs.Int("epochs", 30, "most epochs")
		steps := fs.Int("steps", 0, "stop after this many batches (0: no limit)")
		batch := fs.Int("batch", 64, "batch size")
		lr := fs.Float64("lr", 1e-3, "Adam learning rate")
		val := fs.Float64("val", 0.1, "fraction of examples held out for validation")
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
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
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
			geo := policy.DustGeometry
			var pol *policy.Policy
			if *init != "" {
				pol, err = policy.Load(*init)
				if err == nil && *after > 0 && !pol.IsAfterstate() {
					// A cell policy's trunk under a new afterstate output.
					from := pol
					sp := from.Net().Spec()
					pol, err = policy.New(from.Geometry(), policy.Arch{Conv: sp.Conv, Hidden: sp.Hidden, After: true}, *seed)
					if err == nil {
						pol.Info = from.Info
						_, err = pol.Net().CopyLayers(from.Net())
					}
				}
			} else {
				pol, err = policy.New(geo, policy.Arch{Conv: convW, Hidden: hiddenW, Value: *value && *after == 0, After: *after > 0}, *seed)
			}
			if err != nil {
				return err
			}
			if pol.Geometry() != geo {
				return fmt.Errorf("samegame train: %s is a network for %+v boards", *init, pol.Geometry())
			}
			if pol.IsAfterstate() != (*after > 0) {
				return usagef("%s is an afterstate network: train it with -after K", *init)
			}
			var d nn.Data
			boards := 0
			for f := range strings.SplitSeq(*data, ",") {
				entries, _, err := readSetFile(env, f, "dust")
				if err != nil {
					return err
				}
				var fd nn.Data
				var k int
				if *after > 0 {
					fd, k, err = geo.AfterExamples(entries, *after, *seed)
				} else {
					fd, k, err = geo.Examples(entries, !*all, pol.HasValue())
				}
				if err != nil {
					return fmt.Errorf("%s: %w", f, err)
				}
				d.X, d.Y, d.N = append(d.X, fd.X...), append(d.Y, fd.Y...), d.N+fd.N
				boards += k
			}
			if d.N < 2*max(*after, 1) {
				return errors.New("samegame train: fewer than 2 examples in -data (-after needs positions with \"good\" lines)")
			}
			opts := nn.TrainOptions{Epochs: *epochs, MaxSteps: *steps, BatchSize: *batch,
				LearningRate: *lr, Patience: *patience, Seed: *seed, Augment: geo.Augment, Metric: geo.Accuracy}
			if *after > 0 {
				opts.Group, opts.Loss, opts.Metric = *after, nn.LossSoftmaxCE, nn.GroupAccuracy
			}
			p := newProgress(env, *prog)
			defer p.Done()
			v := *val
			if v == 0 {
				v = -1
			}
			ctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			opts.Validation = v
			opts.Progress = func(s nn.Stats) {
				if s.EpochDone {
					p.Logf("epoch %d: loss %.4f, validation loss %.4f, accuracy %.3f, %.0f examples/s", s.Epoch, s.Loss, s.ValLoss, s.ValMetric, s.ExamplesSec)
				} else {
					p.Printf("epoch %d step %d: loss %.4f, %.0f examples/s", s.Epoch, s.Step, s.Loss, s.ExamplesSec)
				}
			}
			st, err := pol.Net().Train(ctx, d, opts)
			p.Done()
			stopped := errors.Is(err, context.DeadlineExceeded) && *timeout > 0
			if err != nil && !stopped {
				return err
			}
			if *init != "" && pol.Info != nil {
				pol.Info["init"] = *init + ", trained on " + pol.Info["data"] + " for " + pol.Info["training"]
			} else {
				pol.Info = map[string]string{}
			}
			for k, v := range map[string]string{
				"data":     dataInfo(boards, d.N, *after, *data),
				"training": fmt.Sprintf("%d epochs (best %d), %d steps of %d, lr %g, seed %d", st.Epoch, st.BestEpoch, st.Step, *batch, *lr, *seed),
				"result":   fmt.Sprintf("validation loss %.4f, accuracy %.3f", st.ValLoss, st.ValMetric),
				"arch":     fmt.Sprintf("conv %v, hidden %v, %d weights", pol.Net().Spec().Conv, pol.Net().Spec().Hidden, pol.Net().Params()),
			} {
				pol.Info[k] = v
			}
			if err := pol.Save(*out); err != nil {
				return err
			}
			what := fmt.Sprintf("on %d positions of %d boards", d.N, boards)
			if *after > 0 {
				what = fmt.Sprintf("an afterstate network on %d positions (%d children each)", boards, *after)
			}
			fmt.Fprintf(env.Stdout, "trained %s: %d epochs (best %d), %d steps, %.0f examples/s; validation loss %.4f, accuracy %.3f; %d weights written to %s\n",
				what, st.Epoch, st.BestEpoch, st.Step, st.ExamplesSec, st.ValLoss, st.ValMetric, pol.Net().Params(), *out)
			return nil
		}
	},
}

// dataInfo describes a network's training data for its Info.
func dataInfo(boards, examples, after int, files string) string {
	if after > 0 {
		return fmt.Sprintf("%d labelled positions, %d children each (afterstate), from %s", boards, after, files)
	}
	return fmt.Sprintf("%d boards, %d positions from %s", boards, examples, files)
}

// writeLabels solves the boards of entries with samegame.BeamLabels, each
// within timeout (a board that takes longer is left out and counted), and
// writes the labelled positions to out in the set format, each with its
// "left" and "good" lines.
func writeLabels(ctx context.Context, env *Env, entries []samegame.Entry, width, perDepth, workers int, timeout time.Duration, prog bool, out string) error {
	p := newProgress(env, prog)
	defer p.Done()
	count := p.Counter("boards", len(entries))
	texts := make([]string, len(entries))
	errs := make([]error, len(entries))
	total, skipped := 0, 0
	var mu sync.Mutex
	parallelFor(ctx, len(entries), workers, func(i int) {
		defer count.Add(1)
		e := entries[i]
		bctx, cancel := context.WithTimeout(ctx, timeout)
		labels, _, err := samegame.BeamLabels(bctx, e.Board, width, perDepth)
		cancel()
		if err != nil {
			if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				mu.Lock()
				skipped++
				mu.Unlock()
				return
			}
			errs[i] = fmt.Errorf("%s: %w", e.Name, err)
			return
		}
		var sb strings.Builder
		for j, l := range labels {
			pos := e.Board.Clone()
			for _, m := range l.Moves {
				if _, err := pos.Play(m); err != nil {
					errs[i] = fmt.Errorf("%s: %w", e.Name, err)
					return
				}
			}
			good := make([]string, len(l.Good))
			for k, m := range l.Good {
				good[k] = fmt.Sprintf("%d,%d", m.X, m.Y)
			}
			fmt.Fprintf(&sb, "\n%s.%d\nboard\n%sleft %d\ngood %s\n", e.Name, j+1, samegame.Format(pos, samegame.Letters), l.Left, strings.Join(good, ";"))
		}
		texts[i] = sb.String()
		mu.Lock()
		total += len(labels)
		mu.Unlock()
	})
	p.Done()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	text := fmt.Sprintf("# tessera samegame dataset -labels %d -width %d: %d positions of %d boards\n", perDepth, width, total, len(entries)-skipped) + strings.Join(texts, "")
	if err := writeFileAtomic(out, []byte(text)); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%d boards, %d labelled positions, written to %s", len(entries)-skipped, total, out)
	if skipped > 0 {
		fmt.Fprintf(env.Stdout, " (%d boards left out: over -timeout %v)", skipped, timeout)
	}
	fmt.Fprintln(env.Stdout)
	return nil
}
