//go:build !amd64 || tessera_checked || purego

package kernel

// MaskRun is the inner loop of runMasks: maskRunGo where there is no
// assembly kernel (and in the checked build, whose at checks every
// index).
func MaskRun(k *MaskKernel, entry int) int { return MaskRunGo(k, entry) }
