package fuzztest

import (
	"errors"
	"testing"
)

// recorder is a testing.TB that records a failure instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatalf(string, ...any) { r.failed = true }

func TestRefused(t *testing.T) {
	for _, c := range []struct {
		err              error
		refused, failure bool
	}{
		{nil, false, false},
		{errors.New("tangram: no silhouette"), true, false},
		{errors.New("no silhouette"), true, true},
		{errors.New("tangrams: no silhouette"), true, true},
	} {
		r := &recorder{TB: t}
		if got := Refused(r, "tangram", c.err); got != c.refused || r.failed != c.failure {
			t.Errorf("Refused(%v) = %v, failed %v; want %v, %v", c.err, got, r.failed, c.refused, c.failure)
		}
	}
}
