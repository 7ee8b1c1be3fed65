package main

import (
	"context"
	"flag"

	"tessera/internal/bench"
	"tessera/npuzzle"
)

// cacheFlag defines -cache, the pattern databases' cache folder.
func cacheFlag(fs *flag.FlagSet) *string {
	return fs.String("cache", "", "pattern database cache folder (default the user cache folder's tessera/)")
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
few CPU-seconds, the default), 7-8 (4x4, about 45 CPU-seconds and 0.56 GB
of memory while building, 289 MB on disk), 6-6-6-6 (5x5, about 150
CPU-seconds and 2 GB while building, 128 MB on disk). Both cores share the
work. Patterns that a rotation or reflection of the board maps onto another
share its table.

A partition name ending in +zero, such as 6-6-6-6+zero, makes zero-aware
tables: an entry for every placement and cell of the blank, 8 bytes a
placement (6-6-6-6+zero: about 130 CPU-seconds, 3.1 GB while building, two
files of 1.02 GB). Partitions joined by ";" make a catalogue, whose
heuristic is the largest of their sums.`,
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
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		var bf boardFlags
		partition := fs.String("partition", "", "pattern database partition: 5-5-5, 6-6-3, 7-8 (4x4), 6-6-6-6 (5x5), or tiles such as 1,2,3/4,5,6 (default 6-6-3 on 4x4, 6-6-6-6 on 5x5); partitions joined by \";\" make a catalogue (the largest sum is taken), and a final \"+zero\" zero-aware tables (8 bytes a placement)")
		cache := cacheFlag(fs)
		bf.define(fs, "", "board size for a custom partition", "goal of the tiles named by a custom partition: blank-last or blank-first")
		rebuild := fs.Bool("rebuild", false, "build every table even if it is cached")
		workers := fs.Int("workers", 0, "goroutines building a table (0: one per CPU)")
		asJSON := jsonFlag(fs)
		prog := progressFlag(fs)
		return bf.runner(func(ctx context.Context, env *Env, args []string, size npuzzle.Size, goal npuzzle.Goal) error {
			part, err := bench.NpuzzlePartition(*partition, size, goal)
			if err != nil {
				return err
			}
			rep := newProgress(env, *prog)
			defer rep.Done()
			o := npuzzle.PDBOptions{CacheDir: *cache, Rebuild: *rebuild, Workers: *workers}
			return bench.BuildPDB(ctx, part, o, rep, env.Stderr, env.Stdout, *asJSON)
		})
	},
}

var npuzzlePDBListCmd = &Command{
	Name:      "list",
	UsageLine: "[-cache DIR] [-json]",
	Short:     "list the cached tables and the partitions they complete",
	Long: `List prints the pattern tables in the cache folder, each checked against its
checksum, and which standard partitions are complete (every table valid).`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		cache := cacheFlag(fs)
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			return bench.WritePDBList(env.Stdout, *cache, *asJSON)
		}
	},
}
