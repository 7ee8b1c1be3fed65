package bench

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"

	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/jigsaw"
	"tessera/jigsaw/neural"
)

// The reports of the jigsaw verbs that solve or score one puzzle (`tessera
// jigsaw solve`, `score`, `scramble`), and the files they write.

// JigsawSolved is what `tessera jigsaw solve` reports of a square-piece
// sheet solved by the catalogue's Algo with Options.
type JigsawSolved struct {
	Puzzle  *jigsaw.Puzzle
	Result  jigsaw.Result
	Algo    string
	Options catalog.JigsawOptions
	// Outputs are the pictures written (-o), Wrote what the text report
	// lists as written.
	Outputs, Wrote []string
	// Err is the solver's error, reported and returned by Write.
	Err error
}

// Write prints the report, the record (catalog.JigsawRecord, with the
// pictures written as "outputs") or text, and returns Err (joined with a
// failure to write).
func (s *JigsawSolved) Write(w io.Writer, asJSON bool) error {
	res, pz, o := s.Result, s.Puzzle, s.Options
	var rec catalog.JigsawRecord
	rec.Pieces = len(pz.Pieces)
	rec.Solved(s.Algo, o, pz, res)
	if s.Err != nil {
		rec.Error = s.Err.Error()
	}
	if asJSON {
		return errors.Join(WriteJSON(w, struct {
			catalog.JigsawRecord
			Outputs []string `json:"outputs,omitempty"` // the files written (-o)
		}{rec, s.Outputs}), s.Err)
	}
	search := res.History != nil || res.Fitness != 0 // a search with generations (ga)
	fmt.Fprintf(w, "pieces   %d of %d px, %s\n", len(pz.Pieces), pz.PieceSize, map[bool]string{false: "Type 1", true: "Type 2 (rotated)"}[pz.Rotated])
	fmt.Fprintf(w, "solver   %s, %s, %.3f s compatibilities, %.3f s in all\n", JigsawLabel(s.Algo, o, true), o.Metric, res.CompatTime.Seconds(), res.Elapsed.Seconds())
	if res.Frame[0] > 0 {
		turned := ""
		if t := fmt.Sprintf("%dx%d", res.Frame[1], res.Frame[0]); res.Frame[0] != res.Frame[1] && len(rec.Sizes) == 1 && rec.Sizes[0] == t {
			turned = "; the answer came out turned a quarter: " + t // Type 2: the whole picture may turn
		}
		fmt.Fprintf(w, "size     estimated %dx%d pieces (rows x cols)%s\n", res.Frame[0], res.Frame[1], turned)
	}
	if search {
		fmt.Fprintf(w, "fitness  %.6g (greedy seed %.6g)\n", res.Fitness, res.SeedFitness)
	}
	fmt.Fprintf(w, "result   %d placed, %s pieces (rows x cols), %.1f%% of adjacencies are best buddies\n", res.Placed, strings.Join(rec.Sizes, ", "), 100*res.BestBuddies)
	for _, s := range s.Wrote {
		fmt.Fprintf(w, "wrote    %s\n", s)
	}
	return s.Err
}

// Save writes the output pictures (to out, WriteJigsawOutputs) and the
// placement (JSON, to placement), each when named, and counts the
// snapshots written by snaps (when not nil, its failure joined to Err):
// each listed in the text report as written.
func (s *JigsawSolved) Save(out, placement string, snaps *JigsawSnapshots) error {
	pl := s.Result.Placement
	if out != "" {
		var err error
		if s.Outputs, err = WriteJigsawOutputs(out, s.Puzzle, pl); err != nil {
			return err
		}
		s.Wrote = append(s.Wrote, strings.Join(s.Outputs, ", "))
	}
	if placement != "" {
		if err := WriteFileAtomic(placement, pl.WriteJSON); err != nil {
			return err
		}
		s.Wrote = append(s.Wrote, placement)
	}
	if snaps != nil {
		s.Wrote, s.Err = append(s.Wrote, fmt.Sprintf("%d snapshots in %s", snaps.N, snaps.dir)), errors.Join(s.Err, snaps.Err)
	}
	return nil
}

// JigsawLabel describes the catalogue's solver algo with options o in a
// text report: the genetic algorithm with its population, generations
// and, withSeed, seed.
func JigsawLabel(algo string, o catalog.JigsawOptions, withSeed bool) string {
	if algo != "ga" {
		return algo
	}
	d := o.Defaults()
	if withSeed {
		return fmt.Sprintf("ga (population %d, %d generations, seed %d)", d.Pop, d.Gens.Flag(0), o.Seed)
	}
	return fmt.Sprintf("ga (population %d, %d generations)", d.Pop, d.Gens.Flag(0))
}

