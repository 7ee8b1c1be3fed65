package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"tessera/imageio"
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

var jigsawScrambleCmd = &Command{
	Name:      "scramble",
	UsageLine: "-piece N [-rotate] [-drop P] [-extra FILE:K] [-seed S] [-crop=false] [-cols C] [-timeout D] IMAGE... -o sheet.png [-truth truth.json] [-json]",
	Short:     "cut images into pieces and write a scrambled sheet and its ground truth",
	Long: `Scramble cuts each IMAGE into square pieces of -piece pixels, shuffles all
the pieces together (several images make a mixed bag) and, with -rotate,
turns each by a random multiple of 90 degrees (Type 2). It writes the pieces
as a PNG sheet (-o; 16-bit when a source is) with the piece size recorded in
it, and the ground truth as JSON (-truth) for tessera jigsaw score.

An image whose sides are not multiples of the piece size has its centre
cut (the largest multiple) and the command says so on stderr; -crop=false
refuses it instead. -drop P loses a share P (0 to 1) of each picture's
pieces and -extra FILE:K mixes in K stray pieces cut from the picture
FILE at the same piece size, as in a real box with pieces lost and
strays from another; the truth records both (solve them with solve
-holes). The sheet has the grid of the image for a single
image, or -cols columns (default: near square). An image may make at most
` + fmt.Sprint(jigsaw.DefaultMaxPieces) + ` pieces. -timeout bounds the whole command (decoding,
cutting, writing); when it ends nothing is written.`,
	Flags: func(fs *flag.FlagSet) Runner {
		piece := fs.Int("piece", 28, "piece side in pixels")
		rotate := fs.Bool("rotate", false, "turn pieces by random multiples of 90 degrees (Type 2)")
		crop := fs.Bool("crop", true, "cut the centre of images whose sides are not multiples of -piece (false: refuse them)")
		cols := fs.Int("cols", 0, "columns of the sheet (default: the image's grid, or near square for a mixed bag)")
		drop := fs.Float64("drop", 0, "lose this share (0 to 1) of each picture's pieces")
		extra := fs.String("extra", "", "mix in K stray pieces cut from another picture, `FILE:K`")
		seed := seedFlag(fs)
		timeout := durationFlag(fs, "timeout", 10*time.Minute, "stop after this `duration` (0: no limit); nothing is written then")
		out := outFlag(fs, "the sheet (PNG)")
		truthPath := fs.String("truth", "", "write the ground truth (JSON) to this file")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if err := imagesAndOut(args, *out, "sheet.png"); err != nil {
				return err
			}
			if *piece < 2 {
				return usagef("-piece %d: at least 2 pixels", *piece)
			}
			if !(*drop >= 0 && *drop < 1) {
				return usagef("-drop %v: want a share from 0 to below 1", *drop)
			}
			extraFile, extraK, err := parseExtra(*extra)
			if err != nil {
				return err
			}
			ctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			r := bench.JigsawScrambled{Sheet: *out, Truth: *truthPath, Rotate: *rotate, Seed: *seed, Cols: *cols}
			load := func(path, what string) (*jigsaw.Grid, error) {
				if err := regularFile(path); err != nil {
					return nil, usagef("%s%v", what, err)
				}
				g, err := bench.LoadJigsawGrid(ctx, path, *piece, *crop)
				return g, jigsawInputError(err, "-timeout", *timeout)
			}
			for _, path := range args {
				g, err := load(path, "")
				if err != nil {
					return err
				}
				r.Grids = append(r.Grids, g)
			}
			so := jigsaw.ScrambleOptions{Rotate: *rotate, Seed: *seed, Drop: *drop, StrayPieces: extraK}
			if extraFile != "" {
				g, err := load(extraFile, "-extra: ")
				if err != nil {
					return err
				}
				if extraK > len(g.Pieces) {
					return usagef("-extra %s: %d strays asked, the picture makes %d pieces", *extra, extraK, len(g.Pieces))
				}
				so.Strays = []*jigsaw.Grid{g}
			}
			truth := r.Scramble(so)
			if err := bench.WriteFileAtomic(*out, func(w io.Writer) error { return jigsaw.WriteSheetContext(ctx, w, r.Puzzle, r.Cols) }); err != nil {
				return jigsawInputError(err, "-timeout", *timeout)
			}
			if *truthPath != "" {
				if err := bench.WriteFileAtomic(*truthPath, truth.WriteJSON); err != nil {
					return err
				}
			}
			return r.Write(env.Stdout, env.Stderr, *asJSON)
		}
	},
}

