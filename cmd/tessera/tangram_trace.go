package main

import (
	"context"
	"flag"
	"time"

	"tessera/internal/bench"
	"tessera/tangram"
)

var tgTraceCmd = &Command{
	Name:      "trace",
	UsageLine: "[-tolerance T] [-threshold G] [-name NAME] [-solve] [-timeout D] PICTURE [-o FIGURE.txt]",
	Short:     "make a tangram figure from a picture or an SVG drawing",
	Long: `Trace reads a dark shape on a light background (PNG, JPEG or GIF), or the
straight-line paths of an SVG file, finds its outline with its holes, turns it
so that its edges run at multiples of 45 degrees, scales it to the area of the
seven tans and snaps every vertex to the exact lattice, then writes the figure
as a puzzle file (the seven tans, turns and mirror images allowed) to -o or
standard output. It says where it could not snap: a vertex farther than
-tolerance (in units where the small triangle's legs are 1) from the lattice,
an edge not at a multiple of 45 degrees, an area other than 8. With -solve
the exact solver fills the figure. The exit status is 1 when the figure does
not snap or (with -solve) does not solve.`,
	Args: want(1, "want one picture or SVG file"),
	Flags: func(fs *flag.FlagSet) Runner {
		tol := fs.Float64("tolerance", 0.2, "how far a vertex may lie from its lattice point, in tan units")
		thr := fs.Float64("threshold", 0, "grey level (0 to 1) below which a pixel is dark (0: Otsu's method)")
		name := fs.String("name", "traced", "the figure's name")
		solve := fs.Bool("solve", false, "solve the figure with the exact solver")
		timeout := timeoutFlag(fs, time.Minute)
		out := outFlag(fs, "the figure (default stdout)")
		return func(ctx context.Context, env *Env, args []string) error {
			if *tol <= 0 || *tol > 1 || *thr < 0 || *thr >= 1 {
				return usagef("-tolerance wants (0, 1], -threshold [0, 1)")
			}
			t := bench.TangramTrace{Path: args[0], Options: tangram.TraceOptions{Tolerance: *tol, Threshold: *thr}, Name: *name, Out: *out,
				Solve: *solve, Timeout: *timeout}
			return t.Run(ctx, env.Stdout, env.Stderr)
		}
	},
}
