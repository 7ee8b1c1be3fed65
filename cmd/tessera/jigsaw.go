package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/imageio"
	"tessera/internal/bench"
	"tessera/internal/datadir"
	"tessera/internal/progress"
	"tessera/jigsaw"
	"tessera/jigsaw/ga"
	"tessera/jigsaw/greedy"
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

// loadGrid reads an image and cuts it.
func loadGrid(path string, piece int, crop bool) (*jigsaw.Grid, error) {
	img, err := imageio.Load(path, imageio.Options{})
	if err != nil {
		return nil, err
	}
	g, err := jigsaw.Cut(img.Pix, piece, jigsaw.CutOptions{Crop: crop, Depth: img.Depth})
	if err != nil {
		if errors.Is(err, jigsaw.ErrNotDivisible) {
			err = fmt.Errorf("%w; use -crop to cut the centre", err)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g.Name = filepath.Base(path)
	return g, nil
}

// cropNote says what Cut removed, or "".
func cropNote(g *jigsaw.Grid) string {
	if g.Crop == g.Source {
		return ""
	}
	return fmt.Sprintf("%s: %dx%d is not a multiple of the piece size; cut the central %dx%d pixels from (%d, %d)",
		g.Name, g.Source.Dx(), g.Source.Dy(), g.Crop.Dx(), g.Crop.Dy(), g.Crop.Min.X, g.Crop.Min.Y)
}

// writeFile writes through a buffer filled by fill, atomically.
func writeFile(path string, fill func(io.Writer) error) error {
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return err
	}
	return writeFileAtomic(path, b.Bytes())
}

var jigsawScrambleCmd = &Command{
	Name:      "scramble",
	UsageLine: "-piece N [-rotate] [-seed S] [-crop] [-cols C] IMAGE... -o sheet.png [-truth truth.json] [-json]",
	Short:     "cut images into pieces and write a scrambled sheet and its ground truth",
	Long: `Scramble cuts each IMAGE into square pieces of -piece pixels, shuffles all
the pieces together (several images make a mixed bag) and, with -rotate,
turns each by a random multiple of 90 degrees (Type 2). It writes the pieces
as a PNG sheet (-o; 16-bit when a source is) with the piece size recorded in
it, and the ground truth as JSON (-truth) for tessera jigsaw score.

An image whose sides are not multiples of the piece size is refused, or with
-crop its centre is cut and the command says so. The sheet has the grid of
the image for a single image, or -cols columns (default: near square).`,
	Flags: func(fs *flag.FlagSet) Runner {
		piece := fs.Int("piece", 28, "piece side in pixels")
		rotate := fs.Bool("rotate", false, "turn pieces by random multiples of 90 degrees (Type 2)")
		crop := fs.Bool("crop", false, "cut the centre of images whose sides are not multiples of -piece")
		cols := fs.Int("cols", 0, "columns of the sheet (default: the image's grid, or near square for a mixed bag)")
		seed := seedFlag(fs)
		out := outFlag(fs, "the sheet (PNG)")
		truthPath := fs.String("truth", "", "write the ground truth (JSON) to this file")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) == 0 {
				return usagef("no image given")
			}
			if *out == "" {
				return usagef("-o sheet.png is required")
			}
			if *piece < 2 {
				return usagef("-piece %d: at least 2 pixels", *piece)
			}
			var grids []*jigsaw.Grid
			var notes []string
			for _, path := range args {
				g, err := loadGrid(path, *piece, *crop)
				if err != nil {
					return err
				}
				if note := cropNote(g); note != "" {
					notes = append(notes, note)
				}
				grids = append(grids, g)
			}
			pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: *rotate, Seed: *seed})
			c := *cols
			if c <= 0 && len(grids) == 1 {
				c = grids[0].Cols
			}
			if c <= 0 {
				c = jigsaw.SheetCols(len(pz.Pieces))
			}
			if err := writeFile(*out, func(w io.Writer) error { return jigsaw.WriteSheet(w, pz, c) }); err != nil {
				return err
			}
			if *truthPath != "" {
				if err := writeFile(*truthPath, truth.WriteJSON); err != nil {
					return err
				}
			}
			for _, n := range notes {
				fmt.Fprintln(env.Stderr, n)
			}
			rows := (len(pz.Pieces) + c - 1) / c
			if *asJSON {
				return writeJSON(env.Stdout, map[string]any{"sheet": *out, "truth": *truthPath, "pieces": len(pz.Pieces),
					"piece_size": *piece, "cols": c, "rows": rows, "rotate": *rotate, "seed": *seed, "images": len(grids), "depth": pz.Depth})
			}
			kind := "Type 1"
			if *rotate {
				kind = "Type 2, rotated"
			}
			fmt.Fprintf(env.Stdout, "scrambled %d pieces of %d px from %d image(s) (%s, seed %d)\n", len(pz.Pieces), *piece, len(grids), kind, *seed)
			for _, g := range grids {
				fmt.Fprintf(env.Stdout, "  %s: %dx%d pieces\n", g.Name, g.Cols, g.Rows)
			}
			fmt.Fprintf(env.Stdout, "sheet    %s (%dx%d cells, %d-bit)\n", *out, c, rows, pz.Depth)
			if *truthPath != "" {
				fmt.Fprintf(env.Stdout, "truth    %s\n", *truthPath)
			}
			return nil
		}
	},
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
			if len(args) == 0 {
				return usagef("no image given")
			}
			if *out == "" {
				return usagef("-o big.png is required")
			}
			if *trim < 0 {
				return usagef("-trim %d: want 0 or more pixels", *trim)
			}
			var cw, ch int
			if *crop != "" {
				if _, err := fmt.Sscanf(*crop, "%dx%d", &cw, &ch); err != nil || cw < 1 || ch < 1 {
					return usagef("-crop %q: want WxH pixels", *crop)
				}
			}
			c := *cols
			if c <= 0 {
				for c*c < len(args) {
					c++
				}
			}
			rows := (len(args) + c - 1) / c
			var tw, th, depth int
			var big *image.NRGBA64
			for k, path := range args {
				img, err := imageio.Load(path, imageio.Options{})
				if err != nil {
					return err
				}
				m := img.Pix
				b := m.Bounds()
				if n := *trim; n > 0 {
					if 2*n >= min(b.Dx(), b.Dy()) {
						return usagef("-trim %d: %s is only %dx%d", n, path, b.Dx(), b.Dy())
					}
					m = centre(m, b.Dx()-2*n, b.Dy()-2*n)
					b = m.Bounds()
				}
				if *crop != "" {
					if b.Dx() < b.Dy() && cw > ch || b.Dx() > b.Dy() && cw < ch {
						m = turn(m)
						b = m.Bounds()
					}
					if b.Dx() < cw || b.Dy() < ch {
						return usagef("-crop %s: %s is only %dx%d", *crop, path, b.Dx(), b.Dy())
					}
					m = centre(m, cw, ch)
					b = m.Bounds()
				}
				if k == 0 {
					tw, th = b.Dx(), b.Dy()
					big = image.NewNRGBA64(image.Rect(0, 0, c*tw, rows*th))
				}
				depth = max(depth, img.Depth)
				x0, y0 := (k%c)*tw, (k/c)*th
				switch {
				case b.Dx() == tw && b.Dy() == th:
					for y := range th {
						copy(big.Pix[big.PixOffset(x0, y0+y):big.PixOffset(x0+tw, y0+y)], m.Pix[m.PixOffset(0, y):])
					}
				case b.Dx() == th && b.Dy() == tw:
					draw.Draw(big, image.Rect(x0, y0, x0+tw, y0+th), turn(m), image.Point{}, draw.Src)
				default:
					return fmt.Errorf("%s: %dx%d, but the tiles are %dx%d", path, b.Dx(), b.Dy(), tw, th)
				}
			}
			var pic image.Image = big
			if *size != "" {
				var w, h int
				if _, err := fmt.Sscanf(*size, "%dx%d", &w, &h); err != nil || w < 1 || h < 1 || w > c*tw || h > rows*th {
					return usagef("-size %q: want WxH pixels within %dx%d", *size, c*tw, rows*th)
				}
				x0, y0 := (c*tw-w)/2, (rows*th-h)/2
				pic = big.SubImage(image.Rect(x0, y0, x0+w, y0+h))
			}
			if depth < 16 {
				b := pic.Bounds()
				m8 := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
				draw.Draw(m8, m8.Bounds(), pic, b.Min, draw.Src)
				pic = m8
			}
			if err := writeFile(*out, func(w io.Writer) error { return png.Encode(w, pic) }); err != nil {
				return err
			}
			b := pic.Bounds()
			fmt.Fprintf(env.Stdout, "wrote %s: %dx%d pixels, %d-bit, %d tiles of %dx%d\n", *out, b.Dx(), b.Dy(), depth, len(args), tw, th)
			return nil
		}
	},
}

