package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
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
		Commands: []*Command{tgGenerateCmd, tgSolveCmd, tgRenderCmd, tgBenchCmd},
	})
}

// readTangram reads a puzzle named on the command line: a bad file is a
// usage error (exit 2).
func readTangram(path string) (*tangram.Puzzle, error) {
	if err := regularFile(path); err != nil {
		return nil, usagef("%v", err)
	}
	p, err := bench.ReadTangramFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return p, nil
}

var tgGenerateCmd = &Command{
	Name:      "generate",
	UsageLine: "[-seed S] [-pieces tans|t4] [-o P.txt] [-solution S.txt]",
	Short:     "write a random puzzle with a planted solution",
	Long: `Generate lays the pieces edge to edge at random, keeping their union a simple
polygon, and writes the puzzle whose silhouette that union is (the pieces in
their own positions), and with -solution the planted solution.`,
	Flags: func(fs *flag.FlagSet) Runner {
		seed := seedFlag(fs)
		pieces := fs.String("pieces", "tans", "piece set: "+strings.Join(tangram.SetNames(), ", "))
		out := outFlag(fs, "the puzzle (default stdout)")
		solution := fs.String("solution", "", "write the planted solution to this file")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			set, ok := tangram.Set(*pieces)
			if !ok {
				return usagef("unknown -pieces %q (have %s)", *pieces, strings.Join(tangram.SetNames(), ", "))
			}
			p, sol, err := tangram.Generate(int64(*seed), set)
			if err != nil {
				return err
			}
			p.Name = fmt.Sprintf("%s-%d", *pieces, *seed)
			var b bytes.Buffer
			fmt.Fprintf(&b, "# tessera tangram generate -pieces %s -seed %d\n", *pieces, *seed)
			if err := tangram.FormatPuzzle(&b, p); err != nil {
				return err
			}
			if *out == "" {
				_, err = env.Stdout.Write(b.Bytes())
			} else {
				err = writeFileAtomic(*out, b.Bytes())
			}
			if err != nil || *solution == "" {
				return err
			}
			var s bytes.Buffer
			fmt.Fprintf(&s, "# planted solution of: tessera tangram generate -pieces %s -seed %d\n", *pieces, *seed)
			if err := tangram.FormatSolution(&s, p, sol); err != nil {
				return err
			}
			return writeFileAtomic(*solution, s.Bytes())
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
and all side by side (iterates.png). The exit status is 1 when the puzzle is
not solved.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var sf tgSolveFlags
		sf.define(fs)
		snaps := fs.String("snapshots", "", "sdp: write the iterates as pictures to this folder")
		timeout := timeoutFlag(fs, time.Minute)
		out := outFlag(fs, "a picture (PNG) of the solution")
		solution := fs.String("solution", "", "write the solution to this file")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) != 1 {
				return usagef("want one puzzle file")
			}
			if *snaps != "" && sf.algo != "sdp" {
				return usagef("-snapshots applies to -algo sdp")
			}
			if err := sf.check(); err != nil {
				return err
			}
			p, err := readTangram(args[0])
			if err != nil {
				return err
			}
			var frames [][]tangram.Pose
			job := catalog.TangramJob{Spec: catalog.Spec[catalog.TangramOptions]{Solver: sf.algo, Options: sf.o,
				Budget: catalog.Budget{Timeout: *timeout}}, Name: filepath.Base(args[0])}
			rec, res := job.RunPuzzle(ctx, p, catalog.TangramHooks{OnIterate: func(it tangram.SDPIterate) { frames = append(frames, it.Poses) }})
			if err := ctx.Err(); err != nil {
				return err
			}
			var serr error
			if rec.Error != "" {
				serr = errors.New(rec.Error)
			}
			if *snaps != "" && len(frames) > 0 {
				if err := bench.TangramSnapshots(*snaps, p, frames); err != nil {
					return err
				}
			}
			if res.Solved && *solution != "" {
				var b bytes.Buffer
				fmt.Fprintf(&b, "# tessera tangram solve -algo %s %s\n", sf.algo, filepath.Base(args[0]))
				if err := tangram.FormatSolution(&b, p, res.Solution); err != nil {
					return err
				}
				if err := writeFileAtomic(*solution, b.Bytes()); err != nil {
					return err
				}
			}
			if *out != "" && res.Solution != nil {
				var b bytes.Buffer
				if err := tangram.RenderPNG(&b, p, res.Solution.Poses(), tangram.RenderOptions{}); err != nil {
					return err
				}
				if err := writeFileAtomic(*out, b.Bytes()); err != nil {
					return err
				}
			}
			if *asJSON {
				err = writeJSON(env.Stdout, rec)
			} else {
				fmt.Fprintf(env.Stdout, "puzzle     %s: %d pieces\nsolved     %v\n", rec.Puzzle, len(p.Pieces), rec.Solved)
				if res.SDP != nil {
					fmt.Fprintf(env.Stdout, "sdp        %d SDPs of %d constraints, Z_i of %d rows; objective %.3g; %d restarts; %d interior-point steps\n",
						rec.Iterations, res.SDP.Constraints, res.SDP.BlockSize, rec.Objective, rec.Restarts, rec.SDPSteps)
				} else {
					fmt.Fprintf(env.Stdout, "search     %d placements\n", rec.Nodes)
				}
				fmt.Fprintf(env.Stdout, "seconds    %.3f\n", rec.Seconds)
				if res.Solved {
					tangram.FormatSolution(env.Stdout, p, res.Solution)
				}
			}
			if err != nil {
				return err
			}
			if !res.Solved {
				return fmt.Errorf("not solved: %v", serr)
			}
			return nil
		}
	},
}

var tgRenderCmd = &Command{
	Name:      "render",
	UsageLine: "P.txt [S.txt] -o X.png",
	Short:     "draw a puzzle (silhouette and pieces) or a solution",
	Flags: func(fs *flag.FlagSet) Runner {
		out := outFlag(fs, "the picture (PNG)")
		scale := fs.Float64("scale", 40, "pixels per unit")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) < 1 || len(args) > 2 || *out == "" {
				return usagef("want P.txt [S.txt] and -o X.png")
			}
			if !(*scale > 0) {
				return usagef("-scale %v: want a positive number of pixels per unit", *scale)
			}
			p, err := readTangram(args[0])
			if err != nil {
				return err
			}
			var poses []tangram.Pose
			if len(args) == 2 {
				if err := regularFile(args[1]); err != nil {
					return usagef("%v", err)
				}
				f, err := os.Open(args[1])
				if err != nil {
					return usagef("%v", err)
				}
				s, err := tangram.ParseSolution(f, p)
				f.Close()
				if err != nil {
					return usagef("%s: %v", args[1], err)
				}
				poses = s.Poses()
			}
			var b bytes.Buffer
			if err := tangram.RenderPNG(&b, p, poses, tangram.RenderOptions{Scale: *scale}); err != nil {
				return err
			}
			return writeFileAtomic(*out, b.Bytes())
		}
	},
}
