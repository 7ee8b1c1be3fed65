//go:build linux || darwin || dragonfly || freebsd || illumos || netbsd || openbsd

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Supported reports whether Lock locks here (flock(2) is here).
const Supported = true

// Lock takes an exclusive advisory lock on f without waiting, held until
// f is closed or the process ends (killed or not: a crash leaves no stale
// lock). It returns ErrBusy when another holds it.
func Lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrBusy
		default:
			return err
		}
	}
}
