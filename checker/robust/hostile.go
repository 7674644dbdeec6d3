package robust

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

// A Tree is one hostile session directory: a shape that costs a reader
// (deep call nesting, a long cycle, an object of many keys), a file that is
// not what its name says (a FIFO, a link to another node file), or stored
// text and names a terminal or a JSON reader must not take as they stand.
// Build writes it at a size; trees whose shape has no size ignore it. The
// tests in this package build every tree at a small size and check the
// outcome; scripts/hostile.sh builds them at full size and measures each
// command on them.
type Tree struct {
	Name string
	// Size is the full size the script measures (0: no size).
	Size int
	// Growth lists the sizes whose costs must grow at most linearly.
	Growth []int
	// Dir is the session directory's name when it matters (the session id
	// is its base name); "" gives DefaultDir.
	Dir  string
	Note string
	// Problem is a phrase the cold load's problems must contain; ""
	// means the tree loads without a problem.
	Problem string
	build   func(w *treeWriter, n int) error
}

// DefaultDir is the directory name of a hostile tree: a web session id.
const DefaultDir = "local_0a0b0c0d0e"

// Build writes the tree at size n into parent/<its directory name> and
// returns that directory.
func (t Tree) Build(parent string, n int) (string, error) {
	name := t.Dir
	if name == "" {
		name = DefaultDir
	}
	dir := filepath.Join(parent, name)
	// A name that is not UTF-8 cannot be written into meta.json as the
	// id: the session id is then the directory's name, as read.
	id := name
	if !utf8.ValidString(name) {
		id = ""
	}
	w := &treeWriter{dir: dir, id: id}
	if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
		return "", err
	}
	if err := t.build(w, n); err != nil {
		return "", fmt.Errorf("hostile tree %s (size %d): %w", t.Name, n, err)
	}
	return dir, nil
}

// Trees is every hostile tree, in a fixed order.
func Trees() []Tree {
	return []Tree{
		{Name: "nested-calls", Size: 4000, Growth: []int{1000, 2000, 4000},
			Note:  "a function the model called, n functions nested below it, the head on the innermost",
			build: nestedCalls},
		{Name: "nested-manual", Size: 4000, Growth: []int{1000, 2000, 4000},
			Note:  "a manual run with n functions nested below it, the head on the innermost",
			build: nestedManual},
		{Name: "caller-cycle", Size: 4000, Growth: []int{1000, 2000, 4000},
			Note:  "n function rows whose called_by form one cycle, the head on one of them",
			build: callerCycle},
		{Name: "parent-cycle", Size: 4000, Growth: []int{1000, 2000, 4000},
			Note:  "n users whose parent_id form one cycle",
			build: parentCycle},
		{Name: "deep-json", Size: 5001,
			Note:  "a manual run with 5,000 functions nested below it, the head on the run: its card's tree nests 10,002 JSON levels deep",
			build: deepRun},
		{Name: "many-keys-metadata", Size: 100000, Growth: []int{10000, 40000, 100000},
			Note:  "a reply whose metadata holds n keys (laid over its message)",
			build: manyKeysMetadata},
		{Name: "many-keys-output", Size: 100000, Growth: []int{10000, 40000, 100000},
			Note:  "a tool result holding an object of n keys (shown as JSON text)",
			build: manyKeysOutput},
		{Name: "many-keys-meta", Size: 100000, Growth: []int{10000, 40000, 100000},
			Note:  "meta.json holding n keys",
			build: manyKeysMeta},
		{Name: "dup-id-siblings", Size: 4000, Growth: []int{1000, 2000, 4000},
			Note:  "n chat turns, each user with a sibling of one shared id whose subtree is a chain of n rows",
			build: dupIDSiblings},
		{Name: "long-chat", Size: 20000, Growth: []int{5000, 10000, 20000},
			Note:  "n chat turns in one chain",
			build: longChat},
		{Name: "fifo-node", Note: "a FIFO named like a node file", Problem: PhraseRegular,
			build: fifoAt("history/0003-u-fifo00000001.json")},
		{Name: "fifo-meta", Note: "meta.json is a FIFO", Problem: PhraseRegular,
			build: fifoAt("meta.json")},
		{Name: "fifo-history", Note: "history/ is a FIFO", Problem: "not a directory",
			build: fifoHistory},
		{Name: "link-dup", Note: "a symbolic link in history/ to another node file", Problem: PhraseSameFile,
			build: linkDup(false)},
		{Name: "hardlink-dup", Note: "a hard link in history/ to another node file", Problem: PhraseSameFile,
			build: linkDup(true)},
		{Name: "control-text", Note: "terminal escapes in message text, ids and names",
			build: controlText},
		{Name: "lone-surrogates", Note: "two users whose ids are lone surrogates, each with a reply",
			build: loneSurrogates},
		{Name: "non-utf8-dir", Dir: "local_\xff\xfe", Note: "a session directory whose name is not UTF-8",
			build: longChat},
		{Name: "tmp-in-flight", Note: "a node's *.json.tmp written a moment ago: a live writer's",
			build: tmpAged(0)},
		{Name: "tmp-leftover", Note: "a node's *.json.tmp an hour old: a crashed writer's", Problem: PhraseTmp,
			build: tmpAged(time.Hour)},
		{Name: "unknown-head", Note: "meta.json's head names no node file", Problem: PhraseUnknownHead,
			build: unknownHead},
	}
}

