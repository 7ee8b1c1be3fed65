package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"tessera/imageio"
	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/jigsaw"
	"tessera/jigsaw/neural"
)

// fragBench is "jigsaw neural bench -missing K -foreign J": the puzzles
// of the plain bench (image i's crops drawn from the stream (seed, i))
// made puzzles of fragments: K of their patches taken away, J strays
// from another image of the set mixed in (neural.MakeFragments), each
// solved by the game of fragments and scored (patches, neighbours,
// perfect, strays set aside).
type fragBench struct {
	files            []string
	crops            int
	geo              neural.Geometry
	algo             string
	opts             catalog.GapOptions
	hooks            catalog.GapHooks
	missing, foreign int
	prog             *progress.Reporter
}

// fragRecord is a line of the bench's JSON.
type fragRecord struct {
	Puzzle      int     `json:"puzzle"`
	Image       string  `json:"image"`
	Patch       float64 `json:"patch"`
	Neighbor    float64 `json:"neighbor"`
	Perfect     bool    `json:"perfect"`
	Missing     int     `json:"missing"`
	Strays      int     `json:"strays"`
	StraysFound int     `json:"strays_found"`
	OwnAside    int     `json:"own_aside"`
	Misplaced   int     `json:"misplaced"`
	Seconds     float64 `json:"seconds"`
	Value       float64 `json:"value"`
	Cells       []int   `json:"cells"`
}

func (b *fragBench) run(ctx context.Context, w *bench.Writer) error {
	if len(b.files) < 2 && b.foreign > 0 {
		return usagef("-foreign needs two images or more in -set (strays come from another image)")
	}
	var es neural.ErrorStats
	var sumP, sumN, sumS float64
	perfect, strays, found, ownAside, k := 0, 0, 0, 0, 0
	load := func(f string) (*imageio.Image, error) { return imageio.Load(f, imageio.Options{}) }
	for i, f := range b.files {
		img, err := load(f)
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(b.opts.Seed, uint64(i)))
		for c := range b.crops {
			pz := neural.Random(img.Pix, b.geo, rng)
			var st []jigsaw.Piece
			if b.foreign > 0 {
				other, err := load(b.files[(i+1+rng.IntN(len(b.files)-1))%len(b.files)])
				if err != nil {
					return err
				}
				st = neural.Strays(other.Pix, b.geo, b.foreign, rng)
			}
			fz, err := neural.MakeFragments(pz, b.missing, st, rng)
			if err != nil {
				return usagef("%v", err)
			}
			run := catalog.GapRun{GapOptions: b.opts, Grid: b.geo.Grid, Hooks: b.hooks}
			run.Seed += uint64(k)
			s, err := catalog.Gaps.New(b.algo, run)
			if err != nil {
				return err
			}
			res, err := s.Solve(ctx, fz)
			if err != nil {
				return err
			}
			acc := fz.Score(res.Cells)
			es.Answer(fz, res.Cells, res.Value)
			r := fragRecord{Puzzle: i*b.crops + c, Image: filepath.Base(f), Patch: acc.Patch, Neighbor: acc.Neighbor, Perfect: acc.Perfect,
				Missing: b.missing, Strays: acc.Strays, StraysFound: acc.StraysFound, OwnAside: acc.OwnAside, Misplaced: fz.Misplaced(res.Cells),
				Seconds: res.Elapsed.Seconds(), Value: res.Value, Cells: res.Cells}
			sumP, sumN, sumS = sumP+r.Patch, sumN+r.Neighbor, sumS+r.Seconds
			strays, found, ownAside = strays+r.Strays, found+r.StraysFound, ownAside+r.OwnAside
			if r.Perfect {
				perfect++
			}
			k++
			if w.JSON {
				if err := w.Item(r, ""); err != nil {
					return err
				}
			}
			b.prog.Printf("%d puzzles: %.1f%% patches, %d perfect, %d of %d strays set aside", k, 100*sumP/float64(k), perfect, found, strays)
		}
	}
	b.prog.Done()
	n := float64(max(k, 1))
	foundShare := 1.0
	if strays > 0 {
		foundShare = float64(found) / float64(strays)
	}
	if w.JSON {
		return w.Summary(map[string]any{"summary": true, "puzzles": k, "patch": sumP / n, "neighbor": sumN / n, "perfect": float64(perfect) / n,
			"missing": b.missing, "foreign": b.foreign, "strays_found": foundShare, "own_aside": float64(ownAside) / n, "seconds": sumS / n,
			"algo": b.algo, "reward": b.opts.Reward, "sims": b.opts.Sims, "attempts": b.opts.Attempts, "grid": b.geo.Grid, "seed": b.opts.Seed,
			"wrong_misplaced": es.Wrong, "wrong_flagged": es.Flagged}, nil)
	}
	fmt.Fprintf(w.W, "%d puzzles %dx%d of fragments (%d missing, %d foreign), %s (%s reward, %d sims, %d attempts)\n",
		k, b.geo.Grid, b.geo.Grid, b.missing, b.foreign, b.algo, b.opts.Reward, b.opts.Sims, b.opts.Attempts)
	fmt.Fprintf(w.W, "patches %.1f%%, neighbours %.1f%%, perfect %.1f%% (%d), strays set aside %.1f%% (%d of %d), own patches set aside %.2f per puzzle, %.3f s per puzzle\n",
		100*sumP/n, 100*sumN/n, 100*float64(perfect)/n, perfect, 100*foundShare, found, strays, float64(ownAside)/n, sumS/n)
	var h []string
	for m, c := range es.Wrong {
		if c > 0 {
			h = append(h, fmt.Sprintf("%d: %d (V below 1/2: %d)", m, c, es.Flagged[m]))
		}
	}
	if len(h) == 0 {
		h = []string{"none"}
	}
	fmt.Fprintf(w.W, "wrong answers by patches misplaced (a stray placed counts): %s\n", strings.Join(h, " "))
	return nil
}

// asideLine describes a reassembly of fragments: the patches set aside
// and the cells left empty.
func asideLine(pz *neural.Puzzle, cells []int) string {
	var aside, empty []string
	used := make([]bool, pz.Cells())
	for i, c := range cells {
		if c < 0 {
			aside = append(aside, fmt.Sprint(i))
		} else {
			used[c] = true
		}
	}
	for c, u := range used {
		if !u {
			empty = append(empty, fmt.Sprint(c))
		}
	}
	join := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("aside    patches %s (of %d, numbered as on the sheet); cells left empty: %s\n", join(aside), len(cells), join(empty))
}
