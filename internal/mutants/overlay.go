package mutants

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Apply is the text of each file m edits, with its edits made, read from
// the repository at root. An edit whose old text is not in the file once
// and only once is an error naming the mutant, the file and the hunk.
func Apply(root string, m Mutant) (map[string]string, error) {
	out := map[string]string{}
	for _, e := range m.Edits {
		src, ok := out[e.File]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.File)))
			if err != nil {
				return nil, fmt.Errorf("mutant %s: %w", m.Name, err)
			}
			src = string(b)
		}
		switch n := strings.Count(src, e.Old); n {
		case 1:
			out[e.File] = strings.Replace(src, e.Old, e.New, 1)
		case 0:
			return nil, fmt.Errorf("mutant %s: %s: the hunk at line %d of its registry is not in the file", m.Name, e.File, e.Line)
		default:
			return nil, fmt.Errorf("mutant %s: %s: the hunk at line %d of its registry is in the file %d times: give it more context", m.Name, e.File, e.Line, n)
		}
	}
	return out, nil
}

// Overlay writes the files m edits into dir, and an overlay file that
// puts them in place of the repository's (at root) for the go command's
// -overlay flag; it returns the overlay file's path.
func Overlay(root string, m Mutant, dir string) (string, error) {
	files, err := Apply(root, m)
	if err != nil {
		return "", err
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return "", err
	}
	dir, err = filepath.Abs(filepath.Join(dir, m.Name))
	if err != nil {
		return "", err
	}
	replace := map[string]string{}
	for _, f := range m.Files() {
		to := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return "", fmt.Errorf("mutant %s: %w", m.Name, err)
		}
		if err := os.WriteFile(to, []byte(files[f]), 0o644); err != nil {
			return "", fmt.Errorf("mutant %s: %w", m.Name, err)
		}
		replace[filepath.Join(root, filepath.FromSlash(f))] = to
	}
	b, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "", fmt.Errorf("mutant %s: %w", m.Name, err)
	}
	return path, nil
}
