package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"tessera/edgematch"
	"time"
)

// SaveEdgeMatchBoard writes board b of p (read from the file puzzle), found
// by `tessera edgematch solve -algo algo -seed seed` after elapsed, to path
// atomically, with comments saying where it comes from, its format and its
// viewer URL.
func SaveEdgeMatchBoard(path string, b *edgematch.Board, puzzle string, p *edgematch.Puzzle, s edgematch.Score, algo string, seed uint64, elapsed time.Duration) error {
	comments := []string{
		fmt.Sprintf("%s, score %v, tessera edgematch solve -algo %s -seed %d, found after %.1f s", puzzle, s, algo, seed, elapsed.Seconds()),
		"format: \"ROWS COLS\", then ROWS lines of \"PIECE/ROT\" (row 1 = top; ROT = clockwise quarter turns; 0/0 = empty)",
	}
	if url, err := p.BucasURL(b, strings.TrimSuffix(puzzle, filepath.Ext(puzzle))); err == nil {
		comments = append(comments, "viewer: "+url)
	}
	data := edgematch.Format(b, comments...)
	return WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}
