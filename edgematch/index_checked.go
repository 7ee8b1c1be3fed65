//go:build tessera_checked

package edgematch

// at returns &s[i], bounds checked (see index_fast.go).
func at[T any](s []T, i int32) *T { return &s[i] }
