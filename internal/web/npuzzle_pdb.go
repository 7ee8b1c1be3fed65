package web

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"time"

	"tessera/internal/catalog"
	"tessera/npuzzle"
)

// The pattern databases of the sliding game as the pages see them: GET
// /api/npuzzle/pdb says where each one stands, and an npuzzle.pdb job
// loads or builds one with its progress. A database is loaded or built
// once per server whoever asks (pdbSet), on the server's life rather than
// the job's: a job that reaches its time limit, or is stopped, leaves the
// build going, and a later job follows it again. Built tables are written
// to the cache folder (Config.PDBCache) in package npuzzle's file format,
// so that a restarted server, and `tessera npuzzle pdb build`, read them
// instead of building them again.

// needsPDB reports whether IDA* needs a pattern database on boards of
// size s to finish: on more than 16 cells linear conflict leaves it
// searching for hours, so the page offers IDA* there only with one.
func needsPDB(s npuzzle.Size) bool { return s.Rows*s.Cols > 16 }

// pdbStatus is where the database of one board size stands.
type pdbStatus struct {
	Size      string `json:"size"`
	Partition string `json:"partition"`
	// State is "ready" (loaded), "loading" (being read or built), "on
	// disk" (in the cache folder, read at first use, in seconds) or
	// "absent" (to be built).
	State  string `json:"state"`
	Needed bool   `json:"needed"` // IDA* needs it on this size (see needsPDB)
	Tables int    `json:"tables"` // the tables it holds (others are their rotations)
	// DiskBytes is the size of its files, BuildBytes the memory its
	// largest table takes while it is built.
	DiskBytes  int64 `json:"disk_bytes"`
	BuildBytes int64 `json:"build_bytes"`
	// BuildSeconds is the wall time a build is estimated to take on this
	// machine now (its cores and load); Quick the partition IDA* uses
	// until this one is built or on disk, if any (see pdbSet.quick).
	BuildSeconds float64          `json:"build_seconds"`
	Quick        string           `json:"quick,omitempty"`
	Progress     *slidingProgress `json:"progress,omitempty"` // while it is built
	Message      string           `json:"message"`            // for people
	Error        string           `json:"error,omitempty"`    // why the last load failed
}

// pdbResult is the result of an npuzzle.pdb job.
type pdbResult struct {
	pdbStatus
	TableInfo []npuzzle.TableInfo `json:"table_info,omitempty"` // once loaded: each table's source, time and size
	MS        float64             `json:"ms"`                   // the job's time
	Limit     string              `json:"limit,omitempty"`      // "time": not ready within the job's time limit
}

// status returns where the database of size s stands.
func (p *pdbSet) status(s npuzzle.Size) (pdbStatus, error) {
	name, ok := p.parts[s]
	if !ok {
		return pdbStatus{}, errorf(http.StatusNotFound, "no pattern database for %v boards (the server has them for %s)", s, p.sizes())
	}
	part, err := npuzzle.PartitionFor(name, s, npuzzle.BlankLast)
	if err != nil {
		return pdbStatus{}, err
	}
	st := pdbStatus{Size: s.String(), Partition: name, Needed: needsPDB(s)}
	var entries int64
	for _, tiles := range part.TablePatterns() {
		st.Tables++
		entries += placementCount(s.Rows*s.Cols, len(tiles))
		st.DiskBytes += (placementCount(s.Rows*s.Cols, len(tiles)) + 1) / 2
		st.BuildBytes = max(st.BuildBytes, npuzzle.TableBuildBytes(s, len(tiles)))
	}
	p.mu.Lock()
	e := p.entries[pdbKey{s, name}]
	st.Error = p.failed[pdbKey{s, name}]
	p.mu.Unlock()
	cpu := buildCPUSeconds(s, entries)
	st.BuildSeconds = estimateWall(cpu, runtime.NumCPU(), loadAverage())
	about := fmt.Sprintf("%d tables, %s on disk; building takes about %s of memory and %s of CPU, about %s here (%d cores, load %.1f)",
		st.Tables, formatBytes(st.DiskBytes), formatBytes(st.BuildBytes), formatSeconds(cpu), formatSeconds(st.BuildSeconds), runtime.NumCPU(), loadAverage())
	switch {
	case e != nil && isDone(e.done) && e.pdb != nil:
		st.State = "ready"
		st.Message = fmt.Sprintf("The pattern database %s is loaded: IDA* proves shortest solutions on %v boards.", name, s)
	case e != nil && !isDone(e.done):
		st.State = "loading"
		e.mu.Lock()
		bp := e.progress
		e.mu.Unlock()
		if bp.Tables == 0 {
			st.Message = fmt.Sprintf("Loading the pattern database %s…", name)
		} else {
			pr := p.buildProgress(s, bp, time.Since(e.started))
			st.Progress, st.Message = &pr, pr.Message
		}
	case p.onDisk(s):
		st.State = "on disk"
		st.Message = fmt.Sprintf("The pattern database %s is on disk: it is read at its first use (seconds).", name)
	default:
		st.State = "absent"
		st.Message = fmt.Sprintf("The pattern database %s is not built yet (%s).", name, about)
		if q := p.quick(s); q != "" {
			st.Quick = q
			st.Message += fmt.Sprintf(" It is built only when you ask; until then IDA* uses %s, which builds in seconds.", q)
		}
	}
	return st, nil
}

