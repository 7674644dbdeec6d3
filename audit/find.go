// Package audit is the rollout-readiness report: it finds session
// directories, loads each under every config of the rollout path, checks the
// invariants and says what each step changes — fix, regression or
// unchanged, with the rows it adds and removes (classify.go) — and what the
// last config still does not show, and why (residual.go, cause.go). A step
// that hides a user's message is never a fix unless an op script says the
// message was not meant to be there. Summaries of disjoint shards of a run
// merge (totals.go); Page renders a run as one self-contained HTML page. It
// never writes to what it reads.
package audit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"sessiondag/impl/store"
)

// Find returns every session directory at or below the roots, sorted: a
// directory holding any of the original's session files — history/,
// meta.json (written only once a turn ends) or context/commits/. The
// session is named by its folder. It does not descend into a session
// directory, and it does not follow symbolic links.
func Find(roots []string) ([]string, error) {
	var out []string
	for _, root := range roots {
		fi, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, &fs.PathError{Op: "audit", Path: root, Err: errors.New("not a directory")}
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			if isSession(p) {
				out = append(out, p)
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

func isSession(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "history")); err == nil && fi.IsDir() {
		return true
	}
	if _, err := os.Stat(filepath.Join(dir, "meta.json")); err == nil {
		return true
	}
	return store.HasCommits(dir)
}