// JigsawProgress returns a jigsaw.Problem.Progress that shows the
// generation (of gens), the best fitness and the time on p's status line,
// or nil when p is disabled.
func JigsawProgress(p *progress.Reporter, gens int) func(jigsaw.Generation) {
	if !p.Enabled() {
		return nil
	}
	return func(g jigsaw.Generation) {
		stage := ""
		if g.Picture > 0 {
			stage = fmt.Sprintf("picture %d/%d, ", g.Picture, g.Pictures)
		}
		if g.Stage != "" {
			p.Printf("ga: %s%s %.1f%%, %.1f s", stage, g.Stage, 100*float64(g.Done)/float64(max(g.Total, 1)), g.Elapsed.Seconds())
			return
		}
		p.Printf("ga: %sgeneration %d/%d, best fitness %.6g, %.1f s", stage, g.Index, gens, g.Best, g.Elapsed.Seconds())
	}
}

// WriteJigsawOutputs writes the output pictures of placement pl as PNG
// files: path itself for one picture, else path with -1, -2, ... before
// the extension (a picture without pieces is not written). It returns the
// names.
func WriteJigsawOutputs(path string, pz *jigsaw.Puzzle, pl *jigsaw.Placement) ([]string, error) {
	names := []string{path}
	if pl.Images != 1 {
		ext := filepath.Ext(path)
		names = make([]string, pl.Images)
		for i := range names {
			names[i] = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(path, ext), i+1, ext)
		}
	}
	for i, name := range names {
		if !pl.Bounds(i).Empty() {
			if err := WriteFileAtomic(name, func(w io.Writer) error { return jigsaw.WritePNG(w, pz, pl, i) }); err != nil {
				return names, err
			}
		}
	}
	return names, nil
}

// JigsawSnapshots writes the best layout of every generation of a genetic
// search into a folder: Save is a jigsaw.Problem.Snapshot.
type JigsawSnapshots struct {
	dir string
	pz  *jigsaw.Puzzle
	// N counts the snapshots written, Err is the first failure to write
	// one.
	N   int
	Err error
}

// NewJigsawSnapshots makes the folder dir for snapshots of pz.
func NewJigsawSnapshots(dir string, pz *jigsaw.Puzzle) (*JigsawSnapshots, error) {
	return &JigsawSnapshots{dir: dir, pz: pz}, os.MkdirAll(dir, 0o755)
}

// Save writes layout pl of generation g as gen-NNN.png, or
// picture-K-gen-NNN.png for picture K of a mixed bag.
func (s *JigsawSnapshots) Save(g jigsaw.Generation, pl *jigsaw.Placement) {
	s.N++
	name := fmt.Sprintf("gen-%03d.png", g.Index)
	if g.Picture > 0 {
		name = fmt.Sprintf("picture-%d-gen-%03d.png", g.Picture, g.Index)
	}
	if err := WriteFileAtomic(filepath.Join(s.dir, name), func(w io.Writer) error { return jigsaw.WritePNG(w, s.pz, pl, 0) }); err != nil && s.Err == nil {
		s.Err = err
	}
}

// JigsawScore prints the accuracy of a placement against truth
// (`tessera jigsaw score`): the JSON object, or a table with a row per
// source image and, for several, the whole, and with missing pieces or
// strays a line on the holes and the pieces set aside.
func JigsawScore(w io.Writer, acc jigsaw.Accuracy, truth *jigsaw.Truth, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, acc)
	}
	t := &Writer{W: w, Header: "image\tpieces\tdirect\tneighbour\tperfect\t", AlignRight: true}
	for _, s := range acc.Images {
		t.Item(nil, fmt.Sprintf("%s\t%d\t%.2f%%\t%.2f%%\t%v\t", s.Name, s.Pieces, 100*s.Direct, 100*s.Neighbor, s.Perfect))
	}
	if len(acc.Images) > 1 {
		t.Item(nil, fmt.Sprintf("all\t%d\t%.2f%%\t%.2f%%\t%v\t", len(truth.Pieces), 100*acc.Direct, 100*acc.Neighbor, acc.Perfect))
	}
	return t.Summary(nil, func(w io.Writer) {
		if truth.Missing > 0 || acc.Strays > 0 {
			fmt.Fprintf(w, "holes: %d of %d missing pieces left as holes where they belong (%d holes in all); strays: %d of %d set aside; the pictures' own pieces set aside: %d\n",
				acc.HolesRight, acc.Missing, acc.Holes, acc.StraysAside, acc.Strays, acc.Aside)
		}
	})
}

// JigsawScrambled is what `tessera jigsaw scramble` reports: the grids
// cut from the images, scrambled into Puzzle, written as the sheet Sheet
// of Cols columns and the ground truth Truth ("" when not written).
type JigsawScrambled struct {
	Grids        []*jigsaw.Grid
	Puzzle       *jigsaw.Puzzle
	Cols         int
	Sheet, Truth string
	Rotate       bool
	Seed         uint64
}

// Scramble scrambles the grids into Puzzle (jigsaw.Scramble), its sheet
// of Cols columns (when not set, the grid's of a single picture, else
// near square), and returns the ground truth.
func (s *JigsawScrambled) Scramble(o jigsaw.ScrambleOptions) *jigsaw.Truth {
	pz, truth := jigsaw.Scramble(s.Grids, o)
	if s.Puzzle = pz; s.Cols <= 0 && len(s.Grids) == 1 {
		s.Cols = s.Grids[0].Cols
	}
	if s.Cols <= 0 {
		s.Cols = jigsaw.SheetCols(len(pz.Pieces))
	}
	return truth
}