// sizes lists the sizes that have a database, for messages.
func (p *pdbSet) sizes() string {
	var out []string
	for s := range p.parts {
		out = append(out, s.String())
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "no size"
	}
	return fmt.Sprint(out)
}

func isDone(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// buildProgress describes a build for people and the page: table is the
// table being built among those the database builds (the others are their
// rotations or reflections).
func (p *pdbSet) buildProgress(s npuzzle.Size, bp npuzzle.BuildProgress, elapsed time.Duration) slidingProgress {
	return p.buildProgressPart(s, p.parts[s], bp, elapsed)
}

// buildProgressPart is buildProgress for the database of partition name.
func (p *pdbSet) buildProgressPart(s npuzzle.Size, name string, bp npuzzle.BuildProgress, elapsed time.Duration) slidingProgress {
	part, err := npuzzle.PartitionFor(name, s, npuzzle.BlankLast)
	if err != nil {
		part = npuzzle.Partition{Name: name}
	}
	return catalog.NpuzzleBuildProgress(part, bp, elapsed)
}

// buildCPUSeconds estimates the CPU time of building tables of entries
// placements in all on boards of size s: about 13 million entries a
// CPU-second on boards of up to 16 cells (7-8: 577 million entries, 42 to
// 44 CPU-seconds; docs/results/npuzzle.md), 1.5 million above (6-6-6-6: 255
// million entries, 164 CPU-seconds; docs/web.md).
func buildCPUSeconds(s npuzzle.Size, entries int64) float64 {
	rate := 1.5e6
	if s.Rows*s.Cols <= 16 {
		rate = 13e6
	}
	return max(1, float64(entries)/rate)
}

// estimateWall estimates the wall time of cpu CPU-seconds of work spread
// over every core of a machine with the given cores and load average: the
// work gets the cores the load leaves it, and a share of the busy ones.
func estimateWall(cpu float64, cores int, load float64) float64 {
	c := float64(max(1, cores))
	share := c / max(c, load+c) // of each core, competing with the load
	return cpu / (c * share)
}

// loadAverage returns the one-minute load average (Linux), 0 where it is
// not known.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	if _, err := fmt.Sscan(string(b), &l); err != nil {
		return 0
	}
	return l
}

// formatSeconds writes a duration in seconds or minutes, for people.
func formatSeconds(s float64) string {
	if s < 90 {
		return fmt.Sprintf("%.0f s", max(1, s))
	}
	return fmt.Sprintf("%.0f minutes", s/60)
}

// placementCount is n!/(n-k)!, the entries of a table of k tiles on n
// cells.
func placementCount(n, k int) int64 {
	e := int64(1)
	for i := range k {
		e *= int64(n - i)
	}
	return e
}

// formatBytes writes n in MB or GB, for people.
func formatBytes(n int64) string {
	if n >= 1e9 {
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	}
	return fmt.Sprintf("%d MB", (n+500_000)/1_000_000)
}

