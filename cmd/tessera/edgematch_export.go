package main

import (
	"context"
	"flag"
	"path/filepath"
	"time"

	"tessera/edgematch/sat"
	"tessera/internal/bench"
	"tessera/internal/catalog"
)

var emExportCmd = &Command{
	Name:      "export",
	UsageLine: "[-format dimacs] [-hints FILE [-nhints K]] [-no-symmetry] [-direct] [-max-clauses N] P.txt [-o F.cnf]",
	Short:     "write a puzzle as a SAT formula (DIMACS CNF)",
	Long: `Export writes the puzzle in P.txt as a CNF formula in DIMACS format, the input
of every SAT solver (the one that solve -algo sat writes for cadical). A header
of comments names the variables: "c p VAR ROW COL PIECE ROT" lines for the
placements (a model's true placement variables are the board) and "c e VAR
ROW COL SIDE COLOUR" lines for the colours of inner edges. The encoding is
described in "go doc tessera/edgematch/sat.SATEncoding".

By default the corner piece of lowest number is kept in canonical corners
when the puzzle has no hints (board rotations folded away: each model stands
for 4 solutions on a square board, 2 on another); -no-symmetry keeps every
solution as a model. -direct drops the edge-colour variables (a placement
implies its neighbours' matching placements directly). A formula estimated
above -max-clauses is refused before it is built.`,
	Args: want(1, "want one puzzle file"),
	Flags: func(fs *flag.FlagSet) Runner {
		var hints bench.EdgeMatchHints
		hintFlags(fs, &hints)
		format := fs.String("format", "dimacs", "output format: dimacs")
		var o sat.SATEncodeOptions
		fs.BoolVar(&o.NoSymmetry, "no-symmetry", false, "keep the board rotations (every solution a model)")
		fs.BoolVar(&o.Direct, "direct", false, "no edge-colour variables: placements imply the neighbours' placements")
		fs.IntVar(&o.Pairwise, "pairwise", 0, "at-most-one constraints of up to this many literals pairwise, larger ones by a sequential counter (0: 6)")
		fs.Int64Var(&o.MaxClauses, "max-clauses", sat.DefaultSATMaxClauses, "refuse a formula of more clauses than this (estimated first)")
		timeout := timeoutFlag(fs, time.Minute)
		out := outFlag(fs, "the formula (default: standard output)")
		return func(ctx context.Context, env *Env, args []string) error {
			if *format != "dimacs" {
				return usagef("-format %q: want dimacs", *format)
			}
			if o.MaxClauses < 1 {
				return usagef("-max-clauses %d: want a positive bound", o.MaxClauses)
			}
			p, err := bench.ReadEdgeMatchPuzzle(args[0], env.Stdin, hints)
			if err != nil {
				return err
			}
			sctx, cancel := catalog.WithTimeout(ctx, *timeout)
			defer cancel()
			return bench.WriteEdgeMatchCNF(sctx, env.Stdout, *out, filepath.Base(args[0]), p, o)
		}
	},
}
