package bench

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"

	"tessera/edgematch"
	"tessera/tangram"
)

// LPSnapshots writes the iterates of "edgematch solve -algo lp -snapshots
// DIR": after every LP the rounded board (lp-NN-board.png) and the matrix P
// (lp-NN-P.png) at once, and at the end the strip of all of them
// (iterates.png), the paper's Figure 4c.
type LPSnapshots struct {
	dir string
	p   *edgematch.Puzzle
	its []edgematch.LPIterate
	err error // the first failure to write
}

// NewLPSnapshots makes the folder; dir "" turns the snapshots off (nil).
func NewLPSnapshots(dir string, p *edgematch.Puzzle) (*LPSnapshots, error) {
	if dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &LPSnapshots{dir: dir, p: p}, nil
}

// Add is the solver's OnLP.
func (s *LPSnapshots) Add(it edgematch.LPIterate) {
	s.its = append(s.its, it)
	if s.err != nil {
		return
	}
	name := fmt.Sprintf("lp-%02d-", it.Iteration)
	if s.err = WritePNG(filepath.Join(s.dir, name+"board.png"), s.p.Render(it.Board, edgematch.RenderOptions{Cell: 32})); s.err == nil {
		s.err = WritePNG(filepath.Join(s.dir, name+"P.png"), edgematch.RenderP(it, edgematch.SnapshotOptions{}))
	}
}

// Finish writes the strip and reports the first failure.
func (s *LPSnapshots) Finish() error {
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
	return WritePNG(filepath.Join(s.dir, "iterates.png"), img)
}

// WritePNG encodes img and writes it atomically.
func WritePNG(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return err
	}
	return WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err })
}

// TangramSnapshots writes the iterates of Algorithm 2 to dir ("tangram
// solve -snapshots"): one PNG each (iterate-NN.png) and the strip
// (iterates.png).
func TangramSnapshots(dir string, p *tangram.Puzzle, frames [][]tangram.Pose) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	o := tangram.RenderOptions{Scale: 24}
	for k, f := range frames {
		if err := WriteFileAtomic(filepath.Join(dir, fmt.Sprintf("iterate-%02d.png", k+1)), func(w io.Writer) error {
			return tangram.RenderPNG(w, p, f, o)
		}); err != nil {
			return err
		}
	}
	img, err := tangram.RenderStrip(p, frames, o)
	if err != nil {
		return err
	}
	return WritePNG(filepath.Join(dir, "iterates.png"), img)
}
