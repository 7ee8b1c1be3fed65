package npuzzle

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Partition splits the tiles of one board size into disjoint patterns for an
// additive pattern database (Korf and Felner 2002). Tiles are named in the
// blank-first numbering, where tile t belongs at cell t: this is the frame in
// which the databases are built and stored, whatever the goal of the board
// solved (a blank-last board is solved rotated by 180 degrees, which maps it
// to the blank-first goal; see ParsePartition). Tiles in no pattern count
// their Manhattan distance, so a partition need not cover every tile.
type Partition struct {
	// Name is the standard name ("7-8") or the patterns as written.
	Name string
	Size Size
	// Patterns holds each pattern's tiles in increasing order.
	Patterns [][]int
	// Parts, when not nil, makes the partition a catalogue: the patterns
	// are those of len(Parts) partitions, Parts[i] of them for the i-th,
	// one after the other, and the heuristic is the largest of their sums
	// (see PDB). Written with ";" between the partitions, such as
	// "6-6-6-6;1,2,5,6,10,11/3,4,7,8,9,12/13,14,18,19,23,24/15,16,17,20,21,22".
	Parts []int
	// Zero makes the tables zero-aware (Clausecker and Reinefeld, SoCS
	// 2021): an entry per placement and blank cell rather than the minimum
	// over the blank's cells (see zoneTable). Written as the suffix "+zero"
	// of the name, such as "6-6-6-6+zero".
	Zero bool
}

// String returns the partition's name and size, such as "7-8 (4x4)".
func (p Partition) String() string { return fmt.Sprintf("%s (%v)", p.Name, p.Size) }

// standardPartitions are the built-in partitions, blank-first numbering:
//
//	4x4 5-5-5   6-6-3   7-8        5x5 6-6-6-6
//	_ a b b     _ a b b _ a a a    _ a a b b
//	a a b b     a a b b a a a a    a a a b b
//	a a b c     a a b b b b b b    c c a b b
//	c c c c     a c c c b b b b    c c d d d
//	                               c c d d d
//
// 7-8 is Korf and Felner's (2002), and so is 6-6-6-6 (from Korf's code;
// with it and reflection, IDA* generates exactly their published node
// counts on the 24-puzzles).
// The 5-5-5 and 6-6-3 shapes of Felner, Korf and Hanan (2004) could not be
// checked here; these are the strongest of a dozen shapes tried (mean
// heuristic with reflection on Korf's 100: 42.35 and 43.27).
var standardPartitions = []Partition{
	{Name: "5-5-5", Size: Size{4, 4}, Patterns: [][]int{{1, 4, 5, 8, 9}, {2, 3, 6, 7, 10}, {11, 12, 13, 14, 15}}},
	{Name: "6-6-3", Size: Size{4, 4}, Patterns: [][]int{{1, 4, 5, 8, 9, 12}, {2, 3, 6, 7, 10, 11}, {13, 14, 15}}},
	{Name: "7-8", Size: Size{4, 4}, Patterns: [][]int{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}},
	{Name: "6-6-6-6", Size: Size{5, 5}, Patterns: [][]int{{1, 2, 5, 6, 7, 12}, {3, 4, 8, 9, 13, 14}, {10, 11, 15, 16, 20, 21}, {17, 18, 19, 22, 23, 24}}},
}

// StandardPartitions returns the built-in partitions: 5-5-5, 6-6-3 and 7-8
// for the 4x4 board and 6-6-6-6 for the 5x5.
func StandardPartitions() []Partition {
	out := make([]Partition, len(standardPartitions))
	for i, p := range standardPartitions {
		out[i] = p.clone()
	}
	return out
}

// PartitionFor returns the partition for boards of size s and goal g: the
// one named (a standard name or tiles, see ParsePartition), or with name ""
// DefaultPartition(s). Boards larger than 5x5 take the standard partitions
// of the region Fast finishes on: by default 6-6-6-6 (when both sides are
// larger than 5), or the standard partition named.
func PartitionFor(name string, s Size, g Goal) (Partition, error) {
	if name == "" {
		if s.Rows > 5 && s.Cols > 5 {
			s = Size{5, 5}
		}
		return DefaultPartition(s)
	}
	p, err := ParsePartition(name, s, g)
	if err != nil && (s.Rows > 5 || s.Cols > 5) {
		p, err = ParsePartition(name, Size{}, g)
	}
	return p, err
}

// DefaultPartition returns the partition used when none is named: 6-6-3 on
// the 4x4 board (it builds in seconds; 7-8 is stronger but takes minutes)
// and 6-6-6-6 on the 5x5. Other sizes have none.
func DefaultPartition(s Size) (Partition, error) {
	switch s {
	case Size{4, 4}:
		return ParsePartition("6-6-3", s, BlankFirst)
	case Size{5, 5}:
		return ParsePartition("6-6-6-6", s, BlankFirst)
	}
	return Partition{}, fmt.Errorf("npuzzle: no standard partition for %v boards: give one as tiles, such as 1,2,3/4,5,6", s)
}

// maxParts bounds the partitions of a catalogue: with their reflections,
// maxGroups sums.
const maxParts = maxGroups / 2

