//go:build !unix

package sat

import "os/exec"

// setProcessGroup leaves cmd as it is: the context's cancel kills the
// solver process itself.
func setProcessGroup(cmd *exec.Cmd) {}
