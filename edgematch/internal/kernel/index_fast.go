//go:build !tessera_checked

package kernel

import "unsafe"

// At returns &s[i] without a bounds check. The backtrackers' inner loops
// use it for indices bounded by construction: list numbers built from
// colours below k, candidate indices inside their lists, steps below n
// (buildMasks, buildPrevKeys). Building with -tags tessera_checked turns
// it back into plain indexing (index_checked.go), which the CI runs the
// golden tests with, so that a wrong index panics there instead of
// reading past a table.
func At[T any](s []T, i int32) *T {
	var z T
	return (*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(i)*unsafe.Sizeof(z)))
}
