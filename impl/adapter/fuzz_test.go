package adapter_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"sessiondag/impl/adapter"
	"sessiondag/impl/node"
)

// FuzzToMessage reads the fuzz bytes as a history file and runs the node
// through the adapter and back (legacy §2.3 then §2.2): no panic; the node
// is not changed; the message has the shape §2.3 gives every role; and a
// node read back from the message shows the same message again (the round
// trip is a fixed point after one pass).
func FuzzToMessage(f *testing.F) {
	f.Add([]byte(`{"id": "u1", "created_at": 1.5, "seq": 0, "role": "user", "output": "hi", "called_by": "ROOT", "metadata": {"source": "web"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := node.Decode(data)
		if err != nil {
			return
		}
		before := n.Encode()
		m := adapter.ToMessage("local_fuzz", n, nil)
		if !bytes.Equal(before, n.Encode()) {
			t.Fatalf("ToMessage changed the node:\n%s\n%s", before, n.Encode())
		}
		checkShape(t, n, m)

		// message → node → message.
		n2 := adapter.FromMessage(m.F, func() string { return "fresh" }, node.Num("0.0"))
		if n2.ID == "" || n2.Metadata == nil {
			t.Fatalf("FromMessage made a node without id or metadata")
		}
		if !n.Metadata.Has("id") && n2.ID != n.ID {
			t.Fatalf("id %q read back as %q", n.ID, n2.ID)
		}
		if !n.Metadata.Has("role") {
			want := map[string]string{node.RoleUser: node.RoleUser, node.RoleCode: node.RoleCode, node.RoleLLM: node.RoleLLM}[n.Role]
			if want != "" && n2.Role != want {
				t.Fatalf("role %q read back as %q", n.Role, n2.Role)
			}
		}
		m2 := adapter.ToMessage("local_fuzz", n2, nil)
		if plain(n) {
			if a, b := dump(m.F), dump(m2.F); a != b {
				t.Fatalf("node → message → node → message is not a fixed point:\n%s\n%s", a, b)
			}
		}
		checkShape(t, n2, m2)
	})
}

// plain: a user or llm node whose message reads back as the same message:
// it has a truthy created_at (else FromMessage takes "now"), and its
// metadata neither renames the row nor holds keys FromMessage consumes
// (id, content, timestamp, extra, and for llm rows token_model, called_by).
func plain(n *node.Node) bool {
	if !n.CreatedAt.Truthy() {
		return false
	}
	keys := []string{"id", "content", "timestamp", "extra"}
	switch n.Role {
	case node.RoleUser:
		keys = append(keys, "role")
	case node.RoleLLM:
		keys = append(keys, "token_model", "called_by")
		if role := n.Metadata.Get("role"); role.Truthy() && (role.K != node.String || role.S != "assistant" && role.S != "system") {
			return false
		}
	default:
		return false
	}
	for _, k := range keys {
		if n.Metadata.Has(k) {
			return false
		}
	}
	return true
}

// checkShape: the keys legacy §2.3 gives a message of each role.
func checkShape(t *testing.T, n *node.Node, m *adapter.Message) {
	t.Helper()
	if len(m.F.M) < 2 || m.F.M[0].Key != "id" || m.F.M[1].Key != "session_id" {
		t.Fatalf("message does not start with id, session_id: %s", dump(m.F))
	}
	if m.ID != m.F.Get("id").Str() || m.Role != m.F.Get("role").Str() || dump1(m.Parent) != dump1(m.F.Get("parent_id")) {
		t.Fatalf("cached keys disagree with the message")
	}
	for _, k := range []string{"role", "content", "parent_id", "timestamp"} {
		if !m.F.Has(k) {
			t.Fatalf("%s message without %q: %s", n.Role, k, dump(m.F))
		}
	}
	meta := n.Metadata
	switch n.Role {
	case node.RoleUser, node.RoleCode, node.RoleLLM:
		if !m.F.Has("status") {
			t.Fatalf("no default status: %s", dump(m.F))
		}
	}
	switch n.Role {
	case node.RoleCode:
		extra := m.F.Get("extra")
		if extra.K != node.String {
			t.Fatalf("tool message extra is not a string: %s", dump(m.F))
		}
		v, err := node.Parse([]byte(extra.S))
		if err != nil || v.K != node.Object {
			t.Fatalf("tool message extra %q is not a JSON object: %v", extra.S, err)
		}
		if tu := adapter.CachedToolUse(m); tu != nil && dump1(node.ObjV(tu)) != dump1(v.O.Get("tool_use")) {
			t.Fatalf("cached tool_use %s, extra says %s", dump(tu), dump1(v.O.Get("tool_use")))
		}
		if !meta.Has("content") && m.F.Get("content").K != node.String {
			t.Fatalf("tool content is not text: %s", dump(m.F))
		}
		if m.F.Has("called_by") && !meta.Has("called_by") {
			t.Fatalf("a tool message has a top-level called_by (never at R): %s", dump(m.F))
		}
	case node.RoleLLM:
		if n.CalledBy != "" && m.F.Get("called_by").Str() != n.CalledBy {
			t.Fatalf("llm message called_by %s, node %q", dump1(m.F.Get("called_by")), n.CalledBy)
		}
		if !meta.Has("role") && m.Role != "assistant" {
			t.Fatalf("llm message role %q", m.Role)
		}
	case node.RoleUser:
		if !meta.Has("role") && m.Role != "user" {
			t.Fatalf("user message role %q", m.Role)
		}
	}
	// Every metadata key the role does not consume shows as it is.
	consumed := map[string][]string{node.RoleCode: {"called_by", "tool_call_id", "extra"}, node.RoleLLM: {"role", "called_by"}}[n.Role]
	if n.Role == node.RoleUser || n.Role == node.RoleCode || n.Role == node.RoleLLM {
		for _, kv := range meta.M {
			if contains(consumed, kv.Key) || (kv.Key == "status" && !kv.Val.IsSet()) {
				continue
			}
			if dump1(m.F.Get(kv.Key)) != dump1(kv.Val) {
				t.Fatalf("metadata %q = %s shows as %s", kv.Key, dump1(kv.Val), dump1(m.F.Get(kv.Key)))
			}
		}
	}
	if _, err := json.Marshal(m); err != nil && !strings.Contains(err.Error(), "exceeded max depth") {
		t.Fatalf("message does not marshal: %v", err)
	}
}

// FuzzFromMessage reads the fuzz bytes as a message dict and runs it
// through the adapter to a node and back (legacy §2.2 then §2.3, P8): no
// panic; the node is one Append can store and Open reads back unchanged;
// and the message read back keeps every field it had, except the ones
// §2.2/§2.3 rebuild (a tool row's extra and call edge, an llm row's
// called_by, keys of a kind the node cannot hold).
func FuzzFromMessage(f *testing.F) {
	f.Add([]byte(`{"id": "a1", "role": "assistant", "content": "x", "parent_id": "u1", "called_by": "u1", "token_model": "m"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := node.Parse(data)
		if err != nil || v.K != node.Object {
			return
		}
		msg := v.O
		before := dump(msg)
		n := adapter.FromMessage(msg, func() string { return "fresh" }, node.Num("1782000000.0"))
		if dump(msg) != before {
			t.Fatalf("FromMessage changed the message")
		}
		if n.ID == "" || n.Metadata == nil || n.Reads.K != node.Array {
			t.Fatalf("FromMessage made an incomplete node: %s", n.Encode())
		}
		switch n.Role {
		case node.RoleUser, node.RoleLLM, node.RoleCode:
		default:
			t.Fatalf("FromMessage made a node of role %q", n.Role)
		}
		// What Append would write, Open reads back as it was.
		if back, err := node.Decode(n.Encode()); err != nil {
			if n.CreatedAt.K == node.Number || n.CreatedAt.K == node.Null {
				t.Fatalf("the node's file does not read back: %v\n%s", err, n.Encode())
			}
		} else if !bytes.Equal(back.Encode(), n.Encode()) {
			t.Fatalf("the node's file reads back differently:\n%s\n%s", n.Encode(), back.Encode())
		}

		m := adapter.ToMessage("local_fuzz", n, nil)
		role := msg.Get("role").Str()
		if !msg.Get("role").Truthy() {
			role = "user"
		}
		for _, kv := range msg.M {
			want, got := kv.Val, m.F.Get(kv.Key)
			switch kv.Key {
			case "id":
				if want.K != node.String || want.S == "" {
					continue // a fresh id was minted
				}
			case "role":
				switch {
				case !want.Truthy():
					want = node.Str("user") // the default
				case role == "user" || role == "assistant" || role == "system" || role == "tool":
				default:
					want = node.Str("assistant") // any other role is an llm row
				}
			case "timestamp":
				if !want.Truthy() {
					continue // now
				}
			case "content":
				if role == "tool" {
					if want.K != node.String {
						want = node.Str(node.Dumps(want))
					}
				} else if !want.Truthy() {
					want = node.Str("")
				}
			}
			switch role {
			case "tool":
				switch kv.Key {
				case "extra", "parent_id", "called_by", "tool_call_id", "function":
					continue // rebuilt from the node's edge and name (P8 checks generated ones)
				}
			case "user":
				if kv.Key == "extra" {
					extraKeysReadBack(t, msg, kv.Val, m)
					continue
				}
			default:
				switch kv.Key {
				case "extra":
					extraKeysReadBack(t, msg, kv.Val, m)
					continue
				case "called_by", "token_model":
					if want.K == node.String && want.S != "" {
						break
					}
					continue // only a non-empty string survives as the node field
				}
			}
			if !got.IsSet() || dump1(want) != dump1(got) {
				t.Fatalf("key %q: wrote %s, read back %s\nmessage %s\nnode %s\nback %s",
					kv.Key, dump1(want), dump1(got), dump(msg), n.Encode(), dump(m.F))
			}
		}
	})
}

// extraKeysReadBack: append_message takes a user's or an llm row's extra
// out and merges its keys into the metadata, the message's own keys
// winning (legacy §2.2), so each of them reads back unless the message or
// the reader sets that key itself.
func extraKeysReadBack(t *testing.T, msg *node.Obj, extra node.Value, m *adapter.Message) {
	var x *node.Obj
	switch extra.K {
	case node.Object:
		x = extra.O
	case node.String:
		if v, err := node.ParseString(extra.S); err == nil && v.K == node.Object {
			x = v.O
		}
	}
	if x == nil {
		return
	}
	built := []string{"id", "session_id", "role", "content", "parent_id", "caller", "timestamp", "token_model", "called_by", "status"}
	for _, kv := range x.M {
		if msg.Has(kv.Key) || contains(built, kv.Key) {
			continue
		}
		if got := m.F.Get(kv.Key); !got.IsSet() || dump1(got) != dump1(kv.Val) {
			t.Fatalf("extra key %q: wrote %s, read back %s\nmessage %s\nback %s", kv.Key, dump1(kv.Val), dump1(got), dump(msg), dump(m.F))
		}
	}
}

func dump(o *node.Obj) string   { return node.Dumps(node.ObjV(o)) }
func dump1(v node.Value) string { return node.Dumps(v) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