func (s *Server) npuzzlePDBs(r *http.Request) (int, any, error) {
	var list []pdbStatus
	for size := range s.pdbs.parts {
		st, err := s.pdbs.status(size)
		if err != nil {
			return 0, nil, err
		}
		list = append(list, st)
	}
	slices.SortFunc(list, func(a, b pdbStatus) int { // smaller boards first
		return cmp.Or(cmp.Compare(len(a.Size), len(b.Size)), cmp.Compare(a.Size, b.Size))
	})
	return http.StatusOK, map[string]any{"databases": list}, nil
}

// pdbSpec is the spec of an npuzzle.pdb job.
type pdbSpec struct {
	Size      string `json:"size"`       // a size with a database, such as "5x5"
	TimeoutMS int    `json:"timeout_ms"` // 0: the most a job may run (MaxJobTimeout)
}

func (s *Server) checkPDBSpec(spec json.RawMessage) (npuzzle.Size, time.Duration, error) {
	var req pdbSpec
	if err := specUnmarshal(spec, &req); err != nil {
		return npuzzle.Size{}, 0, err
	}
	size, err := npuzzle.ParseSize(req.Size)
	if err != nil {
		return npuzzle.Size{}, 0, errorf(http.StatusBadRequest, "bad size: %v", err)
	}
	if !s.pdbs.has(size) {
		return npuzzle.Size{}, 0, errorf(http.StatusBadRequest, "no pattern database for %v boards (the server has them for %s)", size, s.pdbs.sizes())
	}
	timeout := s.cfg.MaxJobTimeout
	if req.TimeoutMS != 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
		if timeout < 10*time.Millisecond || timeout > s.cfg.MaxJobTimeout {
			return npuzzle.Size{}, 0, errorf(http.StatusBadRequest, "timeout_ms %d out of range 10..%d", req.TimeoutMS, s.cfg.MaxJobTimeout.Milliseconds())
		}
	}
	return size, timeout, nil
}

// pdbJob loads or builds the database of a size, reporting the build's
// progress; a build already under way (another client's) is followed, not
// started again. At the job's time limit the result says how far the build
// got; the build goes on.
func (s *Server) pdbJob(ctx context.Context, spec json.RawMessage, progress func(any)) (any, error) {
	size, timeout, err := s.checkPDBSpec(spec)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	name := s.pdbs.parts[size]
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if st, err := s.pdbs.status(size); err == nil && st.State != "ready" {
		progress(slidingProgress{Phase: "database", Message: st.Message})
	}
	d, err := s.pdbs.load(ctx, size, func(bp npuzzle.BuildProgress) {
		progress(s.pdbs.buildProgress(size, bp, time.Since(start)))
	})
	st, serr := s.pdbs.status(size)
	if serr != nil {
		return nil, serr
	}
	res := pdbResult{pdbStatus: st, MS: msSince(start)}
	switch {
	case err == nil:
		for _, ti := range d.Tables() {
			ti.Path = "" // the server's folders are its own
			res.TableInfo = append(res.TableInfo, ti)
		}
		res.Message = fmt.Sprintf("The pattern database %s is ready (%s).", name, describeLoad(d))
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Limit = "time"
		res.Message = fmt.Sprintf("The pattern database %s was not ready within %v: it goes on building in the server. %s", name, timeout, st.Message)
	case ctx.Err() != nil:
		return res, ctx.Err() // cancelled: the build goes on for whoever waits for it
	default:
		return nil, err
	}
	return res, nil
}

// describeLoad says where the tables of d came from.
func describeLoad(d *npuzzle.PDB) string {
	var built, read int
	var secs float64
	for _, ti := range d.Tables() {
		if ti.Derived != "" {
			continue
		}
		if ti.Built {
			built++
		} else {
			read++
		}
		secs += ti.Seconds
	}
	switch {
	case built == 0:
		return fmt.Sprintf("%d tables read from disk in %.1f s", read, secs)
	case read == 0:
		return fmt.Sprintf("%d tables built in %.0f s", built, secs)
	}
	return fmt.Sprintf("%d tables read, %d built, in %.0f s", read, built, secs)
}
