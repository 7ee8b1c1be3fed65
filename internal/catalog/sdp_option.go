package catalog

import (
	"cmp"

	"tessera/sdp"
)

// SDPBackendOption is the option that edge-matching's and tangram's sdp
// solvers (Kovalsky's Algorithm 2) share: which SDP solver runs the SDPs.
// Both families' options embed it, so that JSON, flags and help spell it
// once.
type SDPBackendOption struct {
	SDPBackend string `json:"sdp,omitempty" help:"sdp backend: go (pure Go, the default) or csdp (a build with -tags csdp)"`
}

// backend looks the SDP solver up (go when none is named; sdp.ErrNotBuilt
// for csdp without the build tag).
func (o SDPBackendOption) backend() (sdp.Solver, error) {
	return sdp.Lookup(cmp.Or(o.SDPBackend, "go"))
}
