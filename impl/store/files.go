package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sessiondag/impl/node"
)

// MaxFileSize bounds one history or meta file. Larger files are refused with
// an error rather than read into memory.
var MaxFileSize int64 = 256 << 20

// MemoryPerByte and MemorySlack bound the memory one history, meta or
// commit file may cost once parsed (node.Cost): MemoryPerByte times its
// bytes and MemorySlack more. Text costs about its bytes, but a file of
// small values costs up to some thirty times them (a value is 56 bytes, an
// object member 72: "0," is two); such a file over the bound is refused by
// the parse's first pass, with an error naming its size, its cost and the
// limit, before any of it is built.
var (
	MemoryPerByte int64 = 10
	MemorySlack   int64 = 1 << 20
)

// quiet wraps an error for errors.Is without adding to the message.
type quiet struct{ error }

func (quiet) Error() string   { return "" }
func (q quiet) Unwrap() error { return q.error }

// memoryLimit is the memory a file of size bytes may cost once parsed.
func memoryLimit(size int) int64 { return MemoryPerByte*int64(size) + MemorySlack }

// errCostly marks a file refused for what it would cost once parsed.
var errCostly = errors.New("too costly")

func tooCostly(err error) bool { return errors.Is(err, errCostly) }

// costly says which bound a file's parse refused it by, in the store's
// terms; other errors are returned as they are.
func costly(err error) error {
	var c *node.CostError
	if !errors.As(err, &c) {
		return err
	}
	return fmt.Errorf("file of %d bytes would take %s in memory once parsed, over the limit of %s (%d× its bytes + %s): not read%w",
		c.Size, node.MiB(c.Cost), node.MiB(c.Limit), MemoryPerByte, node.MiB(MemorySlack), quiet{errCostly})
}

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
