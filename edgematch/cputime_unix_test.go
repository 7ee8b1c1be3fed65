//go:build unix

package edgematch

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) of the process.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
