// Package journal keeps the journal of a long run that must stop and go
// on: a file of JSON lines whose first line names the run (its header) and
// each further line one piece of work done to its end. A run given the
// journal of the same run reads the pieces it records and skips them; a
// journal of another run is refused, as is one that another process holds
// (an flock(2) lock, where the system has it), and a last line cut short
// by a killed run is dropped.
//
// `tessera edgematch solve -split K -journal FILE` records the subtrees of
// a split exact search in one, `tessera npuzzle bench -set FILE -journal
// FILE` the instances of a benchmark set.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"tessera/internal/flock"
)

// MaxLine bounds a journal's lines before they are read.
const MaxLine = 1 << 20

// ErrBusy: another run holds the journal.
var ErrBusy = errors.New("in use by another run (one run per journal: each would do the other's work again)")

// ErrNotRegular: the path names something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Header is a journal's first line: a comparable struct of JSON fields,
// one of which names the kind of run (Kind returns it), so that a journal
// of another kind of run is told apart from one of another run of the
// same kind.
type Header interface {
	comparable
	Kind() string
}

// Spec says how to read a journal: What names its kind of run in errors
// ("a split search"), Describe a header and Hint what to do in the error
// for a journal of another run, and Entry reads each line after the
// header (an error stops the reading).
type Spec[H Header] struct {
	What     string
	Describe func(H) string
	Hint     string
	Entry    func(line []byte) error
}

// Journal is an open journal, appended to by Add.
type Journal struct {
	f        *os.File
	err      error // the first write error
	lastSync time.Time
}

// Open opens the journal at path for the run head names, creating it if
// it does not exist, and calls spec.Entry with each line it records.
func Open[H Header](path string, head H, spec Spec[H]) (*Journal, error) {
	j, err := open(path, head, spec)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	return j, nil
}

func open[H Header](path string, head H, spec Spec[H]) (*Journal, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%v)", ErrNotRegular, st.Mode().Type())
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*Journal, error) {
		f.Close()
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() { // replaced since the Stat
		return fail(ErrNotRegular)
	}
	if err := flock.Lock(f); err != nil {
		if errors.Is(err, flock.ErrBusy) {
			err = ErrBusy
		}
		return fail(err)
	}
	good, err := Read(f, head, spec)
	if err != nil {
		return fail(err)
	}
	headLine, err := json.Marshal(head)
	if err != nil {
		return fail(err)
	}
	headLine = append(headLine, '\n')
	if good == 0 {
		// Empty, or a header cut short by a killed run: anything else is
		// some other file, left as it is.
		start := make([]byte, len(headLine)+1)
		n, _ := f.ReadAt(start, 0)
		if !bytes.HasPrefix(headLine, start[:n]) {
			return fail(fmt.Errorf("not a journal of %s (nor empty)", spec.What))
		}
	}
	// Drop a torn last line, then append.
	if err := f.Truncate(good); err != nil {
		return fail(err)
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		return fail(err)
	}
	if good == 0 {
		if _, err := f.Write(headLine); err != nil {
			return fail(err)
		}
	}
	return &Journal{f: f, lastSync: time.Now()}, nil
}

// Read reads a journal from r: it checks the header against head, calls
// spec.Entry with each complete line after it, and returns the length of
// the complete lines (0 for an empty reader; a last line without its
// newline is dropped).
func Read[H Header](r io.Reader, head H, spec Spec[H]) (int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var good int64
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it, within the bound.
			buf := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(buf) <= MaxLine {
				line, err = br.ReadSlice('\n')
				buf = append(buf, line...)
			}
			if len(buf) > MaxLine {
				return 0, fmt.Errorf("line %d longer than %d bytes", n, MaxLine)
			}
			line = buf
		}
		if err == io.EOF {
			return good, nil
		}
		if err != nil {
			return 0, err
		}
		if n == 1 {
			var got H
			if err := Strict(line, &got); err != nil || got.Kind() != head.Kind() {
				return 0, fmt.Errorf("not a journal of %s (its first line: %.80q)", spec.What, line)
			}
			if got != head {
				return 0, fmt.Errorf("a journal of another run: %s, this one: %s (%s)", spec.Describe(got), spec.Describe(head), spec.Hint)
			}
		} else if err := spec.Entry(line); err != nil {
			return 0, fmt.Errorf("line %d: %w", n, err)
		}
		good += int64(len(line))
	}
}

// Strict decodes one JSON value, refusing unknown fields.
func Strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Add records a piece of work done, v as one JSON line; the file is synced
// about once a second (a crash loses at most the last second's work, which
// the next run does again). The first write error is kept for Close.
func (j *Journal) Add(v any) {
	if j.err != nil {
		return
	}
	line, err := json.Marshal(v)
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
func (j *Journal) Close() error {
	err := j.err
	if serr := j.f.Sync(); err == nil {
		err = serr
	}
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}
