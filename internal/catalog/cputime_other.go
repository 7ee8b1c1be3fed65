//go:build !linux

package catalog

import "time"

// ThreadCPU is not available here: budgets fall back to wall-clock time.
func ThreadCPU() (time.Duration, bool) { return 0, false }

// ProcessCPU is not available here.
func ProcessCPU() (time.Duration, bool) { return 0, false }

// PeakRSS is not available here.
func PeakRSS() int64 { return 0 }
