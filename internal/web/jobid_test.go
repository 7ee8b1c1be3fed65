package web

import (
	"regexp"
	"testing"
)

// TestJobIDsUnguessable: the in-process backend's job ids are 128 bits
// from crypto/rand (32 hex digits), all distinct, with no shared prefix
// or step that would let one client guess another's id.
func TestJobIDsUnguessable(t *testing.T) {
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	prefix := map[string]bool{}
	for range 2000 {
		id := newJobID()
		if !hex32.MatchString(id) {
			t.Fatalf("id %q: want 32 hex digits (128 bits)", id)
		}
		if seen[id] {
			t.Fatalf("id %q drawn twice", id)
		}
		seen[id] = true
		prefix[id[:8]] = true
	}
	if len(prefix) < 1990 {
		t.Errorf("%d distinct 32-bit prefixes in 2000 ids: not random", len(prefix))
	}
}