// parseExtra reads -extra FILE:K ("" gives "", 0).
func parseExtra(v string) (string, int, error) {
	if v == "" {
		return "", 0, nil
	}
	i := strings.LastIndexByte(v, ':')
	k, err := strconv.Atoi(v[i+1:])
	if i <= 0 || err != nil || k < 1 {
		return "", 0, usagef("-extra %q: want FILE:K, K strays of at least 1", v)
	}
	return v[:i], k, nil
}

var jigsawMosaicCmd = &Command{
	Name:      "mosaic",
	UsageLine: "[-cols C] [-trim N] [-size WxH] IMAGE... -o big.png",
	Short:     "tile pictures into one large picture (a big puzzle to scramble)",
	Long: `Mosaic tiles the IMAGEs row by row, -cols to a row (default: near square),
into one picture written as PNG (-o; 16-bit when a source is): a large
puzzle for scramble or bench. Every tile has the size of the first image;
an image of the other orientation is turned a quarter turn clockwise, any
other size is refused. -trim N first cuts N pixels off every side of each
image (the Kodak pictures have a grey frame 2 or 3 pixels wide, which
would draw grey lines across the mosaic). -crop WxH then keeps the central
W x H pixels of each image, so pictures of different sizes can be tiled
(an image of the other orientation is turned first). -size WxH keeps the
central W x H pixels of the mosaic.

	tessera jigsaw mosaic -cols 4 -trim 4 -size 2800x2800 -o big.png kodak24/*.png

makes a 10,000-piece puzzle of 28-pixel pieces from the 24 Kodak pictures;

	tessera jigsaw mosaic -cols 3 -crop 1652x1120 -o big.png bgu3300/*.jpg bgu2360/*.jpg

a 14,160-piece one (177 x 80 pieces) from the six largest benchmark
pictures, whose tile borders fall between pieces.`,
	Flags: func(fs *flag.FlagSet) Runner {
		cols := fs.Int("cols", 0, "tiles per row (default: near square)")
		size := fs.String("size", "", "keep the central WxH pixels")
		trim := fs.Int("trim", 0, "cut this many pixels off every side of each image first")
		crop := fs.String("crop", "", "then keep the central WxH pixels of each image (turned to the same orientation first)")
		out := outFlag(fs, "the picture (PNG)")
		return func(ctx context.Context, env *Env, args []string) error {
			if err := imagesAndOut(args, *out, "big.png"); err != nil {
				return err
			}
			if *trim < 0 {
				return usagef("-trim %d: want 0 or more pixels", *trim)
			}
			var opts jigsaw.MosaicOptions
			for _, f := range []struct {
				name, v string
				p       *image.Point
			}{{"crop", *crop, &opts.Crop}, {"size", *size, &opts.Size}} {
				if f.v != "" && !parseSize(f.v, &f.p.X, &f.p.Y) {
					return usagef("-%s %q: want WxH pixels", f.name, f.v)
				}
			}
			for _, path := range args {
				if err := regularFile(path); err != nil {
					return usagef("%v", err)
				}
			}
			if *cols < 0 || *cols > len(args) {
				return usagef("-cols %d: want 1 to %d, the number of images (0: near square)", *cols, len(args))
			}
			opts.Cols, opts.Trim = *cols, *trim
			pic, tile, depth, err := jigsaw.MosaicFiles(ctx, args, opts)
			var me *jigsaw.MosaicError
			switch {
			case errors.As(err, &me) && me.Image >= 0:
				return usagef("-%s: %s is only %dx%d", me.Option, args[me.Image], me.Size.X, me.Size.Y)
			case errors.As(err, &me):
				return usagef("-%s: want WxH pixels within %dx%d", me.Option, me.Size.X, me.Size.Y)
			case err != nil:
				return jigsawInputError(err, "", 0)
			}
			if err := bench.WriteFileAtomic(*out, func(w io.Writer) error { return png.Encode(ctxWriter{ctx, w}, pic) }); err != nil {
				return err
			}
			b := pic.Bounds()
			fmt.Fprintf(env.Stdout, "wrote %s: %dx%d pixels, %d-bit, %d tiles of %dx%d\n", *out, b.Dx(), b.Dy(), depth, len(args), tile.X, tile.Y)
			return nil
		}
	},
}

