// Package fuzztest holds what the fuzz tests of the families check alike.
// Tests only: no solver or front end imports it.
package fuzztest

import (
	"strings"
	"testing"
)

// Refused reports whether a parser refused its input (err is not nil), and
// fails t when the error does not begin with the package's name (pkg, as
// "tangram"), as every error of the project's packages must.
func Refused(t testing.TB, pkg string, err error) bool {
	t.Helper()
	if err == nil {
		return false
	}
	if !strings.HasPrefix(err.Error(), pkg+": ") {
		t.Fatalf("error without the package name: %v", err)
	}
	return true
}
