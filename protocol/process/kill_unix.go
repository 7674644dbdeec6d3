//go:build unix

package process

import (
	"os/exec"
	"syscall"
)

// ownSession starts the command in a session of its own (so in a process
// group of its own too): a kill reaches what `sh -c` started, a Ctrl-C at
// the terminal reaches only the harness, which ends the implementation
// itself, and what the implementation starts keeps the session's id even
// when it leaves the group (killSession finds it).
func ownSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// killTree kills the command's process group and every process left in
// its session, the command itself included.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	pid := cmd.Process.Pid
	syscall.Kill(-pid, syscall.SIGKILL)
	killSession(pid)
	cmd.Process.Kill()
}
