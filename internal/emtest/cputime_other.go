//go:build !unix

package emtest

import "time"

var processStart = time.Now()

// ProcessCPU returns the wall-clock time since the start where the CPU
// time is not available.
func ProcessCPU() time.Duration { return time.Since(processStart) }
