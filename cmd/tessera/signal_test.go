//go:build unix

package main

import (
	"syscall"
	"testing"
	"time"
)

// TestInterruptTwice sends this process SIGINT twice: the first cancels the
// context, the second exits with status 130.
func TestInterruptTwice(t *testing.T) {
	var stderr syncBuffer // written by the signal goroutine
	exited := make(chan int, 1)
	ctx, stop := interruptContext(t.Context(), &stderr, func(code int) { exited <- code })
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first SIGINT did not cancel the context")
	}
	select {
	case code := <-exited:
		t.Fatalf("exit(%d) after one signal", code)
	case <-time.After(50 * time.Millisecond):
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exited:
		if code != 130 {
			t.Fatalf("exit(%d), want 130", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second signal did not exit")
	}
}
