package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// writeSessionDir writes a session in the original's on-disk layout (legacy
// §2.1), readable by ReadSessionDir: history/NNNN-R-<id>.json per node (seq
// zero-padded to at least 4 digits, R = first letter of the role) holding
// the node's fields in dataclass order, and meta.json = s.Meta with head_id
// set to s.HeadID (a minimal {id, head_id} when s.Meta is nil). Files are
// Python json.dumps(indent=2, ensure_ascii=False) text, no trailing newline.
// ReadSessionDir takes the session id from the directory name, so dir's base
// name should be s.ID. Existing files in dir are left alone (overwritten on
// a name clash); use a fresh directory.
func writeSessionDir(s *Session, dir string) error {
	hist := filepath.Join(dir, "history")
	if err := os.MkdirAll(hist, 0o755); err != nil {
		return err
	}
	for _, n := range s.Nodes {
		letter := "x"
		if n.Role != "" {
			letter = n.Role[:1]
		}
		name := fmt.Sprintf("%04d-%s-%s.json", n.Seq, letter, n.ID)
		reads, meta := n.Reads, n.Metadata
		if reads == nil {
			reads = []any{}
		}
		if meta == nil {
			meta = &Object{}
		}
		doc := newObject("id", n.ID, "created_at", n.CreatedAt, "seq", Int(itoa(n.Seq)), "role", n.Role,
			"name", n.Name, "input", n.Input, "output", n.Output, "called_by", n.CalledBy,
			"reads", reads, "metadata", meta)
		if err := os.WriteFile(filepath.Join(hist, name), []byte(pyDumpsIndent(doc)), 0o644); err != nil {
			return err
		}
	}
	meta := newObject("id", s.ID)
	if s.Meta != nil {
		meta = deepCopy(s.Meta).(*Object)
	}
	meta.Set("head_id", s.HeadID)
	return os.WriteFile(filepath.Join(dir, "meta.json"), []byte(pyDumpsIndent(meta)), 0o644)
}

// pyDumpsIndent is Python's json.dumps(v, indent=2, ensure_ascii=False):
// item separator ",", key separator ": ", empty containers as [] and {}.
func pyDumpsIndent(v any) string {
	var b strings.Builder
	pyDumpIndent(&b, v, 0)
	return b.String()
}

func pyDumpIndent(b *strings.Builder, v any, depth int) {
	newline := func(d int) { b.WriteString("\n" + strings.Repeat("  ", d)) }
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			pyDumpIndent(b, e, depth+1)
		}
		newline(depth)
		b.WriteByte(']')
	case *Object:
		if x == nil || len(x.Fields) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, f := range x.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(depth + 1)
			b.WriteString(pyJSONString(f.Key) + ": ")
			pyDumpIndent(b, f.Val, depth+1)
		}
		newline(depth)
		b.WriteByte('}')
	default:
		b.WriteString(pyDumps(x))
	}
}
