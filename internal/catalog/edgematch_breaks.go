package catalog

import (
	"tessera/edgematch"
)

// newEdgeMatchBreaks builds the break-schedule search: -order overrides
// its fill order (default edgematch.BreakOrder), -max-nodes bounds each
// worker's placements, -resume gives the board to beat.
func newEdgeMatchBreaks(o EdgeMatchOptions) (edgematch.Solver, error) {
	switch {
	case o.Count:
		return nil, errNotFor("-count", "dfs")
	case o.MaxMoves != 0:
		return nil, errNotFor("-max-moves", "partial")
	}
	d, err := o.dfs()
	if err != nil {
		return nil, err
	}
	s := edgematch.Breaks{Seed: o.Seed, Workers: o.Workers, Scan: d.Scan, MaxNodes: o.MaxNodes, Start: o.Start, OnBest: o.OnBest}
	if o.Progress != nil {
		s.Progress = func(pp edgematch.BreaksProgress) {
			o.Progress("breaks: best %d, %d placements (%.1f M/s), depth %d, %d restarts, %d boards completed, %d within 20 of the maximum, %.0f s",
				pp.Best, pp.Nodes, float64(pp.Nodes)/pp.Elapsed.Seconds()/1e6, pp.MaxDepth, pp.Restarts, pp.Completed, pp.Near, pp.Elapsed.Seconds())
		}
	}
	return s, nil
}

// newEdgeMatchTiles builds the tileability-guided search, with the options
// of breaks.
func newEdgeMatchTiles(o EdgeMatchOptions) (edgematch.Solver, error) {
	s, err := newEdgeMatchBreaks(o)
	if err != nil {
		return nil, err
	}
	b := s.(edgematch.Breaks)
	t := edgematch.Tiles{Seed: b.Seed, Workers: b.Workers, Scan: b.Scan, MaxNodes: b.MaxNodes, Start: b.Start, OnBest: b.OnBest}
	if o.Progress != nil {
		t.Progress = func(pp edgematch.BreaksProgress) {
			o.Progress("tiles: best %d, %d placements (%.1f M/s), depth %d, %d restarts, %d boards completed, %d within 20 of the maximum, %.0f s",
				pp.Best, pp.Nodes, float64(pp.Nodes)/pp.Elapsed.Seconds()/1e6, pp.MaxDepth, pp.Restarts, pp.Completed, pp.Near, pp.Elapsed.Seconds())
		}
	}
	return t, nil
}
