package robust

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// A fuzz input for FuzzOpenSession is a session directory as text:
//
//	<meta.json, or "-" for none>
//	==> NAME
//	<the bytes of history/NAME>
//	==> NAME -> TARGET
//	...
//
// "==> NAME -> TARGET" makes history/NAME a symbolic link to TARGET; a
// node file "outside.json" always sits beside the session directory, so
// "../../outside.json" leads out of it. Without any "==>" line there is no
// history/ directory; "==> " alone makes an empty one. At most 8 entries.
const header = "\n==> "

type fuzzFile struct {
	name, link string
	data       []byte
}

func splitSession(data []byte) (meta []byte, hasMeta, hasHistory bool, files []fuzzFile) {
	chunks := bytes.Split(data, []byte(header))
	meta, hasMeta = chunks[0], string(chunks[0]) != "-"
	hasHistory = len(chunks) > 1
	for _, c := range chunks[1:] {
		if len(files) == 8 {
			break
		}
		line, rest, _ := bytes.Cut(c, []byte("\n"))
		name, link, isLink := strings.Cut(string(line), " -> ")
		name = safeName(name)
		if name == "" {
			continue
		}
		f := fuzzFile{name: name, data: rest}
		if isLink {
			f.link = strings.ReplaceAll(link, "\x00", "_")
		}
		files = append(files, f)
	}
	return
}

// safeName keeps a fuzzed name inside history/.
func safeName(name string) string {
	name = strings.NewReplacer("/", "_", "\x00", "_").Replace(name)
	if len(name) > 120 {
		name = name[:120]
	}
	if name == "." || name == ".." {
		name = "_"
	}
	return name
}

// joinSession is the inverse of splitSession, for seeds.
func joinSession(meta []byte, files ...fuzzFile) []byte {
	out := append([]byte{}, meta...)
	for _, f := range files {
		out = append(out, header...)
		out = append(out, f.name...)
		if f.link != "" {
			out = append(out, " -> "+f.link...)
		}
		out = append(out, '\n')
		out = append(out, f.data...)
	}
	return out
}

