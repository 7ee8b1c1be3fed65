//go:build tessera_checked

package kernel

// At returns &s[i], bounds checked (see index_fast.go).
func At[T any](s []T, i int32) *T { return &s[i] }
