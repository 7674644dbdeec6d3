//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// readNoFollow reads the regular file at p, refusing to follow a link
// (errLink: the caller checks where it leads). It costs four system calls:
// open, fstat, read, close; buf is reused between calls and the contents
// are copied out once, as the string a parse keeps substrings of. O_NONBLOCK
// keeps a FIFO from blocking the open; fstat then refuses it.
func readNoFollow(p string, buf *[]byte) (string, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if errors.Is(err, syscall.ELOOP) {
		return "", errLink
	}
	if err != nil {
		return "", &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return "", &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return "", errors.New("not a regular file")
	}
	if st.Size > MaxFileSize {
		return "", fmt.Errorf("file of %d bytes exceeds the limit of %d", st.Size, MaxFileSize)
	}
	// Ask for one byte more than the size: a file that grew since the
	// fstat is read on to its end, up to the limit.
	b := (*buf)[:0]
	if want := int(st.Size) + 1; cap(b) < want {
		b = make([]byte, 0, max(want, 2*cap(b)))
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := syscall.Read(fd, b[len(b):cap(b)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			*buf = b
			return "", &fs.PathError{Op: "read", Path: p, Err: err}
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
		if int64(len(b)) > MaxFileSize {
			*buf = b
			return "", fmt.Errorf("file of more than %d bytes exceeds the limit", MaxFileSize)
		}
	}
	*buf = b
	return string(b), nil
}
