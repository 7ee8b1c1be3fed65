package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/internal/flock"
)

// The journal of a split exact search (solve -algo dfs -split K -journal
// FILE) lets a search of hours stop and go on: its first line names the
// search, each further line is a subtree searched to its end, and a run
// given a journal of the same search skips the subtrees it records.
//
//	{"journal":"tessera edgematch split","puzzle":"sha256:…","order":"auto","depth":5,"count":true}
//	{"subtree":470,"prefix":"1/0 61/1 …","placements":81234567,"solutions":1,"max_depth":64,"seconds":0.9,"board":"8 8\n…"}

const journalKind = "tessera edgematch split"

// Bounds on what a journal may hold before it is read.
const (
	maxJournalLine    = 1 << 20
	maxJournalEntries = exact.MaxSubtrees
)

// errJournalBusy: another run holds the journal (its flock).
var errJournalBusy = errors.New("in use by another run (one run per journal: each would search the other's subtrees again)")

// journalHeader names a split search: a journal applies to a run only when
// every field is the same.
type journalHeader struct {
	Journal string `json:"journal"`
	Puzzle  string `json:"puzzle"` // sha256 of the puzzle with its hints, as WriteTo writes it
	Order   string `json:"order"`
	Depth   int    `json:"depth"`
	Count   bool   `json:"count"`
}

// journalEntry is a subtree searched to its end.
type journalEntry struct {
	Subtree    int     `json:"subtree"`
	Prefix     string  `json:"prefix"` // PIECE/ROT of the first cells of the scan, pieces from 1
	Placements int64   `json:"placements"`
	Solutions  int64   `json:"solutions"`
	MaxDepth   int     `json:"max_depth"`
	Seconds    float64 `json:"seconds"`
	Board      string  `json:"board,omitempty"` // the subtree's first solution
}

// splitJournal appends the subtrees a run searches to its journal.
type splitJournal struct {
	f        *os.File
	err      error // the first write error
	lastSync time.Time
	recount  map[string]bool // prefixes recorded with solutions, searched again
}

// puzzleDigest identifies a puzzle with its hints.
func puzzleDigest(p *edgematch.Puzzle) string {
	h := sha256.New()
	p.WriteTo(h)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// openSplitJournal opens the journal at path for the search head names,
// creating it if it does not exist, and returns the subtrees it records.
// A journal of another search is refused, as is one another run holds
// (locked until it closes it); a last line cut short (a run killed while
// writing it) is dropped.
func openSplitJournal(path string, head journalHeader, p *edgematch.Puzzle) (*splitJournal, []exact.SearchedSubtree, error) {
	head.Journal = journalKind
	if err := regularFile(path); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() { // replaced since the Stat
		f.Close()
		return nil, nil, fmt.Errorf("journal %s: %w", path, errNotRegular)
	}
	if err := flock.Lock(f); err != nil {
		f.Close()
		if errors.Is(err, flock.ErrBusy) {
			err = errJournalBusy
		}
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	searched, good, err := readSplitJournal(f, head, p)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	headLine, _ := json.Marshal(head)
	headLine = append(headLine, '\n')
	if good == 0 {
		// Empty, or a header cut short by a killed run: anything else is
		// some other file, left as it is.
		start := make([]byte, len(headLine)+1)
		n, _ := f.ReadAt(start, 0)
		if !bytes.HasPrefix(headLine, start[:n]) {
			f.Close()
			return nil, nil, fmt.Errorf("journal %s: not a journal of a split search (nor empty)", path)
		}
	}
	// Drop a torn last line, then append.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, nil, err
	}
	if good == 0 {
		if _, err := f.Write(headLine); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	// A count cannot be verified from the journal, which records one board
	// a subtree: the subtrees recorded with solutions are searched again
	// and counted, and not recorded twice (editing one number must not
	// change the count). They are few; a subtree recorded without any
	// cannot claim some (Split refuses solutions without a board, and
	// verifies the board). Placements and seconds are reported as recorded.
	j := &splitJournal{f: f, lastSync: time.Now(), recount: map[string]bool{}}
	if head.Count {
		kept := searched[:0]
		for _, ss := range searched {
			if ss.Result.Stats.Solutions > 0 {
				j.recount[journalPrefix(ss.Prefix)] = true
			} else {
				kept = append(kept, ss)
			}
		}
		searched = kept
	}
	return j, searched, nil
}

// journalPrefix writes a subtree's prefix as the journal does: PIECE/ROT
// of its first cells, pieces from 1.
func journalPrefix(pre []edgematch.Placement) string {
	var b strings.Builder
	for i, pl := range pre {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d/%d", pl.Piece+1, pl.Rot)
	}
	return b.String()
}

// readSplitJournal reads a journal: its subtrees, and the length of its
// complete lines (0 for an empty file). Without -count a subtree has at
// most one solution, its board (which Split verifies).
func readSplitJournal(r io.Reader, head journalHeader, p *edgematch.Puzzle) ([]exact.SearchedSubtree, int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		searched []exact.SearchedSubtree
		good     int64
		n        int
	)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it, within the bound.
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(buf) <= maxJournalLine {
				line, err = br.ReadSlice('\n')
				buf = append(buf, line...)
			}
			if len(buf) > maxJournalLine {
				return nil, 0, fmt.Errorf("line %d longer than %d bytes", n+1, maxJournalLine)
			}
			line = buf
		}
		if err == io.EOF {
			return searched, good, nil // a last line without its newline is dropped
		}
		if err != nil {
			return nil, 0, err
		}
		n++
		if n == 1 {
			var got journalHeader
			if err := strictJSON(line, &got); err != nil || got.Journal != journalKind {
				return nil, 0, fmt.Errorf("not a journal of a split search (its first line: %.80q)", line)
			}
			if got != head {
				return nil, 0, fmt.Errorf("a journal of another search: %s, this one: %s (a new journal file, or the same puzzle, -order, -split and -count)", describeHeader(got), describeHeader(head))
			}
		} else {
			if n-1 > maxJournalEntries {
				return nil, 0, fmt.Errorf("more than %d subtrees", maxJournalEntries)
			}
			ss, err := readJournalEntry(line, head.Depth, p)
			if err != nil {
				return nil, 0, fmt.Errorf("line %d: %w", n, err)
			}
			switch sols := ss.Result.Stats.Solutions; {
			case !head.Count && sols > 1:
				return nil, 0, fmt.Errorf("line %d: %d solutions in a search for the first one", n, sols)
			}
			searched = append(searched, ss)
		}
		good += int64(len(line))
	}
}

