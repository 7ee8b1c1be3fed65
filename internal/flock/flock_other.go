//go:build !(linux || darwin || dragonfly || freebsd || illumos || netbsd || openbsd)

package flock

import "os"

// Supported reports whether Lock locks here: not where flock(2) is missing.
const Supported = false

// Lock does nothing where flock(2) is missing.
func Lock(*os.File) error { return nil }
