package campaign

import (
	"fmt"
	"slices"
	"strconv"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// A FolderEdit is one way the original leaves a session folder that the
// nodes its writers append do not show (docs/legacy.md §2.1, §6 #22,
// #31–#33): what a cold load of a folder exactly as the original leaves it
// reads besides the history. Like a PointerEdit it names nodes by id, so
// it follows the script through a reduction.
type FolderEdit struct {
	Kind string // one of FolderKinds
	ID   string // subprocess: the model-called function run
}

// The kinds of folder edit.
const (
	// The function subprocess numbered a model-called run from the seq of
	// the row its parent wrote just before it: the run and every later row
	// one seq lower, two files sharing a prefix (§6 #22).
	FolderSubprocess = "subprocess"
	// No meta.json: nothing wrote one yet (a session only appended to, or
	// a worker killed in its first turn, §2.1).
	FolderNoMeta = "no-meta"
	// meta.json without its id, as the web's writes leave it.
	FolderMetaNoID = "meta-no-id"
	// meta.json of another folder: a copied or restored session.
	FolderCopied = "copied"
	// Context commits under context/commits/, one per finished reply, and
	// every attach row naming the commit of the head it points at (§6 #31).
	FolderCommits = "commits"
	// A copy taken while a turn ran: meta.json says running (§6 #32).
	FolderMidTurn = "mid-turn"
	// Files no load reads: tasks.json and file_backups/.
	FolderTasks   = "tasks"
	FolderBackups = "backups"
)

// FolderKinds are the kinds in the order they apply.
var FolderKinds = []string{FolderSubprocess, FolderNoMeta, FolderMetaNoID, FolderCopied, FolderCommits,
	FolderMidTurn, FolderTasks, FolderBackups}

// folderShapes name each kind in the generator's tally.
var folderShapes = map[string]string{
	FolderSubprocess: gen.ShapeDupSeq, FolderNoMeta: gen.ShapeNoMeta, FolderMetaNoID: gen.ShapeMetaNoID,
	FolderCopied: gen.ShapeCopiedFolder, FolderCommits: gen.ShapeCommits, FolderMidTurn: gen.ShapeMidTurn,
	FolderTasks: gen.ShapeTasks, FolderBackups: gen.ShapeBackups,
}

// Directive is the edit as a `#! folder` line.
func (e FolderEdit) Directive() ops.Directive {
	d := ops.Directive{Name: "folder", Args: []ops.Arg{{Key: "kind", Value: e.Kind}}}
	if e.ID != "" {
		d.Args = append(d.Args, ops.Arg{Key: "id", Value: e.ID})
	}
	return d
}

// folderOf reads a `#! folder` line.
func folderOf(d ops.Directive) (FolderEdit, error) {
	var e FolderEdit
	e.Kind, _ = d.Get("kind")
	e.ID, _ = d.Get("id")
	if !slices.Contains(FolderKinds, e.Kind) || (e.Kind == FolderSubprocess) != (e.ID != "") {
		return e, fmt.Errorf("#! %s: want kind= one of %v (subprocess with id=, the others without)", d.String(), FolderKinds)
	}
	return e, nil
}

// DrawFolder draws how the original leaves the folder a cold iteration
// reads, each property about as often as the 114 folders its own writers
// stored show it (corpus/realwriter): a subprocess numbering in 21, no
// meta.json in 3, one without id in 44, a copy's in 1, context commits in
// 27, tasks.json in 10, file_backups/ in 1. A folder copied during a turn
// says so whenever the script ends in one. Each drawn kind is counted in
// tally.
func DrawFolder(src gen.Source, script []ops.Op, firstSeq int64, tally *gen.Tally) ([]FolderEdit, error) {
	run, err := implRun(script, firstSeq)
	if err != nil {
		return nil, err
	}
	var out []FolderEdit
	if runs := modelCalledRuns(run.W.S); len(runs) > 0 && src.IntN(5, "subprocess") == 0 {
		out = append(out, FolderEdit{Kind: FolderSubprocess, ID: runs[src.IntN(len(runs), "subprocess run")]})
	}
	switch n := src.IntN(114, "meta.json"); {
	case n < 3 && run.W.S.Len() > 0: // a folder of nothing but meta.json is none without it
		out = append(out, FolderEdit{Kind: FolderNoMeta})
	case n < 47:
		out = append(out, FolderEdit{Kind: FolderMetaNoID})
	case n < 48:
		out = append(out, FolderEdit{Kind: FolderCopied})
	}
	if src.IntN(4, "context commits") == 0 {
		out = append(out, FolderEdit{Kind: FolderCommits})
	}
	if run.W.Busy() {
		out = append(out, FolderEdit{Kind: FolderMidTurn})
	}
	if src.IntN(11, "tasks.json") == 0 {
		out = append(out, FolderEdit{Kind: FolderTasks})
	}
	if src.IntN(57, "file_backups") == 0 {
		out = append(out, FolderEdit{Kind: FolderBackups})
	}
	for _, e := range out {
		tally.Shape(folderShapes[e.Kind])
		if e.Kind == FolderCommits && len(attachRows(run.W.S.Nodes())) > 0 {
			tally.Shape(gen.ShapeAttachCommit)
		}
	}
	return out, nil
}

// modelCalledRuns are the function runs a reply called that follow another
// row: what the subprocess numbering can reach.
func modelCalledRuns(s *store.Store) []string {
	var out []string
	nodes := s.Nodes()
	for i, n := range nodes {
		if i == 0 || n.Role != node.RoleCode || n.Metadata.Get("tool_call_id").IsSet() {
			continue
		}
		if c, ok := s.Get(n.CalledBy); ok && c.Role == node.RoleLLM && c.Metadata.Get("worker_id").IsSet() {
			out = append(out, n.ID)
		}
	}
	return out
}

// attachRows are the nodes of attach pointers.
func attachRows(nodes []*node.Node) []*node.Node {
	var out []*node.Node
	for _, n := range nodes {
		if n.Role == node.RoleLLM && n.Metadata.Get("function").Str() == "attach" && n.Metadata.Get("attach").K == node.Object {
			out = append(out, n)
		}
	}
	return out
}

// implRun is the implementation's writers after script, flags off, history
// numbered from firstSeq (what harness.Cold writes): the session its
// session op names, whose id a compaction's copies record.
func implRun(script []ops.Op, firstSeq int64) (*driver.Run, error) {
	var first ops.Op
	if len(script) > 0 {
		first = script[0]
	}
	run, err := driver.Start(first, "", flags.Off)
	if err != nil {
		return nil, fmt.Errorf("cold folder: start: %w", err)
	}
	run.W.S.SetNextSeq(firstSeq)
	for i, op := range script {
		if err := run.Apply(op); err != nil {
			return nil, fmt.Errorf("cold folder: op %d (%s): %w", i+1, ops.Format(op), err)
		}
	}
	return run, nil
}

// Edits are a cold case's damage and folder as edits of the directory its
// script writes: the nodes the folder renumbers and the damage rewrites as
// files (the old file removed where the name changed), then meta.json and
// the files the folder adds. A pointer edit of a node the script does not
// write is left out, as is a subprocess numbering of a run it does not.
func Edits(c Case) ([]harness.Edit, error) {
	if len(c.Damage) == 0 && len(c.Folder) == 0 {
		return nil, nil
	}
	run, err := implRun(c.Script, c.FirstSeq)
	if err != nil {
		return nil, err
	}
	nodes := run.W.S.Nodes()
	files := make([]*node.Node, len(nodes)) // the node each file holds, when it changes
	seqOf := func(i int) int64 {
		if files[i] != nil {
			return files[i].Seq
		}
		return nodes[i].Seq
	}
	change := func(i int) *node.Node {
		if files[i] == nil {
			files[i] = nodes[i].Clone()
		}
		return files[i]
	}
	for _, e := range c.Folder {
		if e.Kind != FolderSubprocess {
			continue
		}
		from := slices.IndexFunc(nodes, func(n *node.Node) bool { return n.ID == e.ID })
		if from <= 0 {
			continue
		}
		for i := from; i < len(nodes); i++ {
			change(i).Seq = seqOf(i) - 1
		}
	}
	commits := folderHas(c.Folder, FolderCommits)
	if commits {
		for _, a := range attachRows(nodes) {
			head := a.Metadata.Get("attach").O.Get("head_id").Str()
			if _, ok := run.W.S.Get(head); ok && head != "" {
				i := slices.Index(nodes, a)
				nameCommit(change(i), commitID(head))
			}
		}
	}
	for _, e := range c.Damage {
		i := slices.IndexFunc(nodes, func(n *node.Node) bool { return n.ID == e.ID })
		if i < 0 {
			continue
		}
		n := change(i)
		if e.Pointer == "parent_id" {
			n.Metadata.Set("parent_id", node.Str(e.Target))
		} else {
			n.CalledBy = e.Target
		}
	}
	var out []harness.Edit
	for i, n := range files {
		if n == nil {
			continue
		}
		if old, now := store.FileName(nodes[i]), store.FileName(n); old != now {
			out = append(out, harness.Edit{Path: "history/" + old, Remove: true})
		}
		out = append(out, harness.Edit{Path: "history/" + store.FileName(n), Content: n.Encode()})
	}
	if commits {
		out = append(out, commitFiles(run, nodes)...)
	}
	return append(out, folderFiles(c.Folder, run)...), nil
}

func folderHas(f []FolderEdit, kind string) bool {
	return slices.ContainsFunc(f, func(e FolderEdit) bool { return e.Kind == kind })
}

// commitID is the id of the context commit the renderer wrote when the
// reply head finished.
func commitID(head string) string { return "cc_" + head }

// nameCommit makes an attach row name the commit of its head, in its attach
// and in the copy an async task's row holds in its extra.
func nameCommit(n *node.Node, id string) {
	a := n.Metadata.Get("attach").O.Clone()
	a.Set("source_commit_id", node.Str(id))
	n.Metadata.Set("attach", node.ObjV(a))
	if n.Metadata.Get("extra").K == node.String {
		n.Metadata.Set("extra", node.Str(node.Dumps(node.ObjV(folderObj("attach", node.ObjV(a))))))
	}
}

// commitFiles are the context commits of a renderer switched on: one per
// finished reply, its items the conversation rows before it (every third
// summarized, so the embed statistics leave it out).
func commitFiles(run *driver.Run, nodes []*node.Node) []harness.Edit {
	var out []harness.Edit
	var items []node.Value
	for _, n := range nodes {
		if n.IsRoot() || n.Role == node.RoleCode {
			continue
		}
		state := "full"
		if len(items)%3 == 2 {
			state = "summarized"
		}
		tokens := len(n.Output.Str())/4 + 1
		items = append(items, node.ObjV(folderObj("source_node_id", node.Str(n.ID), "role", node.Str(n.Role),
			"state", node.Str(state), "locked", node.BoolV(false), "rendered", n.Output, "tokens", node.Num(strconv.Itoa(tokens)))))
		status := n.Metadata.Get("status").Str()
		if n.Role != node.RoleLLM || n.Metadata.Get("worker_id").K == node.Missing && n.Metadata.Get("parent_id").K == node.Missing ||
			status != "completed" && status != "cancelled" {
			continue
		}
		total := 0
		for _, it := range items {
			t, _ := strconv.Atoi(it.O.Get("tokens").S)
			total += t
		}
		c := folderObj("id", node.Str(commitID(n.ID)), "session_id", node.Str(run.W.S.ID), "parent_id", node.NullV(),
			"parent_ids", node.Arr([]node.Value{}), "created_at", n.CreatedAt, "head_node_id", node.Str(n.ID),
			"rules_version", node.Str("v1"), "total_tokens", node.Num(strconv.Itoa(total)), "summary", node.Str(""),
			"items", node.Arr(slices.Clone(items)))
		out = append(out, harness.Edit{Path: "context/commits/" + commitID(n.ID) + ".json", Content: []byte(node.Dumps(node.ObjV(c)))})
	}
	return out
}

// folderFiles are meta.json as the folder has it and the files no load
// reads.
func folderFiles(f []FolderEdit, run *driver.Run) []harness.Edit {
	var out []harness.Edit
	meta := run.W.S.Meta.Clone()
	changed := false
	for _, e := range f {
		switch e.Kind {
		case FolderNoMeta:
			out = append(out, harness.Edit{Path: "meta.json", Remove: true})
		case FolderMetaNoID:
			meta.Delete("id")
			changed = true
		case FolderCopied:
			meta.Set("id", node.Str("local_c0ffee0001"))
			changed = true
		case FolderMidTurn:
			meta.Set("status", node.Str("running"))
			changed = true
		case FolderTasks:
			out = append(out, harness.Edit{Path: "tasks.json", Content: []byte(`{"version": 1, "tasks": {}}` + "\n")})
		case FolderBackups:
			out = append(out, harness.Edit{Path: "file_backups/r1/manifest.json",
				Content: []byte(`{"backed_at": 1782000000.5, "files": {"a1_foo.py": {"path": "foo.py", "pre_existing": true}}}`)},
				harness.Edit{Path: "file_backups/r1/a1_foo.py", Content: []byte("print('before')\n")})
		}
	}
	if changed && !folderHas(f, FolderNoMeta) {
		out = append(out, harness.Edit{Path: "meta.json", Content: append(node.AppendIndent(nil, node.ObjV(meta), ""), '\n')})
	}
	return out
}

func folderObj(kv ...any) *node.Obj {
	o := node.NewObj(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		o.M = append(o.M, node.Member{Key: kv[i].(string), Val: kv[i+1].(node.Value)})
	}
	return o
}
