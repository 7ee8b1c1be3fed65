package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"tessera/internal/catalog"
	"tessera/tangram"
)

// openInput opens a file a front end names: one that is not a regular
// file or cannot be opened is a UsageError.
func openInput(path string) (*os.File, error) {
	if err := RegularFile(path); err != nil {
		return nil, Usagef("%v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, Usagef("%v", err)
	}
	return f, nil
}

// ReadTangramPuzzle reads a puzzle file a front end names: one that is
// not a regular file, cannot be read or is malformed is a UsageError.
func ReadTangramPuzzle(path string) (*tangram.Puzzle, error) {
	if err := RegularFile(path); err != nil {
		return nil, Usagef("%v", err)
	}
	p, err := ReadTangramFile(path)
	if err != nil {
		return nil, Usagef("%v", err)
	}
	return p, nil
}

// ReadTangramSolution reads a solution file of p that a front end names
// (UsageErrors as ReadTangramPuzzle's, a malformed one named).
func ReadTangramSolution(path string, p *tangram.Puzzle) (*tangram.Solution, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := tangram.ParseSolution(f, p)
	if err != nil {
		return nil, Usagef("%s: %v", path, err)
	}
	return s, nil
}

// WriteTangramRender draws p, with the pieces where sol places them (sol
// may be nil), as a PNG to path atomically; augmented draws instead the
// augmented puzzle of Algorithm 2 in p's orientations (p.Turns): the
// silhouette turned in every one and, with sol, every piece copied in
// every orientation where the solution's shifts put it.
func WriteTangramRender(path string, p *tangram.Puzzle, sol *tangram.Solution, augmented bool, o tangram.RenderOptions) error {
	if !augmented {
		var poses []tangram.Pose
		if sol != nil {
			poses = sol.Poses()
		}
		return WriteTangramPNG(path, p, poses, o)
	}
	aug := tangram.NewAugmentation(p)
	var shifts [][2]float64
	if sol != nil {
		shifts = aug.Shifts(p, sol)
	}
	img, err := tangram.RenderAugmented(p, aug, shifts, o)
	if err != nil {
		return err
	}
	return WritePNG(path, img)
}

// TangramTrace is `tangram trace`: the figure traced from the picture or
// SVG drawing Path (tangram.TraceFile), named Name, written to Out
// (standard output when ""), and with Solve filled by the exact solver
// within Timeout.
type TangramTrace struct {
	Path    string
	Options tangram.TraceOptions
	Name    string
	Out     string
	Solve   bool
	Timeout time.Duration
}

// Run traces the figure and writes it to Out or stdout; the report (the
// outlines, the turn, the faults, the solver's result) goes to stdout
// when the figure goes to a file, else to report. A picture that cannot
// be read is a UsageError; one that does not snap or (with Solve) does
// not solve, an error.
func (t TangramTrace) Run(ctx context.Context, stdout, report io.Writer) error {
	f, err := openInput(t.Path)
	if err != nil {
		return err
	}
	res, err := tangram.TraceFile(f, t.Options)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", t.Path, err)
	}
	w := report
	if t.Out != "" {
		w = stdout
	}
	fmt.Fprintf(w, "outlines %d, frame %s, turned %.2f degrees, farthest vertex %.3f from the lattice\n",
		len(res.Loops), res.Frame, res.Rotation*180/math.Pi, res.MaxResidual)
	for _, fault := range res.Faults {
		fmt.Fprintf(w, "not snapped: %s\n", fault)
	}
	if res.Puzzle == nil {
		return fmt.Errorf("%s: no figure could be built", t.Path)
	}
	p := res.Puzzle
	p.Name = t.Name
	if err := WriteTangramPuzzle(stdout, t.Out, "traced from "+t.Path+" by tessera tangram trace", p); err != nil {
		return err
	}
	if t.Solve {
		sctx, cancel := catalog.WithTimeout(ctx, t.Timeout)
		r, err := tangram.Exact{}.Solve(sctx, p)
		cancel()
		fmt.Fprintf(w, "exact: solved %v, %d nodes, %.4f s\n", r.Solved, r.Nodes, r.Elapsed.Seconds())
		if err != nil {
			return err
		}
		var s bytes.Buffer
		tangram.FormatSolution(&s, p, r.Solution)
		w.Write(s.Bytes())
	}
	if !res.Snapped {
		return fmt.Errorf("%s: the outline does not snap to the lattice (%d faults)", t.Path, len(res.Faults))
	}
	return nil
}