// FuzzOpenSession loads a session directory built from the fuzz bytes: the
// cold load and every view under flags off and all terminate without a
// panic, every history/*.json file is loaded or reported, and nothing in
// the directory changes.
func FuzzOpenSession(f *testing.F) {
	f.Add(joinSession([]byte(`{"head_id": "a1"}`),
		fuzzFile{name: "0000-u-u1.json", data: mk(0, "u1", node.RoleUser, "ROOT", "hi").Encode()},
		fuzzFile{name: "0001-l-a1.json", data: mk(1, "a1", node.RoleLLM, "u1", "hello", "parent_id", "u1").Encode()}))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := memTempDir(t)
		dir := filepath.Join(root, "sessions", "local_fuzz")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		outside := mk(9000, "outside", node.RoleUser, "", "not in the session").Encode()
		if err := os.WriteFile(filepath.Join(root, "sessions", "outside.json"), outside, 0o644); err != nil {
			t.Fatal(err)
		}
		meta, hasMeta, hasHistory, files := splitSession(data)
		if hasMeta {
			if err := os.WriteFile(filepath.Join(dir, "meta.json"), meta, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if hasHistory {
			if err := os.Mkdir(filepath.Join(dir, "history"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range files {
			p := filepath.Join(dir, "history", f.name)
			var err error
			if f.link != "" {
				err = os.Symlink(f.link, p)
			} else {
				err = os.WriteFile(p, f.data, 0o644)
			}
			if err != nil && !os.IsExist(err) {
				t.Skipf("cannot create %q: %v", f.name, err)
			}
		}
		before := snapshot(t, root)
		var s *store.Store
		var openErr error
		within(t, 10*time.Second, "load", func() {
			s, openErr = store.Open(dir)
			if openErr != nil {
				return
			}
			for _, fl := range []flags.Set{flags.Off, flags.All} {
				v := webui.Views(s, fl)
				if _, err := json.Marshal(v); err != nil && !strings.Contains(err.Error(), "exceeded max depth") {
					panic("views do not marshal: " + err.Error())
				}
			}
		})
		if err := sameSnapshot(before, snapshot(t, root)); err != nil {
			t.Fatalf("reading wrote: %v", err)
		}
		if openErr != nil {
			if !documentedOpenError(dir, openErr) {
				t.Fatalf("open refused the directory: %v", openErr)
			}
			return
		}
		checkAccounted(t, dir, s)
		if _, ok := s.Get("outside"); ok {
			t.Fatalf("a node outside the session directory was loaded")
		}
	})
}

// FuzzAggregate folds a message list read from the fuzz bytes (one JSON
// object per line, taken both as a message and as a node file read through
// the adapter) under flags off and all: no panic; the input is not changed;
// every non-tool row is kept in order; each tool row is kept in place or
// folded into exactly one assistant, appended after the calls it had; two
// runs agree, and a later run does not change an earlier result.
func FuzzAggregate(f *testing.F) {
	f.Add([]byte(`{"id": "a1", "role": "assistant", "content": "x", "extra": "{\"blocks\": [{\"type\": \"text\", \"text\": \"x\"}]}"}
{"id": "t1", "role": "tool", "parent_id": "a1", "content": "out", "function": "bash", "extra": "{\"tool_use\": {\"arguments\": {\"cmd\": \"ls\"}}}"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var asMsgs, asNodes []*adapter.Message
		for _, line := range bytes.Split(data, []byte("\n")) {
			v, err := node.Parse(line)
			if err != nil || v.K != node.Object {
				continue
			}
			asMsgs = append(asMsgs, adapter.New(v.O))
			if n, err := node.Decode(line); err == nil {
				asNodes = append(asNodes, adapter.ToMessage("local_fuzz", n, nil))
			}
		}
		for _, msgs := range [][]*adapter.Message{asMsgs, asNodes} {
			checkAggregate(t, msgs)
		}
	})
}

func checkAggregate(t *testing.T, msgs []*adapter.Message) {
	t.Helper()
	input := marshalMsgs(t, msgs)
	rules := []webui.Rules{webui.RulesFor(flags.Off, nil), webui.RulesFor(flags.All, nil)}
	var results [][]*adapter.Message
	var texts []string
	for _, r := range rules {
		var all []*adapter.Message
		within(t, 10*time.Second, "aggregate", func() { all = r.Aggregate(msgs) })
		if got := marshalMsgs(t, msgs); got != input {
			t.Fatalf("flags %s: Aggregate changed its input", r.Flags)
		}
		checkFolding(t, r, msgs, all)
		results = append(results, all)
		texts = append(texts, marshalMsgs(t, all))
	}
	for i, r := range rules {
		again := marshalMsgs(t, r.Aggregate(msgs))
		if again != texts[i] {
			t.Fatalf("flags %s: two runs differ", r.Flags)
		}
	}
	for i := range results {
		if marshalMsgs(t, results[i]) != texts[i] {
			t.Fatalf("flags %s: a later aggregation changed this result", rules[i].Flags)
		}
	}
}

// checkFolding checks the aggregated list against its input.
func checkFolding(t *testing.T, r webui.Rules, msgs, all []*adapter.Message) {
	t.Helper()
	lastAsst := map[string]*adapter.Message{}
	for _, m := range msgs {
		if m.Role == "assistant" && m.ID != "" {
			lastAsst[m.ID] = m
		}
	}
	folded := map[string][]string{} // assistant id → tool ids, in order
	var kept []*adapter.Message
	for _, m := range msgs {
		if m.Role == "tool" {
			if _, ok := lastAsst[r.ToolTarget(m)]; ok {
				folded[r.ToolTarget(m)] = append(folded[r.ToolTarget(m)], m.ID)
				continue
			}
		}
		kept = append(kept, m)
	}
	if len(all) != len(kept) {
		t.Fatalf("flags %s: %d rows kept, want %d", r.Flags, len(all), len(kept))
	}
	for i, m := range all {
		if m.ID != kept[i].ID || m.Role != kept[i].Role {
			t.Fatalf("flags %s: row %d is %q, want %q", r.Flags, i, m.ID, kept[i].ID)
		}
		if m.Role != "assistant" || lastAsst[m.ID] != kept[i] {
			continue
		}
		before := kept[i].Get("tool_calls")
		n0 := 0
		if before.K == node.Array {
			n0 = len(before.A)
		}
		after := m.Get("tool_calls")
		if len(folded[m.ID]) == 0 {
			continue
		}
		if after.K != node.Array || len(after.A) != n0+len(folded[m.ID]) {
			t.Fatalf("flags %s: assistant %q has %d tool calls, want %d + %d", r.Flags, m.ID, len(after.A), n0, len(folded[m.ID]))
		}
		for j, id := range folded[m.ID] {
			if got := after.A[n0+j].O.Get("tool_call_id").Str(); got != id {
				t.Fatalf("flags %s: assistant %q call %d is %q, want %q", r.Flags, m.ID, n0+j, got, id)
			}
		}
	}
}

func marshalMsgs(t *testing.T, msgs []*adapter.Message) string {
	t.Helper()
	b, err := json.Marshal(msgs)
	if err != nil && !strings.Contains(err.Error(), "exceeded max depth") {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// memTempDir is a temporary directory for one fuzz input, in memory
// (/dev/shm) when the system has it: file-system metadata operations on a
// disk shared with other jobs' fsyncs stall a fuzz worker for seconds.
func memTempDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "sessiondag-fuzz-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}
