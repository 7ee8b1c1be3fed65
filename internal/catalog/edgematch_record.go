package catalog

import (
	"path/filepath"
	"strings"
	"time"

	"tessera/edgematch"
)

// EdgeMatchRecord is the one result of an edge-matching solve: what
// `edgematch solve -json` prints, each line of `edgematch bench -json` and
// what an edge-matching job returns.
type EdgeMatchRecord struct {
	Puzzle string `json:"puzzle"`
	Algo   string `json:"algo"`
	// Group names the size and colour count of a generated puzzle of a
	// bench ("" for a file).
	Group       string  `json:"group,omitempty"`
	Score       int     `json:"score"`
	Max         int     `json:"max"`
	Solved      bool    `json:"solved"`
	FrameErrors int     `json:"frame_errors,omitempty"`
	Empty       int     `json:"empty,omitempty"`
	Seconds     float64 `json:"seconds"`
	// BestSeconds: partial, tiles and lns, the time to the best score.
	BestSeconds float64 `json:"best_seconds,omitempty"`
	Nodes       int64   `json:"nodes"`
	NodesPerSec float64 `json:"nodes_per_second,omitempty"`
	Moves       int64   `json:"moves,omitempty"`
	// Completed and Near: partial and tiles, the boards completed and
	// scored, and how many scored each score within partial.NearGap of
	// the maximum (keyed by the score).
	Completed  int64         `json:"completed,omitempty"`
	Near       map[int]int64 `json:"near,omitempty"`
	Solutions  int64         `json:"solutions,omitempty"`
	SplitDepth int           `json:"split_depth,omitempty"`
	Subtrees   int           `json:"subtrees,omitempty"`
	// Resumed and ResumedNodes: the subtrees a journal gave as searched
	// before, and their placements (in Nodes, not in NodesPerSec).
	Resumed      int    `json:"resumed_subtrees,omitempty"`
	ResumedNodes int64  `json:"resumed_nodes,omitempty"`
	Seed         uint64 `json:"seed,omitempty"`
	StoppedBy    string `json:"stopped_by,omitempty"`
	Iterations   int    `json:"lp_iterations,omitempty"`
	Permutation  bool   `json:"lp_permutation,omitempty"`
	Method       string `json:"lp_method,omitempty"`
	Variables    int    `json:"lp_variables,omitempty"`
	// Board is the board found, "/"-separated rows, for rescoring with
	// edgematch score (none when the solver found none).
	Board string `json:"board,omitempty"`
	URL   string `json:"url,omitempty"`
	Error string `json:"error,omitempty"`
}

// EdgeMatchOutcome is a finished edge-matching solve, what its record is
// built from.
type EdgeMatchOutcome struct {
	Name    string // the puzzle's name (its file's)
	Puzzle  *edgematch.Puzzle
	Algo    string // the catalogue id
	Options EdgeMatchOptions
	Result  edgematch.Result
	Err     error // the solver's
	// TimedOut says that the solve's deadline (-timeout) ended it: for
	// the anytime searches, a board that another run with the same seed
	// may not give.
	TimedOut bool
	// SplitDepth is the depth of a dfs split into subtrees (0: none).
	SplitDepth int
	// Resumed and ResumedNodes: the subtrees of a split search that a
	// journal recorded as searched by earlier runs, and their placements
	// (counted in the result's, not in this run's rate).
	Resumed      int
	ResumedNodes int64
	ShowURL      bool // add the e2.bucas.name viewer URL
}

// Anytime reports whether the outcome's solver is anytime (its entry's).
func (s *EdgeMatchOutcome) Anytime() bool {
	e, err := EdgeMatch.Lookup(s.Algo)
	return err == nil && e.Anytime
}

// Rate is this run's placements per second (a journal's left out).
func (s *EdgeMatchOutcome) Rate() float64 {
	st := s.Result.Stats
	st.Nodes -= s.ResumedNodes
	return st.NodesPerSecond()
}

// StoppedBy says what ended an anytime search: "timeout" (wall-clock, not
// reproducible), "max-moves" (lns) or "max-nodes" (partial, tiles),
// reproducible with the same seed (and workers, or one worker), or
// "target" (a solution); "" for the other solvers.
func (s *EdgeMatchOutcome) StoppedBy() string {
	switch {
	case !s.Anytime():
		return ""
	case s.Result.Score.Solved():
		return "target"
	case s.TimedOut:
		return "timeout"
	case s.Algo == "lns" && s.Options.MaxMoves > 0:
		return "max-moves"
	case s.Algo != "lns" && s.Options.MaxNodes > 0:
		return "max-nodes"
	}
	return ""
}

// URL returns the viewer URL of the board ("" when it has none).
func (s *EdgeMatchOutcome) URL() string {
	u, _ := s.Puzzle.BucasURL(s.Result.Board, strings.TrimSuffix(s.Name, filepath.Ext(s.Name)))
	return u
}

// Record returns the outcome's record.
func (s *EdgeMatchOutcome) Record() EdgeMatchRecord {
	res := s.Result
	j := EdgeMatchRecord{Puzzle: s.Name, Algo: s.Algo, Score: res.Score.Matched, Max: res.Score.Max, Solved: res.Score.Solved(),
		FrameErrors: res.Score.FrameErrors, Empty: res.Score.Empty, Seconds: seconds(res.Stats.Elapsed), Nodes: res.Stats.Nodes,
		NodesPerSec: s.Rate(), Board: strings.TrimSpace(strings.ReplaceAll(res.Board.String(), "\n", "/"))}
	if res.Board == nil {
		j.Max = s.Puzzle.MaxScore()
	}
	if s.Options.Count {
		j.Solutions = res.Stats.Solutions
	}
	if s.SplitDepth > 0 {
		j.SplitDepth, j.Subtrees = s.SplitDepth, res.Stats.Subtrees
		j.Resumed, j.ResumedNodes = s.Resumed, s.ResumedNodes
	}
	if s.Anytime() {
		j.Seed, j.Moves, j.StoppedBy = s.Options.Seed, res.Stats.Moves, s.StoppedBy()
		j.BestSeconds = seconds(res.Stats.BestAt)
		j.Completed = res.Stats.Completed
		for d, n := range res.Stats.Top {
			if n > 0 {
				if j.Near == nil {
					j.Near = map[int]int64{}
				}
				j.Near[res.Score.Max-d] = n
			}
		}
	}
	if s.Algo == "lns" {
		j.NodesPerSec = 0 // only its start boards' placements
	}
	if l := res.LP; l != nil {
		j.Iterations, j.Permutation, j.Method, j.Variables = l.Iterations, l.Permutation, l.Method, l.Variables
	}
	if s.ShowURL {
		j.URL = s.URL()
	}
	if s.Err != nil {
		j.Error = s.Err.Error()
	}
	return j
}

// seconds is d in seconds, for records.
func seconds(d time.Duration) float64 { return d.Seconds() }