// jigsawSolverFlags select a jigsaw solver and its settings.
type jigsawSolverFlags struct {
	algo, metric     string
	k                int
	pop, gens, elite int
	mutation         float64
	randomInit       bool
	freeSeed         bool
	noFrame          bool
}

func (s *jigsawSolverFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&s.algo, "algo", "greedy", "solver: greedy (constructive, fast), ga (genetic algorithm of Sholomon et al.) or, for solve, mcts (gap puzzles, learned: see -grid)")
	fs.StringVar(&s.metric, "metric", "mgc", "edge dissimilarity: mgc (Gallagher) or ssd (L*a*b* distance, Sholomon et al.)")
	fs.IntVar(&s.k, "k", jigsaw.DefaultK, "candidates kept per edge")
	fs.IntVar(&s.pop, "pop", ga.DefaultPopulation, "ga: chromosomes per generation")
	fs.IntVar(&s.gens, "gens", ga.DefaultGenerations, "ga: generations after the first (0: the first alone, which holds the greedy solution)")
	fs.IntVar(&s.elite, "elite", ga.DefaultElite, "ga: best chromosomes copied to the next generation")
	fs.Float64Var(&s.mutation, "mutation", ga.DefaultMutation, "ga: probability of skipping a relation both parents share")
	fs.BoolVar(&s.freeSeed, "free-seed", false, "ga, size unknown: also seed from the greedy assembly without a frame when it has clearly more best buddies")
	fs.BoolVar(&s.noFrame, "no-frame", false, "ga, size unknown: no frame at all (chromosomes of any shape, seeded by the frameless greedy assembly): for very large pictures of several scenes")
	fs.BoolVar(&s.randomInit, "random-init", false, "ga: start from random chromosomes only (as the paper), not from greedy solutions")
}

