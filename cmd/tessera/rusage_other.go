//go:build !unix

package main

import "time"

// cpuTime returns 0: the CPU time is not measured on this system.
func cpuTime() time.Duration { return 0 }

// peakRSS returns 0: the peak memory is not measured on this system.
func peakRSS() int64 { return 0 }
