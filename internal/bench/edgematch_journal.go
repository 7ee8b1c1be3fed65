package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"tessera/edgematch"
	"tessera/edgematch/exact"
	"tessera/internal/journal"
)

// The journal of a split exact search (solve -algo dfs -split K -journal
// FILE) lets a search of hours stop and go on: its first line names the
// search, each further line is a subtree searched to its end, and a run
// given a journal of the same search skips the subtrees it records.
//
//	{"journal":"tessera edgematch split","puzzle":"sha256:…","order":"auto","depth":5,"count":true}
//	{"subtree":470,"prefix":"1/0 61/1 …","placements":81234567,"solutions":1,"max_depth":64,"seconds":0.9,"board":"8 8\n…"}

const journalKind = "tessera edgematch split"

// maxJournalEntries bounds the subtrees a journal may hold.
const maxJournalEntries = exact.MaxSubtrees

// journal.ErrBusy: another run holds the journal (its flock).

// SplitJournalHeader names a split search: a journal applies to a run only when
// every field is the same.
type SplitJournalHeader struct {
	Journal string `json:"journal"`
	Puzzle  string `json:"puzzle"` // sha256 of the puzzle with its hints, as WriteTo writes it
	Order   string `json:"order"`
	Depth   int    `json:"depth"`
	Count   bool   `json:"count"`
}

// Kind names the journal's kind of run.
func (h SplitJournalHeader) Kind() string { return h.Journal }

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
type SplitJournal struct {
	*journal.Journal
	recount map[string]bool // prefixes recorded with solutions, searched again

	// The placements and solutions of the subtrees the run skips.
	ResumedNodes, resumedSolutions int64
	resumed                        int
}

// PuzzleDigest identifies a puzzle with its hints.
func PuzzleDigest(p *edgematch.Puzzle) string {
	h := sha256.New()
	p.WriteTo(h)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// OpenSplitJournal opens the journal at path for the search head names,
// creating it if it does not exist, and returns the subtrees it records.
// A journal of another search is refused, as is one another run holds
// (locked until it closes it); a last line cut short (a run killed while
// writing it) is dropped.
func OpenSplitJournal(path string, head SplitJournalHeader, p *edgematch.Puzzle) (*SplitJournal, []exact.SearchedSubtree, error) {
	head.Journal = journalKind
	var searched []exact.SearchedSubtree
	jf, err := journal.Open(path, head, splitSpec(head, p, &searched))
	if err != nil {
		return nil, nil, err
	}
	// A count cannot be verified from the journal, which records one board
	// a subtree: the subtrees recorded with solutions are searched again
	// and counted, and not recorded twice (editing one number must not
	// change the count). They are few; a subtree recorded without any
	// cannot claim some (Split refuses solutions without a board, and
	// verifies the board). Placements and seconds are reported as recorded.
	j := &SplitJournal{Journal: jf, recount: map[string]bool{}}
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
	j.resumed = len(searched)
	for _, ss := range searched {
		j.ResumedNodes += ss.Result.Stats.Nodes
		j.resumedSolutions += ss.Result.Stats.Solutions
	}
	return j, searched, nil
}

// splitSpec reads the subtrees of a journal of the search head names into
// searched. Without -count a subtree has at most one solution, its board
// (which Split verifies).
func splitSpec(head SplitJournalHeader, p *edgematch.Puzzle, searched *[]exact.SearchedSubtree) journal.Spec[SplitJournalHeader] {
	return journal.Spec[SplitJournalHeader]{
		What:     "a split search",
		Describe: describeHeader,
		Hint:     "a new journal file, or the same puzzle, -order, -split and -count",
		Entry: func(line []byte) error {
			if len(*searched) >= maxJournalEntries {
				return fmt.Errorf("more than %d subtrees", maxJournalEntries)
			}
			ss, err := readJournalEntry(line, head.Depth, p)
			if err != nil {
				return err
			}
			if sols := ss.Result.Stats.Solutions; !head.Count && sols > 1 {
				return fmt.Errorf("%d solutions in a search for the first one", sols)
			}
			*searched = append(*searched, ss)
			return nil
		},
	}
}

// readSplitJournal reads a journal: its subtrees, and the length of its
// complete lines (0 for an empty file).
func readSplitJournal(r io.Reader, head SplitJournalHeader, p *edgematch.Puzzle) ([]exact.SearchedSubtree, int64, error) {
	var searched []exact.SearchedSubtree
	good, err := journal.Read(r, head, splitSpec(head, p, &searched))
	if err != nil {
		return nil, 0, err
	}
	return searched, good, nil
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

// describeHeader names a search for an error message.
func describeHeader(h SplitJournalHeader) string {
	return fmt.Sprintf("puzzle %.19s…, order %s, depth %d, count %v", h.Puzzle, h.Order, h.Depth, h.Count)
}

// readJournalEntry reads one subtree of a journal.
func readJournalEntry(line []byte, depth int, p *edgematch.Puzzle) (exact.SearchedSubtree, error) {
	var e journalEntry
	if err := journal.Strict(line, &e); err != nil {
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

// add records a subtree searched to its end.
func (j *SplitJournal) Record(ss exact.SearchedSubtree) {
	pre := journalPrefix(ss.Prefix)
	if j.recount[pre] {
		return
	}
	st := ss.Result.Stats
	e := journalEntry{Subtree: ss.Index, Prefix: pre, Placements: st.Nodes, Solutions: st.Solutions,
		MaxDepth: st.MaxDepth, Seconds: st.Elapsed.Seconds()}
	if st.Solutions > 0 && ss.Result.Board != nil {
		e.Board = ss.Result.Board.String()
	}
	j.Add(e)
}

// Summary says what the journal recorded and how many of its subtrees with
// solutions a count searches again rather than trusting their numbers.
func (j *SplitJournal) Summary() string {
	return fmt.Sprintf("%d subtrees searched before (%d placements, %d solutions); %d recorded with solutions are counted again",
		j.resumed, j.ResumedNodes, j.resumedSolutions, len(j.recount))
}
