package store

import (
	"os"
	"path/filepath"
	"sync"

	"sessiondag/impl/node"
)

// commitCache keeps the context commits a session's loads have read. The
// original writes each commit once, to a file named by its id, and never
// changes it, so a file found stays valid; a file not found is looked for
// again by the next load.
type commitCache struct {
	mu    sync.Mutex
	found map[string]node.Value
}

// ContextCommit returns the context commit with the given id, parsed as
// the original's json.loads reads it, from the session directory's
// context/commits/<id>.json (legacy §2.1). ok is false when the session
// has no directory, the id is not a plain file name (the original would
// look in other directories; this reader stays inside context/commits/),
// or the file is missing, a link out of the session, too large (its bytes
// or what they would cost in memory), not UTF-8 or not JSON: the cases
// where the original finds no commit. It never
// writes.
func (s *Store) ContextCommit(id string) (node.Value, bool) {
	if s.Dir == "" || ValidateID(id) != nil {
		return node.Value{}, false
	}
	c := s.commits
	c.mu.Lock()
	v, ok := c.found[id]
	c.mu.Unlock()
	if ok {
		return v, true
	}
	for _, d := range []string{"context", filepath.Join("context", "commits")} {
		if checkLink(s.Dir, filepath.Join(s.Dir, d)) != nil {
			return node.Value{}, false
		}
	}
	var buf []byte
	text, _, err := readFile(s.Dir, filepath.Join("context", "commits", id+".json"), &buf)
	if err != nil {
		return node.Value{}, false
	}
	v, err = node.ParseStringLimit(text, memoryLimit(len(text)))
	if err != nil {
		return node.Value{}, false
	}
	c.mu.Lock()
	if c.found == nil {
		c.found = map[string]node.Value{}
	}
	c.found[id] = v
	c.mu.Unlock()
	return v, true
}

// HasCommits reports whether dir holds the original's context/commits/
// directory, which a session can have before any history file or meta.json.
func HasCommits(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, "context", "commits"))
	return err == nil && fi.IsDir()
}
