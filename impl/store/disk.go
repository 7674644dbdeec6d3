package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"sessiondag/impl/mutant"

	"sessiondag/impl/node"
)

// MaxFileSize bounds one history or meta file. Larger files are refused with
// an error rather than read into memory.
var MaxFileSize int64 = 256 << 20

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

// Open loads a session directory cold (legacy §2.1 "reading back"): every
// history/*.json file, ordered by its parsed seq (ties by file name), then
// meta.json. It never writes. The session is named by its folder, as the
// original names it, whatever id meta.json holds (a copied or restored
// folder keeps its source's). A folder without meta.json is a session whose
// first turn has not ended (the original writes meta.json at a turn's end):
// no stored head, nothing wrong. Files that cannot be used are listed in
// Problems with the reason; a directory holding none of the original's
// files (meta.json, history/, context/commits/) is not a session and is an
// error.
func Open(dir string) (*Store, error) {
	s := New(filepath.Base(filepath.Clean(dir)))
	s.Dir = dir
	hist := filepath.Join(dir, "history")
	entries, herr := os.ReadDir(hist)
	if herr != nil && !errors.Is(herr, fs.ErrNotExist) {
		return nil, fmt.Errorf("open session %s: %w", dir, herr)
	}
	if herr == nil {
		// history/ itself may be a link: never read a directory outside
		// the session through it.
		if err := checkLink(dir, hist); err != nil {
			s.Problems = append(s.Problems, Problem{File: "history/", Err: fmt.Errorf("%w: no node read", err)})
			entries = nil
		}
	}
	var buf []byte
	meta, merr := readFile(dir, "meta.json", &buf)
	if herr != nil && errors.Is(merr, fs.ErrNotExist) && !HasCommits(dir) {
		return nil, fmt.Errorf("open session %s: no meta.json, history/ or context/commits/: not a session directory", dir)
	}

	type loaded struct {
		name string
		n    *node.Node
	}
	decoded := readNodes(dir, entries)
	var files []loaded
	for i, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			if strings.HasSuffix(name, ".tmp") {
				s.Problems = append(s.Problems, Problem{File: "history/" + name, Err: errors.New("leftover temporary file of an interrupted write (ignored)")})
			}
			continue
		}
		if err := decoded[i].err; err != nil {
			s.Problems = append(s.Problems, Problem{File: "history/" + name, Err: err})
			continue
		}
		files = append(files, loaded{name, decoded[i].n})
	}
	if mutant.On(mutant.OpenDropsLast) && len(files) > 0 {
		files = files[:len(files)-1]
	}
	// ReadDir is sorted by name: that is the original's lexical order.
	lexical := make([]*node.Node, len(files))
	for i := range files {
		lexical[i] = files[i].n
	}
	if !mutant.On(mutant.LexicalOrder) {
		sort.SliceStable(files, func(i, j int) bool {
			a, b := files[i], files[j]
			if mutant.On(mutant.TiesReversed) && a.n.Seq == b.n.Seq {
				return a.name > b.name
			}
			return a.n.Seq < b.n.Seq
		})
	}
	for i := range files {
		if files[i].n != lexical[i] {
			s.LexicalMisorder = true
		}
		s.indexAlways(files[i].n)
	}

	switch {
	case merr == nil:
		v, err := node.ParseString(meta)
		if err != nil || v.K != node.Object {
			if err == nil {
				err = errors.New("not a JSON object")
			}
			s.Problems = append(s.Problems, Problem{File: "meta.json", Err: err})
			break
		}
		s.Meta = v.O
		head := s.Meta.Get("head_id")
		if !head.Truthy() {
			head = s.Meta.Get("last_node_id")
		}
		switch head.K {
		case node.String, node.Null, node.Missing:
			s.head = head.Str()
		default:
			s.Problems = append(s.Problems, Problem{File: "meta.json", Err: &node.FieldError{Field: "head_id", Msg: "not a string"}})
		}
	case errors.Is(merr, fs.ErrNotExist):
		// No turn has ended yet: the load starts from the last message.
	default:
		s.Problems = append(s.Problems, Problem{File: "meta.json", Err: merr})
	}
	if _, err := os.Lstat(filepath.Join(dir, "meta.json.tmp")); err == nil {
		s.Problems = append(s.Problems, Problem{File: "meta.json.tmp", Err: errors.New("leftover temporary file of an interrupted write (ignored)")})
	}
	return s, nil
}

// decoded is one history file read and decoded, or why it could not be.
type decoded struct {
	n   *node.Node
	err error
}

// readNodes reads and decodes the .json entries of history/ (others are
// left zero), split between the cores for large sessions: files are
// independent, and a core waiting on a read leaves the other to decode.
func readNodes(dir string, entries []os.DirEntry) []decoded {
	out := make([]decoded, len(entries))
	work := func(lo, hi int) {
		var buf []byte
		for i := lo; i < hi; i++ {
			name := entries[i].Name()
			if !strings.HasSuffix(name, ".json") {
				continue
			}
			data, err := readFile(dir, "history/"+name, &buf)
			if err == nil {
				out[i].n, err = node.DecodeString(data)
			}
			out[i].err = err
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(entries)/parallelRead)
	if workers < 2 {
		work(0, len(entries))
		return out
	}
	var wg sync.WaitGroup
	step := (len(entries) + workers - 1) / workers
	for lo := 0; lo < len(entries); lo += step {
		hi := min(lo+step, len(entries))
		if mutant.On(mutant.ReadSplitOffset) {
			hi = min(step, len(entries))
		}
		wg.Go(func() { work(lo, hi) })
	}
	wg.Wait()
	return out
}

// parallelRead is the number of files per core below which reading is not
// split.
var parallelRead = 256

// readFile reads a regular file below dir, refusing symlinks that leave the
// session directory and files over MaxFileSize. buf is scratch space the
// caller keeps between calls.
func readFile(dir, rel string, buf *[]byte) (string, error) {
	p := filepath.Join(dir, rel)
	data, err := readNoFollow(p, buf)
	if !errors.Is(err, errLink) {
		return data, err
	}
	b, err := readLinked(dir, p)
	return string(b), err
}

// errLink is readNoFollow's answer for a symbolic link: readLinked decides.
var errLink = errors.New("symbolic link")

// readLinked is readFile through the path's own checks: a link must stay
// inside the session directory.
func readLinked(dir, p string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if err := checkLink(dir, p); err != nil {
			return nil, err
		}
		if fi, err = os.Stat(p); err != nil {
			return nil, err
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("file of %d bytes exceeds the limit of %d", fi.Size(), MaxFileSize)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// checkLink refuses a path below dir that is a symbolic link leading out of
// dir, or to nothing. Other paths pass.
func checkLink(dir, p string) error {
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
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
