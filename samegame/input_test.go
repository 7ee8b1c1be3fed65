package samegame

import (
	"errors"
	"io"
	"runtime/debug"
	"strings"
	"testing"
)

// endless yields comment lines forever: an input of any size.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "# padding\n"[(e.read+int64(i))%10]
	}
	e.read += int64(len(p))
	return len(p), nil
}

// Issue 22, item 3: a set file is read up to MaxSetBytes and no further,
// so that a huge file stops with a clear error instead of using memory.
func TestReadSetBounded(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	e := &endless{}
	_, err := ReadSet(e)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "16 MiB") {
		t.Fatalf("endless input: %v", err)
	}
	if e.read > MaxSetBytes+1<<20 {
		t.Fatalf("read %d bytes, want about %d", e.read, MaxSetBytes)
	}
	data, err := ReadSet(strings.NewReader("position 1\n1 2\n2 1\n"))
	if err != nil || len(data) != 19 {
		t.Fatalf("small input: %d bytes, %v", len(data), err)
	}
	// ParseSet bounds its input too: boards after MaxSetBytes of comments.
	big := io.MultiReader(io.LimitReader(&endless{}, MaxSetBytes+10), strings.NewReader("\nposition 1\n1 2\n2 1\n"))
	if _, err := ParseSet(big, Standard); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ParseSet of %d MiB: %v", MaxSetBytes>>20, err)
	}
}
