package npuzzle

// Zero-aware tables (Clausecker and Reinefeld, "Zero-Aware Pattern
// Databases with 1-Bit Compression for Sliding Tile Puzzles", SoCS 2021).
//
// A pattern's abstract state is a placement of its tiles and the region of
// free cells that holds the blank (buildTableGroups). A plain table keeps,
// for each placement, the least distance over its regions, so that it can
// be looked up without the blank. When the pattern's tiles cut the free
// cells in pieces (on the 5x5 board, 37% of the placements of 6 tiles: a
// corner closed by two tiles is enough), the blank's piece can matter: a
// pattern tile must step into a closed corner to let the blank out, and
// step back. A zero-aware table keeps, for each placement and each free
// cell c, the distance with the blank in c. The sum over disjoint patterns
// stays a lower bound (each counts only the moves of its own tiles, and
// the blank is in one place), and is never less than the plain sum.
//
// A zoneTable word holds a placement's entry, as in the plain table
// ((least distance - md)/2, bits 60-63), and for each cell c what the
// blank in c adds to it, in moves/2 (bits 2c and 2c+1): 0, 1 or 2, more
// being stored as 2, which keeps it a lower bound; 0 for the cells the
// pattern's tiles occupy. So a 6-tile table of the 5x5 board takes 8 bytes
// a placement, 1.02 GB, against 64 MB plain, and a lookup still reads one
// word. The construction records a region's distance the first time its
// layer comes by (one more array of 8 bytes a placement while it builds).

// Bits of a zone word.
const (
	zoneEntryShift = 60
	zoneFields     = 1<<50 - 1 // two bits for each of up to 25 cells
	zoneMaxExtra   = 2
	fieldOnes      = 0x5555555555555555
)

// zoneCells bounds the boards of zero-aware tables: two bits a cell below
// the entry's four.
const zoneCells = 25

// record notes in the zone word of placement p, owned by this worker, the
// distance of the cells cur (in the layer of w.depth) that have none yet:
// during the construction a field holds 1 + the extra (0 for not recorded).
func (w *layerWorker) record(p int64, cur uint64) {
	t := w.t
	z := t.zone[p]
	x := z & zoneFields
	cur &^= unspread((x | x>>1) & fieldOnes)
	if cur == 0 {
		return
	}
	extra := 0
	if e := t.get(p); e != unsetDelta {
		// The placement got its entry in an earlier layer: the extra is
		// half the difference of the depths, unless the entry was clamped
		// (then 0 keeps the value a lower bound).
		if e < maxDelta {
			w.unrank(p, w.pos[:w.k])
			md := 0
			for i, tile := range t.tiles {
				md += t.dist(int(w.pos[i]), int(tile))
			}
			extra = min((w.depth-md)/2-int(e), zoneMaxExtra)
		}
	}
	t.zone[p] = z | spread(cur)*uint64(extra+1)
}

// finishZone turns the recorded fields into extras and adds the entries:
// the table's lookups then read zone alone, and data is dropped.
func (t *patternTable) finishZone() {
	for p := range t.zone {
		x := t.zone[p] & zoneFields
		recorded := (x | x>>1) & fieldOnes
		t.zone[p] = x - recorded | uint64(t.get(int64(p)))<<zoneEntryShift
	}
	t.data = nil
}

// zoneEntry returns the zone table's value (in the units of get's entries)
// for placement r with the blank in cell c.
func (t *patternTable) zoneEntry(r int64, c int) int {
	w := t.zone[r]
	return int(w>>zoneEntryShift) + int(w>>(2*c)&3)
}

// bytes returns the memory of the finished table.
func (t *patternTable) bytes() int64 {
	if t.zone != nil {
		return int64(len(t.zone)) * 8
	}
	if t.sparse != nil {
		return int64(len(t.sparse)) * 8
	}
	return int64(len(t.data))
}
