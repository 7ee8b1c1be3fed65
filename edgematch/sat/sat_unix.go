//go:build unix

package sat

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own and makes the
// context's cancel kill the whole group, so that a solver started through
// a wrapper script leaves no process behind.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
