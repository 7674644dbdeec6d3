//go:build unix

package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// maxScript bounds the op script the audit reads beside a session.
const maxScript = 64 << 20

// readRegular reads the regular file at p, never following a link (a
// session.ops that links out of the session is refused) and never
// blocking: O_NONBLOCK keeps the open of a FIFO from waiting for a writer,
// and fstat then refuses anything that is not a regular file.
func readRegular(p string) (string, error) {
	fd, err := open(p)
	if errors.Is(err, syscall.ELOOP) {
		return "", errors.New("a symbolic link: not followed (the op script must be a file of the session)")
	}
	if err != nil {
		return "", unwrapPath(err)
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", unwrapPath(err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%s): not read", kindOf(fi.Mode()))
	}
	if fi.Size() > maxScript {
		return "", fmt.Errorf("%d bytes, over the limit of %d", fi.Size(), maxScript)
	}
	b := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if len(b) > maxScript {
			return "", fmt.Errorf("over the limit of %d bytes", maxScript)
		}
		if err != nil || n == 0 {
			if err != nil && !errors.Is(err, io.EOF) {
				return "", unwrapPath(err)
			}
			break
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	return string(b), nil
}

func open(p string) (int, error) {
	for {
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			if err != nil {
				if err == syscall.ENOENT {
					return -1, fs.ErrNotExist
				}
				return -1, err
			}
			return fd, nil
		}
	}
}