// describeHeader names a search for an error message.
func describeHeader(h journalHeader) string {
	return fmt.Sprintf("puzzle %.19s…, order %s, depth %d, count %v", h.Puzzle, h.Order, h.Depth, h.Count)
}

// strictJSON decodes one JSON value, refusing unknown fields.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// readJournalEntry reads one subtree of a journal.
func readJournalEntry(line []byte, depth int, p *edgematch.Puzzle) (exact.SearchedSubtree, error) {
	var e journalEntry
	if err := strictJSON(line, &e); err != nil {
		return exact.SearchedSubtree{}, err
	}
	if e.Subtree < 0 || e.Placements < 0 || e.Solutions < 0 || e.MaxDepth < 0 {
		return exact.SearchedSubtree{}, errors.New("a negative number")
	}
	fields := strings.Fields(e.Prefix)
	if len(fields) > depth {
		return exact.SearchedSubtree{}, fmt.Errorf("a prefix of %d placements at depth %d", len(fields), depth)
	}
	prefix := make([]edgematch.Placement, len(fields))
	for i, f := range fields {
		ps, rs, ok := strings.Cut(f, "/")
		piece, err1 := strconv.Atoi(ps)
		rot, err2 := strconv.Atoi(rs)
		if !ok || err1 != nil || err2 != nil || piece < 1 || piece > len(p.Tiles) || rot < 0 || rot > 3 {
			return exact.SearchedSubtree{}, fmt.Errorf("prefix placement %q is not PIECE/ROT", f)
		}
		prefix[i] = edgematch.Placement{Piece: piece - 1, Rot: rot}
	}
	ss := exact.SearchedSubtree{Index: e.Subtree, Prefix: prefix, Result: edgematch.Result{Stats: edgematch.Stats{
		Nodes: e.Placements, Solutions: e.Solutions, MaxDepth: e.MaxDepth, Elapsed: time.Duration(e.Seconds * float64(time.Second))}}}
	if e.Board != "" {
		b, err := edgematch.ParseBoard(strings.NewReader(e.Board))
		if err != nil {
			return exact.SearchedSubtree{}, err
		}
		ss.Result.Board = b // Split verifies it
	}
	return ss, nil
}

// add records a subtree searched to its end; the file is synced about
// once a second (a crash loses at most the last second's subtrees, which
// the next run searches again).
func (j *splitJournal) add(ss exact.SearchedSubtree) {
	pre := journalPrefix(ss.Prefix)
	if j.err != nil || j.recount[pre] {
		return
	}
	st := ss.Result.Stats
	e := journalEntry{Subtree: ss.Index, Prefix: pre, Placements: st.Nodes, Solutions: st.Solutions,
		MaxDepth: st.MaxDepth, Seconds: st.Elapsed.Seconds()}
	if st.Solutions > 0 && ss.Result.Board != nil {
		e.Board = ss.Result.Board.String()
	}
	line, err := json.Marshal(e)
	if err == nil {
		_, err = j.f.Write(append(line, '\n'))
	}
	if err == nil && time.Since(j.lastSync) >= time.Second {
		err, j.lastSync = j.f.Sync(), time.Now()
	}
	j.err = err
}

// Close syncs and closes the journal, returning the first error of its
// writes.
func (j *splitJournal) Close() error {
	err := j.err
	if serr := j.f.Sync(); err == nil {
		err = serr
	}
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}
