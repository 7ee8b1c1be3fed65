package main

import (
	"runtime"
	"syscall"
	"time"
)

// onCPU runs f and returns the CPU time it took: on a shared machine a
// fairer measure than the wall clock. With process false, f runs locked to
// its OS thread and the time is that thread's (a single-threaded solver);
// with process true it is the whole process's (a solver with workers). ok
// is false where the platform cannot tell.
func onCPU(process bool, f func()) (cpu time.Duration, ok bool) {
	who := syscall.RUSAGE_SELF
	if !process {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		who = 1 // RUSAGE_THREAD
	}
	var before, after syscall.Rusage
	if syscall.Getrusage(who, &before) != nil {
		f()
		return 0, false
	}
	f()
	if syscall.Getrusage(who, &after) != nil {
		return 0, false
	}
	used := func(r *syscall.Rusage) int64 { return r.Utime.Nano() + r.Stime.Nano() }
	return time.Duration(used(&after) - used(&before)), true
}
