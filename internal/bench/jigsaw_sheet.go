package bench

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"tessera/imageio"
	"tessera/internal/catalog"
	"tessera/jigsaw"
)

// JigsawInputError maps an error reading or writing a picture: the end
// of the budget named by flag (d) is a failure that says so; anything
// else wrong with an input named on the command line (a missing, empty,
// corrupt or too large file, pieces that do not fit it) is a UsageError.
func JigsawInputError(err error, flag string, d time.Duration) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s %v ended it before any result: %w (give a longer %s)", flag, d, err, flag)
	case errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission),
		errors.Is(err, imageio.ErrEmpty), errors.Is(err, imageio.ErrFormat), errors.Is(err, imageio.ErrCorrupt), errors.Is(err, imageio.ErrTooLarge),
		errors.Is(err, jigsaw.ErrPieceSize), errors.Is(err, jigsaw.ErrNotDivisible), errors.Is(err, jigsaw.ErrNoPieces), errors.Is(err, jigsaw.ErrTooManyPieces):
		return Usagef("%v", err)
	}
	return err
}

// ParseJigsawSize reads "AxB", both at least 1, into a and b.
func ParseJigsawSize(v string, a, b *int) bool {
	_, err := fmt.Sscanf(v, "%dx%d", a, b)
	return err == nil && *a >= 1 && *b >= 1
}

// JigsawSolve is `tessera jigsaw solve` of a sheet of square pieces, but
// for the solver: how the sheet is read and what the puzzle is, and the
// files written beside the picture. Plain data, a field per option, each
// named by its json tag (its flag: catalog.BindFlags) and documented by
// its help tag; DefaultJigsawSolve gives the defaults.
type JigsawSolve struct {
	Piece      int    `json:"piece" help:"piece side in pixels (default: recorded in the sheet, or measured on it; another size than recorded is refused unless -force-piece)"`
	ForcePiece bool   `json:"force_piece" help:"cut the sheet into -piece pixel pieces even if it records another size"`
	MaxPieces  int    `json:"max_pieces" help:"refuse a sheet of more pieces, before decoding it (0: no limit)"`
	Rotate     bool   `json:"rotate" help:"pieces may be turned (Type 2)"`
	Size       string `json:"size" help:"size of the picture in pieces, ROWSxCOLS, when known"`
	Images     int    `json:"images" help:"number of pictures in the bag (0: find it, with -algo ga)"`
	Holes      bool   `json:"holes" help:"pieces may be missing and strays mixed in: leave holes, set strays aside"`
	Placement  string `json:"placement" help:"write the placement (JSON) to this file"`
	Snapshots  string `json:"snapshots" help:"ga: write the best layout of every generation as PNG files in this folder"`
}

// DefaultJigsawSolve is a JigsawSolve with the defaults of every option.
func DefaultJigsawSolve() JigsawSolve {
	return JigsawSolve{MaxPieces: jigsaw.DefaultMaxPieces, Images: 1}
}

// problem checks the settings for the solver algo (a mistake is a
// UsageError) and returns the problem without its puzzle, and how to read
// the sheet.
func (s *JigsawSolve) problem(algo string) (*jigsaw.Problem, jigsaw.SheetOptions, error) {
	p := &jigsaw.Problem{Images: s.Images, Holes: s.Holes}
	so := jigsaw.SheetOptions{PieceSize: s.Piece, ForcePieceSize: s.ForcePiece, MaxPieces: s.MaxPieces, Rotated: s.Rotate}
	switch {
	case s.Holes && algo != "greedy" && algo != "ga":
		return p, so, Usagef("-holes needs -algo greedy or ga")
	case s.Size != "" && !ParseJigsawSize(s.Size, &p.Rows, &p.Cols):
		return p, so, Usagef("-size %q: want ROWSxCOLS in pieces, such as 18x24", s.Size)
	case s.Images < 0 || s.Images == 0 && !catalog.CountsPictures(algo):
		return p, so, Usagef("-images %d: at least 1 (0, to find it, needs -algo ga)", s.Images)
	case s.MaxPieces < 0:
		return p, so, Usagef("-max-pieces %d: want 0 (no limit) or more", s.MaxPieces)
	case s.Piece < 0 || s.Piece == 1:
		return p, so, Usagef("-piece %d: at least 2 pixels", s.Piece)
	}
	if so.MaxPieces == 0 {
		so.MaxPieces = -1
	}
	return p, so, nil
}

