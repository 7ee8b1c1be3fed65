package progress

import (
	"bytes"
	"strings"
	"testing"
)

func TestDisabledIsSilent(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, false)
	r.Printf("x %d", 1)
	r.Logf("y")
	r.Counter("z", 10).Add(1)
	r.Done()
	var nilR *Reporter
	nilR.Printf("nil is fine")
	if b.Len() != 0 || r.Enabled() || nilR.Enabled() {
		t.Fatalf("a reporter on a buffer printed %q", b.String())
	}
}

func TestForcedPrintsLinesThrottled(t *testing.T) {
	var b bytes.Buffer
	r := New(&b, true)
	for i := range 100 {
		r.Printf("step %d", i)
	}
	r.Logf("finished")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || lines[0] != "step 0" || lines[1] != "finished" {
		t.Fatalf("got %q, want the first status line and the log line", lines)
	}
}