// imagesAndOut refuses a command line without images (args) or without
// -o (out), named as file.
func imagesAndOut(args []string, out, file string) error {
	if len(args) == 0 {
		return usagef("no image given")
	}
	if out == "" {
		return usagef("-o %s is required", file)
	}
	return nil
}

// parseSize reads "AxB", both at least 1, into a and b.
func parseSize(v string, a, b *int) bool {
	_, err := fmt.Sscanf(v, "%dx%d", a, b)
	return err == nil && *a >= 1 && *b >= 1
}

// jigsawInputError maps an error reading or writing a picture: the end
// of the budget named by flag (d) is a failure that says so; anything
// else wrong with an input named on the command line (a missing, empty,
// corrupt or too large file, pieces that do not fit it) is a usage error.
func jigsawInputError(err error, flag string, d time.Duration) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s %v ended it before any result: %w (give a longer %s)", flag, d, err, flag)
	case errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission),
		errors.Is(err, imageio.ErrEmpty), errors.Is(err, imageio.ErrFormat), errors.Is(err, imageio.ErrCorrupt), errors.Is(err, imageio.ErrTooLarge),
		errors.Is(err, jigsaw.ErrPieceSize), errors.Is(err, jigsaw.ErrNotDivisible), errors.Is(err, jigsaw.ErrNoPieces), errors.Is(err, jigsaw.ErrTooManyPieces):
		return usagef("%v", err)
	}
	return err
}

// jigsawFlags are the flags that solve and bench share: -algo names an
// entry of catalog.Jigsaw (or, for solve, catalog.Gaps), a flag per option
// of catalog.JigsawOptions (BindFlags), the run's budget and output.
type jigsawFlags struct {
	fs           *flag.FlagSet
	algo         string
	o            catalog.JigsawOptions
	list         []catalog.Option
	timeout      *time.Duration
	asJSON, prog *bool
}

