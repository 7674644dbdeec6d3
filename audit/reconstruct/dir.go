package reconstruct

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"sessiondag/model"
)

// Row is one history file of a session directory, as stored.
type Row struct {
	File     string        // its path below the session directory: history/<name>
	Obj      *model.Object // the file's JSON object, keys in order
	ID       string
	Seq      int
	Role     string
	Name     string
	CalledBy string
	Meta     *model.Object // metadata (empty when the file has none)
	// Err says why the file is no node the writers could have written
	// (unreadable, not JSON, a field of the wrong type); the other fields
	// are then unset.
	Err error
}

// Dir is a session directory as stored: its rows in file-name order (the
// original's order; a function subprocess's run after the row whose seq it
// shares, which it was written after: subprocess.go) and meta.json.
type Dir struct {
	Path    string
	ID      string // the session id: the directory's name
	Rows    []*Row
	Meta    *model.Object // nil when the directory has no meta.json
	MetaErr error         // meta.json could not be used
	// Commits are the ids of the context commits under context/commits/
	// (the context renderer's, switched on), which attach rows may name.
	Commits map[string]bool
}

// Read reads a session directory, opening only regular files, read-only.
// A file that is no node is a row with Err set; an error is returned only
// when the directory itself cannot be read.
func Read(dir string) (*Dir, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("reconstruct: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("reconstruct: %s is not a directory", dir)
	}
	d := &Dir{Path: dir, ID: filepath.Base(filepath.Clean(dir))}
	d.Meta, d.MetaErr = readMeta(dir)
	entries, err := os.ReadDir(filepath.Join(dir, "history"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reconstruct: %s: %w", filepath.Join(dir, "history"), err)
	}
	if err != nil && d.Meta == nil && d.MetaErr == nil {
		return nil, fmt.Errorf("reconstruct: %s: no meta.json or history/: not a session directory", dir)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || e.IsDir() {
			continue
		}
		file := "history/" + e.Name()
		if !e.Type().IsRegular() {
			d.Rows = append(d.Rows, &Row{File: file, Err: errors.New("not a regular file: not read")})
			continue
		}
		d.Rows = append(d.Rows, readRow(dir, file))
	}
	writeOrder(d.Rows)
	commits, err := os.ReadDir(filepath.Join(dir, "context", "commits"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reconstruct: %s: %w", filepath.Join(dir, "context", "commits"), err)
	}
	for _, e := range commits {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && e.Type().IsRegular() {
			if d.Commits == nil {
				d.Commits = map[string]bool{}
			}
			d.Commits[id] = true
		}
	}
	return d, nil
}

func readMeta(dir string) (*model.Object, error) {
	p := filepath.Join(dir, "meta.json")
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file: not read")
	}
	if err != nil {
		return nil, fmt.Errorf("meta.json: %w", err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("meta.json: %w", err)
	}
	v, err := model.ParseJSON(b)
	if err != nil {
		return nil, fmt.Errorf("meta.json: %w", err)
	}
	o, ok := v.(*model.Object)
	if !ok || o == nil {
		return nil, errors.New("meta.json: not a JSON object")
	}
	return o, nil
}

// readRow reads one history file into a Row, naming the field that keeps it
// from being a node.
func readRow(dir, file string) *Row {
	r := &Row{File: file}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
	if err != nil {
		r.Err = err
		return r
	}
	v, err := model.ParseJSON(b)
	if err != nil {
		r.Err = fmt.Errorf("not JSON: %w", err)
		return r
	}
	o, ok := v.(*model.Object)
	if !ok || o == nil {
		r.Err = errors.New("not a JSON object")
		return r
	}
	r.Obj = o
	for _, f := range []struct {
		key string
		to  *string
	}{{"id", &r.ID}, {"role", &r.Role}, {"name", &r.Name}, {"called_by", &r.CalledBy}} {
		s, ok := o.Val(f.key).(string)
		if !ok {
			r.Err = fmt.Errorf("field %q: not a string", f.key)
			return r
		}
		*f.to = s
	}
	seq, ok := o.Val("seq").(model.Int)
	n, err := strconv.Atoi(string(seq))
	if !ok || err != nil {
		r.Err = errors.New(`field "seq": not an integer`)
		return r
	}
	r.Seq = n
	switch m := o.Val("metadata").(type) {
	case *model.Object:
		if m == nil {
			m = &model.Object{}
		}
		r.Meta = m
	default:
		r.Err = errors.New(`field "metadata": not an object`)
	}
	return r
}

// str is the string under key k of o, "" if absent or not a string.
func str(o *model.Object, k string) string { s, _ := o.Val(k).(string); return s }

// has reports whether o holds key k.
func has(o *model.Object, k string) bool { return o != nil && o.Has(k) }
