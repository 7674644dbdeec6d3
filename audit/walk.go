package audit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"sessiondag/impl/store"
)

// Tree is what a walk of the directories given to the audit found: the
// session directories and what it could not look at, each sorted. A problem
// makes the run NOT READY (a verdict on part of the tree is none); a note
// says what the walk did that a reader should know (a link followed, a
// directory reached twice and audited once).
type Tree struct {
	Sessions []string
	Problems []string
	Notes    []string
}

// Find walks the roots for session directories: a directory holding any of
// the original's session files — history/, meta.json (written only once a
// turn ends) or context/commits/ — named by its folder (the walk does not
// descend into one). Links to
// directories are followed, each directory walked once whatever links lead
// to it again (a loop included). A directory that cannot be read is a
// problem and the walk goes on. A root that does not exist, is not a
// directory, or holds no session directory is an error.
func Find(roots []string) (*Tree, error) {
	return find(context.Background(), roots, os.ReadDir, nil)
}

// find is Find with the directory reader given (a test makes one fail),
// stopped by ctx, reporting to progress.
func find(ctx context.Context, roots []string, readDir func(string) ([]os.DirEntry, error), progress *Progress) (*Tree, error) {
	w := &walker{seen: map[fileID]string{}, holds: map[fileID]bool{}, readDir: readDir, ctx: ctx, progress: progress}
	for _, root := range roots {
		fi, err := os.Stat(root)
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
		if !fi.IsDir() {
			return nil, &fs.PathError{Op: "audit", Path: root, Err: errors.New("not a directory")}
		}
		// A root whose sessions an earlier root's walk reached (the
		// tree and a folder of it, in either order) holds sessions.
		before := w.reached
		w.dir(root, fi)
		if ctx.Err() != nil {
			return nil, ErrInterrupted
		}
		if w.reached == before && !w.failedBelow(root) {
			return nil, fmt.Errorf("audit: %s: no session directory (one holding history/, meta.json or context/commits/) at or below it", root)
		}
	}
	sort.Strings(w.tree.Sessions)
	// In sorted order, each once, as a merge of shards lists them
	// (Summary.Merge): the walk's own order is depth first by name, which
	// is not the order of the paths ("f0/x" comes before "f0-y/x").
	slices.Sort(w.tree.Problems)
	w.tree.Problems = slices.Compact(w.tree.Problems)
	slices.Sort(w.tree.Notes)
	w.tree.Notes = slices.Compact(w.tree.Notes)
	return &w.tree, nil
}

// walker walks directories depth first in name order, so that what it
// reports comes in a stable order.
type walker struct {
	tree Tree
	seen map[fileID]string // each directory walked, by identity → its path
	// holds: the directories walked that are or hold a session
	// directory; reached counts the session directories reached, those
	// reached again (through a directory that holds them) included.
	holds   map[fileID]bool
	reached int
	// failed: the roots below which a directory could not be read.
	failed   []string
	readDir  func(string) ([]os.DirEntry, error)
	ctx      context.Context
	progress *Progress
	dirs     int // walked so far
}

func (w *walker) problem(p, format string, args ...any) {
	w.tree.Problems = append(w.tree.Problems, p+": "+fmt.Sprintf(format, args...))
	w.failed = append(w.failed, p)
}

// failedBelow reports whether a problem was found at or below root (then
// a root without a session is reported as NOT READY, not as an error).
func (w *walker) failedBelow(root string) bool {
	for _, f := range w.failed {
		if rel, err := filepath.Rel(root, f); err == nil && !filepath.IsAbs(rel) && rel != ".." && (len(rel) < 3 || rel[:3] != "../") {
			return true
		}
	}
	return false
}

// dir walks directory p (fi is what os.Stat says of it, links followed).
func (w *walker) dir(p string, fi fs.FileInfo) {
	if w.ctx.Err() != nil {
		return
	}
	w.dirs++
	w.progress.walking(w.dirs, len(w.tree.Sessions))
	if id, ok := idOf(fi); ok {
		if first, dup := w.seen[id]; dup {
			w.tree.Notes = append(w.tree.Notes, fmt.Sprintf("%s: the same directory as %s, walked once", p, first))
			if w.holds[id] {
				w.reached++
			}
			return
		}
		w.seen[id] = p
		defer func(before int) { w.holds[id] = w.reached > before }(w.reached)
	}
	session, err := isSession(p)
	if err != nil {
		w.problem(p, "%v", err)
		return
	}
	if session {
		w.tree.Sessions = append(w.tree.Sessions, p)
		w.reached++
		return
	}
	entries, err := w.readDir(p)
	if err != nil {
		w.problem(p, "cannot read the directory: %v", unwrapPath(err))
		return
	}
	for _, e := range entries {
		c := filepath.Join(p, e.Name())
		switch {
		case e.Name() == ".git":
		case e.IsDir():
			cfi, err := os.Lstat(c)
			if err != nil {
				w.problem(c, "vanished or unreadable during the walk: %v", unwrapPath(err))
				continue
			}
			w.dir(c, cfi)
		case e.Type()&fs.ModeSymlink != 0:
			cfi, err := os.Stat(c)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				w.tree.Notes = append(w.tree.Notes, c+": a link to nothing, skipped")
			case err != nil:
				w.problem(c, "a link whose target cannot be read: %v", unwrapPath(err))
			case cfi.IsDir() && !followLinks:
				w.problem(c, "a link to a directory, not followed on this system")
			case cfi.IsDir():
				target, _ := filepath.EvalSymlinks(c)
				w.tree.Notes = append(w.tree.Notes, fmt.Sprintf("%s: a link to %s, followed", c, target))
				w.dir(c, cfi)
			}
		}
	}
}

// isSession reports whether p is a session directory. An error that is not
// "no such file" (a directory that cannot be searched) is returned: the
// walk cannot tell.
func isSession(p string) (bool, error) {
	for _, name := range []string{"history", "meta.json", filepath.Join("context", "commits")} {
		fi, err := os.Stat(filepath.Join(p, name))
		switch {
		case err == nil && (name == "meta.json" || fi.IsDir()):
			return true, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return false, fmt.Errorf("cannot look inside: %v", unwrapPath(err))
		}
	}
	return false, nil
}

// unwrapPath is the reason of a path error without the path, which the
// report names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// kindOf names what a file that is not a regular file is.
func kindOf(m fs.FileMode) string {
	if k := store.FileKind(m); k != "" {
		return k
	}
	return m.Type().String()
}

// Holding says which session directory of the tree would hold a file
// written at path, if any: the audit never writes inside a session
// directory it reads (a page over a node file, say). Links are resolved
// on both sides, the file's own included when it exists.
func (t *Tree) Holding(path string) (string, bool) {
	target := resolved(path)
	for _, dir := range t.Sessions {
		d := resolved(dir)
		if rel, err := filepath.Rel(d, target); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return dir, true
		}
	}
	return "", false
}

// resolved is path made absolute with every link on it followed, as far
// as the path exists.
func resolved(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	dir, base := filepath.Split(abs)
	if dir == abs || dir == "" {
		return abs
	}
	return filepath.Join(resolved(filepath.Clean(dir)), base)
}
