package harness

import (
	"fmt"
	"os"
	"path/filepath"

	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/model"
	"sessiondag/ops"
)

// Edit is one change made to a session directory after the writers wrote
// it: a file's new bytes, or its removal. A damaged directory is the
// written one plus its edits, which is what a replay needs to rebuild it.
type Edit struct {
	Path    string // relative to the session directory, slash-separated
	Content []byte
	Remove  bool
}

// Directive renders the edit as a `#! file` or `#! remove` line.
func (e Edit) Directive() ops.Directive {
	if e.Remove {
		return ops.Directive{Name: "remove", Args: []ops.Arg{{Key: "path", Value: e.Path}}}
	}
	return ops.Directive{Name: "file", Args: []ops.Arg{{Key: "path", Value: e.Path}, {Key: "content", Value: string(e.Content)}}}
}

// Cold is P1 over a directory on disk: script written by the writers with
// every flag off (history numbered from firstSeq), the edits applied, then
// the implementation's cold load against the model's own reader, every view
// at the stored head. tmp is where the directory is made (and removed).
func Cold(script []ops.Op, firstSeq int64, edits []Edit, tmp string) (*Finding, error) {
	parent, err := os.MkdirTemp(tmp, "sessiondag-cold-")
	if err != nil {
		return nil, fmt.Errorf("cold: %w", err)
	}
	defer os.RemoveAll(parent)
	id := SessionIDOf(script)
	if id == "" {
		id = ops.DefaultSession
	}
	dir := filepath.Join(parent, id)
	run, err := driver.StartWith(ops.Session{ID: id}, dir, flags.Off, store.WriteOptions{NoSync: true})
	if err != nil {
		return nil, err
	}
	run.W.S.SetNextSeq(firstSeq)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("cold: op %d (%s): %w", i+1, ops.Format(op), err)
		}
	}
	for _, e := range edits {
		if err := e.apply(dir); err != nil {
			return nil, err
		}
	}
	cold, err := store.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("cold: open: %w", err)
	}
	ms, err := model.ReadSessionDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cold: the model's reader: %w", err)
	}
	sec, d := ViewDiff(model.LegacyView(ms), Views(cold, flags.Off))
	if sec == "" {
		return nil, nil
	}
	return &Finding{Check: "cold", Data: OffAny, Step: len(script),
		What: "the cold load differs from the model's reading in view " + sec, Diff: d}, nil
}

func (e Edit) apply(dir string) error {
	if !filepath.IsLocal(filepath.FromSlash(e.Path)) {
		return fmt.Errorf("cold: edit of %q leaves the session directory", e.Path)
	}
	p := filepath.Join(dir, filepath.FromSlash(e.Path))
	if e.Remove {
		if err := os.RemoveAll(p); err != nil {
			return fmt.Errorf("cold: remove %s: %w", e.Path, err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("cold: edit %s: %w", e.Path, err)
	}
	if err := os.WriteFile(p, e.Content, 0o644); err != nil {
		return fmt.Errorf("cold: edit %s: %w", e.Path, err)
	}
	return nil
}