// check validates the flags and returns the compatibility options.
func (s *jigsawSolverFlags) check() (jigsaw.CompatOptions, error) {
	if s.algo != "greedy" && s.algo != "ga" && s.algo != "mcts" {
		return jigsaw.CompatOptions{}, usagef("-algo %q: the solvers are: greedy, ga, mcts (gap puzzles)", s.algo)
	}
	m, err := jigsaw.ParseMetric(s.metric)
	if err != nil {
		return jigsaw.CompatOptions{}, usagef("%v", err)
	}
	if s.k < 2 {
		return jigsaw.CompatOptions{}, usagef("-k %d: at least 2", s.k)
	}
	if s.pop < 2 || s.gens < 0 || s.elite < 0 || s.elite >= s.pop || s.mutation < 0 || s.mutation > 1 {
		return jigsaw.CompatOptions{}, usagef("-pop %d -gens %d -elite %d -mutation %g: want pop >= 2, gens >= 0, 0 <= elite < pop, 0 <= mutation <= 1",
			s.pop, s.gens, s.elite, s.mutation)
	}
	return jigsaw.CompatOptions{Metric: m, K: s.k}, nil
}

// jigsawJob is one puzzle for a solver.
type jigsawJob struct {
	rows, cols int // known size, or 0
	images     int // pictures in the bag; 0: the solver finds how many (ga)
	seed       uint64
	progress   func(ga.Generation)
	snapshot   func(ga.Generation, *jigsaw.Placement)
}

// jigsawOutcome is what either solver returns.
type jigsawOutcome struct {
	placement            *jigsaw.Placement
	placed               int
	bestBuddies          float64
	compat, elapsed      time.Duration
	frame                [2]int // estimated size, or zero
	fitness, seedFitness float64
	history              []float64
}

// solve runs the selected solver on pz.
func (s *jigsawSolverFlags) solve(ctx context.Context, pz *jigsaw.Puzzle, co jigsaw.CompatOptions, job jigsawJob) (jigsawOutcome, error) {
	if s.algo == "greedy" {
		res, err := greedy.Solve(ctx, pz, greedy.Options{Rows: job.rows, Cols: job.cols, Images: job.images, CompatOptions: co})
		return jigsawOutcome{placement: res.Placement, placed: res.Placed, bestBuddies: res.BestBuddies,
			compat: res.CompatTime, elapsed: res.Elapsed, frame: res.Frame}, err
	}
	elite := s.elite
	if elite == 0 {
		elite = -1 // none
	}
	gens := s.gens
	if gens == 0 {
		gens = -1 // the first generation alone
	}
	mutation := s.mutation
	if mutation == 0 {
		mutation = -1 // never
	}
	res, err := ga.Solve(ctx, pz, ga.Options{Rows: job.rows, Cols: job.cols, Images: job.images, CompatOptions: co,
		Population: s.pop, Generations: gens, Elite: elite, Mutation: mutation, RandomInit: s.randomInit, FreeSeed: s.freeSeed, NoFrame: s.noFrame,
		Seed: job.seed, Progress: job.progress, Snapshot: job.snapshot})
	out := jigsawOutcome{placement: res.Placement, bestBuddies: res.BestBuddies, compat: res.CompatTime,
		elapsed: res.Elapsed, frame: res.Frame, fitness: res.Fitness, seedFitness: res.SeedFitness, history: res.History}
	if res.Placement != nil {
		out.placed = len(res.Placement.Pieces)
	}
	return out, err
}

