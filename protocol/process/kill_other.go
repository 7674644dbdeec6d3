//go:build !unix

package process

import "os/exec"

// ownSession does nothing where there are no sessions.
func ownSession(*exec.Cmd) {}

// killTree kills the command (the processes it started may outlive it).
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