// SolveTangram is `tangram solve`: job on p, the files of files written
// (TangramSolveFiles: the iterates, the solution, its picture), the solve
// printed to w (PrintTangramSolve). A puzzle not solved is an error that
// says why, once everything is written.
func SolveTangram(ctx context.Context, w io.Writer, p *tangram.Puzzle, job catalog.TangramJob, files *TangramSolveFiles, asJSON bool) error {
	rec, res := job.RunPuzzle(ctx, p, files.Hooks())
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := files.Write(p, res, job.Solver, job.Name); err != nil {
		return err
	}
	if err := PrintTangramSolve(w, p, rec, res, asJSON); err != nil {
		return err
	}
	if !res.Solved {
		var serr error
		if rec.Error != "" {
			serr = errors.New(rec.Error)
		}
		return fmt.Errorf("not solved: %v", serr)
	}
	return nil
}

// ParseTangramTurns reads a -turns flag: one of the orientations named in
// want, such as "none, rotate or flip" (a UsageError otherwise).
func ParseTangramTurns(turns, want string) (tangram.Turns, error) {
	for _, t := range []tangram.Turns{tangram.TurnsNone, tangram.TurnsRotate, tangram.TurnsFlip} {
		if turns == t.String() && strings.Contains(want, turns) {
			return t, nil
		}
	}
	return 0, Usagef("-turns %q: want %s", turns, want)
}

// TangramGenerate is `tangram generate`: a random puzzle of the piece set
// Pieces (tangram.Set) from Seed, its pieces laid in the orientations
// Turns ("none", "rotate" or "flip"), or the classic figure Classic; Given
// writes the pieces turned as the planted solution needs them, translation
// only.
type TangramGenerate struct {
	Pieces  string
	Seed    uint64
	Turns   string
	Given   bool
	Classic string
}

// Generate returns the puzzle, its planted solution and the command line
// that makes it again (the files' header). An unknown piece set or turns
// is a UsageError.
func (g TangramGenerate) Generate(ctx context.Context) (*tangram.Puzzle, *tangram.Solution, string, error) {
	tt, err := ParseTangramTurns(g.Turns, "none, rotate or flip")
	if err != nil {
		return nil, nil, "", err
	}
	set, ok := tangram.Set(g.Pieces)
	if !ok {
		return nil, nil, "", Usagef("unknown -pieces %q (have %s)", g.Pieces, strings.Join(tangram.SetNames(), ", "))
	}
	cmdline := fmt.Sprintf("tessera tangram generate -pieces %s -seed %d -turns %s", g.Pieces, g.Seed, g.Turns)
	var (
		p   *tangram.Puzzle
		sol *tangram.Solution
	)
	if g.Classic != "" {
		cmdline = fmt.Sprintf("tessera tangram generate -classic %s -turns %s", g.Classic, g.Turns)
		p, sol, err = tangram.ClassicTurned(ctx, g.Classic, tt)
	} else {
		p, sol, err = tangram.GenerateWith(int64(g.Seed), set, tangram.GenerateOptions{Turns: tt})
		if err == nil {
			p.Name = fmt.Sprintf("%s-%d", g.Pieces, g.Seed)
		}
	}
	if err == nil && g.Given {
		cmdline += " -given"
		p, sol, err = tangram.GiveTurns(p, sol)
	}
	if err != nil {
		return nil, nil, "", err
	}
	return p, sol, cmdline, nil
}
