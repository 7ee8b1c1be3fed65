package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"tessera/edgematch"
)

// lpSnapshots writes the iterates of "edgematch solve -algo lp -snapshots
// DIR": after every LP the rounded board (lp-NN-board.png) and the matrix P
// (lp-NN-P.png) at once, and at the end the strip of all of them
// (iterates.png), the paper's Figure 4c.
type lpSnapshots struct {
	dir string
	p   *edgematch.Puzzle
	its []edgematch.LPIterate
	err error // the first failure to write
}

// newLPSnapshots makes the folder; dir "" turns the snapshots off (nil).
func newLPSnapshots(dir string, p *edgematch.Puzzle) (*lpSnapshots, error) {
	if dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &lpSnapshots{dir: dir, p: p}, nil
}

// add is the solver's OnLP.
func (s *lpSnapshots) add(it edgematch.LPIterate) {
	s.its = append(s.its, it)
	if s.err != nil {
		return
	}
	name := fmt.Sprintf("lp-%02d-", it.Iteration)
	if s.err = writePNG(filepath.Join(s.dir, name+"board.png"), s.p.Render(it.Board, edgematch.RenderOptions{Cell: 32})); s.err == nil {
		s.err = writePNG(filepath.Join(s.dir, name+"P.png"), edgematch.RenderP(it, edgematch.SnapshotOptions{}))
	}
}

// finish writes the strip and reports the first failure.
func (s *lpSnapshots) finish() error {
	if s == nil || len(s.its) == 0 {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	// Smaller cells when many iterates would make the strip too wide.
	side := max(s.p.Rows, s.p.Cols)
	o := edgematch.SnapshotOptions{Cell: min(32, max(8, ((1<<15)/len(s.its)-24)/side))}
	img, err := s.p.RenderIterates(s.its, o)
	if err != nil {
		return err
	}
	return writePNG(filepath.Join(s.dir, "iterates.png"), img)
}

// writePNG encodes img and writes it atomically.
func writePNG(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return err
	}
	return writeFileAtomic(path, b.Bytes())
}
