package reconstruct

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"sessiondag/checker/campaign"
	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/model"
	"sessiondag/ops"
)

// The function subprocess (docs/legacy.md §6 #22). A function the model
// calls runs in a subprocess of the original whose seq counter may start at
// the seq of the row its parent wrote just before the run: the run's row
// shares that seq, and it and every row after it are one lower than the
// writers' count (the parent reads the history back after the run, so its
// counter goes on from the run's last row). The project writes it as a folder
// edit, not an op (checker/campaign: `#! folder kind=subprocess id=F`, the
// cold check's), and so does a reconstruction: the script's writes with
// every such run renumbered are the files.

// isRunRow reports whether a row is a function run something other than the
// Run button or a script called (input with the runtime, a caller): what
// the subprocess numbering can reach.
func isRunRow(r *Row) bool {
	in, _ := r.Obj.Val("input").(*model.Object)
	return r.Role == "code" && in != nil && in.Has("runtime") && r.CalledBy != "" && r.CalledBy != "ROOT"
}

// writeOrder puts the rows in the order they were written: file-name order,
// except that a subprocess run sharing its seq with its parent's row was
// written after it, whatever their names (after a run it shares it with
// too, by their times).
func writeOrder(rows []*Row) {
	for k := 0; k+1 < len(rows); k++ {
		a, b := rows[k], rows[k+1]
		if a.Err != nil || b.Err != nil || a.Seq != b.Seq || !isRunRow(a) {
			continue
		}
		ta, ok1 := a.Obj.Val("created_at").(model.Float)
		tb, ok2 := b.Obj.Val("created_at").(model.Float)
		if !isRunRow(b) || ok1 && ok2 && tb < ta {
			rows[k], rows[k+1] = b, a
			k++
		}
	}
}

// subprocess reports whether the fn op just applied wrote a run the
// function subprocess numbered (the row's seq is the one of the row stored
// before it, one lower than the writers' count); it records the run.
func (b *builder) subprocess(op ops.Op, n *model.Node, r *Row) bool {
	fn, ok := op.(ops.Fn)
	if !ok || fn.ViaExec || b.reply == nil || n.CalledBy != b.reply.id || b.i == 0 {
		return false
	}
	prev := b.d.Rows[b.i-1]
	if prev.Err != nil || r.Seq != prev.Seq || r.Seq != n.Seq-b.shift()-1 {
		return false
	}
	b.runs = append(b.runs, n.ID)
	return true
}

// shift is how much lower than the writers' count the rows written from now
// on are stored.
func (b *builder) shift() int { return len(b.runs) }

// renumber is the writes w as the folder holds them: each row from a
// subprocess run on one seq lower per run (campaign.Edits' numbering).
func renumber(w *writes, runs []string) *writes {
	if len(runs) == 0 || w == nil {
		return w
	}
	out := &writes{ids: w.ids, doc: make(map[string]*model.Object, len(w.doc)), name: make(map[string]string, len(w.name)), meta: w.meta}
	lower := 0
	for _, id := range w.ids {
		if slices.Contains(runs, id) {
			lower++
		}
		doc, name := w.doc[id], w.name[id]
		if seq, ok := doc.Val("seq").(model.Int); ok && lower > 0 {
			var n int
			if _, err := fmt.Sscan(string(seq), &n); err == nil {
				doc = doc.Copy()
				doc.Set("seq", model.Int(fmt.Sprint(n-lower)))
				role, _ := doc.Val("role").(string)
				name = fileName(n-lower, role, id)
			}
		}
		out.doc[id], out.name[id] = doc, name
	}
	return out
}

// replayedDir writes the script and its folder edits into a fresh
// directory below tmp, as the cold check does, and opens it: the replayed
// data as a reader of the folder gets it (the subprocess's rows in the
// order of their names).
func replayedDir(id string, script []ops.Op, folder []campaign.FolderEdit, tmp string) (*store.Store, error) {
	dir := filepath.Join(tmp, id)
	if _, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true}); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	edits, err := campaign.Edits(campaign.Case{Script: script, Folder: folder})
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	for _, e := range edits {
		p := filepath.Join(dir, filepath.FromSlash(e.Path))
		if e.Remove {
			err = os.Remove(p)
		} else {
			err = os.WriteFile(p, e.Content, 0o644)
		}
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	s, err := store.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return s.AtPersistedHead(), nil
}
