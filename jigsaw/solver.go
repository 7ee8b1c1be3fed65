package jigsaw

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Solver is a square-piece jigsaw solver: a value that carries its own
// parameters (greedy.Solver, ga.Solver, bag.Solver) and reassembles a
// Problem. Solve honours ctx: when it ends, a solver returns the best
// placement it has (or none) with ctx.Err(). The same solver value may be
// used for many problems, one at a time or concurrently.
type Solver interface {
	Solve(ctx context.Context, p *Problem) (Result, error)
}

// Problem is a puzzle as a solver gets it: its pieces and what is known
// about the answer. Only Puzzle is required.
type Problem struct {
	Puzzle *Puzzle
	// Compat holds precomputed compatibilities of Puzzle, or nil: the
	// solver then computes them with its own CompatOptions.
	Compat *Compat
	// Rows and Cols give the size of the picture in pieces when it is
	// known (both or neither; a single picture).
	Rows, Cols int
	// Images is the number of pictures the pieces make when it is known:
	// 0 unknown, 1 a single picture, k > 1 a mixed bag of k pictures.
	// Single-picture solvers read 0 as 1; bag.Solver counts them.
	Images int
	// Part says that the pieces are one part of a mixed bag as it was
	// split: they may miss pieces of their picture or hold some of
	// another's, so that no rectangle of their number need fit them.
	Part bool
	// Holes says that pieces of the picture may be missing and pieces of
	// other pictures (strays) mixed in, as in a real box: a solver that
	// supports it (greedy.Solver, ga.Solver) places what fits in the
	// picture's frame (Rows x Cols when known, else estimated), leaves
	// holes where pieces are missing and sets the pieces that fit nowhere
	// aside (unplaced); Result.Frame and Placement.Frames give the frame.
	// Rows x Cols need not then equal the number of pieces.
	Holes bool
	// Seed is a layout of the pieces (one image) a solver may start from,
	// or nil; solvers that cannot use one ignore it.
	Seed *Placement
	// Progress, when set, is called after every generation of a solver
	// that has generations (ga.Solver), from the solving goroutine, and,
	// for large puzzles, as the compatibilities are computed (Generation.
	// Stage StageCompat, one call at a time from the workers).
	Progress func(Generation)
	// Snapshot, when set, is called after every generation with its best
	// layout as a placement of one image; it must not keep p.
	Snapshot func(g Generation, p *Placement)
}

// ErrProblem is returned by Problem.Check for a size or a number of
// pictures that the pieces cannot make.
var ErrProblem = errors.New("jigsaw: impossible problem")

// Check returns an error wrapping ErrProblem when what p tells of the
// answer does not agree with its pieces: Rows and Cols not both given,
// or, for a single picture (Images 0 or 1, not a Part, without Holes),
// Rows x Cols other than the number of pieces; Holes in a bag; Images negative or more than the
// pieces; a size given with several pictures.
func (p *Problem) Check() error {
	if p.Puzzle == nil || len(p.Puzzle.Pieces) == 0 {
		return ErrNoPieces
	}
	n := len(p.Puzzle.Pieces)
	switch {
	case (p.Rows > 0) != (p.Cols > 0) || p.Rows < 0 || p.Cols < 0:
		return fmt.Errorf("%w: a size of %dx%d: give both rows and columns, or neither", ErrProblem, p.Rows, p.Cols)
	case p.Images < 0:
		return fmt.Errorf("%w: %d pictures", ErrProblem, p.Images)
	case p.Images > n:
		return fmt.Errorf("%w: %d pictures of %d pieces (at most one piece each)", ErrProblem, p.Images, n)
	case p.Rows > 0 && p.Images > 1:
		return fmt.Errorf("%w: a size applies to a single picture, not %d", ErrProblem, p.Images)
	case p.Holes && p.Images > 1:
		return fmt.Errorf("%w: missing and stray pieces in a bag of %d pictures", ErrProblem, p.Images)
	case p.Rows > 0 && !p.Part && !p.Holes && (p.Rows > n || p.Cols > n || p.Rows*p.Cols != n):
		return fmt.Errorf("%w: %d pieces do not make a picture of %dx%d pieces", ErrProblem, n, p.Rows, p.Cols)
	}
	return nil
}

// Stages a Generation may report besides a generation of the search.
const (
	// StageCompat: the compatibilities are being computed, Done of Total
	// pairs of pieces so far.
	StageCompat = "compatibilities"
)

// Generation reports the state of a search after one generation, or, when
// Stage is set, its progress through an earlier stage.
type Generation struct {
	// Stage is "" for a generation, else the stage (StageCompat), with
	// Done of Total steps taken.
	Stage       string
	Done, Total int64
	// Picture is 0 for a single picture and k while picture k (of
	// Pictures) of a mixed bag is solved.
	Picture, Pictures int
	Index             int // 0 is the first generation
	// Best is the fitness of the best layout (lower is better).
	Best    float64
	Elapsed time.Duration
}

// Result is a solver's answer with its statistics; fields a solver does
// not have stay zero.
type Result struct {
	Placement *Placement
	// Placed is the number of pieces placed (all of them unless stopped).
	Placed int
	// BestBuddies is the fraction of the solution's adjacencies whose two
	// edges are best buddies: a quality estimate that needs no ground
	// truth (around 0.9 and above for good reconstructions).
	BestBuddies float64
	// Frame is the rows x cols estimated for a single picture of unknown
	// size, or zero.
	Frame [2]int
	// Fitness is the fitness of the answer of a search that minimises one
	// (for a mixed bag, the sum over its pictures), History the best
	// fitness of every generation, starting with the first, and
	// SeedFitness that of the constructive solution it started from (0 if
	// none); a bag's histories are in Pictures.
	Fitness, SeedFitness float64
	History              []float64
	// Pictures describes, for a mixed bag, each output image and its own
	// search.
	Pictures []Picture
	// CompatTime is the time spent computing compatibilities, SeedTime in
	// constructive seeds of a search, Elapsed the whole solve.
	CompatTime, SeedTime, Elapsed time.Duration
}

// CompatOf returns the compatibilities of the problem's puzzle:
// Problem.Compat (refused when it was computed for another puzzle), or
// new ones computed under ctx with opts, their time recorded in r's
// CompatTime. who names the solver in the refusal.
func (p *Problem) CompatOf(ctx context.Context, opts CompatOptions, r *Result, who string) (*Compat, error) {
	c := p.Compat
	if c == nil {
		var err error
		if c, err = NewCompat(ctx, p.Puzzle, opts); err != nil {
			return nil, err
		}
		r.CompatTime = c.Elapsed()
	}
	if c.N() != len(p.Puzzle.Pieces) || c.Rotated() != p.Puzzle.Rotated {
		return nil, fmt.Errorf("%s: Problem.Compat was computed for another puzzle", who)
	}
	return c, nil
}

// Finish fills the result's figures of its placement (when there is one):
// the pieces placed and the share of best-buddy adjacencies under c; and
// the time since start.
func (r *Result) Finish(c *Compat, start time.Time) {
	if r.Placement != nil {
		r.Placed = len(r.Placement.Pieces)
		r.BestBuddies = c.Fit(r.Placement).BestBuddyShare()
	}
	r.Elapsed = time.Since(start)
}

// Picture is one output image of a mixed bag, solved as a puzzle of its
// own.
type Picture struct {
	Pieces  int
	Frame   [2]int
	Fitness float64
	History []float64
}
