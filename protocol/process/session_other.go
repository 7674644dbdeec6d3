//go:build unix && !linux

package process

// killSession does nothing where the harness cannot list a session's
// processes: killing the process group reaches what did not leave it.
func killSession(int) {}
