package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
)

// Writer prints a bench: under JSON one object per line per item, as soon
// as the item is done, then the summary object; otherwise a table of the
// items' rows (printed at the end, so that the columns line up) and then
// the summary text.
type Writer struct {
	W    io.Writer
	JSON bool
	// Header is the table's first line, cells ended by tabs as in
	// text/tabwriter ("board\tclicks\t"); AlignRight right-aligns them.
	Header     string
	AlignRight bool

	rows []string
}

// Item records one item: its JSON line (now, under JSON) or its table row,
// cells ended by tabs as in the Header (text after the last tab is not
// aligned: a note).
func (w *Writer) Item(v any, row string) error {
	if w.JSON {
		return WriteJSON(w.W, v)
	}
	w.rows = append(w.rows, row)
	return nil
}

// Summary ends the bench: under JSON it writes v (whose first field should
// be `Summary bool json:"summary"`, set); otherwise it prints the table,
// when it has rows or a header, then what text writes.
func (w *Writer) Summary(v any, text func(io.Writer)) error {
	if w.JSON {
		return WriteJSON(w.W, v)
	}
	if len(w.rows) > 0 || w.Header != "" {
		w.Table()
	}
	if text != nil {
		text(w.W)
	}
	return nil
}

// Table prints the header and the rows gathered so far, and forgets them.
func (w *Writer) Table() {
	var flags uint
	if w.AlignRight {
		flags = tabwriter.AlignRight
	}
	tw := tabwriter.NewWriter(w.W, 0, 8, 2, ' ', flags)
	if w.Header != "" {
		fmt.Fprintln(tw, w.Header)
	}
	for _, r := range w.rows {
		fmt.Fprintln(tw, r)
	}
	tw.Flush()
	w.rows = nil
}

// WriteJSON writes v as one line of JSON.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// WriteFileAtomic writes what fill writes to path through a temporary file
// in the same folder, so that a reader never sees a half-written file. A
// new file gets mode 0644, a replaced one keeps its mode.
func WriteFileAtomic(path string, fill func(io.Writer) error) error {
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// The mode a new file gets (a temporary file is 0600), or the mode of
	// the file it replaces.
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	werr := f.Chmod(mode)
	if werr == nil {
		_, werr = f.Write(b.Bytes())
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
