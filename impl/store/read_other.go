//go:build !linux

package store

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Without Linux's stat fields a file's identity is its size and times, and
// no two names are known to be one file.

func idOfInfo(fi fs.FileInfo) fileID {
	return fileID{size: fi.Size(), mode: uint32(fi.Mode().Type()), mtime: fi.ModTime().UnixNano()}
}

func statID(p string, follow bool) (fileID, error) {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(p)
	} else {
		fi, err = os.Lstat(p)
	}
	if err != nil {
		return fileID{}, err
	}
	return idOfInfo(fi), nil
}

func (id fileID) regular() bool { return fs.FileMode(id.mode).IsRegular() }
func (id fileID) isDir() bool   { return fs.FileMode(id.mode).IsDir() }
func (id fileID) isLink() bool  { return fs.FileMode(id.mode)&fs.ModeSymlink != 0 }

func (id fileID) fileMode() fs.FileMode { return fs.FileMode(id.mode) }

// readRegular reads the regular file at p, looking at it before it is
// opened (there is no O_NONBLOCK here to keep a FIFO's open from waiting).
func readRegular(p string, follow bool, buf *[]byte) (string, fileID, error) {
	id, err := statID(p, follow)
	if err != nil {
		return "", id, err
	}
	if !follow && id.isLink() {
		return "", id, errLink
	}
	if !id.regular() {
		return "", id, notRegular(id)
	}
	if id.size > MaxFileSize {
		return "", id, fmt.Errorf("file of %d bytes exceeds the limit of %d", id.size, MaxFileSize)
	}
	f, err := os.Open(p)
	if err != nil {
		return "", id, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if int64(len(b)) > MaxFileSize {
		return "", id, fmt.Errorf("file of more than %d bytes exceeds the limit", MaxFileSize)
	}
	return string(b), id, err
}
