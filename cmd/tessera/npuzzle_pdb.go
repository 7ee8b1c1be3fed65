package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/internal/progress"
	"tessera/npuzzle"
)

// pdbFlags select a pattern database and its cache.
type pdbFlags struct {
	partition string
	cache     string
}

func (p *pdbFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&p.partition, "partition", "", "pattern database partition: 5-5-5, 6-6-3, 7-8 (4x4), 6-6-6-6 (5x5), or tiles such as 1,2,3/4,5,6 (default 6-6-3 on 4x4, 6-6-6-6 on 5x5)")
	fs.StringVar(&p.cache, "cache", "", "pattern database cache folder (default the user cache folder's tessera/)")
}

// resolve returns the partition for boards of size s (zero: from the
// partition's name) and goal g.
func (p *pdbFlags) resolve(s npuzzle.Size, g npuzzle.Goal) (npuzzle.Partition, error) {
	if p.partition == "" && s == (npuzzle.Size{}) {
		return npuzzle.Partition{}, usagef("give -partition (5-5-5, 6-6-3, 7-8 or 6-6-6-6)")
	}
	part, err := npuzzle.PartitionFor(p.partition, s, g)
	if err != nil {
		return part, usagef("%v", err)
	}
	return part, nil
}

// load reads or builds the database of part, reporting the construction
// on rep, and returns it with the seconds it took. maxBytes bounds the
// memory of the load (0: none); timeout is the -timeout that ctx carries,
// for the message (0: none). A table that could not be cached is warned of
// once on stderr, whether or not progress is shown.
func (p *pdbFlags) load(ctx context.Context, part npuzzle.Partition, rep *progress.Reporter, rebuild bool, workers int,
	stderr io.Writer, maxBytes int64, timeout time.Duration) (*npuzzle.PDB, float64, error) {
	start := time.Now()
	d, err := npuzzle.LoadPDB(ctx, part, npuzzle.PDBOptions{CacheDir: p.cache, Rebuild: rebuild, Workers: workers, MaxBytes: maxBytes,
		Progress: func(bp npuzzle.BuildProgress) {
			rep.Printf("building pattern database %s: table %d/%d (%d tiles), depth %d, %d states, layer %.0f%%, %s",
				part.Name, bp.Table+1, bp.Tables, len(bp.Tiles), bp.Depth, bp.States, 100*bp.Layer, bp.Elapsed.Round(time.Second))
		}})
	if err != nil {
		build := "tessera npuzzle pdb build -partition " + part.Name
		if !slices.ContainsFunc(npuzzle.StandardPartitions(), func(q npuzzle.Partition) bool { return q.Name == part.Name }) {
			build = fmt.Sprintf("tessera npuzzle pdb build -size %v -partition %s", part.Size, part.Name)
		}
		switch {
		case errors.Is(err, npuzzle.ErrBudget):
			return nil, 0, fmt.Errorf("no pattern database %s within -max-mem %d MiB: %s; build it once without a bound with '%s' (it is cached), or raise -max-mem",
				part.Name, maxBytes>>20, strings.TrimPrefix(err.Error(), npuzzle.ErrBudget.Error()+": "), build)
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

var npuzzlePDBCmd = &Command{
	Name:  "pdb",
	Short: "build and list the pattern databases of the optimal solver",
	Long: `Pattern databases are the heuristic of the optimal solver (-h pdb): for each
pattern of a partition of the tiles, the fewest moves of the pattern's tiles
that bring them home, for every placement of them. They are built once by a
breadth-first search over the patterns, using every core, and cached in the
user cache folder (tessera/) with a format version and a checksum; a stale
or corrupt file is rebuilt, never used.

Standard partitions: 5-5-5 (4x4, under a second of CPU), 6-6-3 (4x4, a
few CPU-seconds, the default), 7-8 (4x4, about 200 CPU-seconds and 0.9 GB
of memory while building, 289 MB on disk), 6-6-6-6 (5x5, about 150
CPU-seconds and 2 GB while building, 128 MB on disk). Both cores share the
work. Patterns that a rotation or reflection of the board maps onto another
share its table.`,
	Commands: []*Command{npuzzlePDBBuildCmd, npuzzlePDBListCmd},
}

var npuzzlePDBBuildCmd = &Command{
	Name:      "build",
	UsageLine: "-partition P [-size RxC] [-goal G] [-cache DIR] [-rebuild] [-workers N] [-json] [-progress]",
	Short:     "build (or check) the tables of a partition",
	Long: `Build makes sure the tables of a partition are in the cache: valid cached
tables are kept (checked against their checksum), missing, stale or corrupt
ones are built, and with -rebuild all are. It prints each table's source,
time, size and the number of abstract states its search visited.

A custom partition lists tiles for the board of -size and the goal of -goal,
such as -size 3x3 -partition 1,2,3,4/5,6,7,8.`,
	Flags: func(fs *flag.FlagSet) Runner {
		var pf pdbFlags
		var bf boardFlags
		pf.define(fs)
		bf.define(fs, "board size for a custom partition", "goal of the tiles named by a custom partition: blank-last or blank-first")
		rebuild := fs.Bool("rebuild", false, "build every table even if it is cached")
		workers := fs.Int("workers", 0, "goroutines building a table (0: one per CPU)")
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			size, goal, err := bf.parse()
			if err != nil {
				return err
			}
			part, err := pf.resolve(size, goal)
			if err != nil {
				return err
			}
			rep := newProgress(env, *prog)
			defer rep.Done()
			d, secs, err := pf.load(ctx, part, rep, *rebuild, *workers, env.Stderr, 0, 0)
			if err != nil {
				return err
			}
			rep.Done()
			if *asJSON {
				return writeJSON(env.Stdout, struct {
					Partition string              `json:"partition"`
					Size      string              `json:"size"`
					Seconds   float64             `json:"seconds"`
					Tables    []npuzzle.TableInfo `json:"tables"`
				}{part.Name, part.Size.String(), secs, d.Tables()})
			}
			fmt.Fprintf(env.Stdout, "partition %s, %.1f s\n", part, secs)
			tw := tabwriter.NewWriter(env.Stdout, 0, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "table\ttiles\tsource\tseconds\tentries\tMB\tstates\tmax\tfile")
			for i, ti := range d.Tables() {
				src := "cache"
				switch {
				case ti.Derived != "":
					src = "= " + ti.Derived
				case ti.Built:
					src = "built (" + ti.Reason + ")"
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%.1f\t%d\t%.1f\t%d\t%d\t%s\n", i+1, joinInts(ti.Tiles, ","), src, ti.Seconds,
					ti.Entries, float64(ti.Bytes)/1e6, ti.States, ti.Depth, ti.Path)
			}
			tw.Flush()
			return nil
		}
	},
}

var npuzzlePDBListCmd = &Command{
	Name:      "list",
	UsageLine: "[-cache DIR] [-json]",
	Short:     "list the cached tables and the partitions they complete",
	Long: `List prints the pattern tables in the cache folder, each checked against its
checksum, and which standard partitions are complete (every table valid).`,
	Flags: func(fs *flag.FlagSet) Runner {
		cache := fs.String("cache", "", "pattern database cache folder (default the user cache folder's tessera/)")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			dir := *cache
			if dir == "" {
				var err error
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
			for _, t := range tables {
				tj = append(tj, tableJSON{Path: t.Path, Size: t.Size.String(), Tiles: t.Tiles, Bytes: t.Bytes, Valid: t.Err == nil})
				if t.Err != nil {
					tj[len(tj)-1].Error = t.Err.Error()
				}
			}
			var pj []partJSON
			for _, p := range npuzzle.StandardPartitions() {
				pj = append(pj, partJSON{p.Name, p.Size.String(), p.Cached(tables)})
			}
			if *asJSON {
				return writeJSON(env.Stdout, map[string]any{"cache": dir, "tables": tj, "partitions": pj})
			}
			fmt.Fprintf(env.Stdout, "cache %s\n\n", dir)
			if len(tj) == 0 {
				fmt.Fprintln(env.Stdout, "no pattern tables cached")
			} else {
				tw := tabwriter.NewWriter(env.Stdout, 0, 8, 2, ' ', 0)
				fmt.Fprintln(tw, "size\ttiles\tMB\tstatus")
				for _, t := range tj {
					status := "ok"
					if !t.Valid {
						status = "invalid: " + t.Error
					}
					fmt.Fprintf(tw, "%s\t%s\t%.1f\t%s\n", t.Size, joinInts(t.Tiles, ","), float64(t.Bytes)/1e6, status)
				}
				tw.Flush()
			}
			fmt.Fprintln(env.Stdout)
			for _, p := range pj {
				state := "complete"
				if !p.Complete {
					state = "not built (tessera npuzzle pdb build -partition " + p.Name + ")"
				}
				fmt.Fprintf(env.Stdout, "%-8s %s  %s\n", p.Name, p.Size, state)
			}
			return nil
		}
	},
}

// joinInts writes xs separated by sep.
func joinInts(xs []int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, sep)
}