// TreeNamed returns the tree of that name.
func TreeNamed(name string) (Tree, bool) {
	for _, t := range Trees() {
		if t.Name == name {
			return t, true
		}
	}
	return Tree{}, false
}

// PhraseUnknownHead is in the problem of a head that names no node.
const PhraseUnknownHead = "names no node"

// treeWriter writes one session directory node by node, in the original's
// layout (legacy §2.1), without the store's id checks: hostile trees hold
// what the writers would refuse.
type treeWriter struct {
	dir string
	id  string
	seq int64
}

// add writes a node file; kv are metadata members.
func (w *treeWriter) add(id, role, calledBy string, output node.Value, kv ...node.Member) (*node.Node, error) {
	n := &node.Node{ID: id, Seq: w.seq, Role: role, CalledBy: calledBy,
		CreatedAt: node.Num(strconv.FormatInt(1782000000+w.seq, 10) + ".5"),
		Input:     node.NullV(), Output: output, Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{M: kv}}
	if role == node.RoleCode {
		n.Name = "step"
	}
	w.seq++
	return n, w.writeNode(n, store.FileName(n))
}

func (w *treeWriter) writeNode(n *node.Node, name string) error {
	return os.WriteFile(filepath.Join(w.dir, "history", name), n.Encode(), 0o644)
}

// meta writes meta.json with the head and any more members.
func (w *treeWriter) meta(head string, more ...node.Member) error {
	o := &node.Obj{M: []node.Member{{Key: "title", Val: node.Str("hostile")}}}
	if w.id != "" {
		o.M = append([]node.Member{{Key: "id", Val: node.Str(w.id)}}, o.M...)
	}
	o.M = append(o.M, more...)
	o.M = append(o.M, node.Member{Key: "head_id", Val: node.Str(head)})
	return os.WriteFile(filepath.Join(w.dir, "meta.json"), append(node.AppendIndent(nil, node.ObjV(o), ""), '\n'), 0o644)
}

func kv(k, v string) node.Member { return node.Member{Key: k, Val: node.Str(v)} }

// root writes ROOT.
func (w *treeWriter) root() error {
	_, err := w.add(node.RootID, node.RoleUser, "", node.Str(""), kv("display", "root"))
	return err
}

// turn writes a web user turn and its reply; it returns the reply's id.
func (w *treeWriter) turn(user, parent, text string) (string, error) {
	md := []node.Member{kv("source", "web")}
	if parent != "" {
		md = append(md, kv("parent_id", parent))
	}
	if _, err := w.add(user, node.RoleUser, node.RootID, node.Str(text), md...); err != nil {
		return "", err
	}
	reply := user + "_reply"
	_, err := w.add(reply, node.RoleLLM, user, node.Str("reply to "+text), kv("parent_id", user), kv("status", "completed"))
	return reply, err
}

func hexID(prefix string, i int) string { return fmt.Sprintf("%s%08x", prefix, i) }

// nest writes n code rows, each called by the one before, the first called
// by caller; it returns the innermost id.
func (w *treeWriter) nest(caller string, n int) (string, error) {
	for i := 0; i < n; i++ {
		id := hexID("fn00", i)
		if _, err := w.add(id, node.RoleCode, caller, node.Str("done"), kv("status", "completed")); err != nil {
			return "", err
		}
		caller = id
	}
	return caller, nil
}

func nestedCalls(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	reply, err := w.turn("0a0b0c0d", "", "run the analysis")
	if err != nil {
		return err
	}
	inner, err := w.nest(reply, n)
	if err != nil {
		return err
	}
	return w.meta(inner)
}

func nestedManual(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	inner, err := w.nest(node.RootID, n)
	if err != nil {
		return err
	}
	return w.meta(inner)
}

func deepRun(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	if _, err := w.nest(node.RootID, n); err != nil {
		return err
	}
	return w.meta(hexID("fn00", 0))
}

func callerCycle(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		caller := hexID("cy00", (i+n-1)%n)
		if _, err := w.add(hexID("cy00", i), node.RoleCode, caller, node.Str("done"), kv("status", "completed")); err != nil {
			return err
		}
	}
	return w.meta(hexID("cy00", n-1))
}

