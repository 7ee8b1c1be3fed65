//go:build unix

package emtest

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user and system) of the process.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
