//go:build !linux

package npuzzle

func hugePages([]uint64) {}