func parentCycle(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		parent := hexID("pc00", (i+n-1)%n)
		if _, err := w.add(hexID("pc00", i), node.RoleUser, node.RootID, node.Str("turn "+strconv.Itoa(i)), kv("parent_id", parent)); err != nil {
			return err
		}
	}
	return w.meta(hexID("pc00", n-1))
}

// dupIDSiblings: turns u_i (parent r_{i-1}) and their replies r_i; after
// each u_i a user with the id "sib" and the same parent (a sibling: the
// next one of u_i); below the id "sib" a chain of n rows. Every chain row's
// next sibling is "sib", whose deepest leaf is n rows down.
func dupIDSiblings(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	parent := ""
	for i := 0; i < n/2; i++ {
		u := hexID("", i)
		md := []node.Member{kv("source", "web")}
		if parent != "" {
			md = append(md, kv("parent_id", parent))
		}
		if _, err := w.add(u, node.RoleUser, node.RootID, node.Str("turn"), md...); err != nil {
			return err
		}
		sib := &node.Node{ID: "sib", Seq: w.seq, Role: node.RoleUser, CalledBy: node.RootID, CreatedAt: node.Num("1782000000.5"),
			Input: node.NullV(), Output: node.Str("the other"), Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{M: md}}
		w.seq++
		if err := w.writeNode(sib, fmt.Sprintf("%04d-u-sib-%d.json", sib.Seq, i)); err != nil {
			return err
		}
		r := u + "_reply"
		if _, err := w.add(r, node.RoleLLM, u, node.Str("reply"), kv("parent_id", u), kv("status", "completed")); err != nil {
			return err
		}
		parent = r
	}
	below := "sib"
	for i := 0; i < n/2; i++ {
		id := hexID("deep", i)
		if _, err := w.add(id, node.RoleUser, node.RootID, node.Str("below"), kv("parent_id", below)); err != nil {
			return err
		}
		below = id
	}
	return w.meta(parent)
}

func manyKeys(n int) *node.Obj {
	o := &node.Obj{M: make([]node.Member, n)}
	for i := range o.M {
		o.M[i] = node.Member{Key: fmt.Sprintf("k%07d", i), Val: node.Num(strconv.Itoa(i))}
	}
	return o
}

func manyKeysMetadata(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	if _, err := w.add("0a0b0c0d", node.RoleUser, node.RootID, node.Str("hello"), kv("source", "web")); err != nil {
		return err
	}
	md := append([]node.Member{kv("parent_id", "0a0b0c0d"), kv("status", "completed")}, manyKeys(n).M...)
	if _, err := w.add("0a0b0c0d_reply", node.RoleLLM, "0a0b0c0d", node.Str("hi"), md...); err != nil {
		return err
	}
	return w.meta("0a0b0c0d_reply")
}

func manyKeysOutput(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	reply, err := w.turn("0a0b0c0d", "", "count")
	if err != nil {
		return err
	}
	if _, err := w.add(reply+"_t_call1", node.RoleCode, reply, node.ObjV(manyKeys(n)), kv("tool_call_id", "call1")); err != nil {
		return err
	}
	return w.meta(reply)
}

func manyKeysMeta(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	reply, err := w.turn("0a0b0c0d", "", "hello")
	if err != nil {
		return err
	}
	return w.meta(reply, manyKeys(n).M...)
}

func longChat(w *treeWriter, n int) error {
	if err := w.root(); err != nil {
		return err
	}
	n = max(n, 2)
	parent := ""
	for i := 0; i < n/2; i++ {
		reply, err := w.turn(hexID("", i), parent, "turn "+strconv.Itoa(i))
		if err != nil {
			return err
		}
		parent = reply
	}
	return w.meta(parent)
}

// small writes a short chat to put odd files beside.
func small(w *treeWriter) (string, error) {
	if err := w.root(); err != nil {
		return "", err
	}
	reply, err := w.turn("0a0b0c0d", "", "hello")
	if err != nil {
		return "", err
	}
	if err := w.meta(reply); err != nil {
		return "", err
	}
	return reply, nil
}

func fifoAt(rel string) func(*treeWriter, int) error {
	return func(w *treeWriter, _ int) error {
		if _, err := small(w); err != nil {
			return err
		}
		p := filepath.Join(w.dir, filepath.FromSlash(rel))
		os.Remove(p)
		return syscall.Mkfifo(p, 0o644)
	}
}

func fifoHistory(w *treeWriter, _ int) error {
	if _, err := small(w); err != nil {
		return err
	}
	h := filepath.Join(w.dir, "history")
	if err := os.RemoveAll(h); err != nil {
		return err
	}
	return syscall.Mkfifo(h, 0o644)
}