// parseCatalogue reads partitions separated by ";" (see Partition.Parts),
// each a standard name or tiles, for boards of one size.
func parseCatalogue(text string, s Size, g Goal) (Partition, error) {
	fields := strings.Split(text, ";")
	if len(fields) > maxParts {
		return Partition{}, fmt.Errorf("npuzzle: a catalogue of %d partitions: at most %d", len(fields), maxParts)
	}
	cat := Partition{Name: text, Size: s}
	for i, f := range fields {
		p, err := ParsePartition(f, s, g)
		if err == nil && (p.Parts != nil || p.Zero) {
			err = fmt.Errorf("npuzzle: %q: a catalogue's partitions are plain (+zero ends the whole catalogue)", f)
		}
		if err != nil {
			return Partition{}, fmt.Errorf("npuzzle: catalogue partition %d: %w", i+1, err)
		}
		if cat.Size == (Size{}) {
			cat.Size = p.Size
		}
		if p.Size != cat.Size {
			return Partition{}, fmt.Errorf("npuzzle: catalogue partition %d is for %v boards, not %v", i+1, p.Size, cat.Size)
		}
		cat.Patterns = append(cat.Patterns, p.Patterns...)
		cat.Parts = append(cat.Parts, len(p.Patterns))
	}
	return cat, cat.check()
}

// partOf returns, for each pattern, the partition of the catalogue it
// belongs to (all 0 for a plain partition).
func (p Partition) partOf() []int {
	out := make([]int, 0, len(p.Patterns))
	for i, k := range p.Parts {
		for range k {
			out = append(out, i)
		}
	}
	for len(out) < len(p.Patterns) {
		out = append(out, 0)
	}
	return out
}

func (p Partition) clone() Partition {
	q := p
	q.Parts = slices.Clone(p.Parts)
	q.Patterns = make([][]int, len(p.Patterns))
	for i, pat := range p.Patterns {
		q.Patterns[i] = slices.Clone(pat)
	}
	return q
}

// zeroSuffix ends the name of a zero-aware partition.
const zeroSuffix = "+zero"

// ParsePartition reads a partition for boards of size s: the name of a
// standard one ("5-5-5", "6-6-3", "7-8", "6-6-6-6"; size zero picks the
// size the name belongs to), or patterns of tile numbers for goal g, tiles
// separated by commas and patterns by "/", such as "1,2,3/4,5,6,7"; either
// may end in "+zero" for zero-aware tables (Partition.Zero). With the
// blank-last goal the tiles are renamed to the blank-first numbering (tile t
// becomes n-t, the 180-degree rotation that maps one goal to the other).
func ParsePartition(text string, s Size, g Goal) (Partition, error) {
	text = strings.TrimSpace(text)
	if base, ok := strings.CutSuffix(text, zeroSuffix); ok {
		p, err := ParsePartition(base, s, g)
		p.Zero, p.Name = err == nil, p.Name+zeroSuffix
		return p, err
	}
	if strings.Contains(text, ";") {
		return parseCatalogue(text, s, g)
	}
	for _, p := range standardPartitions {
		if p.Name == text {
			if s != (Size{}) && s != p.Size {
				return Partition{}, fmt.Errorf("npuzzle: partition %s is for %v boards, not %v", text, p.Size, s)
			}
			return p.clone(), nil
		}
	}
	if s == (Size{}) {
		return Partition{}, fmt.Errorf("npuzzle: partition %q is not a standard one (5-5-5, 6-6-3, 7-8, 6-6-6-6); give the board size for a custom one", text)
	}
	if err := s.check(); err != nil {
		return Partition{}, err
	}
	n := s.Rows * s.Cols
	part := Partition{Name: text, Size: s}
	seen := make([]bool, n)
	for i, field := range strings.Split(text, "/") {
		var pat []int
		for tok := range strings.FieldsFuncSeq(field, func(r rune) bool { return r == ',' || r == ' ' }) {
			t, err := strconv.Atoi(tok)
			if err != nil || t < 1 || t >= n {
				return Partition{}, fmt.Errorf("npuzzle: partition pattern %d: %q is not a tile 1..%d", i+1, tok, n-1)
			}
			if g == BlankLast {
				t = n - t
			}
			if seen[t] {
				return Partition{}, fmt.Errorf("npuzzle: partition pattern %d: tile %s is in two patterns", i+1, tok)
			}
			seen[t] = true
			pat = append(pat, t)
		}
		if len(pat) == 0 {
			return Partition{}, fmt.Errorf("npuzzle: partition pattern %d is empty (want tiles like 1,2,3/4,5,6)", i+1)
		}
		slices.Sort(pat)
		part.Patterns = append(part.Patterns, pat)
	}
	if err := part.check(); err != nil {
		return Partition{}, err
	}
	return part, nil
}

// maxPDBCells bounds the boards that pattern databases support: the
// construction keeps two bits per cell of a placement in one 64-bit word.
const maxPDBCells = 32

// maxPDBEntries bounds one pattern's table: 2^30 placements (512 MiB at 4
// bits, and 4 to 8 GiB during the construction).
const maxPDBEntries = 1 << 30

// check verifies that the partition can be built and used.
func (p Partition) check() error {
	n := p.Size.Rows * p.Size.Cols
	if n > maxPDBCells {
		return fmt.Errorf("npuzzle: pattern databases support boards of up to %d cells, not %v", maxPDBCells, p.Size)
	}
	if p.Zero && n > zoneCells {
		return fmt.Errorf("npuzzle: zero-aware pattern databases support boards of up to %d cells, not %v", zoneCells, p.Size)
	}
	for i, pat := range p.Patterns {
		if e := placements(n, len(pat)); e > maxPDBEntries {
			return fmt.Errorf("npuzzle: partition pattern %d has %d tiles: %d placements on a %v board is too many", i+1, len(pat), e, p.Size)
		}
	}
	return nil
}

// placements returns n!/(n-k)!, the number of ways to place k distinct
// tiles on n cells, saturating above maxPDBEntries.
func placements(n, k int) int64 {
	e := int64(1)
	for i := range k {
		e *= int64(n - i)
		if e > maxPDBEntries {
			return maxPDBEntries + 1
		}
	}
	return e
}