func (f *jigsawFlags) define(fs *flag.FlagSet) {
	f.fs = fs
	f.o = catalog.JigsawOptions{Seed: 1}.Defaults() // shown as the flags' defaults
	fs.StringVar(&f.algo, "algo", "greedy", "solver: "+strings.Join(catalog.Jigsaw.IDs(), ", ")+" or, for solve, "+strings.Join(catalog.Gaps.IDs(), ", ")+" (gap puzzles, learned: see -grid)")
	f.list = catalog.BindFlags(fs, &f.o)
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
	if err := catalog.Jigsaw.Applies(f.list, catalog.SetFlags(f.fs, f.list), f.algo); err != nil {
		return f.o, usagef("%v", err)
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
	Flags: func(fs *flag.FlagSet) Runner {
		piece := fs.Int("piece", 0, "piece side in pixels (default: recorded in the sheet, or measured on it; another size than recorded is refused unless -force-piece)")
		forcePiece := fs.Bool("force-piece", false, "cut the sheet into -piece pixel pieces even if it records another size")
		maxPieces := fs.Int("max-pieces", jigsaw.DefaultMaxPieces, "refuse a sheet of more pieces, before decoding it (0: no limit)")
		rotate := fs.Bool("rotate", false, "pieces may be turned (Type 2)")
		size := fs.String("size", "", "size of the picture in pieces, ROWSxCOLS, when known")
		images := fs.Int("images", 1, "number of pictures in the bag (0: find it, with -algo ga)")
		holes := fs.Bool("holes", false, "pieces may be missing and strays mixed in: leave holes, set strays aside")
		var sf jigsawFlags
		sf.define(fs)
		out := outFlag(fs, "the solved picture (PNG)")
		placementPath := fs.String("placement", "", "write the placement (JSON) to this file")
		snapshots := fs.String("snapshots", "", "ga: write the best layout of every generation as PNG files in this folder")
		var nf neuralFlags
		nf.define(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("give one sheet")
			}
			ctx, cancel := withTimeout(ctx, *sf.timeout)
			defer cancel()
			if sf.gaps() {
				return neuralSolve(ctx, env, &nf, sf.algo, args[0], *out, sf.o.Seed, *sf.asJSON, sf.list)
			}
			if _, err := sf.options(nf.list); err != nil {
				return err
			}
			pr := newProgress(env, *sf.prog)
			defer pr.Done()
			run := sf.run(pr)
			s, err := catalog.Jigsaw.New(sf.algo, run)
			if err != nil {
				return usagef("-algo %s: %v", sf.algo, err)
			}
			p := &jigsaw.Problem{Images: *images, Holes: *holes}
			if *holes && sf.algo != "greedy" && sf.algo != "ga" {
				return usagef("-holes needs -algo greedy or ga")
			}
			if *size != "" && !parseSize(*size, &p.Rows, &p.Cols) {
				return usagef("-size %q: want ROWSxCOLS in pieces, such as 18x24", *size)
			}
			if *images < 0 || *images == 0 && !catalog.CountsPictures(sf.algo) {
				return usagef("-images %d: at least 1 (0, to find it, needs -algo ga)", *images)
			}
			if *maxPieces < 0 {
				return usagef("-max-pieces %d: want 0 (no limit) or more", *maxPieces)
			}
			if *piece < 0 || *piece == 1 {
				return usagef("-piece %d: at least 2 pixels", *piece)
			}
			so := jigsaw.SheetOptions{PieceSize: *piece, ForcePieceSize: *forcePiece, MaxPieces: *maxPieces, Rotated: *rotate}
			if so.MaxPieces == 0 {
				so.MaxPieces = -1
			}
			p.Puzzle, err = jigsaw.ReadSheetFileContext(ctx, args[0], so)
			switch {
			case errors.Is(err, jigsaw.ErrPieceSize) && *piece == 0:
				return usagef("%v (-piece)", err)
			case errors.Is(err, jigsaw.ErrPieceSize) && strings.Contains(err.Error(), "records"):
				return usagef("%v (-force-piece to cut it so anyway)", err)
			case errors.Is(err, jigsaw.ErrTooManyPieces):
				return usagef("%v (-max-pieces)", err)
			case err != nil:
				return jigsawInputError(err, "-timeout", *sf.timeout)
			}
			if err := p.Check(); err != nil {
				return usagef("%v (-size, -images)", err)
			}
			var snaps *bench.JigsawSnapshots
			if *snapshots != "" {
				if !catalog.Generational(sf.algo) {
					return usagef("-snapshots needs a solver with generations (-algo ga)")
				}
				if snaps, err = bench.NewJigsawSnapshots(*snapshots, p.Puzzle); err != nil {
					return err
				}
				p.Snapshot = snaps.Save
			}
			p.Progress = run.Hooks.Progress
			res, err := s.Solve(ctx, p)
			pr.Done()
			if res.Placement == nil {
				if ctx.Err() != nil && err != nil {
					return fmt.Errorf("-timeout %v ended it before the solver had any layout of the %d pieces (computing their compatibilities takes time O(n^2)); give a longer -timeout: %w",
						*sf.timeout, len(p.Puzzle.Pieces), err)
				}
				return err
			}
			r := bench.JigsawSolved{Puzzle: p.Puzzle, Result: res, Algo: sf.algo, Options: sf.o, Err: err}
			if err := r.Save(*out, *placementPath, snaps); err != nil {
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
"perfect", "seconds", ...} (accuracies as fractions; "bag", "outputs"
with -bag), then {"summary": true, "images", "direct", "neighbor",
"perfect", "seconds", "cpu_seconds", "peak_rss_mib", ...} with the
averages, the perfect count and the peak memory (and "bags",
"outputs_right" with -bag).`,
	Flags: func(fs *flag.FlagSet) Runner {
		set := fs.String("set", "", "folder of images, comma-separated image files, or a shared set name (required)")
		piece := fs.Int("piece", 28, "piece side in pixels")
		typ := fs.Int("type", 1, "1: position unknown; 2: position and rotation unknown")
		dims := fs.String("dims", "", "known or unknown: whether the solver is told the size (default: known for -type 1, unknown for -type 2)")
		bagK := fs.Int("bag", 0, "mix the pieces of this many images per puzzle (sizes unknown)")
		crop := fs.Bool("crop", false, "cut the centre of images whose sides are not multiples of -piece")
		var sf jigsawFlags
		sf.define(fs)
		outDir := fs.String("out", "", "write the reconstructions to this folder")
		data := dataFlag(fs)
		natsURL := natsFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			if *set == "" {
				return usagef("-set is required")
			}
			if *typ != 1 && *typ != 2 {
				return usagef("-type %d: want 1 or 2", *typ)
			}
			known := map[string]bool{"": *typ == 1, "known": true, "unknown": false}
			if _, ok := known[*dims]; !ok {
				return usagef("-dims %q: want known or unknown", *dims)
			}
			if *bagK < 0 || *bagK == 1 {
				return usagef("-bag %d: at least 2 images per bag", *bagK)
			}
			if sf.gaps() {
				return usagef("-algo %s: gap puzzles have their own bench, tessera jigsaw neural bench", sf.algo)
			}
			if _, err := sf.options(); err != nil {
				return err
			}
			files, err := bench.JigsawSet(*set, *data)
			if err != nil {
				return err
			}
			p := newProgress(env, *sf.prog)
			defer p.Done()
			b := bench.Jigsaw{Files: files, Piece: *piece, Type: *typ, Known: known[*dims] && *bagK == 0, Bag: *bagK, Crop: *crop,
				Spec:   catalog.Spec[catalog.JigsawOptions]{Solver: sf.algo, Options: sf.o, Budget: catalog.Budget{Timeout: *sf.timeout}},
				OutDir: *outDir, Progress: p, Hooks: sf.run(p).Hooks}
			remote, closeRemote, err := benchRemote(ctx, *natsURL)
			if err != nil {
				return err
			}
			defer closeRemote()
			b.Remote = remote
			return b.Run(ctx, &bench.Writer{W: env.Stdout, JSON: *sf.asJSON})
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
			truth, err := jigsaw.ReadTruthFile(*truthPath)
			if err != nil {
				return err
			}
			p, err := jigsaw.ReadPlacementFile(args[0], len(truth.Pieces), true)
			if err != nil {
				return err
			}
			acc, err := jigsaw.Score(truth, p, jigsaw.ScoreOptions{Absolute: *absolute})
			if err != nil {
				return err
			}
			return bench.JigsawScore(env.Stdout, acc, truth, *asJSON)
		}
	},
}
