package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"tessera/edgematch"
)

// PrintEdgeMatchScore prints `tessera edgematch score`: board b of p
// (read from the file puzzle) rescored from the pieces, whether it is a
// complete placement, and with showURL its viewer URL; under JSON one
// object.
func PrintEdgeMatchScore(w io.Writer, puzzle string, p *edgematch.Puzzle, b *edgematch.Board, showURL, asJSON bool) error {
	s := p.Score(b)
	verr := p.Verify(b)
	viewer, _ := p.BucasURL(b, strings.TrimSuffix(filepath.Base(puzzle), filepath.Ext(puzzle)))
	if asJSON {
		j := map[string]any{"score": s.Matched, "max": s.Max, "solved": s.Solved(), "frame_errors": s.FrameErrors,
			"empty": s.Empty, "complete": verr == nil}
		if verr != nil {
			j["problem"] = verr.Error()
		}
		if showURL {
			j["url"] = viewer
		}
		return WriteJSON(w, j)
	}
	fmt.Fprintf(w, "score    %v (%d mismatches)\n", s, s.Mismatches())
	switch {
	case s.Solved() && verr == nil:
		fmt.Fprintln(w, "status   solved: every piece once, hints in place, every edge matches")
	case verr == nil:
		fmt.Fprintln(w, "status   complete: every piece once, hints in place")
	default:
		fmt.Fprintf(w, "status   not a complete placement: %v\n", strings.TrimPrefix(verr.Error(), "edgematch: "))
	}
	if showURL {
		fmt.Fprintf(w, "viewer   %s\n", viewer)
	}
	return nil
}
