package main

import (
	"runtime"
	"syscall"
	"time"
)

// onThreadCPU runs f locked to its OS thread and returns the CPU time that
// thread spent in it: on a shared machine a fairer measure of a
// single-threaded solver than the wall clock. ok is false where the
// platform cannot tell.
func onThreadCPU(f func()) (cpu time.Duration, ok bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const rusageThread = 1 // RUSAGE_THREAD
	var before, after syscall.Rusage
	if syscall.Getrusage(rusageThread, &before) != nil {
		f()
		return 0, false
	}
	f()
	if syscall.Getrusage(rusageThread, &after) != nil {
		return 0, false
	}
	used := func(r *syscall.Rusage) int64 { return r.Utime.Nano() + r.Stime.Nano() }
	return time.Duration(used(&after) - used(&before)), true
}
