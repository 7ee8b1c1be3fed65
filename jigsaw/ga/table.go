package ga

// cellTable maps the cells of the groups under construction to pieces:
// open addressing with linear probing, keyed by (group, row, column).
//
// Entries are never deleted. An entry is live only while its piece still
// sits in that group and cell (the builder's arrays say so), so pieces that
// move when their group is merged leave stale entries behind, which later
// insertions overwrite. A stamp per slot empties the table in O(1) between
// crossovers; when live and stale entries fill half of it, it is rebuilt
// from the placed pieces.
type cellTable struct {
	slots []tableSlot
	mask  uint64
	shift uint8
	stamp uint32
	used  int // slots written since the last reset
}

type tableSlot struct {
	key   uint64
	piece int32
	stamp uint32
}

// coordBias and coordBits bound the coordinates of a group's frame: a
// group of n pieces spans less than n cells from its first piece.
const (
	coordBits = 21
	coordBias = 1 << (coordBits - 1)
	coordMask = 1<<coordBits - 1
	// maxPieces bounds the puzzles the builder handles: group ids take the
	// key's remaining 22 bits and coordinates stay within +-coordBias.
	maxPieces = coordBias
)

func cellKey(g, r, c int32) uint64 {
	return uint64(g)<<(2*coordBits) | uint64(r+coordBias)&coordMask<<coordBits | uint64(c+coordBias)&coordMask
}

func newCellTable(n int) cellTable {
	size, bits := 16, uint8(4)
	for size < 4*n {
		size <<= 1
		bits++
	}
	return cellTable{slots: make([]tableSlot, size), mask: uint64(size - 1), shift: 64 - bits, stamp: 1}
}

// reset empties the table.
func (t *cellTable) reset() {
	t.stamp++
	t.used = 0
	if t.stamp == 0 { // wrapped: clear for real
		clear(t.slots)
		t.stamp = 1
	}
}

func (t *cellTable) home(key uint64) uint64 {
	return (key * 0x9e3779b97f4a7c15) >> t.shift
}

// full reports that the table should be rebuilt before more insertions.
func (t *cellTable) full() bool { return 2*t.used >= len(t.slots) }
