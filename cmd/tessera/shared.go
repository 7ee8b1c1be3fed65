package main

import (
	"bufio"

	"tessera/internal/bench"
	"tessera/internal/play"
)

// Helpers that other verbs used from the npuzzle files before those moved
// to internal/bench and internal/play; remove them with their last use.

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func median(xs []float64) float64 { return bench.Median(xs) }

func readKey(r *bufio.Reader) (string, error) { return play.ReadKey(r) }
