package main

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/tangram"
)

func init() {
	register(&Command{
		Name:  "tangram",
		Short: "tangram and other dissection puzzles: generate, solve, render, bench",
		Long: `Tangram: polygon pieces to place, without turning them, so that they tile a
silhouette exactly. Puzzle files list "piece NAME X1 Y1 X2 Y2 ..." lines and a
"silhouette ..." line; numbers are exact, "1.5", "r2" (the square root of 2),
"1+0.5r2". Solution files list "place NAME X Y" lines. See "go doc
tessera/tangram" for the formats and Kovalsky, Glasner and Basri's Algorithm 2.`,
		Commands: []*Command{tgGenerateCmd, tgSolveCmd, tgRenderCmd, tgBenchCmd, tgFiguresCmd, tgTraceCmd},
	})
}

var tgGenerateCmd = &Command{
	Name:      "generate",
	UsageLine: "[-seed S] [-pieces tans|t4] [-turns none|rotate|flip [-given]] [-classic NAME] [-o P.txt] [-solution S.txt]",
	Short:     "write a random puzzle with a planted solution",
	Long: `Generate lays the pieces edge to edge at random, keeping their union a simple
polygon, and writes the puzzle whose silhouette that union is (the pieces in
their own positions), and with -solution the planted solution. With -turns
rotate or flip the pieces are laid turned by multiples of 45 degrees (and
mirrored with flip) and listed as the set gives them, under a "turns" line:
their orientations are part of the puzzle; -given writes them turned as the
planted solution needs them instead, translation only (the orientations given
away, the setting of Algorithm 2 without section 6.3). -classic NAME writes a
classic figure instead (` + strings.Join(tangram.ClassicNames(), ", ") + `), with -turns
its pieces as the set gives them (the orientations hidden).`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		seed := seedFlag(fs)
		pieces := fs.String("pieces", "tans", "piece set: "+strings.Join(tangram.SetNames(), ", "))
		turns := fs.String("turns", "none", "orientations the pieces are laid in: none, rotate (8 turns by 45 degrees) or flip (and mirror images)")
		given := fs.Bool("given", false, "with -turns: write the pieces turned as the planted solution needs them, translation only")
		classic := fs.String("classic", "", "write this classic figure instead of a random one")
		out := outFlag(fs, "the puzzle (default stdout)")
		solution := fs.String("solution", "", "write the planted solution to this file")
		return func(ctx context.Context, env *Env, args []string) error {
			g := bench.TangramGenerate{Pieces: *pieces, Seed: *seed, Turns: *turns, Given: *given, Classic: *classic}
			p, sol, cmdline, err := g.Generate(ctx)
			if err != nil {
				return err
			}
			if err := bench.WriteTangramPuzzle(env.Stdout, *out, cmdline, p); err != nil || *solution == "" {
				return err
			}
			return bench.WriteTangramSolution(*solution, "planted solution of: "+cmdline, p, sol)
		}
	},
}

var tgSolveCmd = &Command{
	Name:      "solve",
	UsageLine: "[-algo " + strings.Join(catalog.Tangram.IDs(), "|") + "] [-sdp go|csdp] [-snapshots DIR] [-timeout D] [-json] P.txt [-o S.png] [-solution S.txt]",
	Short:     "solve a puzzle",
	Long: `Solve places the pieces of P.txt with the solver -algo; a solution counts only
when it checks exactly (no overlap, no gap). The solvers:

` + catalog.Tangram.Help() + `
-snapshots DIR writes the poses of every SDP iterate of sdp, one picture each
and all side by side (iterates.png); when the pieces may turn (a "turns rotate"
or "turns flip" line, or -turns), also the augmented puzzle of every iterate,
every piece copied in every orientation (augmented-NN.png, augmented.png: the
paper's Figure 7). The exit status is 1 when the puzzle is not solved.`,
	Args: want(1, "want one puzzle file"),
	Flags: func(fs *flag.FlagSet) Runner {
		var sf tgSolveFlags
		sf.define(fs)
		snaps := fs.String("snapshots", "", "sdp: write the iterates as pictures to this folder")
		timeout := timeoutFlag(fs, time.Minute)
		out := outFlag(fs, "a picture (PNG) of the solution")
		solution := fs.String("solution", "", "write the solution to this file")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if *snaps != "" && sf.algo != "sdp" {
				return usagef("-snapshots applies to -algo sdp")
			}
			if err := sf.check(); err != nil {
				return err
			}
			p, err := bench.ReadTangramPuzzle(args[0])
			if err != nil {
				return err
			}
			files := &bench.TangramSolveFiles{Snapshots: *snaps, Solution: *solution, Picture: *out}
			job := catalog.TangramJob{Spec: catalog.Spec[catalog.TangramOptions]{Solver: sf.algo, Options: sf.o,
				Budget: catalog.Budget{Timeout: *timeout}}, Name: filepath.Base(args[0])}
			return bench.SolveTangram(ctx, env.Stdout, p, job, files, *asJSON)
		}
	},
}
var tgRenderCmd = &Command{
	Name:      "render",
	UsageLine: "[-turns rotate|flip] P.txt [S.txt] -o X.png",
	Short:     "draw a puzzle (silhouette and pieces) or a solution",
	Long: `Render draws the puzzle P.txt, or its solution S.txt. With -turns it draws
the augmented puzzle of Algorithm 2 with unknown orientations instead (section
6.3 of Kovalsky, Glasner and Basri, Figure 7): the silhouette turned about its
centre in every admissible orientation and, with S.txt, every piece copied in
every orientation where the solution's shifts put it.`,
	Flags: func(fs *flag.FlagSet) Runner {
		out := outFlag(fs, "the picture (PNG)")
		scale := fs.Float64("scale", 40, "pixels per unit")
		turns := fs.String("turns", "", "draw the augmented puzzle of these orientations: rotate (8 turns) or flip (16 with mirror images)")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) < 1 || len(args) > 2 || *out == "" {
				return usagef("want P.txt [S.txt] and -o X.png")
			}
			if !(*scale > 0) {
				return usagef("-scale %v: want a positive number of pixels per unit", *scale)
			}
			p, err := bench.ReadTangramPuzzle(args[0])
			if err != nil {
				return err
			}
			if *turns != "" {
				if p.Turns, err = bench.ParseTangramTurns(*turns, "rotate or flip"); err != nil {
					return err
				}
			}
			var sol *tangram.Solution
			if len(args) == 2 {
				if sol, err = bench.ReadTangramSolution(args[1], p); err != nil {
					return err
				}
			}
			return bench.WriteTangramRender(*out, p, sol, *turns != "", tangram.RenderOptions{Scale: *scale})
		}
	},
}

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
