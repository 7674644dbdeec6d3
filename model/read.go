package model

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ReadSessionDir reads a session directory in the original's on-disk layout
// (legacy §2.1): history/*.json (one node per file) and meta.json.
//
// Rebuild semantics (§2.1, §6 #23, docs/rollout.md §1 item 8):
//   - files are listed in file-name order, then ordered by their parsed seq
//     (stable, so equal seqs keep file-name order) — the one deliberate
//     deviation from R, which keeps lexical file order;
//   - an unparsable file is skipped; so is a file that is not an object or
//     whose `id` is not a string or whose `seq` is not an integer (the spec
//     does not say what R does with such files; these are this model's rules);
//   - only the known node fields are kept, missing ones take empty defaults;
//   - duplicate ids are all kept in Nodes (both appear in get_messages);
//     lookups by id take the later one (Session.byID);
//   - head = meta `head_id`, falling back to `last_node_id`.
//
// The session is named by its folder, as the original names it (a copied
// folder's meta.json may hold another id). A folder without meta.json is a
// session no turn has ended in yet (the original writes meta.json at a
// turn's end): no stored head. An unparsable meta.json, or one that is not
// an object, is an error; so is a missing directory or one that holds none
// of meta.json, history/ and context/commits/ (the original has no such
// session: its load shows "New conversation").
func ReadSessionDir(dir string) (*Session, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("model: session dir: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("model: %s is not a directory", dir)
	}
	s := &Session{ID: filepath.Base(filepath.Clean(dir)), Meta: &Object{}, Dir: dir}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	switch {
	case err == nil:
		mv, err := ParseJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("model: %s/meta.json: %w", dir, err)
		}
		meta, ok := mv.(*Object)
		if !ok {
			return nil, fmt.Errorf("model: %s/meta.json is not a JSON object", dir)
		}
		s.Meta = meta
	case !os.IsNotExist(err):
		return nil, fmt.Errorf("model: %s/meta.json: %w", dir, err)
	case !isDir(filepath.Join(dir, "history")) && !isDir(filepath.Join(dir, "context", "commits")):
		return nil, fmt.Errorf("model: %s: no session here (no meta.json, history/ or context/commits/)", dir)
	}

	// head: `head_id`, falling back to `last_node_id` (§2.1).
	if h, ok := or(s.Meta.Val("head_id"), s.Meta.Val("last_node_id")).(string); ok {
		s.HeadID = h
	}

	entries, err := os.ReadDir(filepath.Join(dir, "history"))
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("model: %s/history: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names) // file-name order (R's order)
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, "history", name))
		if err != nil {
			continue
		}
		if n := nodeFromJSON(data); n != nil {
			s.Nodes = append(s.Nodes, n)
		}
	}
	// docs/rollout.md §1 item 8: order by parsed seq, ties keep file-name order.
	sort.SliceStable(s.Nodes, func(i, j int) bool { return s.Nodes[i].Seq < s.Nodes[j].Seq })
	return s, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// nodeFromJSON keeps the known fields of one history file, nil if unusable.
func nodeFromJSON(data []byte) *Node {
	v, err := ParseJSON(data)
	if err != nil {
		return nil
	}
	o, ok := v.(*Object)
	if !ok {
		return nil
	}
	id, ok := o.Val("id").(string)
	if !ok {
		return nil
	}
	seqText, ok := o.Val("seq").(Int)
	if !ok {
		return nil
	}
	seq, err := strconv.Atoi(string(seqText))
	if err != nil {
		return nil
	}
	n := &Node{ID: id, Seq: seq, CreatedAt: o.Val("created_at"), Input: o.Val("input"),
		Output: o.Val("output"), Reads: o.Val("reads")}
	n.Role, _ = o.Val("role").(string)
	n.Name, _ = o.Val("name").(string)
	n.CalledBy, _ = o.Val("called_by").(string)
	n.Metadata, _ = o.Val("metadata").(*Object)
	if n.Metadata == nil {
		n.Metadata = &Object{}
	}
	if n.Reads == nil {
		n.Reads = []any{}
	}
	return n
}
