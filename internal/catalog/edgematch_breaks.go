package catalog

import (
	"errors"
	"fmt"
	"strings"

	"tessera/edgematch"
	"tessera/edgematch/partial"
)

// newEdgeMatchBreaks builds partial, the break-schedule search
// (partial.Breaks): -order overrides its fill order (default
// partial.BreakOrder), -max-nodes bounds each worker's placements,
// -resume gives the board to beat, and a Searches executor (-nats) runs
// -workers seeded searches of one worker each.
func newEdgeMatchBreaks(o EdgeMatchRun) (edgematch.Solver, error) {
	s, err := o.breaks()
	if err != nil {
		return nil, err
	}
	s.OnComplete, s.EmitAt, s.EmitMax = o.Hooks.OnComplete, o.Hooks.EmitAt, o.Hooks.EmitMax
	s.NoExactFill = o.NoExactFill
	return hookBreaks(o, "partial", &s, &s.OnBest, &s.Progress), nil
}

// hookBreaks gives a break search named name (partial, tiles) the run's
// hooks: with a Searches executor it runs as seeded searches
// (distPartial); otherwise onBest and progress, s's own fields, get the
// run's OnBest and Progress.
func hookBreaks[S partial.SeededSearch](o EdgeMatchRun, name string, s *S, onBest *func(*edgematch.Board, edgematch.Score), progress *func(partial.BreaksProgress)) edgematch.Solver {
	if o.Hooks.Searches != nil {
		return o.distPartial(*s, func(pp partial.PartialProgress) {
			o.Hooks.Progress("%s: best %d, %.0f s", name, pp.Best, pp.Elapsed.Seconds())
		})
	}
	*onBest = o.Hooks.OnBest
	if o.Hooks.Progress != nil {
		*progress = func(pp partial.BreaksProgress) { o.Hooks.Progress("%s: %s", name, breaksLine(pp)) }
	}
	return *s
}

// breaks checks the options of partial and tiles and returns the break
// search they ask for (without OnBest and Progress).
func (o EdgeMatchRun) breaks() (partial.Breaks, error) {
	if o.Hooks.Subtrees != nil {
		return partial.Breaks{}, errors.New("a subtree executor applies to -algo dfs -split")
	}
	d, err := o.dfs()
	if err != nil {
		return partial.Breaks{}, err
	}
	return partial.Breaks{Seed: o.Seed, Workers: o.Workers, Scan: d.Scan, MaxNodes: o.MaxNodes, Start: o.Start}, nil
}

// breaksLine is the progress line of partial and tiles.
func breaksLine(pp partial.BreaksProgress) string {
	rate := 0.0
	if s := pp.Elapsed.Seconds(); s > 0 {
		rate = float64(pp.Nodes) / s / 1e6
	}
	best := "no complete board yet"
	if pp.Best >= 0 {
		best = fmt.Sprintf("best %d", pp.Best)
	}
	line := fmt.Sprintf("%s, %d placements (%.1f M/s), depth %d, %d restarts, %d boards completed, %d within %d of the maximum",
		best, pp.Nodes, rate, pp.MaxDepth, pp.Restarts, pp.Completed, pp.Near, partial.NearGap)
	if pp.Near > 0 {
		line += " (" + topLine(pp) + ")"
	}
	return line + fmt.Sprintf(", %.0f s", pp.Elapsed.Seconds())
}

// topLine lists the near boards by score, best first: "465x1 464x3".
func topLine(pp partial.BreaksProgress) string {
	var b strings.Builder
	for d, n := range pp.Top {
		if n == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%dx%d", pp.MaxScore-d, n)
	}
	return b.String()
}

// newEdgeMatchTiles builds the tileability-guided search, with the options
// of partial.
func newEdgeMatchTiles(o EdgeMatchRun) (edgematch.Solver, error) {
	b, err := o.breaks()
	if err != nil {
		return nil, err
	}
	t := partial.Tiles{Seed: b.Seed, Workers: b.Workers, Scan: b.Scan, MaxNodes: b.MaxNodes, Start: b.Start}
	return hookBreaks(o, "tiles", &t, &t.OnBest, &t.Progress), nil
}