// Run solves the sheet of the file path with the catalog.Jigsaw solver
// algo (its options and hooks run) within ctx, whose -timeout is timeout,
// calls done when the solver returns, and writes the picture to out (""
// for none) and the files the settings name. A mistake in the settings or
// the sheet is a UsageError. It returns the report, whose Err is the
// solver's error when it has a layout all the same.
func (s *JigsawSolve) Run(ctx context.Context, path, algo string, run catalog.JigsawRun, out string, timeout time.Duration, done func()) (*JigsawSolved, error) {
	sv, err := catalog.Jigsaw.New(algo, run)
	if err != nil {
		return nil, Usagef("-algo %s: %v", algo, err)
	}
	p, so, err := s.problem(algo)
	if err != nil {
		return nil, err
	}
	p.Puzzle, err = jigsaw.ReadSheetFileContext(ctx, path, so)
	switch {
	case errors.Is(err, jigsaw.ErrPieceSize) && s.Piece == 0:
		return nil, Usagef("%v (-piece)", err)
	case errors.Is(err, jigsaw.ErrPieceSize) && strings.Contains(err.Error(), "records"):
		return nil, Usagef("%v (-force-piece to cut it so anyway)", err)
	case errors.Is(err, jigsaw.ErrTooManyPieces):
		return nil, Usagef("%v (-max-pieces)", err)
	case err != nil:
		return nil, JigsawInputError(err, "-timeout", timeout)
	}
	if err := p.Check(); err != nil {
		return nil, Usagef("%v (-size, -images)", err)
	}
	var snaps *JigsawSnapshots
	if s.Snapshots != "" {
		if !catalog.Generational(algo) {
			return nil, Usagef("-snapshots needs a solver with generations (-algo ga)")
		}
		if snaps, err = NewJigsawSnapshots(s.Snapshots, p.Puzzle); err != nil {
			return nil, err
		}
		p.Snapshot = snaps.Save
	}
	p.Progress = run.Hooks.Progress
	res, err := sv.Solve(ctx, p)
	done()
	if res.Placement == nil {
		if ctx.Err() != nil && err != nil {
			return nil, fmt.Errorf("-timeout %v ended it before the solver had any layout of the %d pieces (computing their compatibilities takes time O(n^2)); give a longer -timeout: %w",
				timeout, len(p.Puzzle.Pieces), err)
		}
		return nil, err
	}
	r := &JigsawSolved{Puzzle: p.Puzzle, Result: res, Algo: algo, Options: run.JigsawOptions, Err: err}
	return r, r.Save(out, s.Placement, snaps)
}

// JigsawScramble is `tessera jigsaw scramble`: images cut into pieces,
// scrambled and written as a sheet with its ground truth. Plain data as
// JigsawSolve; DefaultJigsawScramble gives the defaults.
type JigsawScramble struct {
	Piece  int     `json:"piece" help:"piece side in pixels"`
	Rotate bool    `json:"rotate" help:"turn pieces by random multiples of 90 degrees (Type 2)"`
	Crop   bool    `json:"crop" help:"cut the centre of images whose sides are not multiples of -piece (false: refuse them)"`
	Cols   int     `json:"cols" help:"columns of the sheet (default: the image's grid, or near square for a mixed bag)"`
	Drop   float64 `json:"drop" help:"lose this share (0 to 1) of each picture's pieces"`
	Extra  string  "json:\"extra\" help:\"mix in K stray pieces cut from another picture, `FILE:K`\""
	Truth  string  `json:"truth" help:"write the ground truth (JSON) to this file"`
	// Seed draws the scramble, Sheet is the sheet written (required).
	Seed  uint64 `json:"seed" flag:"-"`
	Sheet string `json:"sheet" flag:"-"`
}

