package bench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/partial"
)

// CompleteEdgeMatchBoard is `edgematch score -complete`: b's empty cells
// filled in the best way by partial.CompleteBest (at most nodes
// placements, seeking scores of atLeast or more), a line on log saying
// whether the arrangement is proven the best, and with out != "" the
// completed board saved there (name: the board's file, for its comment).
func CompleteEdgeMatchBoard(log io.Writer, p *edgematch.Puzzle, b *edgematch.Board, nodes, atLeast int, name, out string) (*edgematch.Board, error) {
	empty := b.Rows*b.Cols - b.Filled()
	done, proven, err := partial.CompleteBest(p, b, nodes, atLeast)
	if err != nil {
		return nil, err
	}
	how := "proven the best"
	switch {
	case !proven:
		how = fmt.Sprintf("the best found in %d placements, not proven", nodes)
	case p.Score(done).Matched < atLeast:
		how = fmt.Sprintf("proven: no completion scores %d or more", atLeast)
	}
	fmt.Fprintf(log, "completed %d empty cells: %s\n", empty, how)
	if out == "" {
		return done, nil
	}
	return done, WriteFileAtomic(out, func(w io.Writer) error {
		_, err := w.Write(edgematch.Format(done, fmt.Sprintf("%s completed by tessera edgematch score -complete (%s), score %v", name, how, p.Score(done))))
		return err
	})
}

// EdgeMatchEmitter appends the boards of `edgematch solve -emit` to a
// file, a JSON line each, written as they come (Add is called serially,
// as partial's OnComplete hook).
type EdgeMatchEmitter struct {
	f   *os.File
	t0  time.Time
	n   int
	err error
}

// NewEdgeMatchEmitter opens path for appending.
func NewEdgeMatchEmitter(path string) (*EdgeMatchEmitter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &EdgeMatchEmitter{f: f, t0: time.Now()}, nil
}

// Add writes one board: its number, score, the seconds since the start
// and the board in the board file format.
func (e *EdgeMatchEmitter) Add(b *edgematch.Board, s edgematch.Score) {
	e.n++
	line, err := json.Marshal(struct {
		N      int     `json:"n"`
		Score  int     `json:"score"`
		Max    int     `json:"max"`
		AfterS float64 `json:"after_s"`
		Board  string  `json:"board"`
	}{e.n, s.Matched, s.Max, time.Since(e.t0).Seconds(), b.String()})
	if err == nil {
		_, err = e.f.Write(append(line, '\n'))
	}
	e.err = cmp.Or(e.err, err)
}

// Close closes the file (nil e: no -emit) and reports the first error.
func (e *EdgeMatchEmitter) Close() error {
	if e == nil {
		return nil
	}
	return cmp.Or(e.err, e.f.Close())
}