func linkDup(hard bool) func(*treeWriter, int) error {
	return func(w *treeWriter, _ int) error {
		if _, err := small(w); err != nil {
			return err
		}
		target := "0001-u-0a0b0c0d.json"
		// Named to sort before its target, so a reader that keeps the
		// first of two names of one file keeps the link.
		link := filepath.Join(w.dir, "history", "0001-u-0a0b0c0c.json")
		if hard {
			return os.Link(filepath.Join(w.dir, "history", target), link)
		}
		return os.Symlink(target, link)
	}
}

func controlText(w *treeWriter, _ int) error {
	if err := w.root(); err != nil {
		return err
	}
	user := "0a0b\x1b[2J0c0d"
	if _, err := w.add(user, node.RoleUser, node.RootID, node.Str("hello \x1b]52;c;SGVsbG8=\x07 \x1b[1A\r\u202eevil"), kv("source", "web")); err != nil {
		return err
	}
	reply := user + "_reply"
	if _, err := w.add(reply, node.RoleLLM, user, node.Str("\x1b[31mred\x1b[0m"), kv("parent_id", user), kv("status", "completed")); err != nil {
		return err
	}
	if _, err := w.add(reply+"_t_\x1b[H", node.RoleCode, reply, node.Str("out\x1b[K"), kv("tool_call_id", "x\x1b[H")); err != nil {
		return err
	}
	return w.meta(reply)
}

// loneSurrogates writes two users whose ids are the JSON escapes \ud800 and
// \ud801 (Python's json.loads keeps them as two distinct one-character
// strings), each answered by a reply that names its user.
func loneSurrogates(w *treeWriter, _ int) error {
	if err := w.root(); err != nil {
		return err
	}
	ids := []string{`\ud800`, `\ud801`}
	parent := ""
	for i := range ids {
		u, r := fmt.Sprintf("SURROGATE%d", i), fmt.Sprintf("SURROGATE%d_REPLY", i)
		md := []node.Member{kv("source", "web")}
		if parent != "" {
			md = append(md, kv("parent_id", parent))
		}
		un := &node.Node{ID: u, Seq: w.seq, Role: node.RoleUser, CalledBy: node.RootID, CreatedAt: node.Num("1782000000.5"),
			Input: node.NullV(), Output: node.Str(fmt.Sprintf("question %d", i)), Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{M: md}}
		w.seq++
		rn := &node.Node{ID: r, Seq: w.seq, Role: node.RoleLLM, CalledBy: u, CreatedAt: node.Num("1782000001.5"),
			Input: node.NullV(), Output: node.Str(fmt.Sprintf("answer %d", i)), Reads: node.Arr([]node.Value{}),
			Metadata: &node.Obj{M: []node.Member{kv("parent_id", u), kv("status", "completed")}}}
		w.seq++
		for _, n := range []*node.Node{un, rn} {
			text := string(n.Encode())
			for j, e := range ids {
				text = strings.ReplaceAll(text, fmt.Sprintf(`"SURROGATE%d`, j), `"`+e)
			}
			name := fmt.Sprintf("%04d-%s-surrogate%d.json", n.Seq, n.Role[:1], n.Seq)
			if err := os.WriteFile(filepath.Join(w.dir, "history", name), []byte(text), 0o644); err != nil {
				return err
			}
		}
		parent = r
	}
	o := fmt.Sprintf("{\n  \"id\": %q,\n  \"head_id\": \"%s_REPLY\"\n}\n", w.id, ids[1])
	return os.WriteFile(filepath.Join(w.dir, "meta.json"), []byte(o), 0o644)
}

// tmpAged writes a complete node beside the session as its *.json.tmp,
// last modified age ago.
func tmpAged(age time.Duration) func(*treeWriter, int) error {
	return func(w *treeWriter, _ int) error {
		reply, err := small(w)
		if err != nil {
			return err
		}
		n := &node.Node{ID: "0e0f0a0b", Seq: w.seq, Role: node.RoleUser, CalledBy: node.RootID, CreatedAt: node.Num("1782000009.5"),
			Input: node.NullV(), Output: node.Str("being written"), Reads: node.Arr([]node.Value{}),
			Metadata: &node.Obj{M: []node.Member{kv("source", "web"), kv("parent_id", reply)}}}
		p := filepath.Join(w.dir, "history", store.FileName(n)+".tmp")
		if err := os.WriteFile(p, n.Encode(), 0o644); err != nil {
			return err
		}
		t := time.Now().Add(-age)
		return os.Chtimes(p, t, t)
	}
}

func unknownHead(w *treeWriter, _ int) error {
	if _, err := small(w); err != nil {
		return err
	}
	return w.meta("0f0f0f0f_reply")
}
