//go:build !unix

package main

import "time"

// cpuTime returns 0: the CPU time of the process is not known here.
func cpuTime() time.Duration { return 0 }
