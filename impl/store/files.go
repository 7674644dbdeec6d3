package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MaxFileSize bounds one history or meta file. Larger files are refused with
// an error rather than read into memory.
var MaxFileSize int64 = 256 << 20

// fileID is which file a name led to, and which version of it: device,
// inode, type, size and the modification and change times. Two reads of a
// name that give one fileID read the same bytes, as far as a writer that
// renames new files into place goes (every write gets a new inode).
type fileID struct {
	dev, ino     uint64
	nlink        uint64 // names the file has (hard links)
	size         int64
	mode         uint32
	mtime, ctime int64
}

func notRegular(id fileID) error {
	if k := id.kind(); k != "not a regular file" {
		return fmt.Errorf("not a regular file (%s): not opened", k)
	}
	return errors.New("not a regular file")
}

// readFile reads a regular file below dir, refusing symlinks that leave the
// session directory, anything but a regular file (never opened in a way
// that could block) and files over MaxFileSize. buf is scratch space the
// caller keeps between calls.
func readFile(dir, rel string, buf *[]byte) (string, fileID, error) {
	p := filepath.Join(dir, rel)
	data, id, err := readRegular(p, false, buf)
	if !errors.Is(err, errLink) {
		return data, id, err
	}
	if err := checkLink(dir, p); err != nil {
		return "", id, err
	}
	// Where the link leads is looked at before it is opened.
	if id, err := statID(p, true); err != nil || !id.regular() {
		if err == nil {
			err = notRegular(id)
		}
		return "", id, err
	}
	return readRegular(p, true, buf)
}

// errLink is readRegular's answer for a symbolic link it was not to follow.
var errLink = errors.New("symbolic link")

// checkLink refuses a path below dir that is a symbolic link leading out of
// dir, or to nothing. Other paths pass.
func checkLink(dir, p string) error {
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Errorf("broken link: %w", err)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	if r, err := filepath.Rel(root, target); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("link points outside the session directory (%s)", target)
	}
	return nil
}
