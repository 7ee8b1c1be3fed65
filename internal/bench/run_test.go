package bench

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tessera/internal/catalog"
)

// TestRunOrder checks that results come back and are emitted in item order
// whatever the number of workers, even when later items finish first.
func TestRunOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		var got []int
		res, err := Run(context.Background(), 20, Options{Workers: workers},
			func(ctx context.Context, i int) int {
				time.Sleep(time.Duration(20-i) * 100 * time.Microsecond)
				return i * i
			},
			func(i int, r *int, cpu time.Duration) error {
				if *r != i*i {
					t.Errorf("emit(%d, %d)", i, *r)
				}
				got = append(got, i)
				*r++
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			if got[i] != i || res[i] != i*i+1 {
				t.Fatalf("workers %d: emitted %v, results %v", workers, got, res)
			}
		}
	}
}

// TestRunBudget checks that each item's context ends after the timeout and
// that a failing emit stops the run.
func TestRunBudget(t *testing.T) {
	res, err := Run(context.Background(), 3, Options{Workers: 3, Timeout: 10 * time.Millisecond},
		func(ctx context.Context, i int) error { <-ctx.Done(); return ctx.Err() }, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !errors.Is(r, context.DeadlineExceeded) {
			t.Errorf("item error %v; want deadline", r)
		}
	}
	stop := errors.New("stop")
	ran := 0
	_, err = Run(context.Background(), 100, Options{Workers: 1},
		func(ctx context.Context, i int) int { ran++; return i },
		func(i int, r *int, cpu time.Duration) error { return stop })
	if !errors.Is(err, stop) || ran > 2 {
		t.Errorf("err %v after %d items; want stop after 1", err, ran)
	}
}

func TestCPUBudget(t *testing.T) {
	if _, ok := catalog.ThreadCPU(); !ok {
		t.Skip("no thread CPU clock here")
	}
	used := catalog.WithBudget(context.Background(), 20*time.Millisecond, true, func(ctx context.Context) {
		for ctx.Err() == nil {
		}
	})
	if used < 20*time.Millisecond {
		t.Errorf("used %v of CPU; want at least the 20ms budget", used)
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := &Writer{W: &b, Header: "a\tbb\t"}
	w.Item(1, "1\t2\t")
	w.Item(2, "333\t4\tnote")
	w.Summary(nil, func(o io.Writer) { o.Write([]byte("end\n")) })
	want := "a    bb  \n1    2   \n333  4   note\nend\n"
	if b.String() != want {
		t.Errorf("table:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	w = &Writer{W: &b, JSON: true}
	w.Item(map[string]int{"x": 1}, "ignored")
	w.Summary(struct {
		Summary bool `json:"summary"`
	}{true}, nil)
	if got := b.String(); got != "{\"x\":1}\n{\"summary\":true}\n" || strings.Contains(got, "ignored") {
		t.Errorf("json: %q", got)
	}
}

// WriteFileAtomic gives a new file mode 0644 (its temporary file is 0600)
// and keeps the mode of a file it replaces (issue 39 item 10).
func TestWriteFileAtomicMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	write := func() {
		if err := WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
			t.Fatal(err)
		}
	}
	write()
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("a new file: %v, %v", st.Mode(), err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	write()
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("a replaced file: %v, %v", st.Mode(), err)
	}
}
