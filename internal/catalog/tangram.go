package catalog

import (
	"time"

	"tessera/sdp"
	"tessera/tangram"
)

// TangramOptions are the parameters of the tangram solvers, the values of
// the flags of `tessera tangram solve` and `bench`. The zero value gives
// each solver its defaults.
type TangramOptions struct {
	// SDPBackend names sdp's backend (sdp.Lookup: "go", the default, or
	// "csdp" in a build with the tag csdp).
	SDPBackend string
	// K is the degree of Algorithm 2's moment matrices (0: 3).
	K int
	// MaxIter bounds Algorithm 2's SDPs (0: 40); MaxNodes the exact
	// search's placements (0: no limit).
	MaxIter  int
	MaxNodes int64
	// MaxTime stops Algorithm 2 (0: only the context).
	MaxTime time.Duration
	// Seed drives Algorithm 2's restarts; Plain runs it as published (no
	// restarts when the objective stalls).
	Seed  uint64
	Plain bool
	// OnIterate, when set, receives every iterate of Algorithm 2.
	OnIterate func(tangram.SDPIterate)
}

// Tangram is the table of tangram solvers.
var Tangram = Table[tangram.Solver, TangramOptions]{
	{ID: "sdp", Name: "Kovalsky's rank-one SDP (Algorithm 2)",
		Doc: "moment matrices of the pieces' translations, SDPs reweighted towards rank one; translations snapped and checked",
		New: newTangramSDP},
	{ID: "exact", Name: "exact backtracker", Optimal: true,
		Doc: "covers a corner of the uncovered region at a time; proves there is no solution when there is none",
		New: newTangramExact},
}

func init() { register("tangram", Tangram.Menu) }

func newTangramSDP(o TangramOptions) (tangram.Solver, error) {
	if o.MaxNodes != 0 {
		return nil, errNotFor("-max-nodes", "exact")
	}
	name := o.SDPBackend
	if name == "" {
		name = "go"
	}
	backend, err := sdp.Lookup(name)
	if err != nil {
		return nil, err
	}
	s := tangram.SDP{Backend: backend, K: o.K, MaxIter: o.MaxIter, MaxTime: o.MaxTime, Seed: o.Seed, OnIterate: o.OnIterate}
	if o.Plain {
		s.Stall = -1
	}
	return s, nil
}

func newTangramExact(o TangramOptions) (tangram.Solver, error) {
	switch {
	case o.SDPBackend != "":
		return nil, errNotFor("-sdp", "sdp")
	case o.K != 0:
		return nil, errNotFor("-k", "sdp")
	case o.MaxIter != 0:
		return nil, errNotFor("-max-iter", "sdp")
	case o.Plain:
		return nil, errNotFor("-plain", "sdp")
	}
	return tangram.Exact{MaxNodes: o.MaxNodes}, nil
}
