// Package ctxtest holds contexts that the tests of several packages use
// alike. Tests only: no solver or front end imports it.
package ctxtest

import "context"

// Countdown returns a context whose Err reports nil for the first n calls
// and context.DeadlineExceeded from then on (Done and Value are parent's):
// a budget that ends at a reproducible point of the work, for a search that
// polls Err.
func Countdown(parent context.Context, n int) context.Context {
	return &countdown{parent, n}
}

type countdown struct {
	context.Context
	left int
}

func (c *countdown) Err() error {
	if c.left <= 0 {
		return context.DeadlineExceeded
	}
	c.left--
	return nil
}
