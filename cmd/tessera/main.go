// Command tessera solves puzzles: sliding-tile puzzles, pictorial jigsaws,
// edge-matching puzzles and cluster-clearing games, and serves them as a
// web app. Run "tessera help" for the commands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the exit status after a second interrupt, the shell's
// 128+SIGINT.
const exitInterrupted = 130

func main() {
	ctx, stop := interruptContext(context.Background(), os.Stderr, os.Exit)
	code := run(ctx, os.Args[1:], &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}

// interruptContext returns a context that the first SIGINT or SIGTERM
// cancels, so that the command stops its work, reports what it has and
// returns; a second signal calls exit(exitInterrupted) at once, so that a
// phase that is slow to stop never has to be ended with SIGKILL. stop
// releases the signals.
func interruptContext(parent context.Context, stderr io.Writer, exit func(int)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sig:
			fmt.Fprintf(stderr, "tessera: %v: stopping (again to exit at once)\n", s)
			cancel()
		case <-done:
			return
		}
		select {
		case s := <-sig:
			fmt.Fprintf(stderr, "tessera: %v: exiting\n", s)
			exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}
