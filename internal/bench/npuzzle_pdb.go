package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/npuzzle"
)

// LoadPDB reads or builds the pattern database of part (npuzzle.LoadPDB
// with o), reporting the construction on rep, and returns it with the
// seconds it took. timeout is the -timeout that ctx carries, for the
// message (0: none); o.MaxBytes is -max-mem's. A table that could not be
// cached is warned of once on stderr, whether or not progress is shown.
func LoadPDB(ctx context.Context, part npuzzle.Partition, o npuzzle.PDBOptions, rep *progress.Reporter, stderr io.Writer,
	timeout time.Duration) (*npuzzle.PDB, float64, error) {
	start := time.Now()
	o.Progress = func(bp npuzzle.BuildProgress) {
		rep.Printf("building pattern database %s: table %d/%d (%d tiles), depth %d, %d states, layer %.0f%%, %s",
			part.Name, bp.Table+1, bp.Tables, len(bp.Tiles), bp.Depth, bp.States, 100*bp.Layer, bp.Elapsed.Round(time.Second))
	}
	d, err := npuzzle.LoadPDB(ctx, part, o)
	if err != nil {
		build := "tessera npuzzle pdb build -partition " + part.Name
		if !slices.ContainsFunc(npuzzle.StandardPartitions(), func(q npuzzle.Partition) bool { return q.Name == part.Name }) {
			build = fmt.Sprintf("tessera npuzzle pdb build -size %v -partition %s", part.Size, part.Name)
		}
		switch {
		case errors.Is(err, npuzzle.ErrBudget) && o.Sparse:
			return nil, 0, fmt.Errorf("no pattern database %s within -max-mem %d MiB: %s; raise -max-mem, or drop -sparse (the zone tables alone take about half)",
				part.Name, o.MaxBytes>>20, strings.TrimPrefix(err.Error(), npuzzle.ErrBudget.Error()+": "))
		case errors.Is(err, npuzzle.ErrBudget):
			return nil, 0, fmt.Errorf("no pattern database %s within -max-mem %d MiB: %s; build it once without a bound with '%s' (it is cached), or raise -max-mem",
				part.Name, o.MaxBytes>>20, strings.TrimPrefix(err.Error(), npuzzle.ErrBudget.Error()+": "), build)
		case errors.Is(err, context.DeadlineExceeded) && timeout > 0:
			return nil, 0, fmt.Errorf("no pattern database %s within -timeout %v (%v): build it once with '%s' (it is cached), or raise -timeout",
				part.Name, timeout, err, build)
		}
		return nil, 0, err
	}
	warned := false
	for i, ti := range d.Tables() {
		if ti.Built && ti.Derived == "" {
			rep.Logf("pattern database %s: table %d/%d (%d tiles) built in %.1f s (%s)", part.Name, i+1, len(d.Tables()), len(ti.Tiles), ti.Seconds, ti.Reason)
		}
		if ti.NotCached != "" && !warned {
			warned = true
			rep.Done()
			fmt.Fprintf(stderr, "tessera: warning: pattern database %s is not cached, so every run builds it again: %s\n", part.Name, ti.NotCached)
		}
	}
	return d, time.Since(start).Seconds(), nil
}

// BuildPDB makes sure the tables of part are in the cache (LoadPDB with
// o: built, or checked), reporting on rep and stderr, and prints them to
// w (WritePDBBuild).
func BuildPDB(ctx context.Context, part npuzzle.Partition, o npuzzle.PDBOptions, rep *progress.Reporter, stderr, w io.Writer, asJSON bool) error {
	d, secs, err := LoadPDB(ctx, part, o, rep, stderr, 0)
	if err != nil {
		return err
	}
	rep.Done()
	return WritePDBBuild(w, part, d, secs, asJSON)
}

// WritePDBBuild prints the tables of database d of part, loaded in secs
// seconds: their source, time, size and the states their search visited.
func WritePDBBuild(w io.Writer, part npuzzle.Partition, d *npuzzle.PDB, secs float64, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, struct {
			Partition string              `json:"partition"`
			Size      string              `json:"size"`
			Seconds   float64             `json:"seconds"`
			Tables    []npuzzle.TableInfo `json:"tables"`
		}{part.Name, part.Size.String(), secs, d.Tables()})
	}
	fmt.Fprintf(w, "partition %s, %.1f s\n", part, secs)
	out := &Writer{W: w, Header: "table\ttiles\tsource\tseconds\tentries\tMB\tstates\tmax\tfile"}
	for i, ti := range d.Tables() {
		src := "cache"
		switch {
		case ti.Derived != "":
			src = "= " + ti.Derived
		case ti.Built:
			src = "built (" + ti.Reason + ")"
		}
		out.Item(nil, fmt.Sprintf("%d\t%s\t%s\t%.1f\t%d\t%.1f\t%d\t%d\t%s", i+1, joinInts(ti.Tiles), src, ti.Seconds,
			ti.Entries, float64(ti.Bytes)/1e6, ti.States, ti.Depth, ti.Path))
	}
	out.Table()
	return nil
}

