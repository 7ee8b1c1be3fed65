package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
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
		sc := bench.DefaultJigsawScramble()
		catalog.BindFlags(fs, &sc)
		seed := seedFlag(fs)
		timeout := durationFlag(fs, "timeout", 10*time.Minute, "stop after this `duration` (0: no limit); nothing is written then")
		out := outFlag(fs, "the sheet (PNG)")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			sc.Seed, sc.Sheet = *seed, *out
			return sc.Run(ctx, args, *timeout, env.Stdout, env.Stderr, *asJSON)
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
		var m bench.JigsawMosaic
		catalog.BindFlags(fs, &m)
		out := outFlag(fs, "the picture (PNG)")
		return func(ctx context.Context, env *Env, args []string) error {
			return m.Run(ctx, args, *out, env.Stdout)
		}
	},
}