// Write prints the notes on the images' crops (jigsawCropNote) to notes
// and the report to w, one JSON object or text.
func (s *JigsawScrambled) Write(w, notes io.Writer, asJSON bool) error {
	for _, g := range s.Grids {
		if note := jigsawCropNote(g); note != "" {
			fmt.Fprintln(notes, note)
		}
	}
	pz, c := s.Puzzle, s.Cols
	rows := (len(pz.Pieces) + c - 1) / c
	if asJSON {
		return WriteJSON(w, map[string]any{"sheet": s.Sheet, "truth": s.Truth, "pieces": len(pz.Pieces), "piece_size": pz.PieceSize,
			"cols": c, "rows": rows, "rotate": s.Rotate, "seed": s.Seed, "images": len(s.Grids), "depth": pz.Depth})
	}
	kind := "Type 1"
	if s.Rotate {
		kind = "Type 2, rotated"
	}
	fmt.Fprintf(w, "scrambled %d pieces of %d px from %d image(s) (%s, seed %d)\n", len(pz.Pieces), pz.PieceSize, len(s.Grids), kind, s.Seed)
	for _, g := range s.Grids {
		fmt.Fprintf(w, "  %s: %dx%d pieces\n", g.Name, g.Cols, g.Rows)
	}
	fmt.Fprintf(w, "sheet    %s (%dx%d cells, %d-bit)\n", s.Sheet, c, rows, pz.Depth)
	if s.Truth != "" {
		fmt.Fprintf(w, "truth    %s\n", s.Truth)
	}
	return nil
}

// jigsawCropNote says what jigsaw.Cut removed from g, or "".
func jigsawCropNote(g *jigsaw.Grid) string {
	if g.Crop == g.Source {
		return ""
	}
	return fmt.Sprintf("%s: %dx%d is not a multiple of the piece size; cut the central %dx%d pixels from (%d, %d)",
		g.Name, g.Source.Dx(), g.Source.Dy(), g.Crop.Dx(), g.Crop.Dy(), g.Crop.Min.X, g.Crop.Min.Y)
}

// GapSolved is what `tessera jigsaw solve -algo mcts` (or another gap
// solver of the catalogue) reports of puzzle Puzzle (read from the file
// Image): the solver Algo with options Options (their defaults written
// out) and its result.
type GapSolved struct {
	Puzzle  *neural.Puzzle
	Image   string
	Algo    string
	Options neural.Options
	Result  neural.Result
	// Out is the picture written ("" for none).
	Out string
	// Err is the solver's error, reported and returned by Write.
	Err error
}

// WriteGapPicture writes the reassembly cells of pz as a PNG, gaps white.
func WriteGapPicture(path string, pz *neural.Puzzle, cells []int) error {
	return WriteFileAtomic(path, func(w io.Writer) error { return png.Encode(w, pz.Render(cells, color.White)) })
}

// Write prints the report, the record (catalog.GapsRecord) or text, with
// the score when the truth is known, and returns Err (joined with a
// failure to write).
func (s *GapSolved) Write(w io.Writer, asJSON bool) error {
	res := s.Result
	rec := catalog.GapsRecord{Image: s.Image}
	rec.Solved(s.Algo, s.Options, s.Puzzle, res)
	if asJSON {
		if s.Err != nil {
			rec.Error = s.Err.Error()
		}
		return errors.Join(WriteJSON(w, rec), s.Err)
	}
	fmt.Fprintf(w, "puzzle   %dx%d patches of %d px, gaps of %d px\n", rec.Grid, rec.Grid, rec.PatchSize, rec.Gap)
	fmt.Fprintf(w, "solver   %s, %s reward, %d simulations per patch, %d attempt(s), %.3f s, %d evaluations\n",
		s.Algo, rec.Reward, rec.Sims, rec.Attempts, res.Elapsed.Seconds(), res.Evaluations)
	fmt.Fprintf(w, "value    %.3f (V's estimate that the answer is right)\n", res.Value)
	if sc := rec.GapScore; sc != nil {
		fmt.Fprintf(w, "score    %.1f%% patches, %.1f%% neighbours, perfect %v\n", 100*sc.Patch, 100*sc.Neighbor, sc.Perfect)
	}
	if s.Out != "" {
		fmt.Fprintf(w, "wrote    %s\n", s.Out)
	}
	if s.Puzzle.Fragments {
		aside, empty := s.Puzzle.Aside(res.Cells)
		fmt.Fprintf(w, "aside    patches %s (of %d, numbered as on the sheet); cells left empty: %s\n", listOrNone(aside), len(res.Cells), listOrNone(empty))
	}
	return s.Err
}

// listOrNone writes numbers as a list, "none" for none.
func listOrNone(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(v)), ", "), "[]")
}

// GapImages decodes the images of a comma-separated list of folders and
// files (GapSet), such as a training set; none for "".
func GapImages(set string) ([]image.Image, error) {
	if set == "" {
		return nil, nil
	}
	files, err := GapSet(set)
	if err != nil {
		return nil, err
	}
	return neural.LoadImages(files)
}
