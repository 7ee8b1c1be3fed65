package bench

import "testing"

// skipGomlxUnderRace skips a test that runs a network on gomlx's pure-Go
// backend in a build with -race: that backend's matrix products
// (github.com/gomlx/compute v0.1.6, internal/gobackend/dot/matmul,
// nosimd_small.go) keep addresses in uintptr variables and turn them back
// into pointers, which the unsafe rules forbid, and the checkptr
// instrumentation that -race turns on stops the process ("fatal error:
// checkptr: pointer arithmetic result points to invalid allocation"). The
// bug is gomlx's; the test runs without -race, or with -race and
// -gcflags=all=-d=checkptr=0.
func skipGomlxUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("skipped under -race: gomlx's pure-Go backend fails checkptr (github.com/gomlx/compute v0.1.6, dot/matmul); run without -race or with -gcflags=all=-d=checkptr=0")
	}
}
