package store

// The rebuild of legacy §2.1 from one settled read of the directory: the
// nodes in seq order, the head, and what could not be used, each named.

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"sessiondag/impl/node"
)

// build makes the store of a snapshot.
func (o *opener) build(sn *snapshot) *Store {
	s := New(filepath.Base(filepath.Clean(o.dir)))
	s.Dir = o.dir
	if sn.histErr != nil {
		s.Problems = append(s.Problems, Problem{File: "history/", Err: sn.histErr})
	}
	sameFiles(sn.entries)
	var files []*node.Node
	for _, e := range sn.entries {
		switch {
		case e.tmp:
			o.judgeTmp(s, "history/"+e.name)
		case !e.json:
		case e.err != nil:
			s.Problems = append(s.Problems, Problem{File: "history/" + e.name, Err: e.err})
		default:
			files = append(files, e.n)
		}
	}
	// The listing is sorted by name: that is the original's lexical order.
	lexical := slices.Clone(files)
	slices.SortStableFunc(files, node.CompareSeq)
	for i, n := range files {
		if n != lexical[i] {
			s.LexicalMisorder = true
		}
		s.indexAlways(n)
	}

	switch {
	case sn.metaErr == nil && sn.metaBad != nil:
		s.Problems = append(s.Problems, Problem{File: "meta.json", Err: sn.metaBad})
	case sn.metaErr == nil:
		s.Meta = sn.meta.O
		if sn.headErr != nil {
			s.Problems = append(s.Problems, Problem{File: "meta.json", Err: sn.headErr})
			break
		}
		s.head = sn.head
		if _, ok := s.byID[s.head]; s.head != "" && !ok && sn.histErr == nil {
			s.headUnknown = true
			s.Problems = append(s.Problems, Problem{File: "meta.json", Err: fmt.Errorf("head_id %q names no node of the session (%s)", s.head, readsSaid(sn.attempts))})
		}
	case errors.Is(sn.metaErr, fs.ErrNotExist):
		// No turn has ended yet: the load starts from the last message.
	default:
		s.Problems = append(s.Problems, Problem{File: "meta.json", Err: sn.metaErr})
	}
	if sn.metaTmp {
		o.judgeTmp(s, "meta.json.tmp")
	}
	if !sn.stable {
		s.changing = true
		s.Problems = append(s.Problems, Problem{File: "history/", Err: fmt.Errorf("the session kept changing while it was read (%s): the view may mix versions", readsSaid(sn.attempts))})
	}
	return s
}

func readsSaid(n int) string {
	if n == 1 {
		return "1 read"
	}
	return fmt.Sprintf("%d reads", n)
}

// judgeTmp tells a temporary file of a write in progress (gone by now, or
// young) from one a stopped writer left (old): the first is a note, the
// second a problem.
func (o *opener) judgeTmp(s *Store, rel string) {
	id, err := statID(filepath.Join(o.dir, filepath.FromSlash(rel)), false)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.Notes = append(s.Notes, rel+": temporary file of a write in progress (renamed or removed during the read; ignored)")
	case err == nil && time.Since(time.Unix(0, id.mtime)) < inFlightAge:
		age := max(time.Since(time.Unix(0, id.mtime)), 0).Round(time.Millisecond)
		s.Notes = append(s.Notes, fmt.Sprintf("%s: temporary file of a write in progress (%v old; ignored)", rel, age))
	default:
		s.Problems = append(s.Problems, Problem{File: rel, Err: errors.New("leftover temporary file of an interrupted write (ignored)")})
	}
}

// sameFiles refuses every name of history/ but one that leads to a file
// another name leads to (a link, hard or symbolic, to another node file):
// a node is read once. The name kept is the first that is not a symbolic
// link, else the first. Only a file with more than one name, or reached
// through a link, can be one of them.
func sameFiles(entries []entry) {
	type key struct{ dev, ino uint64 }
	keep := map[key]int{}
	// The files reached through a link, or with more than one name.
	multi := map[key]bool{}
	for _, e := range entries {
		if e.json && e.id.ino != 0 && (e.link || e.id.nlink > 1) {
			multi[key{e.id.dev, e.id.ino}] = true
		}
	}
	if len(multi) == 0 {
		return
	}
	shared := func(e entry) bool { return e.json && e.id.ino != 0 && multi[key{e.id.dev, e.id.ino}] }
	for i, e := range entries {
		if !shared(e) {
			continue
		}
		k := key{e.id.dev, e.id.ino}
		if j, ok := keep[k]; !ok || entries[j].link && !e.link {
			keep[k] = i
		}
	}
	for i := range entries {
		e := &entries[i]
		if !shared(*e) {
			continue
		}
		if j := keep[key{e.id.dev, e.id.ino}]; j != i {
			how := "a hard link"
			if e.link {
				how = "a symbolic link"
			}
			e.n, e.err = nil, fmt.Errorf("same file as history/%s (%s to it): read once", entries[j].name, how)
		}
	}
}

func notDir(id fileID) error {
	return fmt.Errorf("not a directory (%s)", id.kind())
}

func typeName(t fs.FileMode) string {
	if k := FileKind(t); k != "" {
		return k
	}
	return "of an unknown type"
}
