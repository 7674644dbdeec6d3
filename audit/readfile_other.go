//go:build !unix

package audit

import (
	"errors"
	"fmt"
	"io"
	"os"
)

const maxScript = 64 << 20

// readRegular reads the regular file at p; a link or anything but a
// regular file is refused before it is opened.
func readRegular(p string) (string, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return "", unwrapPath(err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return "", errors.New("a symbolic link: not followed (the op script must be a file of the session)")
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%s): not read", kindOf(fi.Mode()))
	}
	f, err := os.Open(p)
	if err != nil {
		return "", unwrapPath(err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxScript+1))
	if err != nil {
		return "", unwrapPath(err)
	}
	if len(b) > maxScript {
		return "", fmt.Errorf("over the limit of %d bytes", maxScript)
	}
	return string(b), nil
}
