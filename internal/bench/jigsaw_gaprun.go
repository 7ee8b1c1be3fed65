package bench

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"tessera/internal/catalog"
	"tessera/jigsaw/neural"
)

// SolveGap solves the gap puzzle of the file path (an image, whose
// central square is cut into g's patches and shuffled by opts.Seed, or a
// sheet of patches) with the catalog.Gaps solver algo, its options opts
// and hooks h, and writes the reassembly to out (a PNG; "" for none). It
// returns the report, whose Err is the solver's error when it has an
// answer all the same, or the error that left it none. A path that is not
// a regular file, and an oracle's reward or hints for a sheet (no truth
// to read them from), are UsageErrors.
func SolveGap(ctx context.Context, path, out, algo string, g neural.Geometry, opts catalog.GapOptions, h catalog.GapHooks) (*GapSolved, error) {
	if err := RegularFile(path); err != nil {
		return nil, Usagef("%v", err)
	}
	n, _ := opts.Neural(g.Grid)
	pz, err := neural.ReadPuzzleFileContext(ctx, path, g, opts.Seed)
	if err != nil {
		return nil, err
	}
	if n.Reward.Oracle() && pz.Truth == nil {
		return nil, Usagef("-reward %s needs the solution: give an image, not a sheet", n.Reward)
	}
	if n.Hints > 0 && pz.Truth == nil {
		return nil, Usagef("-hints needs the solution: give an image, not a sheet")
	}
	s, err := catalog.Gaps.New(algo, catalog.GapRun{GapOptions: opts, Grid: g.Grid, Hooks: h})
	if err != nil {
		return nil, err
	}
	res, err := s.Solve(ctx, pz)
	if res.Cells == nil {
		return nil, err
	}
	if out != "" {
		if werr := WriteGapPicture(out, pz, res.Cells); werr != nil {
			return nil, werr
		}
	}
	return &GapSolved{Puzzle: pz, Image: filepath.Base(path), Algo: algo, Options: n, Result: res, Out: out, Err: err}, nil
}

// Prepare checks the bench's settings as a command line gives them (set:
// the folders and files of images, comma-separated; report: the attempts
// scored, comma-separated; remote: whether workers solve the puzzles) and
// fills Files and Report; a mistake is a UsageError.
func (g *Gaps) Prepare(set, report string, remote bool) error {
	if set == "" || g.Crops < 1 {
		return Usagef("-set is required and -crops must be positive")
	}
	if g.Missing < 0 || g.Foreign < 0 {
		return Usagef("-missing and -foreign must be 0 or more")
	}
	g.Report = nil
	for _, r := range strings.Split(report, ",") {
		if r = strings.TrimSpace(r); !slices.Contains(GapReports, r) {
			return Usagef("-report %q: want best, worst or oracle, comma-separated", report)
		}
		g.Report = append(g.Report, r)
	}
	var err error
	if g.Files, err = GapSet(set); err != nil {
		return err
	}
	if g.Missing > 0 || g.Foreign > 0 {
		switch err := g.Geometry.CheckFragments(g.Missing, g.Foreign); {
		case remote || g.OutDir != "" || report != "best":
			return Usagef("-missing and -foreign run here, without -nats, -out or -report")
		case len(g.Files) < 2 && g.Foreign > 0:
			return Usagef("-foreign needs two images or more in -set (strays come from another image)")
		case err != nil:
			return Usagef("%v", err)
		}
	}
	if g.Errors && remote {
		return Usagef("-errors needs the puzzles solved here, not with -nats")
	}
	return nil
}
