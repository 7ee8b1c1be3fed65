//go:build !linux

package main

import "time"

// threadCPU is not available here: budgets fall back to wall-clock time.
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU is not available here.
func processCPU() (time.Duration, bool) { return 0, false }

// peakRSS is not available here.
func peakRSS() int64 { return 0 }
