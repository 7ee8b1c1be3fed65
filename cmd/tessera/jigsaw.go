package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/jigsaw"
)

func init() {
	register(&Command{
		Name:  "jigsaw",
		Short: "square-piece picture jigsaws: scramble, solve, score, bench",
		Long: `Pictorial jigsaws of square pieces: Type 1 (position unknown) and Type 2
(position and rotation unknown, -rotate), puzzle size known or not, pieces of
several images mixed in one bag.

A puzzle on disk is a PNG sheet of the scrambled pieces in a grid, with the
piece size given by -piece or recorded in the sheet; its ground truth is a
separate JSON file, used only by score. Images may be PNG (8 or 16 bits per
channel), JPEG or WebP; 28-pixel pieces are the convention of the benchmark
sets (MIT 432, McGill 540, BGU 805/2360/3300).`,
		Commands: []*Command{jigsawScrambleCmd, jigsawSolveCmd, jigsawScoreCmd, jigsawBenchCmd, jigsawMosaicCmd, jigsawNeuralCmd},
	})
}

// jigsawFlags are the flags that solve and bench share: -algo names an
// entry of catalog.Jigsaw (or, for solve, catalog.Gaps), a flag per option
// of catalog.JigsawOptions (BindFlags), the run's budget and output.
type jigsawFlags struct {
	algoFlags[jigsaw.Solver, catalog.JigsawRun]
	o            catalog.JigsawOptions
	timeout      *time.Duration
	asJSON, prog *bool
}

func (f *jigsawFlags) define(fs *flag.FlagSet) {
	f.o = catalog.JigsawOptions{Seed: 1}.Defaults() // shown as the flags' defaults
	f.algoFlags.define(fs, catalog.Jigsaw, "greedy", " or, for solve, "+strings.Join(catalog.Gaps.IDs(), ", ")+" (gap puzzles, learned: see -grid)", &f.o)
	f.timeout = timeoutFlag(fs, 10*time.Minute)
	f.asJSON, f.prog = jsonFlag(fs), progressFlag(fs)
}

// gaps reports whether -algo names a solver of gap puzzles.
func (f *jigsawFlags) gaps() bool {
	_, err := catalog.Gaps.Lookup(f.algo)
	return err == nil
}

// options checks the flags for -algo (a catalog.Jigsaw solver) and
// returns the options; a flag of others (those of other lists) that was
// set is refused as not applying.
func (f *jigsawFlags) options(others ...[]catalog.Option) (catalog.JigsawOptions, error) {
	if _, err := catalog.Jigsaw.Lookup(f.algo); err != nil {
		return f.o, usagef("-algo %s: %v", f.algo, err)
	}
	if err := f.o.Check(); err != nil {
		return f.o, usagef("-algo %s: %v", f.algo, err)
	}
	if err := f.checkOptions(); err != nil {
		return f.o, err
	}
	return f.o, refuseOthers(f.fs, f.algo, catalog.Gaps.IDs(), others)
}

// refuseOthers refuses the first flag of others (the options of the
// solvers ids, not algo's) that was set on fs, but for the options of every
// solver (a seed).
func refuseOthers(fs *flag.FlagSet, algo string, ids []string, others [][]catalog.Option) error {
	for _, list := range others {
		for _, name := range catalog.SetFlags(fs, list) {
			if i := slices.IndexFunc(list, func(o catalog.Option) bool { return o.Flag == name }); !list[i].All {
				return usagef("-%s applies to -algo %s, not %s", name, strings.Join(ids, ", "), algo)
			}
		}
	}
	return nil
}

// run is the run-time part of -algo's solve: its progress (shown on p)
// and its options.
func (f *jigsawFlags) run(p *progress.Reporter) catalog.JigsawRun {
	return catalog.JigsawRun{JigsawOptions: f.o, Hooks: catalog.JigsawHooks{Progress: bench.JigsawProgress(p, f.o.Gens.Flag(0))}}
}

var jigsawSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-piece N] [-rotate] [-size RxC] [-holes] [-images K] [-algo ID] [-metric mgc|ssd] [ga flags] [mcts flags] sheet.png|image [-o solved.png] [-placement p.json] [-snapshots DIR] [-json]",
	Short:     "reassemble a sheet of pieces",
	Long: `Solve reads a sheet of square pieces (written by scramble, or any image
cut into a grid of -piece pixels; fully transparent cells are not pieces),
computes the compatibilities of every pair of edges, assembles the pieces
and writes the picture (-o) and the placement (-placement, JSON for score).

-rotate says pieces may be turned (Type 2). -size ROWSxCOLS gives the size of
the picture in pieces when it is known; otherwise the solver finds it.
Without -piece a sheet that does not record its piece size is measured: the
grid of equal squares (with or without gutters of one colour between them)
whose cell boundaries stand out; a sheet on which no size, or more than one,
can be told is refused, asking for -piece.

-holes says pieces may be missing and strays from another picture mixed in
(-algo greedy or ga, one picture): the solver places what fits in the
picture's frame (-size when known, else estimated), leaves holes where
pieces are missing and sets aside the pieces that fit nowhere; the
placement records the frame.
-images K assembles a mixed bag into K pictures, written as solved-1.png,
solved-2.png, ...; with -algo ga, -images 0 finds how many pictures the bag
holds. The report ends with the share of adjacencies in the answer whose
edges are best buddies: a quality estimate that needs no ground truth (low
values mean an unreliable answer).

Bounds: a file that is not a usable image (empty, not PNG, JPEG or WebP,
corrupt, over 512 MiB or 100 Mpx) is refused with what is wrong with it
(exit 2); so is a -piece other than the size the sheet records (unless
-force-piece), a sheet of more than -max-pieces pieces (default ` + fmt.Sprint(jigsaw.DefaultMaxPieces) + `,
checked before decoding), and a -size or -images the pieces cannot make.
-timeout covers the whole command: reading, decoding and cutting the
sheet, the compatibilities and the search. When it ends the best layout
so far is written (exit 1); if there is none yet, the message says at
which stage the budget ended.

The solvers (-algo):

` + catalog.Jigsaw.Help() + `
-algo ga is the genetic algorithm of Sholomon, David and Netanyahu (AAAI
2014), seeded by greedy solutions. Its settings: -pop, -gens, -elite,
-mutation, -random-init, -free-seed, -no-frame, -seed (the same seed gives
the same answer); -snapshots DIR writes the best layout of every generation
as DIR/gen-NNN.png (DIR/picture-K-gen-NNN.png for picture K of a bag);
-progress shows the generation and the best fitness on stderr.

Puzzles with gaps between their patches (Alphazzle, package jigsaw/neural):

` + catalog.Gaps.Help() + `
The argument is then an image, whose central square is cut into -grid x
-grid patches of -patch pixels -gap pixels apart and shuffled by -seed, or
a sheet of such patches. Learned networks guide the search (-sims per
placement, -cpuct, -batch, -backup mean|max, -choose visits|value) with
the reward of a complete reassembly predicted by the value network or, for
an image, the truth (-reward gt); -attempts K tries K patch orders and
keeps the answer the value network prefers; -hybrid W adds the classic
compatibilities to the policy; -model DIR replaces the shipped model. -o
writes the reassembly with its gaps.`,
	Args: want(1, "give one sheet"),
	Flags: func(fs *flag.FlagSet) Runner {
		sv := bench.DefaultJigsawSolve()
		catalog.BindFlags(fs, &sv)
		var sf jigsawFlags
		sf.define(fs)
		out := outFlag(fs, "the solved picture (PNG)")
		var nf neuralFlags
		nf.define(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			ctx, cancel := catalog.WithTimeout(ctx, *sf.timeout)
			defer cancel()
			if sf.gaps() {
				return neuralSolve(ctx, env, &nf, sf.algo, args[0], *out, sf.o.Seed, *sf.asJSON, sf.list)
			}
			if _, err := sf.options(nf.list); err != nil {
				return err
			}
			pr := newProgress(env, *sf.prog)
			defer pr.Done()
			r, err := sv.Run(ctx, args[0], sf.algo, sf.run(pr), *out, *sf.timeout, pr.Done)
			if err != nil {
				return err
			}
			return r.Write(env.Stdout, *sf.asJSON)
		}
	},
}

var jigsawBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set DIR|FILE,FILE,... [-piece N] [-type 1|2] [-dims known|unknown] [-bag K] [-algo ID] [-metric mgc|ssd] [ga flags] [-seed S] [-out DIR] [-json]",
	Short:     "cut, scramble, solve and score every image of a set",
	Long: `Bench cuts every image of -set into -piece pixel pieces, scrambles them
from -seed (turning them too for -type 2), solves the puzzle and scores it,
and prints per image the direct and neighbour accuracy, whether it is
perfect, the seconds taken (compatibilities plus assembly; decoding and
cutting are not counted) and the CPU seconds of the process meanwhile (all
cores: a figure that other load hardly changes), then the averages, the
number of perfect reconstructions and the peak resident memory.

-set is a folder of PNG, JPEG or WebP images, a comma-separated list of
image files, or the name of a set in the shared data (mit432, mcgill540,
bgu805, bgu2360, bgu3300). -dims says whether the solver is told the size
of the picture: known by default for Type 1, unknown for Type 2 (the
standard conditions). Direct accuracy is absolute for Type 1 with a known size and
takes the best global rotation and shift otherwise. -out writes each
reconstruction as DIR/NAME.png. -timeout bounds each puzzle, decoding and
cutting included; a puzzle whose budget ends without an answer, or whose
solver fails, is reported with its error, and the command then exits 1.

-bag K mixes the pieces of K images at a time (the set in order: images 1
to K, then K+1 to 2K, ...) into one puzzle of unknown sizes: -algo ga is
not told how many pictures the bag holds, -algo greedy is told K. Each
source image is scored against the output that holds most of it; the
report counts the bags that came out as the right number of pictures.
-out writes DIR/bag-B-N.png. The seconds are per puzzle (per bag).

The solvers (-algo; ga's flags -pop, -gens, -elite, -mutation,
-random-init, -free-seed apply, and -seed seeds it too):

` + catalog.Jigsaw.Help() + `
With -json: one line per image {"image", "pieces", "direct", "neighbor",
"perfect", "seconds", ...} (accuracies as fractions; "bag", "outputs",
"rectangles" with -bag: the outputs that are full rectangles), then
{"summary": true, "images", "direct", "neighbor", "perfect", "seconds",
"cpu_seconds", "peak_rss_mib", ...} with the averages, the perfect count
and the peak memory (and "bags", "outputs_right", "rectangles" with -bag).`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		set := fs.String("set", "", "folder of images, comma-separated image files, or a shared set name (required)")
		b := bench.Jigsaw{Piece: 28, Type: 1}
		catalog.BindFlags(fs, &b)
		dims := fs.String("dims", "", "known or unknown: whether the solver is told the size (default: known for -type 1, unknown for -type 2)")
		var sf jigsawFlags
		sf.define(fs)
		data := dataFlag(fs)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if sf.gaps() {
				return usagef("-algo %s: gap puzzles have their own bench, tessera jigsaw neural bench", sf.algo)
			}
			if _, err := sf.options(); err != nil {
				return err
			}
			p := newProgress(env, *sf.prog)
			defer p.Done()
			b.Progress, b.Hooks = p, sf.run(p).Hooks
			b.Spec = catalog.Spec[catalog.JigsawOptions]{Solver: sf.algo, Options: sf.o, Budget: catalog.Budget{Timeout: *sf.timeout}}
			if err := b.Prepare(*set, *data, *dims); err != nil {
				return err
			}
			return withRemote(ctx, *natsURL, func(remote bench.Remote) error {
				b.Remote = remote
				return b.Run(ctx, &bench.Writer{W: env.Stdout, JSON: *sf.asJSON})
			})
		}
	},
}

var jigsawScoreCmd = &Command{
	Name:      "score",
	UsageLine: "-truth truth.json [-absolute] [-json] placement.json",
	Short:     "score a placement against the ground truth",
	Long: `Score compares a placement (from solve -placement) with the ground truth
(from scramble -truth) and prints, per source image and overall, the direct
accuracy (pieces in their true cell), the neighbour accuracy (true
adjacencies kept) and whether the image is perfect.

Neighbour accuracy never depends on a global rotation or shift. Direct
accuracy takes the best global rotation and shift of the output image, as
is fair for Type 2 and unknown size; -absolute counts only pieces upright in
their true cell from the output's top-left corner (Type 1, known size).

When pieces are missing or strays mixed in (scramble -drop, -extra), the
accuracies count the pieces present and the adjacencies between two of
them, and a last line tells how many missing pieces are left as holes
where they belong (an empty cell of the placement's frame, under the
picture's best rotation and shift), how many strays are set aside
(unplaced) and how many of the pictures' own pieces are.`,
	Flags: func(fs *flag.FlagSet) Runner {
		truthPath := fs.String("truth", "", "ground truth JSON (required)")
		absolute := fs.Bool("absolute", false, "direct accuracy without global rotation or shift")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if *truthPath == "" {
				return usagef("-truth is required")
			}
			if len(args) != 1 {
				return usagef("give one placement file")
			}
			return bench.ScoreJigsawFiles(env.Stdout, *truthPath, args[0], *absolute, *asJSON)
		}
	},
}
