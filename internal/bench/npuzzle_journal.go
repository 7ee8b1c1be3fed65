package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"tessera/internal/catalog"
	"tessera/internal/journal"
	"tessera/npuzzle"
)

// npuzzleJournalKind names the journal of a benchmark set's run.
const npuzzleJournalKind = "tessera npuzzle bench"

// NpuzzleJournalHeader names a run of a benchmark set: a journal applies
// to a run only when every field is the same. The instances chosen
// (-instances), the time limit and the workers may differ: a run skips the
// instances that the journal records as solved and solves the others,
// those that ran out of time before included.
type NpuzzleJournalHeader struct {
	Journal string `json:"journal"`
	Set     string `json:"set"` // sha256 of every board of the set file with its number, in order
	Goal    string `json:"goal"`
	Solver  string `json:"solver"`
	Options string `json:"options"` // the catalogue's options as JSON, workers and memory bound left out
}

// Kind names the journal's kind of run.
func (h NpuzzleJournalHeader) Kind() string { return h.Journal }

// NewNpuzzleJournalHeader names the run of solver algo with opts on the
// instances of a whole set file (before -instances chooses some) for goal.
func NewNpuzzleJournalHeader(set []npuzzle.Instance, goal npuzzle.Goal, algo string, opts catalog.NpuzzleOptions) NpuzzleJournalHeader {
	h := sha256.New()
	for _, inst := range set {
		fmt.Fprintf(h, "%d %s\n", inst.Number, inst.Board.Line())
	}
	opts.Workers, opts.MaxMem = 0, 0
	o, _ := json.Marshal(opts)
	return NpuzzleJournalHeader{Journal: npuzzleJournalKind, Set: "sha256:" + hex.EncodeToString(h.Sum(nil)),
		Goal: goal.String(), Solver: algo, Options: string(o)}
}

// NpuzzleJournal records the instances a run of a set solves, so that a run
// of days, on one machine or over many workers (-nats), can stop and go on.
type NpuzzleJournal struct {
	j      *journal.Journal
	solved map[int]catalog.NpuzzleRecord
}

// OpenNpuzzleJournal opens the journal at path for the run head names (see
// journal.Open) and reads the instances it records as solved: a record
// is taken only if its moves solve its instance's board of set for the
// goal, at the length it claims.
func OpenNpuzzleJournal(path string, head NpuzzleJournalHeader, set []npuzzle.Instance, goal npuzzle.Goal) (*NpuzzleJournal, error) {
	nj := &NpuzzleJournal{solved: map[int]catalog.NpuzzleRecord{}}
	j, err := journal.Open(path, head, nj.spec(set, goal))
	if err != nil {
		return nil, err
	}
	nj.j = j
	return nj, nil
}

// ReadNpuzzleJournal reads a journal from r as OpenNpuzzleJournal does,
// returning the solved records by instance number.
func ReadNpuzzleJournal(r io.Reader, head NpuzzleJournalHeader, set []npuzzle.Instance, goal npuzzle.Goal) (map[int]catalog.NpuzzleRecord, error) {
	nj := &NpuzzleJournal{solved: map[int]catalog.NpuzzleRecord{}}
	_, err := journal.Read(r, head, nj.spec(set, goal))
	return nj.solved, err
}

func (nj *NpuzzleJournal) spec(set []npuzzle.Instance, goal npuzzle.Goal) journal.Spec[NpuzzleJournalHeader] {
	return journal.Spec[NpuzzleJournalHeader]{
		What: "a benchmark set's run",
		Describe: func(h NpuzzleJournalHeader) string {
			return fmt.Sprintf("set %.19s…, goal %s, %s %s", h.Set, h.Goal, h.Solver, h.Options)
		},
		Hint: "a new journal file, or the same set file, -goal, -algo, -h, -partition and -w",
		Entry: func(line []byte) error {
			var r catalog.NpuzzleRecord
			if err := journal.Strict(line, &r); err != nil {
				return err
			}
			if !r.Solved {
				return nil // ran out of time or failed: solved again
			}
			i := slices.IndexFunc(set, func(inst npuzzle.Instance) bool { return inst.Number == r.Instance })
			if i < 0 {
				return fmt.Errorf("instance %d is not in the set", r.Instance)
			}
			if err := checkSolved(set[i].Board, goal, r); err != nil {
				return fmt.Errorf("instance %d: %w", r.Instance, err)
			}
			nj.solved[r.Instance] = r
			return nil
		},
	}
}

// checkSolved verifies a record's solution of board.
func checkSolved(board *npuzzle.Board, goal npuzzle.Goal, r catalog.NpuzzleRecord) error {
	if r.Board != board.Line() {
		return fmt.Errorf("board %q, the set's is %q", r.Board, board.Line())
	}
	moves, err := npuzzle.ParseMoves(r.Moves)
	if err != nil {
		return err
	}
	end, err := npuzzle.Replay(board, moves)
	switch {
	case err != nil:
		return err
	case !end.IsSolved(goal):
		return fmt.Errorf("its moves do not reach the goal %v", goal)
	case len(moves) != r.Length:
		return fmt.Errorf("%d moves, length %d", len(moves), r.Length)
	}
	return nil
}

// Solved returns instance n's record if the journal holds it solved (none
// for a nil journal).
func (nj *NpuzzleJournal) Solved(n int) (catalog.NpuzzleRecord, bool) {
	if nj == nil {
		return catalog.NpuzzleRecord{}, false
	}
	r, ok := nj.solved[n]
	return r, ok
}

// Len is how many instances the journal holds solved.
func (nj *NpuzzleJournal) Len() int { return len(nj.solved) }

// Add records an instance's run (solved or not).
func (nj *NpuzzleJournal) Add(r catalog.NpuzzleRecord) { nj.j.Add(r) }

// Close syncs and closes the journal.
func (nj *NpuzzleJournal) Close() error { return nj.j.Close() }
