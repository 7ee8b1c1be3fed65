// Package flock takes exclusive advisory locks on files (flock(2)), so
// that a second process on a journal or a job store is refused instead of
// corrupting it:
//
//	if err := flock.Lock(f); errors.Is(err, flock.ErrBusy) { ... }
//
// The lock is held until the file is closed or the process ends, killed
// or not, so a crash leaves no stale lock. Where flock(2) is missing
// (Supported is false) Lock does nothing.
package flock

import "errors"

// ErrBusy is returned by Lock when another holds the lock.
var ErrBusy = errors.New("flock: the file is locked by another process")
