//go:build !unix

package edgematch

import "time"

var processStart = time.Now()

// processCPU returns the wall-clock time since the start where the CPU
// time is not available.
func processCPU() time.Duration { return time.Since(processStart) }
