package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"strconv"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/jigsaw"
)

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
