//go:build amd64 && !tessera_checked && !purego

package kernel

import "unsafe"

// MaskRun is the inner loop of runMasks in assembly (maskrun_amd64.s):
// maskRunGo step for step, with the loop's state in registers.
// TestMaskKernels runs both on the same searches, and the golden tests
// replay the recorded trees with it.
//
//go:noescape
func MaskRun(k *MaskKernel, entry int) int

// The kernel indexes steps, frames, tog4 and cand by shifts and scaled
// addressing: their sizes must not change unnoticed.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(loopStep{})-32]
	_ = [1]struct{}{}[unsafe.Sizeof(maskFrame{})-16]
	_ = [1]struct{}{}[unsafe.Sizeof([4]uint32{})-16]
	_ = [1]struct{}{}[unsafe.Sizeof(candidate{})-8]
)
