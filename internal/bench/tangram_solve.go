package bench

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"

	"tessera/internal/catalog"
	"tessera/tangram"
)

// TangramSolveFiles are the files `tangram solve` writes; an empty name
// writes nothing. Hooks gathers the SDP iterates for Snapshots.
type TangramSolveFiles struct {
	Snapshots string // a folder: the iterates' pictures
	Solution  string // the solution's text
	Picture   string // a PNG of the solution

	frames [][]tangram.Pose
	shifts [][][2]float64
}

// Hooks returns the solve's hooks: with Snapshots they keep every SDP
// iterate.
func (f *TangramSolveFiles) Hooks() catalog.TangramHooks {
	return catalog.TangramHooks{OnIterate: func(it tangram.SDPIterate) {
		f.frames, f.shifts = append(f.frames, it.Poses), append(f.shifts, it.Shifts)
	}}
}

// Write writes the files of a solve of p by algo (name: the puzzle file's):
// the iterates' pictures (and, when the pieces could turn, the augmented
// puzzle of each), the solution headed by the command that found it, and
// its picture.
func (f *TangramSolveFiles) Write(p *tangram.Puzzle, res tangram.Result, algo, name string) error {
	if f.Snapshots != "" && len(f.frames) > 0 {
		if err := TangramSnapshots(f.Snapshots, p, f.frames); err != nil {
			return err
		}
		if res.SDP != nil && res.SDP.Augmentation != nil {
			if err := augmentedSnapshots(f.Snapshots, p, res.SDP.Augmentation, f.shifts); err != nil {
				return err
			}
		}
	}
	if res.Solved && f.Solution != "" {
		if err := WriteTangramSolution(f.Solution, fmt.Sprintf("tessera tangram solve -algo %s %s", algo, name), p, res.Solution); err != nil {
			return err
		}
	}
	if f.Picture != "" && res.Solution != nil {
		return WriteTangramPNG(f.Picture, p, res.Solution.Poses(), tangram.RenderOptions{})
	}
	return nil
}

// augmentedSnapshots writes the augmented puzzle of every iterate
// (augmented-NN.png) and all of them side by side (augmented.png).
func augmentedSnapshots(dir string, p *tangram.Puzzle, aug *tangram.Augmentation, shifts [][][2]float64) error {
	o := tangram.RenderOptions{Scale: 16}
	for k, sh := range shifts {
		img, err := tangram.RenderAugmented(p, aug, sh, o)
		if err != nil {
			return err
		}
		if err := WritePNG(filepath.Join(dir, fmt.Sprintf("augmented-%02d.png", k+1)), img); err != nil {
			return err
		}
	}
	img, err := tangram.RenderAugmentedStrip(p, aug, shifts, o)
	if err != nil {
		return err
	}
	return WritePNG(filepath.Join(dir, "augmented.png"), img)
}

// PrintTangramSolve prints a solve: its record under JSON, else the
// puzzle, the work done, the seconds and the solution found.
func PrintTangramSolve(w io.Writer, p *tangram.Puzzle, rec catalog.TangramRecord, res tangram.Result, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, rec)
	}
	fmt.Fprintf(w, "puzzle     %s: %d pieces\nsolved     %v\n", rec.Puzzle, len(p.Pieces), rec.Solved)
	if res.SDP != nil {
		fmt.Fprintf(w, "sdp        %d SDPs of %d constraints, Z_i of %d rows; objective %.3g; %d restarts; %d interior-point steps\n",
			rec.Iterations, res.SDP.Constraints, res.SDP.BlockSize, rec.Objective, rec.Restarts, rec.SDPSteps)
	} else {
		fmt.Fprintf(w, "search     %d placements\n", rec.Nodes)
	}
	fmt.Fprintf(w, "seconds    %.3f\n", rec.Seconds)
	if res.Solved {
		tangram.FormatSolution(w, p, res.Solution)
	}
	return nil
}

// WriteTangramPuzzle writes p, headed by the comment line "# comment", to
// path atomically, or to stdout when path is "".
func WriteTangramPuzzle(stdout io.Writer, path, comment string, p *tangram.Puzzle) error {
	fill := func(w io.Writer) error {
		fmt.Fprintf(w, "# %s\n", comment)
		return tangram.FormatPuzzle(w, p)
	}
	if path != "" {
		return WriteFileAtomic(path, fill)
	}
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return err
	}
	_, err := stdout.Write(b.Bytes())
	return err
}

// WriteTangramSolution writes sol of p, headed by the comment line
// "# comment", to path atomically.
func WriteTangramSolution(path, comment string, p *tangram.Puzzle, sol *tangram.Solution) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		fmt.Fprintf(w, "# %s\n", comment)
		return tangram.FormatSolution(w, p, sol)
	})
}

// WriteTangramPNG draws p with its pieces at poses and writes the PNG to
// path atomically.
func WriteTangramPNG(path string, p *tangram.Puzzle, poses []tangram.Pose, o tangram.RenderOptions) error {
	return WriteFileAtomic(path, func(w io.Writer) error { return tangram.RenderPNG(w, p, poses, o) })
}
