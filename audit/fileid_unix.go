//go:build unix

package audit

import (
	"io/fs"
	"syscall"
)

// fileID is a directory's identity: the same directory reached by two
// paths (a link, a loop) has one.
type fileID struct{ dev, ino uint64 }

// followLinks: links to directories are followed, loops cut by identity.
const followLinks = true

func idOf(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}
