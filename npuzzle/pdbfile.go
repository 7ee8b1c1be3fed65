package npuzzle

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The cache file of a pattern table, little-endian:
//
//	magic "TSRAPDB\n", format version (uint32), rows, cols, tiles k, bits
//	per entry (4), the k tiles (blank-first numbering), entries (uint64),
//	states (uint64), clamped (uint64), depth (uint32), the table bytes,
//	then the CRC-32C (Castagnoli) of everything before it (uint32).
//
// A file whose magic, version, shape or tiles differ from what is asked for,
// whose length is wrong or whose checksum fails is reported as corrupt and
// rebuilt; it is never used.
const (
	tableMagic   = "TSRAPDB\n"
	tableVersion = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// tableFileName names the cache file of a pattern, such as
// "npuzzle-4x4-1.2.3.4.5.6.7.pdb".
// A zero-aware table's file ends in ".zpdb" instead, and holds 64 bits an
// entry: the zone words.
func tableFileName(s Size, tiles []int, zero bool) string {
	parts := make([]string, len(tiles))
	for i, t := range tiles {
		parts[i] = strconv.Itoa(t)
	}
	ext := "pdb"
	if zero {
		ext = "zpdb"
	}
	return fmt.Sprintf("npuzzle-%v-%s.%s", s, strings.Join(parts, "."), ext)
}

func tableHeader(s Size, tiles []uint8, zero bool, entries, states, clamped int64, depth int) []byte {
	var h bytes.Buffer
	h.WriteString(tableMagic)
	le := binary.LittleEndian
	h.Write(le.AppendUint32(nil, tableVersion))
	bits := uint8(4)
	if zero {
		bits = 64
	}
	h.Write([]byte{uint8(s.Rows), uint8(s.Cols), uint8(len(tiles)), bits})
	h.Write(tiles)
	h.Write(le.AppendUint64(nil, uint64(entries)))
	h.Write(le.AppendUint64(nil, uint64(states)))
	h.Write(le.AppendUint64(nil, uint64(clamped)))
	h.Write(le.AppendUint32(nil, uint32(depth)))
	return h.Bytes()
}

// writeTable writes t to path through a temporary file in the same folder,
// renamed into place, so that readers never see a partial file.
func writeTable(path string, t *patternTable) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// Temporary files of writers that died (killed while writing) are
	// removed once they are an hour old; younger ones may be in use.
	if old, err := filepath.Glob(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".*")); err == nil {
		for _, o := range old {
			if st, err := os.Stat(o); err == nil && time.Since(st.ModTime()) > time.Hour {
				os.Remove(o)
			}
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	header := tableHeader(Size{t.rows, t.cols}, t.tiles, t.zone != nil, t.entries(), t.states, t.clamped, t.depth)
	h := crc32.New(castagnoli)
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	w.Write(header)
	if t.zone != nil {
		var buf [8]byte
		for _, z := range t.zone {
			binary.LittleEndian.PutUint64(buf[:], z)
			w.Write(buf[:])
		}
	} else {
		w.Write(t.data)
	}
	if err := w.Flush(); err != nil {
		return fail(err)
	}
	if _, err := f.Write(binary.LittleEndian.AppendUint32(nil, h.Sum32())); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// errCorrupt describes a cache file that is not a valid table.
var errCorrupt = errors.New("corrupt")

// readTable reads the table of tiles on boards of size s from path. It
// returns an error wrapping fs.ErrNotExist when there is no file and
// errCorrupt when the file is not exactly that table.
func readTable(path string, s Size, tiles []int) (*patternTable, error) {
	return loadTable(path, s, tiles, false, true)
}

// loadTable reads and checks a table file (zero: a zero-aware one); without
// keep it streams the table through the checksum and returns a table
// without data.
func loadTable(path string, s Size, tiles []int, zero, keep bool) (*patternTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t := &patternTable{geom: newGeom(s)}
	for _, tile := range tiles {
		t.tiles = append(t.tiles, uint8(tile))
	}
	want := tableHeader(s, t.tiles, zero, t.entries(), 0, 0, 0)
	fixed := len(want) - 20 // up to and including entries
	header := make([]byte, len(want))
	if _, err := io.ReadFull(f, header); err != nil {
		return nil, fmt.Errorf("%w: short header", errCorrupt)
	}
	if !bytes.Equal(header[:fixed], want[:fixed]) {
		if !bytes.HasPrefix(header, []byte(tableMagic)) {
			return nil, fmt.Errorf("%w: not a pattern table", errCorrupt)
		}
		return nil, fmt.Errorf("%w: another version or pattern", errCorrupt)
	}
	le := binary.LittleEndian
	t.states = int64(le.Uint64(header[fixed:]))
	t.clamped = int64(le.Uint64(header[fixed+8:]))
	t.depth = int(le.Uint32(header[fixed+16:]))
	size := tableBytes(s, len(tiles), zero)
	crc := crc32.Update(0, castagnoli, header)
	switch {
	case keep && zero:
		t.zone = make([]uint64, t.entries())
		hugePages(t.zone)
		buf := make([]byte, 1<<20)
		for i := 0; i < len(t.zone); {
			chunk := buf[:min(len(buf), 8*(len(t.zone)-i))]
			if _, err := io.ReadFull(f, chunk); err != nil {
				return nil, fmt.Errorf("%w: truncated", errCorrupt)
			}
			crc = crc32.Update(crc, castagnoli, chunk)
			for k := 0; k < len(chunk); k, i = k+8, i+1 {
				t.zone[i] = le.Uint64(chunk[k:])
			}
		}
	case keep:
		t.data = make([]byte, size)
		if _, err := io.ReadFull(f, t.data); err != nil {
			return nil, fmt.Errorf("%w: truncated", errCorrupt)
		}
		crc = crc32.Update(crc, castagnoli, t.data)
	default:
		h := crc32.New(castagnoli)
		h.Write(header)
		if n, _ := io.CopyN(h, f, size); n != size {
			return nil, fmt.Errorf("%w: truncated", errCorrupt)
		}
		crc = h.Sum32()
	}
	var tail [5]byte
	if n, _ := io.ReadFull(f, tail[:]); n != 4 {
		return nil, fmt.Errorf("%w: wrong length", errCorrupt)
	}
	if le.Uint32(tail[:4]) != crc {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	return t, nil
}

// CachedTable describes a pattern table file in a cache folder.
type CachedTable struct {
	Path  string
	Size  Size
	Tiles []int // blank-first numbering
	Zero  bool  // a zero-aware table (a .zpdb file)
	Bytes int64 // file size
	// Err is nil for a valid file, else why it would be rebuilt.
	Err error
}

// Cached reports whether every table of p is among the valid tables of a
// cache (see ListPDBCache).
func (p Partition) Cached(tables []CachedTable) bool {
	for _, pat := range p.TablePatterns() {
		if !slices.ContainsFunc(tables, func(t CachedTable) bool {
			return t.Err == nil && t.Size == p.Size && t.Zero == p.Zero && slices.Equal(t.Tiles, pat)
		}) {
			return false
		}
	}
	return true
}

// ListPDBCache lists the pattern table files in dir ("" for
// DefaultCacheDir), plain (.pdb) and zero-aware (.zpdb), checking each
// one's header and checksum. A missing folder is an empty list.
func ListPDBCache(dir string) ([]CachedTable, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultCacheDir(); err != nil {
			return nil, err
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "npuzzle-*.pdb"))
	if err != nil {
		return nil, err
	}
	zero, err := filepath.Glob(filepath.Join(dir, "npuzzle-*.zpdb"))
	if err != nil {
		return nil, err
	}
	names = append(names, zero...)
	slices.Sort(names)
	var out []CachedTable
	for _, path := range names {
		c := CachedTable{Path: path}
		if st, err := os.Stat(path); err == nil {
			c.Bytes = st.Size()
		}
		// npuzzle-ROWSxCOLS-T1.T2....pdb (or .zpdb)
		ext := filepath.Ext(path)
		c.Zero = ext == ".zpdb"
		fields := strings.Split(strings.TrimSuffix(filepath.Base(path), ext), "-")
		if len(fields) != 3 {
			continue
		}
		size, err := ParseSize(fields[1])
		if err != nil {
			continue
		}
		c.Size = size
		for tok := range strings.SplitSeq(fields[2], ".") {
			t, err := strconv.Atoi(tok)
			if err != nil || t < 1 || t >= size.Rows*size.Cols || len(c.Tiles) >= size.Rows*size.Cols-1 {
				c.Tiles = nil
				break
			}
			c.Tiles = append(c.Tiles, t)
		}
		if len(c.Tiles) == 0 || (Partition{Size: size, Patterns: [][]int{c.Tiles}}).check() != nil {
			continue
		}
		_, c.Err = loadTable(path, size, c.Tiles, c.Zero, false)
		out = append(out, c)
	}
	return out, nil
}

// TableFile is the cache file of one table of a partition (see
// Partition.TableFiles).
type TableFile struct {
	Tiles []int  // the pattern, blank-first numbering
	Path  string // its file in the cache folder
	Bytes int64  // the length of a valid file
	// Present reports whether the file is there with that length; its
	// checksum is not read (LoadPDB checks it when it reads the table).
	Present bool
}

// TableFiles returns the cache files of the tables of p in dir ("" for
// DefaultCacheDir), one per pattern of TablePatterns, and whether each is
// there with the length of a valid table: a cheap test (one stat a
// table) of whether LoadPDB will read the database rather than build it.
func (p Partition) TableFiles(dir string) ([]TableFile, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if dir == "" {
		var err error
		if dir, err = DefaultCacheDir(); err != nil {
			return nil, err
		}
	}
	var out []TableFile
	for _, tiles := range p.TablePatterns() {
		t8 := make([]uint8, len(tiles))
		for i, t := range tiles {
			t8[i] = uint8(t)
		}
		f := TableFile{Tiles: slices.Clone(tiles), Path: filepath.Join(dir, tableFileName(p.Size, tiles, p.Zero)),
			Bytes: int64(len(tableHeader(p.Size, t8, p.Zero, 0, 0, 0, 0))) + tableBytes(p.Size, len(tiles), p.Zero) + 4}
		if st, err := os.Stat(f.Path); err == nil && st.Mode().IsRegular() && st.Size() == f.Bytes {
			f.Present = true
		}
		out = append(out, f)
	}
	return out, nil
}
