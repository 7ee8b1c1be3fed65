package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is an input named by a front end that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// RegularFile refuses a path that names something other than a regular
// file, such as a FIFO (opening one blocks until a writer comes, reading it
// until the writer ends), a device or a folder; a path that does not exist
// passes, for the caller's open to report. It only stats the path, so it
// never blocks.
func RegularFile(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %w (%v)", path, ErrNotRegular, st.Mode().Type())
}

// readInput reads at most limit bytes of the regular file path (what a
// front end names: one that is not regular is a UsageError prefixed by
// what), failing on a longer one.
func readInput(path, what string, limit int64) ([]byte, error) {
	if err := RegularFile(path); err != nil {
		return nil, Usagef("%s%v", what, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s%s: longer than %d KiB", what, path, limit>>10)
	}
	return data, err
}
