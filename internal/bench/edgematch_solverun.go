package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/relax"
	"tessera/internal/catalog"
	"tessera/internal/dist"
	"tessera/internal/jobs"
	"tessera/internal/progress"
	"tessera/lp"
)

// EdgeMatchSolveRun is one run of `edgematch solve`: the catalogue's
// solver Algo with Run's options on Puzzle, and what the command keeps
// around the search: the board saved to Out (every new best of an anytime
// solver, atomically, or the final board of another), lp's snapshots,
// dfs -split's journal, the progress lines, the workers of Jobs. Solve
// wires these into Run's hooks; the caller may set Run.Start.
type EdgeMatchSolveRun struct {
	Name      string // the puzzle's name in the report and the saved board's comments
	Puzzle    *edgematch.Puzzle
	Algo      string // a known id of catalog.EdgeMatch
	Run       catalog.EdgeMatchRun
	Timeout   time.Duration // 0: no limit
	Out       string        // save the board to this file ("": not saved)
	Snapshots string        // lp: write the LP iterates as pictures to this folder ("": none)
	Journal   string        // dfs -split: the split journal's file ("": none)
	ShowURL   bool          // the report shows the viewer URL
	Progress  *progress.Reporter
	// Jobs, when set, runs dfs -split's subtrees, or partial's, tiles' and
	// lns' Workers seeded searches, as jobs on its workers
	// (EdgeMatchOnJobs says which runs can).
	Jobs *jobs.Client
}

// EdgeMatchOnJobs refuses, as a UsageError, a run of algo (with split
// K) that cannot run as jobs: dfs without -split, and the solvers that
// are neither dfs nor anytime.
func EdgeMatchOnJobs(algo string, split int) error {
	switch {
	case algo == "dfs" && split == 0:
		return Usagef("-nats with -algo dfs needs -split K (the subtrees are the jobs)")
	case algo != "dfs" && !EdgeMatchAnytime(algo):
		return Usagef("-nats applies to -algo dfs -split K and -algo partial, tiles and lns")
	}
	return nil
}

// Solve runs the search and returns its report with the search's error
// (a proof of no solution, a budget that ended an exact search), or a nil
// report and the error when there is no board. A journal that cannot be
// opened or does not fit the run and an option that does not suit the
// solver are usage errors; a backend missing from this build is a failure.
func (r *EdgeMatchSolveRun) Solve(ctx context.Context) (_ *EdgeMatchSolved, err error) {
	p, pr, hooks := r.Puzzle, r.Progress, &r.Run.Hooks
	if r.Jobs != nil && r.Algo == "dfs" {
		hooks.Subtrees = dist.Subtrees{Client: r.Jobs}
	} else if r.Jobs != nil {
		hooks.Searches = dist.Partial{Client: r.Jobs}
	}
	snaps, err := NewLPSnapshots(r.Snapshots, p)
	if err != nil {
		return nil, err
	}
	if snaps != nil {
		hooks.OnLP = snaps.Add
	}
	var resumed int
	var resumedNodes int64
	if r.Journal != "" {
		j, searched, err := OpenSplitJournal(r.Journal, SplitJournalHeader{Puzzle: PuzzleDigest(p), Order: cmp.Or(r.Run.Order, "auto"),
			Depth: r.Run.Split, Count: r.Run.Count}, p)
		if err != nil {
			return nil, Usagef("%v", err)
		}
		resumed, resumedNodes = len(searched), j.ResumedNodes
		pr.Logf("journal %s: %s", r.Journal, j.Summary())
		hooks.SplitSearched, hooks.OnSearched = searched, j.Record
		defer func() {
			if cerr := j.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("journal %s: %w", r.Journal, cerr)
			}
		}()
	}
	t0 := time.Now()
	var saveErr error
	hooks.Progress = pr.Printf
	hooks.OnBest = func(b *edgematch.Board, s edgematch.Score) {
		pr.Logf("new best %v after %.1f s", s, time.Since(t0).Seconds())
		if r.Out != "" {
			if err := SaveEdgeMatchBoard(r.Out, b, r.Name, p, s, r.Algo, r.Run.Seed, time.Since(t0)); err != nil && saveErr == nil {
				saveErr = err
			}
		}
	}
	splitDepth := 0
	hooks.OnSplit = func(depth, n int) {
		splitDepth = depth
		pr.Logf("split into %d subtrees below the first %d cells of the scan", n, depth)
	}
	solver, err := catalog.EdgeMatch.New(r.Algo, r.Run)
	if err != nil {
		if !errors.Is(err, lp.ErrNotBuilt) {
			err = Usagef("%v", err)
		}
		return nil, err
	}
	pr.Logf("%s: %s; algo %s, seed %d", r.Name, p.Describe(), r.Algo, r.Run.Seed)
	sctx, cancel := catalog.WithTimeout(ctx, r.Timeout)
	defer cancel()
	res, err := EdgeMatchSolve(sctx, r.Algo, solver, p)
	timedOut := sctx.Err() != nil && ctx.Err() == nil
	err = lpTooLarge(err)
	pr.Done()
	if serr := snaps.Finish(); serr != nil {
		return nil, serr
	}
	if saveErr != nil {
		return nil, saveErr
	}
	if res.Board == nil {
		return nil, err
	}
	if r.Out != "" && !EdgeMatchAnytime(r.Algo) {
		if err := SaveEdgeMatchBoard(r.Out, res.Board, r.Name, p, res.Score, r.Algo, r.Run.Seed, res.Stats.Elapsed); err != nil {
			return nil, err
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("stopped by -timeout %v: %w", r.Timeout, err)
	}
	return &EdgeMatchSolved{Backend: cmp.Or(r.Run.LPBackend, "pdhg"), Saved: r.Out, EdgeMatchOutcome: catalog.EdgeMatchOutcome{
		Name: r.Name, Puzzle: p, Algo: r.Algo, Options: r.Run.EdgeMatchOptions, Result: res, Err: err, ShowURL: r.ShowURL, TimedOut: timedOut,
		SplitDepth: splitDepth, Resumed: resumed, ResumedNodes: resumedNodes}}, err
}

// lpTooLarge adds to a *relax.LPSizeError the flag that raises the bound.
func lpTooLarge(err error) error {
	var se *relax.LPSizeError
	if errors.As(err, &se) {
		return fmt.Errorf("%w; -lp-max-mem %d would allow it", err, (se.Need+1<<20-1)>>20)
	}
	return err
}

// Write writes the report: its record as one line of JSON with asJSON,
// else the text (Print).
func (s *EdgeMatchSolved) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, s.Record())
	}
	s.Print(w)
	return nil
}