// DefaultJigsawScramble is a JigsawScramble with the defaults of every
// option.
func DefaultJigsawScramble() JigsawScramble {
	return JigsawScramble{Piece: 28, Crop: true, Seed: 1}
}

// Run cuts the images of paths, scrambles them, writes the sheet and the
// truth within ctx (whose -timeout is timeout) and prints the report to w
// (notes on crops to notes). No images, no Sheet, or a mistake in the
// settings or an image is a UsageError.
func (s *JigsawScramble) Run(ctx context.Context, paths []string, timeout time.Duration, w, notes io.Writer, asJSON bool) error {
	if err := imagesAndOut(paths, s.Sheet, "sheet.png"); err != nil {
		return err
	}
	if s.Piece < 2 {
		return Usagef("-piece %d: at least 2 pixels", s.Piece)
	}
	if !(s.Drop >= 0 && s.Drop < 1) {
		return Usagef("-drop %v: want a share from 0 to below 1", s.Drop)
	}
	extraFile, extraK, err := parseJigsawExtra(s.Extra)
	if err != nil {
		return err
	}
	ctx, cancel := catalog.WithTimeout(ctx, timeout)
	defer cancel()
	r := JigsawScrambled{Sheet: s.Sheet, Truth: s.Truth, Rotate: s.Rotate, Seed: s.Seed, Cols: s.Cols}
	load := func(path, what string) (*jigsaw.Grid, error) {
		if err := RegularFile(path); err != nil {
			return nil, Usagef("%s%v", what, err)
		}
		g, err := LoadJigsawGrid(ctx, path, s.Piece, s.Crop)
		return g, JigsawInputError(err, "-timeout", timeout)
	}
	for _, path := range paths {
		g, err := load(path, "")
		if err != nil {
			return err
		}
		r.Grids = append(r.Grids, g)
	}
	so := jigsaw.ScrambleOptions{Rotate: s.Rotate, Seed: s.Seed, Drop: s.Drop, StrayPieces: extraK}
	if extraFile != "" {
		g, err := load(extraFile, "-extra: ")
		if err != nil {
			return err
		}
		if extraK > len(g.Pieces) {
			return Usagef("-extra %s: %d strays asked, the picture makes %d pieces", s.Extra, extraK, len(g.Pieces))
		}
		so.Strays = []*jigsaw.Grid{g}
	}
	truth := r.Scramble(so)
	if err := WriteFileAtomic(s.Sheet, func(w io.Writer) error { return jigsaw.WriteSheetContext(ctx, w, r.Puzzle, r.Cols) }); err != nil {
		return JigsawInputError(err, "-timeout", timeout)
	}
	if s.Truth != "" {
		if err := WriteFileAtomic(s.Truth, truth.WriteJSON); err != nil {
			return err
		}
	}
	return r.Write(w, notes, asJSON)
}

// imagesAndOut refuses a command line without images (paths) or without
// -o (out), named as file.
func imagesAndOut(paths []string, out, file string) error {
	if len(paths) == 0 {
		return Usagef("no image given")
	}
	if out == "" {
		return Usagef("-o %s is required", file)
	}
	return nil
}

// parseJigsawExtra reads -extra FILE:K ("" gives "", 0).
func parseJigsawExtra(v string) (string, int, error) {
	if v == "" {
		return "", 0, nil
	}
	i := strings.LastIndexByte(v, ':')
	k, err := strconv.Atoi(v[i+1:])
	if i <= 0 || err != nil || k < 1 {
		return "", 0, Usagef("-extra %q: want FILE:K, K strays of at least 1", v)
	}
	return v[:i], k, nil
}

// JigsawMosaic is `tessera jigsaw mosaic`: pictures tiled into one
// (jigsaw.MosaicFiles). Plain data as JigsawSolve.
type JigsawMosaic struct {
	Cols int    `json:"cols" help:"tiles per row (default: near square)"`
	Size string `json:"size" help:"keep the central WxH pixels"`
	Trim int    `json:"trim" help:"cut this many pixels off every side of each image first"`
	Crop string `json:"crop" help:"then keep the central WxH pixels of each image (turned to the same orientation first)"`
}

