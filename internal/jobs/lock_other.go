//go:build !(linux || darwin || dragonfly || freebsd || illumos || netbsd || openbsd)

package jobs

import "os"

// storeLocked: lockStore does not lock here.
const storeLocked = false

// lockStore does nothing where flock(2) is missing: two servers on one
// store there are not refused.
func lockStore(*os.File) error { return nil }
