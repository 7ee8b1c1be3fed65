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
		Name:     "jigsaw",
		Short:    "square-piece picture jigsaws: scramble, solve, score, bench",
		Long:     jigsawHelp("jigsaw"),
		Commands: []*Command{jigsawScrambleCmd, jigsawSolveCmd, jigsawScoreCmd, jigsawBenchCmd, jigsawMosaicCmd, jigsawNeuralCmd},
	})
}

var jigsawScrambleCmd = &Command{
	Name:      "scramble",
	UsageLine: "-piece N [-rotate] [-drop P] [-extra FILE:K] [-seed S] [-crop=false] [-cols C] [-timeout D] IMAGE... -o sheet.png [-truth truth.json] [-json]",
	Short:     "cut images into pieces and write a scrambled sheet and its ground truth",
	Long:      jigsawHelp("jigsaw-scramble"),
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
	Long:      jigsawHelp("jigsaw-mosaic"),
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
	Long:      jigsawHelp("jigsaw-solve"),
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
	Long:      jigsawHelp("jigsaw-bench"),
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
	Long:      jigsawHelp("jigsaw-score"),
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
