package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"tessera/internal/catalog"
	"tessera/npuzzle"
)

// A sliding game may have its gap anywhere (the first tile tapped on the
// whole picture becomes the gap): the goal map that solves such boards
// with the blank-last solvers is the catalogue's (catalog.NpuzzleGoalMap),
// applied in the npuzzle.solve job wherever it runs.

// goalMap is the catalogue's map of boards with the blank's home at k.
type goalMap = catalog.NpuzzleGoalMap

func newGoalMap(s npuzzle.Size, k int) *goalMap { return catalog.NewNpuzzleGoalMap(s, k) }

// goalBoard returns the goal with the blank at home k.
func goalBoard(s npuzzle.Size, k int) *npuzzle.Board { return catalog.NpuzzleGoalBoard(s, k) }

// isGoal reports whether b is the goal with the blank at home k.
func isGoal(b *npuzzle.Board, k int) bool { return catalog.NpuzzleIsGoal(b, k) }

// solvableFor reports whether b reaches the goal with the blank at k.
func solvableFor(b *npuzzle.Board, k int) bool { return catalog.NpuzzleSolvableFor(b, k) }

// checkHome checks a blank home sent by a page for a board of size s: nil
// is the last cell.
func checkHome(home *int, s npuzzle.Size) (int, error) {
	n := s.Rows * s.Cols
	if home == nil {
		return n - 1, nil
	}
	if *home < 0 || *home >= n {
		return 0, errorf(http.StatusBadRequest, "bad blank: cell %d is not on a %v board (0..%d)", *home, s, n-1)
	}
	return *home, nil
}

// pdbSet holds the pattern databases of the optimal solver, one per board
// size that has one, loaded (or built) once on first use and kept.
type pdbSet struct {
	parts    map[npuzzle.Size]string // partition name by board size
	cacheDir string                  // "": the user cache folder
	noCache  bool
	maxBytes int64
	base     context.Context // a build outlives the job that started it

	mu      sync.Mutex
	entries map[pdbKey]*pdbEntry
	loads   int               // loads started (read or built), for the tests
	failed  map[pdbKey]string // why the last load failed
}

// pdbKey names a database: a board size and a partition, the size's own
// (parts) or its quick one (see quick).
type pdbKey struct {
	size npuzzle.Size
	part string
}

// pdbEntry is one database, being loaded or loaded.
type pdbEntry struct {
	done    chan struct{}
	pdb     *npuzzle.PDB
	err     error
	started time.Time

	mu       sync.Mutex
	progress npuzzle.BuildProgress
	watchers map[int]func(npuzzle.BuildProgress)
	next     int
}

// ready returns the database for size s when it is loaded, else nil.
func (p *pdbSet) ready(s npuzzle.Size) *npuzzle.PDB { return p.readyPart(s, p.parts[s]) }

// readyPart returns the database of partition part for size s when it is
// loaded, else nil.
func (p *pdbSet) readyPart(s npuzzle.Size, part string) *npuzzle.PDB {
	p.mu.Lock()
	e := p.entries[pdbKey{s, part}]
	p.mu.Unlock()
	if e == nil {
		return nil
	}
	select {
	case <-e.done:
		return e.pdb
	default:
		return nil
	}
}

// has reports whether boards of size s have a database.
func (p *pdbSet) has(s npuzzle.Size) bool { _, ok := p.parts[s]; return ok }

// quick returns the partition that stands in for the database of size s
// while that one is neither loaded nor on disk, or "" for none: the
// standard partition of the size (npuzzle.DefaultPartition, 6-6-3 on 4x4:
// seconds to build) when the server's is a larger one (7-8: a build of
// minutes and most of a GB, started only when someone asks for it).
func (p *pdbSet) quick(s npuzzle.Size) string {
	def, err := npuzzle.DefaultPartition(s)
	if err != nil || def.Name == p.parts[s] {
		return ""
	}
	own, err := npuzzle.PartitionFor(p.parts[s], s, npuzzle.BlankLast)
	if err != nil || entries(def) >= entries(own) {
		return ""
	}
	return def.Name
}

// entries returns the entries of the tables of part.
func entries(part npuzzle.Partition) int64 {
	var e int64
	for _, tiles := range part.TablePatterns() {
		e += placementCount(part.Size.Rows*part.Size.Cols, len(tiles))
	}
	return e
}

// onDisk reports whether every table of the database of size s is in the
// cache folder.
func (p *pdbSet) onDisk(s npuzzle.Size) bool {
	if p.noCache {
		return false
	}
	part, err := npuzzle.PartitionFor(p.parts[s], s, npuzzle.BlankLast)
	if err != nil {
		return false
	}
	files, _ := part.TableFiles(p.cacheDir)
	return len(files) > 0 && !slices.ContainsFunc(files, func(f npuzzle.TableFile) bool { return !f.Present })
}

// started reports whether the database of size s is being loaded or is
// loaded.
func (p *pdbSet) started(s npuzzle.Size) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.entries[pdbKey{s, p.parts[s]}] != nil
}

// load returns the database for size s, starting its load (read from the
// cache, or built) if none has started, and calling progress while it is
// built, until ctx ends. A failed load is forgotten so a later call tries
// again.
func (p *pdbSet) load(ctx context.Context, s npuzzle.Size, progress func(npuzzle.BuildProgress)) (*npuzzle.PDB, error) {
	name, ok := p.parts[s]
	if !ok {
		return nil, fmt.Errorf("no pattern database for %v boards", s)
	}
	return p.loadPart(ctx, s, name, progress)
}

// loadPart is load for the database of partition name on size s.
func (p *pdbSet) loadPart(ctx context.Context, s npuzzle.Size, name string, progress func(npuzzle.BuildProgress)) (*npuzzle.PDB, error) {
	key := pdbKey{s, name}
	p.mu.Lock()
	e := p.entries[key]
	if e == nil {
		e = &pdbEntry{done: make(chan struct{}), watchers: map[int]func(npuzzle.BuildProgress){}, started: time.Now()}
		p.loads++
		if p.entries == nil {
			p.entries = map[pdbKey]*pdbEntry{}
		}
		p.entries[key] = e
		go func() {
			part, err := npuzzle.PartitionFor(name, s, npuzzle.BlankLast)
			if err == nil {
				e.pdb, err = npuzzle.LoadPDB(p.base, part, npuzzle.PDBOptions{CacheDir: p.cacheDir, NoCache: p.noCache, MaxBytes: p.maxBytes,
					Progress: func(bp npuzzle.BuildProgress) {
						e.mu.Lock()
						e.progress = bp
						ws := make([]func(npuzzle.BuildProgress), 0, len(e.watchers))
						for _, w := range e.watchers {
							ws = append(ws, w)
						}
						e.mu.Unlock()
						for _, w := range ws {
							w(bp)
						}
					}})
			}
			if err != nil {
				e.err = fmt.Errorf("pattern database %s: %w", name, err)
				p.mu.Lock()
				delete(p.entries, key)
				if p.failed == nil {
					p.failed = map[pdbKey]string{}
				}
				p.failed[key] = e.err.Error()
				p.mu.Unlock()
			}
			close(e.done)
		}()
	}
	p.mu.Unlock()
	if progress != nil {
		e.mu.Lock()
		id := e.next
		e.next++
		e.watchers[id] = progress
		e.mu.Unlock()
		defer func() {
			e.mu.Lock()
			delete(e.watchers, id)
			e.mu.Unlock()
		}()
	}
	select {
	case <-e.done:
		return e.pdb, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
