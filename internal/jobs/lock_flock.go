//go:build linux || darwin || dragonfly || freebsd || illumos || netbsd || openbsd

package jobs

import (
	"errors"
	"os"
	"syscall"
)

// storeLocked: lockStore locks (flock(2) is here).
const storeLocked = true

// lockStore takes an exclusive advisory lock on f, held until f is closed
// or the process ends (killed or not: a crash leaves no stale lock).
func lockStore(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrStoreBusy
		default:
			return err
		}
	}
}
