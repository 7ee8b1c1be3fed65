//go:build linux || darwin || dragonfly || freebsd || illumos || netbsd || openbsd

package main

import (
	"errors"
	"os"
	"syscall"
)

// journalLocked: lockJournal locks (flock(2) is here).
const journalLocked = true

// lockJournal takes an exclusive advisory lock on the journal f, held
// until f is closed (or the process ends, killed or not, so a crash leaves
// no stale lock).
func lockJournal(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errJournalBusy
		default:
			return err
		}
	}
}
