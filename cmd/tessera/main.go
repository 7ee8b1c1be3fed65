// Command tessera solves puzzles: sliding-tile puzzles, pictorial jigsaws,
// edge-matching puzzles and cluster-clearing games, and serves them as a
// web app. Run "tessera help" for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
