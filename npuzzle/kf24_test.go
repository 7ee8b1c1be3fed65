//go:build unix

package npuzzle

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// kf24 returns Korf and Felner's 50 24-puzzles and the PDB of the partition
// in $TESSERA_KF24_PARTITION (default 6-6-6-6+zero), read from the default
// cache; it skips unless $TESSERA_DATA names the shared data and
// $TESSERA_KF24 is set (the tables take 2 to 4 GB).
func kf24(tb testing.TB) (Set, *PDB) {
	tb.Helper()
	if os.Getenv("TESSERA_KF24") == "" || os.Getenv("TESSERA_DATA") == "" {
		tb.Skip("set TESSERA_KF24=1 and TESSERA_DATA to run on the 24-puzzles with the cached tables")
	}
	name := filepath.Join(os.Getenv("TESSERA_DATA"), "sliding", "korf-felner-24.txt")
	f, err := os.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	set, err := ParseSet(f, name)
	if err != nil {
		tb.Fatal(err)
	}
	p := os.Getenv("TESSERA_KF24_PARTITION")
	if p == "" {
		p = "6-6-6-6+zero"
	}
	part, err := ParsePartition(p, Size{5, 5}, BlankFirst)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := LoadPDB(tb.Context(), part, PDBOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return set, d
}

// kf24Instances returns the instances in $TESSERA_KF24_INSTANCES (default
// 38,40).
func kf24Instances(tb testing.TB) []int {
	s := os.Getenv("TESSERA_KF24_INSTANCES")
	if s == "" {
		s = "38,40"
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		i, err := strconv.Atoi(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, i)
	}
	return out
}

// BenchmarkKF24 measures the specialised IDA* on one goroutine with the
// cached 24-puzzle tables, in generated nodes per second, without move
// pruning and with the FSM of $TESSERA_KF24_FSM moves (default
// DefaultFSMDepth).
func BenchmarkKF24(b *testing.B) {
	set, d := kf24(b)
	insts := kf24Instances(b)
	depth := DefaultFSMDepth
	if s := os.Getenv("TESSERA_KF24_FSM"); s != "" {
		depth, _ = strconv.Atoi(s)
	}
	fsmFor(5, 5, depth) // built once, before the timer
	for _, prune := range []int{0, depth} {
		b.Run("fsm="+strconv.Itoa(prune), func(b *testing.B) {
			var nodes int64
			cpu0 := cpuSeconds()
			for b.Loop() {
				for _, i := range insts {
					in := set.Instances[i-1]
					sol, err := IDAStar{Heuristic: PatternDB, PDB: d, MovePruning: prune}.Solve(b.Context(), in.Board, BlankFirst)
					if err != nil || len(sol.Moves) != in.Published {
						b.Fatalf("instance %d: %d moves (%v), published %d", i, len(sol.Moves), err, in.Published)
					}
					nodes += sol.Stats.Generated
				}
			}
			cpu := cpuSeconds() - cpu0
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(nodes)/cpu/1e6, "Mnodes/cpu-s")
		})
	}
}

// cpuSeconds returns the process's user and system CPU time: on a shared
// machine a fairer measure than the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
