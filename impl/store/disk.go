package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sessiondag/impl/node"
)

// FileName is a node's history file name: seq padded to at least four digits,
// the first letter of the role, the id.
func FileName(n *node.Node) string {
	letter := "_"
	if n.Role != "" {
		letter = n.Role[:1]
	}
	return fmt.Sprintf("%04d-%s-%s.json", n.Seq, letter, n.ID)
}

// ValidateID refuses ids that cannot safely become part of a file name.
func ValidateID(id string) error {
	switch {
	case id == "":
		return errors.New("empty node id")
	case id == "." || id == "..":
		return fmt.Errorf("node id %q is a path element", id)
	case strings.ContainsAny(id, "/\\\x00"):
		return fmt.Errorf("node id %q holds a path separator or NUL", id)
	case len(id) > 200:
		return fmt.Errorf("node id of %d bytes is too long for a file name", len(id))
	}
	return nil
}

func (s *Store) writeNode(n *node.Node) error {
	// A node read from disk may carry any id: it must not become a path
	// (Update rewrites loaded nodes).
	if err := ValidateID(n.ID); err != nil {
		return fmt.Errorf("write node: %w", err)
	}
	if name := FileName(n); strings.ContainsAny(name, "/\\\x00") {
		return fmt.Errorf("write node %s: file name %q holds a path separator or NUL", n.ID, name)
	}
	dir := filepath.Join(s.Dir, "history")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write node %s: %w", n.ID, err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, FileName(n)), n.Encode(), s.Writes); err != nil {
		return fmt.Errorf("write node %s: %w", n.ID, err)
	}
	return nil
}

func (s *Store) writeMetaFile() error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return fmt.Errorf("write meta of %s: %w", s.ID, err)
	}
	b := node.AppendIndent(nil, node.ObjV(s.Meta), "")
	if err := WriteFileAtomic(filepath.Join(s.Dir, "meta.json"), append(b, '\n'), s.Writes); err != nil {
		return fmt.Errorf("write meta of %s: %w", s.ID, err)
	}
	return nil
}

// WriteOptions say how a store's writes reach the disk. The zero value is
// what production uses: every write durable.
type WriteOptions struct {
	// NoSync skips the fsyncs of the file and its directory: for tests and
	// tools that write thousands of throwaway sessions.
	NoSync bool
	// CrashAfter, when set, is called after each step of an atomic write
	// ("write", "sync", "rename"); returning an error stops the write
	// there. A *Crash error simulates the process dying: nothing is
	// cleaned up, so a temporary file stays behind as a real crash leaves
	// it; any other error is a failed step, after which the temporary file
	// is removed.
	CrashAfter func(step string) error
}

// Crash is the error a CrashAfter hook returns to simulate a crash at a step.
type Crash struct{ Step string }

func (c *Crash) Error() string { return "simulated crash after step " + c.Step }

// WriteFileAtomic writes data to path so that a crash at any point leaves
// either the old file or the new one: a temporary file beside it, fsync,
// rename over the target, fsync of the directory.
func WriteFileAtomic(path string, data []byte, o WriteOptions) error {
	tmp := path + ".tmp"
	step := func(name string) error {
		if o.CrashAfter != nil {
			return o.CrashAfter(name)
		}
		return nil
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err = f.Write(data); err == nil {
		err = step("write")
	}
	if err == nil && !o.NoSync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = step("sync")
	}
	if err != nil {
		if c := (*Crash)(nil); !errors.As(err, &c) {
			os.Remove(tmp)
		}
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := step("rename"); err != nil {
		return err
	}
	if o.NoSync {
		return nil
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