// WritePDBList prints the pattern tables cached in dir ("": the user's
// cache folder, npuzzle.DefaultCacheDir), each checked against its
// checksum, and which standard partitions they complete.
func WritePDBList(w io.Writer, dir string, asJSON bool) error {
	var err error
	if dir == "" {
		if dir, err = npuzzle.DefaultCacheDir(); err != nil {
			return err
		}
	}
	tables, err := npuzzle.ListPDBCache(dir)
	if err != nil {
		return err
	}
	type tableJSON struct {
		Path  string `json:"path"`
		Size  string `json:"size"`
		Tiles []int  `json:"tiles"`
		Zero  bool   `json:"zero,omitempty"`
		Bytes int64  `json:"bytes"`
		Valid bool   `json:"valid"`
		Error string `json:"error,omitempty"`
	}
	type partJSON struct {
		Name     string `json:"name"`
		Size     string `json:"size"`
		Complete bool   `json:"complete"`
	}
	var tj []tableJSON
	out := &Writer{W: w, Header: "size\ttiles\tMB\tstatus"}
	for _, t := range tables {
		tj = append(tj, tableJSON{Path: t.Path, Size: t.Size.String(), Tiles: t.Tiles, Zero: t.Zero, Bytes: t.Bytes, Valid: t.Err == nil})
		status := "ok"
		if t.Err != nil {
			tj[len(tj)-1].Error = t.Err.Error()
			status = "invalid: " + t.Err.Error()
		}
		tiles := joinInts(t.Tiles)
		if t.Zero {
			tiles += " +zero"
		}
		out.Item(nil, fmt.Sprintf("%s\t%s\t%.1f\t%s", t.Size, tiles, float64(t.Bytes)/1e6, status))
	}
	var pj []partJSON
	for _, p := range npuzzle.StandardPartitions() {
		pj = append(pj, partJSON{p.Name, p.Size.String(), p.Cached(tables)})
	}
	if asJSON {
		return WriteJSON(w, map[string]any{"cache": dir, "tables": tj, "partitions": pj})
	}
	fmt.Fprintf(w, "cache %s\n\n", dir)
	if len(tj) == 0 {
		fmt.Fprintln(w, "no pattern tables cached")
	} else {
		out.Table()
	}
	fmt.Fprintln(w)
	for _, p := range pj {
		state := "complete"
		if !p.Complete {
			state = "not built (tessera npuzzle pdb build -partition " + p.Name + ")"
		}
		fmt.Fprintf(w, "%-8s %s  %s\n", p.Name, p.Size, state)
	}
	return nil
}

// joinInts writes xs separated by commas.
func joinInts(xs []int) string {
	return strings.Trim(strings.ReplaceAll(fmt.Sprint(xs), " ", ","), "[]")
}

// WriteNpuzzleSolve prints the record of `npuzzle solve`: as JSON, or for
// people with the solver's description (its String).
func WriteNpuzzleSolve(w io.Writer, rec catalog.NpuzzleRecord, solver string, asJSON bool) error {
	if asJSON {
		return WriteJSON(w, rec)
	}
	fmt.Fprintf(w, "board    %s (%s, goal %s)\nsolver   %s\n", rec.Board, rec.Size, rec.Goal, solver)
	if rec.Solved {
		proof := map[bool]string{true: "optimal", false: "not proven optimal"}[rec.Optimal]
		fmt.Fprintf(w, "moves    %s\nlength   %d (%s)\n", rec.Moves, rec.Length, proof)
	}
	fmt.Fprintf(w, "search   %d expanded, %d generated, %d stored at peak, %.3f s\n", rec.Expanded, rec.Generated, rec.PeakStored, rec.Seconds)
	if rec.Partition != "" {
		fmt.Fprintf(w, "setup    %.3f s to load the pattern database\n", rec.SetupSeconds)
	}
	return nil
}
