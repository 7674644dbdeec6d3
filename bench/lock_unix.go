//go:build unix

package bench

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path (created if needed), waiting for
// another process that holds it. The lock goes with the process, so a build
// killed half-way never leaves it held.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
