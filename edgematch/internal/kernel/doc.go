// Package kernel is the engine room of the edge-matching searches: what
// exact, partial and relax share and no user of edgematch should see.
//
// Compile turns a puzzle and a scan into candidate tables (Compiled): the
// oriented pieces, for each step of the scan the table keyed by the
// colours of two known sides, the extra sides to check, the hints and the
// frame, and the candidate masks of the backtracker (a word per candidate
// list marking the candidates whose piece is free). A Worker is one
// backtracker's mutable state over a Compiled: Run walks the tree below a
// step in the fixed scan, calling back at every solution and every
// CheckEvery placements; PlacePrefix, Children and RootRange serve Split,
// EstimateTree and the work stealing of exact.DFS, and the break searches
// of partial reuse the tables, the worker and the masks.
//
// The inner loop of Run is MaskRun: assembly on amd64 (maskrun_amd64.s,
// reading the Go structs through go_asm.h), MaskRunGo elsewhere and in the
// purego and tessera_checked builds; exact's TestMaskKernels runs both
// and wants the same walk. At indexes the hot slices without bounds
// checks (index_fast.go); the tessera_checked build tag puts the checks
// back (index_checked.go). Assign is the Hungarian method, which the LP's
// rounding and the partial searches' assignment repairs use.
//
// Everything here is exported for the sibling packages only (internal/);
// the field names are those of the code that reads them in the hot loops.
package kernel
