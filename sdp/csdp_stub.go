//go:build !csdp

package sdp

import (
	"context"
	"fmt"
)

const csdpBuilt = false

// CSDP is the CSDP backend: Borchers' C library (CSDP 6.2) through cgo,
// built with the tag csdp and Debian's libsdp-dev (see csdp.go for the
// details). This binary was built without the tag, so Solve returns
// ErrNotBuilt; the type exists so that code naming it builds everywhere.
type CSDP struct {
	// Tol is the relative tolerance (CSDP's axtol, atytol and objtol;
	// 0: 1e-8).
	Tol float64
	// MaxIter bounds the iterations (0: 100).
	MaxIter int
	// MaxBytes bounds the memory of a solve (0: DefaultMaxBytes).
	MaxBytes int64
}

// Solve returns ErrNotBuilt.
func (CSDP) Solve(context.Context, *Problem) (*Solution, error) {
	return nil, fmt.Errorf("%w: csdp needs the build tag csdp (go build -tags csdp) and CSDP (Debian libsdp-dev)", ErrNotBuilt)
}
