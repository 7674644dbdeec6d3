//go:build linux

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// idOf is the identity and version of a file as fstat or lstat gives it.
func idOf(st *syscall.Stat_t) fileID {
	return fileID{dev: st.Dev, ino: st.Ino, nlink: uint64(st.Nlink), size: st.Size, mode: st.Mode & syscall.S_IFMT,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}

// statID is the identity of the file at p: of the link itself, or with
// follow of what it leads to.
func statID(p string, follow bool) (fileID, error) {
	var st syscall.Stat_t
	var err error
	for {
		if follow {
			err = syscall.Stat(p, &st)
		} else {
			err = syscall.Lstat(p, &st)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return fileID{}, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	return idOf(&st), nil
}

func (id fileID) regular() bool { return id.mode == syscall.S_IFREG }
func (id fileID) isDir() bool   { return id.mode == syscall.S_IFDIR }
func (id fileID) isLink() bool  { return id.mode == syscall.S_IFLNK }

// fileMode is the stat type as the type bits of an fs.FileMode.
func (id fileID) fileMode() fs.FileMode {
	switch id.mode {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return 0
}

// readRegular reads the regular file at p. Without follow it refuses to go
// through a link (errLink: the caller checks where it leads). The open
// never blocks (O_NONBLOCK: a FIFO put there after a look at the name would
// otherwise wait for a writer) and fstat then refuses anything but a
// regular file; that is four system calls: open, fstat, read, close. buf
// is reused between calls and the contents are copied out once, as the
// string a parse keeps substrings of.
func readRegular(p string, follow bool, buf *[]byte) (string, fileID, error) {
	flags := syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if !follow && errors.Is(err, syscall.ELOOP) {
		return "", fileID{}, errLink
	}
	if err != nil {
		return "", fileID{}, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return "", fileID{}, &fs.PathError{Op: "stat", Path: p, Err: err}
	}
	id := idOf(&st)
	if !id.regular() {
		return "", id, notRegular(id)
	}
	if st.Size > MaxFileSize {
		return "", id, fmt.Errorf("file of %d bytes exceeds the limit of %d", st.Size, MaxFileSize)
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
			return "", id, &fs.PathError{Op: "read", Path: p, Err: err}
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
		if int64(len(b)) > MaxFileSize {
			*buf = b
			return "", id, fmt.Errorf("file of more than %d bytes exceeds the limit", MaxFileSize)
		}
	}
	*buf = b
	return string(b), id, nil
}