// gaProgress returns a Progress callback that shows the generation, the
// best fitness and the time on p's status line.
func gaProgress(p *progress.Reporter, gens int) func(ga.Generation) {
	if !p.Enabled() {
		return nil
	}
	return func(g ga.Generation) {
		stage := ""
		if g.Picture > 0 {
			stage = fmt.Sprintf("picture %d/%d, ", g.Picture, g.Pictures)
		}
		p.Printf("ga: %sgeneration %d/%d, best fitness %.6g, %.1f s", stage, g.Index, gens, g.Best, g.Elapsed.Seconds())
	}
}

// parseCells parses ROWSxCOLS.
func parseCells(s string) (rows, cols int, err error) {
	if _, err := fmt.Sscanf(s, "%dx%d", &rows, &cols); err != nil || rows < 1 || cols < 1 {
		return 0, 0, usagef("-size %q: want ROWSxCOLS in pieces, such as 18x24", s)
	}
	return rows, cols, nil
}

// outputNames returns the file names of k output images: path itself for
// one, else path with -1, -2, ... before the extension.
func outputNames(path string, k int) []string {
	if k == 1 {
		return []string{path}
	}
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	names := make([]string, k)
	for i := range k {
		names[i] = fmt.Sprintf("%s-%d%s", base, i+1, ext)
	}
	return names
}

var jigsawSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-piece N] [-rotate] [-size RxC] [-images K] [-algo greedy|ga|mcts] [-metric mgc|ssd] [ga flags] [mcts flags] sheet.png|image [-o solved.png] [-placement p.json] [-snapshots DIR] [-json]",
	Short:     "reassemble a sheet of pieces",
	Long: `Solve reads a sheet of square pieces (written by scramble, or any image
cut into a grid of -piece pixels; fully transparent cells are not pieces),
computes the compatibilities of every pair of edges, assembles the pieces
and writes the picture (-o) and the placement (-placement, JSON for score).

-rotate says pieces may be turned (Type 2). -size ROWSxCOLS gives the size of
the picture in pieces when it is known; otherwise the solver finds it.
-images K assembles a mixed bag into K pictures, written as solved-1.png,
solved-2.png, ...; with -algo ga, -images 0 finds how many pictures the bag
holds. The report ends with the share of adjacencies in the answer whose
edges are best buddies: a quality estimate that needs no ground truth (low
values mean an unreliable answer).

-algo greedy (the default) is a fast constructive solver; -algo ga is the
genetic algorithm of Sholomon, David and Netanyahu (AAAI 2014), seeded by
greedy solutions: slower, and more accurate. Its settings: -pop, -gens,
-elite, -mutation, -random-init, -free-seed, -seed (the same seed gives the same
answer); -snapshots DIR writes the best layout of every generation as
DIR/gen-NNN.png (DIR/picture-K-gen-NNN.png for picture K of a bag);
-progress shows the generation and the best fitness on stderr.

-algo mcts solves a puzzle with gaps between its patches (Alphazzle, package
jigsaw/neural): the argument is an image, whose central square is cut into
-grid x -grid patches of -patch pixels -gap pixels apart and shuffled by
-seed, or a sheet of such patches. Learned networks guide Monte-Carlo tree
search (-sims per placement, -cpuct, -batch, -backup mean|max, -choose
visits|value) with the reward of a complete reassembly predicted by the
value network or, for an image, the truth (-reward gt); -attempts K tries
K patch orders and keeps the answer the value network prefers; -hybrid W
adds the classic compatibilities to the policy; -model DIR replaces the
shipped model. -o writes the reassembly with its gaps.`,
	Flags: func(fs *flag.FlagSet) Runner {
		piece := fs.Int("piece", 0, "piece side in pixels (default: recorded in the sheet)")
		rotate := fs.Bool("rotate", false, "pieces may be turned (Type 2)")
		size := fs.String("size", "", "size of the picture in pieces, ROWSxCOLS, when known")
		images := fs.Int("images", 1, "number of pictures in the bag (0: find it, with -algo ga)")
		var sf jigsawSolverFlags
		sf.define(fs)
		seed := seedFlag(fs)
		out := outFlag(fs, "the solved picture (PNG)")
		placementPath := fs.String("placement", "", "write the placement (JSON) to this file")
		snapshots := fs.String("snapshots", "", "ga: write the best layout of every generation as PNG files in this folder")
		timeout := timeoutFlag(fs, 10*time.Minute)
		prog := progressFlag(fs)
		asJSON := jsonFlag(fs)
		var nf neuralFlags
		nf.define(fs, true)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("give one sheet")
			}
			co, err := sf.check()
			if err != nil {
				return err
			}
			if sf.algo == "mcts" {
				ctx, cancel := withTimeout(ctx, *timeout)
				defer cancel()
				return neuralSolve(ctx, env, &nf, args[0], *out, *seed, *asJSON)
			}
			job := jigsawJob{images: *images, seed: *seed}
			if *size != "" {
				if job.rows, job.cols, err = parseCells(*size); err != nil {
					return err
				}
			}
			if *images < 0 || *images == 0 && sf.algo != "ga" {
				return usagef("-images %d: at least 1 (0, to find it, needs -algo ga)", *images)
			}
			if *snapshots != "" {
				if sf.algo != "ga" {
					return usagef("-snapshots needs -algo ga")
				}
				if err := os.MkdirAll(*snapshots, 0o755); err != nil {
					return err
				}
			}
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			pz, err := jigsaw.ReadSheet(f, jigsaw.SheetOptions{PieceSize: *piece, Rotated: *rotate})
			f.Close()
			if err != nil {
				if errors.Is(err, jigsaw.ErrPieceSize) && *piece == 0 {
					return usagef("%v (-piece)", err)
				}
				return fmt.Errorf("%s: %w", args[0], err)
			}
			p := newProgress(env, *prog)
			defer p.Done()
			job.progress = gaProgress(p, sf.gens)
			var snapErr error
			snaps := 0
			if *snapshots != "" {
				job.snapshot = func(g ga.Generation, pl *jigsaw.Placement) {
					snaps++
					name := fmt.Sprintf("gen-%03d.png", g.Index)
					if g.Picture > 0 {
						name = fmt.Sprintf("picture-%d-gen-%03d.png", g.Picture, g.Index)
					}
					if err := writeFile(filepath.Join(*snapshots, name), func(w io.Writer) error { return jigsaw.WritePNG(w, pz, pl, 0) }); err != nil && snapErr == nil {
						snapErr = err
					}
				}
			}
			ctx, cancel := withTimeout(ctx, *timeout)
			defer cancel()
			res, err := sf.solve(ctx, pz, co, job)
			p.Done()
			if res.placement == nil {
				return err
			}
			solveErr := errors.Join(err, snapErr)
			names := outputNames(*out, res.placement.Images)
			if *out != "" {
				for i, name := range names {
					if res.placement.Bounds(i).Empty() {
						continue
					}
					if err := writeFile(name, func(w io.Writer) error { return jigsaw.WritePNG(w, pz, res.placement, i) }); err != nil {
						return err
					}
				}
			}
			if *placementPath != "" {
				if err := writeFile(*placementPath, res.placement.WriteJSON); err != nil {
					return err
				}
			}
			var sizes []string
			for i := range res.placement.Images {
				b := res.placement.Bounds(i)
				sizes = append(sizes, fmt.Sprintf("%dx%d", b.Dy(), b.Dx()))
			}
			if *asJSON {
				rep := map[string]any{"pieces": len(pz.Pieces), "piece_size": pz.PieceSize, "rotate": pz.Rotated, "placed": res.placed,
					"sizes": sizes, "best_buddies": res.bestBuddies, "compat_seconds": seconds(res.compat),
					"seconds": seconds(res.elapsed), "metric": co.Metric.String(), "algo": sf.algo}
				if sf.algo == "ga" {
					rep["fitness"], rep["seed_fitness"], rep["history"], rep["seed"] = res.fitness, res.seedFitness, res.history, *seed
				}
				if *out != "" {
					rep["outputs"] = names
				}
				if solveErr != nil {
					rep["error"] = solveErr.Error()
				}
				if err := writeJSON(env.Stdout, rep); err != nil {
					return err
				}
				return solveErr
			}
			w := env.Stdout
			fmt.Fprintf(w, "pieces   %d of %d px, %s\n", len(pz.Pieces), pz.PieceSize, map[bool]string{false: "Type 1", true: "Type 2 (rotated)"}[pz.Rotated])
			algo := "greedy"
			if sf.algo == "ga" {
				algo = fmt.Sprintf("ga (population %d, %d generations, seed %d)", sf.pop, sf.gens, *seed)
			}
			fmt.Fprintf(w, "solver   %s, %s, %.3f s compatibilities, %.3f s in all\n", algo, co.Metric, res.compat.Seconds(), res.elapsed.Seconds())
			if res.frame[0] > 0 {
				fmt.Fprintf(w, "size     estimated %dx%d pieces (rows x cols)\n", res.frame[0], res.frame[1])
			}
			if sf.algo == "ga" {
				fmt.Fprintf(w, "fitness  %.6g (greedy seed %.6g)\n", res.fitness, res.seedFitness)
			}
			fmt.Fprintf(w, "result   %d placed, %s pieces (rows x cols), %.1f%% of adjacencies are best buddies\n", res.placed, strings.Join(sizes, ", "), 100*res.bestBuddies)
			if *out != "" {
				fmt.Fprintf(w, "wrote    %s\n", strings.Join(names, ", "))
			}
			if *placementPath != "" {
				fmt.Fprintf(w, "wrote    %s\n", *placementPath)
			}
			if *snapshots != "" {
				fmt.Fprintf(w, "wrote    %d snapshots in %s\n", snaps, *snapshots)
			}
			return solveErr
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
their true cell from the output's top-left corner (Type 1, known size).`,
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
			truth, err := readWith(*truthPath, jigsaw.ReadTruth)
			if err != nil {
				return err
			}
			p, err := readWith(args[0], func(r io.Reader) (*jigsaw.Placement, error) {
				return jigsaw.ReadPlacement(r, len(truth.Pieces), true)
			})
			if err != nil {
				return err
			}
			acc, err := jigsaw.Score(truth, p, jigsaw.ScoreOptions{Absolute: *absolute})
			if err != nil {
				return err
			}
			if *asJSON {
				return writeJSON(env.Stdout, acc)
			}
			tw := tabwriter.NewWriter(env.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "image\tpieces\tdirect\tneighbour\tperfect\t")
			for _, s := range acc.Images {
				fmt.Fprintf(tw, "%s\t%d\t%.2f%%\t%.2f%%\t%v\t\n", s.Name, s.Pieces, 100*s.Direct, 100*s.Neighbor, s.Perfect)
			}
			if len(acc.Images) > 1 {
				fmt.Fprintf(tw, "all\t%d\t%.2f%%\t%.2f%%\t%v\t\n", len(truth.Pieces), 100*acc.Direct, 100*acc.Neighbor, acc.Perfect)
			}
			return tw.Flush()
		}
	},
}

