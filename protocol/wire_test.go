package protocol

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fieldsOf is the JSON names of a wire type's fields.
func fieldsOf(v any) []string {
	var out []string
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// TestAppendViewReply: the view reply written by hand is the Reply the
// client decodes.
func TestAppendViewReply(t *testing.T) {
	var r Reply
	require.NoError(t, DecodeReply(AppendViewReply(nil, []byte(`{"session_id":"s","chain":[]}`)), &r))
	require.Equal(t, TypeView, r.Type)
	require.JSONEq(t, `{"session_id":"s","chain":[]}`, string(r.View))
}

// TestDecodeReplyNamesTheField: a field of the wrong type is named, in the
// protocol's words.
func TestDecodeReplyNamesTheField(t *testing.T) {
	var h Hello
	require.ErrorContains(t, DecodeReply([]byte(`{"type":"hello","views":"load"}`), &h), "views: a JSON string where the protocol has a list of strings")
	var r Reply
	require.ErrorContains(t, DecodeReply([]byte(`{"type":"op","seq":"3"}`), &r), "seq: a JSON string where the protocol has an integer")
	require.ErrorContains(t, DecodeReply([]byte(`[1]`), &r), "not an object")
}

// pythonKeys is a Python program that reads Python sources and prints, as
// JSON, what they put on the wire. The server side is the class that has a
// method hello (or the module, when it has a function hello): the keys of
// each dict it builds whose "type" is a constant, by that type (keys set
// later on the variable that holds it too), and each key it reads of a request (req.get("k"), req["k"]). A test
// file (test_*.py) is the client side: the keys of each dict whose "type"
// is a constant are a request's.
const pythonKeys = `
import ast, json, os, sys
replies, reads, requests = {}, set(), {}

def typed(d):
    for k, v in zip(d.keys, d.values):
        if isinstance(k, ast.Constant) and k.value == "type" and isinstance(v, ast.Constant):
            return v.value, [k.value for k in d.keys if isinstance(k, ast.Constant)]
    return None, None

def server_scope(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(isinstance(f, ast.FunctionDef) and f.name == "hello" for f in node.body):
            return node
    if any(isinstance(f, ast.FunctionDef) and f.name == "hello" for f in tree.body):
        return tree
    return None

for path in sys.argv[1:]:
    tree = ast.parse(open(path).read(), path)
    if os.path.basename(path).startswith("test_"):
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                t, keys = typed(node)
                if t is not None:
                    requests.setdefault(t, set()).update(keys)
        continue
    scope = server_scope(tree)
    if scope is None:
        continue
    named = {}  # a variable bound to a typed dict: its type (a reply built in steps)
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            t, keys = typed(node.value)
            if t is not None:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        named[target.id] = t
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                        and target.value.id in named and isinstance(target.slice, ast.Constant):
                    replies.setdefault(named[target.value.id], set()).add(target.slice.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in named and node.args \
                and isinstance(node.args[0], ast.Constant):
            replies.setdefault(named[node.func.value.id], set()).add(node.args[0].value)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            t, keys = typed(node.value)
            if t is not None:
                replies.setdefault(t, set()).update(keys)
        out = []
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Dict):
            out = [node.value]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "dumps":
            out = [a for a in node.args if isinstance(a, ast.Dict)]
        for d in out:
            t, keys = typed(d)
            if t is not None:
                replies.setdefault(t, set()).update(keys)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "req" and node.args \
                and isinstance(node.args[0], ast.Constant):
            reads.add(node.args[0].value)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "req" \
                and isinstance(node.slice, ast.Constant):
            reads.add(node.slice.value)
print(json.dumps({"replies": {t: sorted(k) for t, k in replies.items()}, "reads": sorted(reads),
                  "requests": {t: sorted(k) for t, k in requests.items()}}))
`

// pythonImplementations are the Python sides of the protocol this
// repository ships.
func pythonImplementations(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../adapters/openprogram/*.py")
	require.NoError(t, err)
	examples, err := filepath.Glob("../examples/*/*.py")
	require.NoError(t, err)
	files = append(files, examples...)
	require.NotEmpty(t, files)
	return files
}

// TestWireMatchesPython: the Python implementations in the repository speak
// the wire format declared here — each reply they build has only the
// fields of its Go type, and each field they read from a request is one of
// Request's — so the format is declared once, in wire.go, and a field
// renamed on one side fails here.
func TestWireMatchesPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3: the Python implementations cannot run here either")
	}
	prog := filepath.Join(t.TempDir(), "keys.py")
	require.NoError(t, os.WriteFile(prog, []byte(pythonKeys), 0o644))
	out, err := exec.Command(python, append([]string{prog}, pythonImplementations(t)...)...).Output()
	require.NoError(t, err)
	var got struct {
		Replies  map[string][]string
		Reads    []string
		Requests map[string][]string
	}
	require.NoError(t, json.Unmarshal(out, &got))
	replyFields := fieldsOf(Reply{})
	for typ, keys := range got.Replies {
		want := replyFields
		switch typ {
		case TypeHello:
			want = fieldsOf(Hello{})
		case TypeSession, TypeOp, TypeView, TypeRestart, TypeBye, TypeError:
		default:
			continue // a dict of the adapter's own (between its processes)
		}
		for _, k := range keys {
			if !slices.Contains(want, k) {
				t.Errorf("a Python %q reply writes %q, which the wire format does not declare (%v)", typ, k, want)
			}
		}
	}
	requestFields := fieldsOf(Request{})
	for _, k := range got.Reads {
		if !slices.Contains(requestFields, k) {
			t.Errorf("Python reads %q of a request, which the wire format does not declare (%v)", k, requestFields)
		}
	}
	for typ, keys := range got.Requests {
		for _, k := range keys {
			if !slices.Contains(requestFields, k) {
				t.Errorf("a Python test sends a %q request with %q, which the wire format does not declare (%v)", typ, k, requestFields)
			}
		}
	}
	require.Contains(t, got.Replies, TypeHello, "no hello reply found: the reading of the Python sources is broken")
}