// Run tiles the images of paths into the PNG file out, its writing
// stopped when ctx ends, and prints a line that reports it to w. No images,
// no out, or a mistake in the settings or an image is a UsageError.
func (m *JigsawMosaic) Run(ctx context.Context, paths []string, out string, w io.Writer) error {
	line, err := m.run(ctx, paths, out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, line)
	return err
}

// run is Run but for the line it returns.
func (m *JigsawMosaic) run(ctx context.Context, paths []string, out string) (string, error) {
	if err := imagesAndOut(paths, out, "big.png"); err != nil {
		return "", err
	}
	if m.Trim < 0 {
		return "", Usagef("-trim %d: want 0 or more pixels", m.Trim)
	}
	opts := jigsaw.MosaicOptions{Cols: m.Cols, Trim: m.Trim}
	for _, f := range []struct {
		name, v string
		p       *image.Point
	}{{"crop", m.Crop, &opts.Crop}, {"size", m.Size, &opts.Size}} {
		if f.v != "" && !ParseJigsawSize(f.v, &f.p.X, &f.p.Y) {
			return "", Usagef("-%s %q: want WxH pixels", f.name, f.v)
		}
	}
	for _, path := range paths {
		if err := RegularFile(path); err != nil {
			return "", Usagef("%v", err)
		}
	}
	if m.Cols < 0 || m.Cols > len(paths) {
		return "", Usagef("-cols %d: want 1 to %d, the number of images (0: near square)", m.Cols, len(paths))
	}
	pic, tile, depth, err := jigsaw.MosaicFiles(ctx, paths, opts)
	var me *jigsaw.MosaicError
	switch {
	case errors.As(err, &me) && me.Image >= 0:
		return "", Usagef("-%s: %s is only %dx%d", me.Option, paths[me.Image], me.Size.X, me.Size.Y)
	case errors.As(err, &me):
		return "", Usagef("-%s: want WxH pixels within %dx%d", me.Option, me.Size.X, me.Size.Y)
	case err != nil:
		return "", JigsawInputError(err, "", 0)
	}
	if err := WriteFileAtomic(out, func(w io.Writer) error { return jigsaw.WritePNGContext(ctx, w, pic) }); err != nil {
		return "", err
	}
	b := pic.Bounds()
	return fmt.Sprintf("wrote %s: %dx%d pixels, %d-bit, %d tiles of %dx%d", out, b.Dx(), b.Dy(), depth, len(paths), tile.X, tile.Y), nil
}

// Prepare checks the bench's settings as a command line gives them (set:
// a folder, image files or a shared set's name, found in the data folder
// data; dims: known, unknown or "" for Type's standard) and fills Files
// and Known; a mistake is a UsageError.
func (j *Jigsaw) Prepare(set, data, dims string) error {
	if set == "" {
		return Usagef("-set is required")
	}
	if j.Type != 1 && j.Type != 2 {
		return Usagef("-type %d: want 1 or 2", j.Type)
	}
	known, ok := map[string]bool{"": j.Type == 1, "known": true, "unknown": false}[dims]
	if !ok {
		return Usagef("-dims %q: want known or unknown", dims)
	}
	if j.Bag < 0 || j.Bag == 1 {
		return Usagef("-bag %d: at least 2 images per bag", j.Bag)
	}
	j.Known = known && j.Bag == 0
	var err error
	j.Files, err = JigsawSet(set, data)
	return err
}

// ScoreJigsawFiles scores the placement of the file placement against the
// ground truth of the file truth (jigsaw.Score; absolute: without a global
// rotation or shift) and prints the accuracies to w (JigsawScore).
func ScoreJigsawFiles(w io.Writer, truth, placement string, absolute, asJSON bool) error {
	t, err := jigsaw.ReadTruthFile(truth)
	if err != nil {
		return err
	}
	p, err := jigsaw.ReadPlacementFile(placement, len(t.Pieces), true)
	if err != nil {
		return err
	}
	acc, err := jigsaw.Score(t, p, jigsaw.ScoreOptions{Absolute: absolute})
	if err != nil {
		return err
	}
	return JigsawScore(w, acc, t, asJSON)
}