// readWith opens path and parses it.
func readWith[T any](path string, parse func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := parse(f)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// imageExts are the extensions bench picks up in a folder.
var imageExts = []string{".png", ".jpg", ".jpeg", ".webp"}

// benchImages resolves -set: a folder (its images, in natural order), a
// comma-separated list of files, or the name of a set in the shared data
// (jigsaw/NAME).
func benchImages(set, data string) ([]string, error) {
	if strings.Contains(set, ",") {
		var files []string
		for _, f := range strings.Split(set, ",") {
			if f = strings.TrimSpace(f); f != "" {
				files = append(files, f)
			}
		}
		return files, nil
	}
	st, err := os.Stat(set)
	if err != nil && !strings.ContainsRune(set, filepath.Separator) {
		dir := data
		if dir == "" {
			dir, _ = datadir.Dir()
		}
		if alt := filepath.Join(dir, "jigsaw", set); dir != "" {
			if st2, err2 := os.Stat(alt); err2 == nil && st2.IsDir() {
				set, st, err = alt, st2, nil
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("-set %s: %w", set, err)
	}
	if !st.IsDir() {
		return []string{set}, nil
	}
	entries, err := os.ReadDir(set)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && slices.Contains(imageExts, strings.ToLower(filepath.Ext(e.Name()))) {
			files = append(files, filepath.Join(set, e.Name()))
		}
	}
	slices.SortFunc(files, naturalCompare)
	if len(files) == 0 {
		return nil, fmt.Errorf("-set %s: no PNG, JPEG or WebP images", set)
	}
	return files, nil
}

// naturalCompare orders "2.png" before "10.png".
func naturalCompare(a, b string) int {
	a, b = filepath.Base(a), filepath.Base(b)
	na, nb := leadingNumber(a), leadingNumber(b)
	if na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func leadingNumber(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			break
		}
		n = min(10*n+int(r-'0'), 1<<30)
	}
	return n
}

// jigsawBenchRecord is one -json line of jigsaw bench.
type jigsawBenchRecord struct {
	Image         string  `json:"image"`
	Pieces        int     `json:"pieces"`
	Direct        float64 `json:"direct"`
	Neighbor      float64 `json:"neighbor"`
	Perfect       bool    `json:"perfect"`
	Seconds       float64 `json:"seconds"`
	CompatSeconds float64 `json:"compat_seconds"`
	// CPUSeconds is the CPU time of the whole process (every core) while
	// it solved the puzzle: a figure that load on other processes barely
	// changes.
	CPUSeconds  float64 `json:"cpu_seconds"`
	BestBuddies float64 `json:"best_buddies"`
	// Bag numbers the mixed bag (from 1) and Outputs says how many
	// pictures the solver made of it, with -bag.
	// Frame is the rows and columns the solver estimated for a picture
	// of unknown size.
	Frame   []int   `json:"frame,omitempty"`
	Bag     int     `json:"bag,omitempty"`
	Outputs int     `json:"outputs,omitempty"`
	Fitness float64 `json:"fitness,omitempty"`
	Error   string  `json:"error,omitempty"`
}

var jigsawBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "-set DIR|FILE,FILE,... [-piece N] [-type 1|2] [-dims known|unknown] [-bag K] [-algo greedy|ga] [-metric mgc|ssd] [ga flags] [-seed S] [-out DIR] [-json]",
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
reconstruction as DIR/NAME.png.

-bag K mixes the pieces of K images at a time (the set in order: images 1
to K, then K+1 to 2K, ...) into one puzzle of unknown sizes: -algo ga is
not told how many pictures the bag holds, -algo greedy is told K. Each
source image is scored against the output that holds most of it; the
report counts the bags that came out as the right number of pictures.
-out writes DIR/bag-B-N.png. The seconds are per puzzle (per bag).

-algo ga runs the genetic algorithm (see tessera jigsaw solve); its flags
-pop, -gens, -elite, -mutation, -random-init, -free-seed apply, and -seed seeds
it too.

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
		bag := fs.Int("bag", 0, "mix the pieces of this many images per puzzle (sizes unknown)")
		crop := fs.Bool("crop", false, "cut the centre of images whose sides are not multiples of -piece")
		var sf jigsawSolverFlags
		sf.define(fs)
		seed := seedFlag(fs)
		outDir := fs.String("out", "", "write the reconstructions to this folder")
		data := dataFlag(fs)
		timeout := timeoutFlag(fs, 10*time.Minute)
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
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
			known := *typ == 1
			switch *dims {
			case "":
			case "known":
				known = true
			case "unknown":
				known = false
			default:
				return usagef("-dims %q: want known or unknown", *dims)
			}
			if *bag < 0 || *bag == 1 {
				return usagef("-bag %d: at least 2 images per bag", *bag)
			}
			if *bag > 0 {
				known = false
			}
			co, err := sf.check()
			if err != nil {
				return err
			}
			if sf.algo == "mcts" {
				return usagef("-algo mcts: gap puzzles have their own bench, tessera jigsaw neural bench")
			}
			files, err := benchImages(*set, *data)
			if err != nil {
				return err
			}
			if *outDir != "" {
				if err := os.MkdirAll(*outDir, 0o755); err != nil {
					return err
				}
			}
			groups := make([][]string, 0, len(files))
			for len(files) > 0 {
				k := min(max(*bag, 1), len(files))
				groups, files = append(groups, files[:k]), files[k:]
			}
			p := newProgress(env, *prog)
			defer p.Done()
			what := "images"
			if *bag > 0 {
				what = "bags"
			}
			count := p.Counter(what, len(groups))
			var recs []jigsawBenchRecord
			var secs, cpus []float64
			outputsRight := 0
			for b, group := range groups {
				if err := ctx.Err(); err != nil {
					return err
				}
				var grids []*jigsaw.Grid
				for _, path := range group {
					g, err := loadGrid(path, *piece, *crop)
					if err != nil {
						return err
					}
					grids = append(grids, g)
				}
				pz, truth := jigsaw.Scramble(grids, jigsaw.ScrambleOptions{Rotate: *typ == 2, Seed: *seed})
				job := jigsawJob{images: 1, seed: *seed, progress: gaProgress(p, sf.gens)}
				switch {
				case *bag > 0 && sf.algo == "ga":
					job.images = 0
				case *bag > 0:
					job.images = len(grids)
				case known:
					job.rows, job.cols = grids[0].Rows, grids[0].Cols
				}
				sctx, cancel := withTimeout(ctx, *timeout)
				cpu0, _ := bench.ProcessCPU()
				res, serr := sf.solve(sctx, pz, co, job)
				cpu1, _ := bench.ProcessCPU()
				cpu := cpu1 - cpu0
				cancel()
				secs, cpus = append(secs, seconds(res.elapsed)), append(cpus, seconds(cpu))
				var acc jigsaw.Accuracy
				if res.placement != nil {
					acc, err = jigsaw.Score(truth, res.placement, jigsaw.ScoreOptions{Absolute: known && *typ == 1})
					if err != nil {
						return err
					}
					if res.placement.Images == len(grids) {
						outputsRight++
					}
					for i := range res.placement.Images {
						name := strings.TrimSuffix(grids[0].Name, filepath.Ext(grids[0].Name)) + ".png"
						if *bag > 0 {
							name = fmt.Sprintf("bag-%d-%d.png", b+1, i+1)
						}
						if *outDir == "" || res.placement.Bounds(i).Empty() {
							continue
						}
						if err := writeFile(filepath.Join(*outDir, name), func(w io.Writer) error { return jigsaw.WritePNG(w, pz, res.placement, i) }); err != nil {
							return err
						}
					}
				}
				for i, g := range grids {
					rec := jigsawBenchRecord{Image: g.Name, Pieces: g.Rows * g.Cols, Seconds: seconds(res.elapsed),
						CompatSeconds: seconds(res.compat), CPUSeconds: seconds(cpu), BestBuddies: res.bestBuddies, Fitness: res.fitness}
					if res.frame != [2]int{} {
						rec.Frame = res.frame[:]
					}
					if *bag > 0 {
						rec.Bag = b + 1
						if res.placement != nil {
							rec.Outputs = res.placement.Images
						}
					}
					if serr != nil {
						rec.Error = serr.Error()
					}
					if res.placement != nil {
						s := acc.Images[i]
						rec.Direct, rec.Neighbor, rec.Perfect = s.Direct, s.Neighbor, s.Perfect
					}
					recs = append(recs, rec)
					if *asJSON {
						if err := writeJSON(env.Stdout, rec); err != nil {
							return err
						}
					}
					p.Logf("%s: direct %.1f%%, neighbour %.1f%%, %.2f s", rec.Image, 100*rec.Direct, 100*rec.Neighbor, rec.Seconds)
				}
				count.Add(1)
			}
			p.Done()
			var direct, neighbor []float64
			perfect := 0
			for _, r := range recs {
				direct, neighbor = append(direct, r.Direct), append(neighbor, r.Neighbor)
				if r.Perfect {
					perfect++
				}
			}
			dimsName := map[bool]string{true: "known", false: "unknown"}[known]
			if *asJSON {
				sum := map[string]any{"summary": true, "images": len(recs), "direct": mean(direct),
					"neighbor": mean(neighbor), "perfect": perfect, "seconds": mean(secs), "max_seconds": slices.Max(secs),
					"cpu_seconds": mean(cpus), "peak_rss_mib": bench.PeakRSS() >> 20,
					"type": *typ, "dims": dimsName, "piece": *piece, "metric": co.Metric.String(), "seed": *seed, "algo": sf.algo}
				if *bag > 0 {
					sum["bag"], sum["bags"], sum["outputs_right"] = *bag, len(groups), outputsRight
				}
				return writeJSON(env.Stdout, sum)
			}
			algo := sf.algo
			if sf.algo == "ga" {
				algo = fmt.Sprintf("ga (population %d, %d generations)", sf.pop, sf.gens)
			}
			bagNote := ""
			if *bag > 0 {
				bagNote = fmt.Sprintf(", bags of %d (%s)", *bag, map[bool]string{true: "count not told", false: "count told"}[sf.algo == "ga"])
			}
			fmt.Fprintf(env.Stdout, "Type %d, size %s%s, %d px pieces, %s with %s, seed %d\n\n", *typ, dimsName, bagNote, *piece, algo, co.Metric, *seed)
			tw := tabwriter.NewWriter(env.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
			bagCol := ""
			if *bag > 0 {
				bagCol = "bag\toutputs\t"
			}
			fmt.Fprintf(tw, "image\t%spieces\tdirect\tneighbour\tperfect\tseconds\tcpu s\t\n", bagCol)
			for _, r := range recs {
				if *bag > 0 {
					fmt.Fprintf(tw, "%s\t%d\t%d\t", r.Image, r.Bag, r.Outputs)
				} else {
					fmt.Fprintf(tw, "%s\t", r.Image)
				}
				fmt.Fprintf(tw, "%d\t%.2f%%\t%.2f%%\t%v\t%.3f\t%.3f\t\n", r.Pieces, 100*r.Direct, 100*r.Neighbor, r.Perfect, r.Seconds, r.CPUSeconds)
			}
			if *bag > 0 {
				bagCol = "\t\t"
			}
			fmt.Fprintf(tw, "mean\t%s\t%.2f%%\t%.2f%%\t%d/%d\t%.3f\t%.3f\t\n", bagCol, 100*mean(direct), 100*mean(neighbor), perfect, len(recs), mean(secs), mean(cpus))
			tw.Flush()
			if *bag > 0 {
				fmt.Fprintf(env.Stdout, "bags that came out as the right number of pictures: %d/%d\n", outputsRight, len(groups))
			}
			if rss := bench.PeakRSS(); rss > 0 {
				fmt.Fprintf(env.Stdout, "peak memory (resident): %d MiB\n", rss>>20)
			}
			for _, r := range recs {
				if r.Error != "" {
					fmt.Fprintf(env.Stdout, "%s: %s\n", r.Image, r.Error)
				}
			}
			return nil
		}
	},
}

// centre returns a copy of the central w x h pixels of m (at most its size).
func centre(m *image.NRGBA64, w, h int) *image.NRGBA64 {
	b := m.Bounds()
	t := image.NewNRGBA64(image.Rect(0, 0, w, h))
	draw.Draw(t, t.Bounds(), m, b.Min.Add(image.Pt((b.Dx()-w)/2, (b.Dy()-h)/2)), draw.Src)
	return t
}

// turn returns m turned a quarter turn clockwise.
func turn(m *image.NRGBA64) *image.NRGBA64 {
	b := m.Bounds()
	t := image.NewNRGBA64(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := range b.Dx() {
		for x := range b.Dy() {
			t.SetNRGBA64(x, y, m.NRGBA64At(b.Min.X+y, b.Max.Y-1-x))
		}
	}
	return t
}
