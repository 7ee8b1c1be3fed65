//go:build !amd64 || tessera_checked || purego

package edgematch

// maskRun is the inner loop of runMasks: maskRunGo where there is no
// assembly kernel (and in the checked build, whose at checks every
// index).
func maskRun(k *maskKernel, entry int) int { return maskRunGo(k, entry) }
