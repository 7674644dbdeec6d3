package ops

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The ops that write rows outside a turn (script sessions, older code paths
// and damaged edges), change a stored row, or change how the writers write.

// Script writes a caller-less row from a script session: a top-level
// function (fn), model call (exec) or answered ask_user question (ask).
type Script struct {
	What   string `op:"what"` // fn, exec or ask
	ID     string `op:"id" ref:"new"`
	Name   string `op:"name"`
	Prompt string `op:"prompt"` // exec: the text it sent, recorded when not empty
}

// LegacyUser is a user row written through append_message (no ROOT caller).
// Parent is an id, "null" (an explicit null) or "" (key absent).
type LegacyUser struct {
	ID     string `op:"id" ref:"new"`
	Text   string `op:"text"`
	Parent string `op:"parent" ref:"node"`
}

// LegacyReply is an assistant row written through append_message. Blocks:
// its message's extra held its calls and blocks (importers, adapter
// writes), which land in the row's metadata.
type LegacyReply struct {
	ID     string `op:"id" ref:"new"`
	Text   string `op:"text"`
	Parent string `op:"parent" ref:"node"`
	Blocks bool   `op:"blocks"`
}

// Message is a row written through append_message from a message dict as
// an importer, a channel or a test hands it (the message adapter): the
// dict {id: ID, role: Role, content: Text, parent_id: Parent, called_by:
// Caller, then Keys' keys in order}. Role is user, assistant, system or tool
// ("" leaves the key out, which the adapter reads as user). Parent is an
// id, "null" (an explicit null) or "" (key absent); Caller "" leaves its key
// out. Keys is a JSON object ("" for none) of the dict's other keys; it may
// give content, parent_id or called_by only when the field is empty, and
// an id in it is no reference (a reducer leaves it as it is). Unsaved: the
// append alone, as a test or a tool that appends and stops leaves it (the
// store persists meta.json only on a set_head, a commit_turn or a turn's
// save): nothing writes meta.
type Message struct {
	ID      string `op:"id" ref:"new"`
	Role    string `op:"role"`
	Text    string `op:"text"`
	Parent  string `op:"parent" ref:"node"`
	Caller  string `op:"caller" ref:"node"`
	Keys    string `op:"keys"`
	Unsaved bool   `op:"unsaved"`
}

// Orphan is a tool row whose call edge is missing (Caller "") or names a
// node that does not exist yet: it may be written later.
type Orphan struct {
	ID     string `op:"id" ref:"new"`
	Name   string `op:"name"`
	Caller string `op:"caller"`
}

// Compact is a compaction of the branch at the head: a summary row ID and a
// copy of each of the branch's last Keep rows chained from it; the head
// moves to the last copy. The copies' ids are Copies, comma-separated, as
// the original draws them ("k_" and ten hex digits), or ID_k1, ID_k2, …
// when Copies is empty.
type Compact struct {
	ID     string `op:"id" ref:"new"`
	Keep   string `op:"keep"` // a count, 1 or more
	Copies string `op:"copies" ref:"new" list:","`
}

// CopyIDs are the ids of the copies: Copies cut at its commas, or ID_k1 …
// ID_kN for Keep N (none for a Keep that is no count).
func (o Compact) CopyIDs() []string {
	if o.Copies != "" {
		return strings.Split(o.Copies, ",")
	}
	n, err := strconv.Atoi(o.Keep)
	if err != nil || n < 1 {
		return nil
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = o.ID + "_k" + strconv.Itoa(i+1)
	}
	return ids
}

// Drop removes an attach pointer from the store, its file deleted, as
// process_merge_turn retires the pointers it wrote once its turn has run
// (R's drop_message): the seq counter goes on.
type Drop struct {
	ID string `op:"id" ref:"node"`
}

// Rewind hides a node from reads (metadata.rewound).
type Rewind struct {
	ID string `op:"id" ref:"node"`
}

// Flag switches the flag set of the writer performing the ops from this op
// on (a deploy of that writer's step, or its rollback).
type Flag struct {
	Set string `op:"set"`
}

// Writer makes the writer Name perform the ops that follow, its flags Set
// from this op on: another server process writing the same session, as
// when a web tier is upgraded one worker at a time. A writer keeps its own
// browser's head and its own turn in progress; the store is the session's,
// and a writer that takes over reads it as stored (its in-memory head is
// the persisted one). The writer a script starts with is FirstWriter.
type Writer struct {
	Name string `op:"name"`
	Set  string `op:"set"`
}

// FirstWriter names the writer that performs a script's ops until a writer
// op names another.
const FirstWriter = "w1"

// Clock sets the writers' clock: the next node appended gets created_at At
// (a decimal number of seconds), and each one after it 1.5 s more.
type Clock struct {
	At string `op:"at"`
}

func (Script) Kind() string      { return "script" }
func (LegacyUser) Kind() string  { return "legacy-user" }
func (LegacyReply) Kind() string { return "legacy-reply" }
func (Orphan) Kind() string      { return "orphan" }
func (Message) Kind() string     { return "message" }
func (Compact) Kind() string     { return "compact" }
func (Drop) Kind() string        { return "drop" }
func (Rewind) Kind() string      { return "rewind" }
func (Flag) Kind() string        { return "flag" }
func (Writer) Kind() string      { return "writer" }
func (Clock) Kind() string       { return "clock" }

func (o Script) Apply(in Interpreter) error      { return in.Script(o) }
func (o LegacyUser) Apply(in Interpreter) error  { return in.LegacyUser(o) }
func (o LegacyReply) Apply(in Interpreter) error { return in.LegacyReply(o) }
func (o Orphan) Apply(in Interpreter) error      { return in.Orphan(o) }
func (o Message) Apply(in Interpreter) error     { return in.Message(o) }
func (o Compact) Apply(in Interpreter) error     { return in.Compact(o) }
func (o Drop) Apply(in Interpreter) error        { return in.Drop(o) }
func (o Rewind) Apply(in Interpreter) error      { return in.Rewind(o) }
func (o Flag) Apply(in Interpreter) error        { return in.Flag(o) }
func (o Writer) Apply(in Interpreter) error      { return in.Writer(o) }
func (o Clock) Apply(in Interpreter) error       { return in.Clock(o) }

func (Script) Span() Span      { return Flat }
func (LegacyUser) Span() Span  { return Flat }
func (LegacyReply) Span() Span { return Flat }
func (Orphan) Span() Span      { return Flat }
func (Message) Span() Span     { return Flat }
func (Compact) Span() Span     { return Flat }
func (Drop) Span() Span        { return Flat }
func (Rewind) Span() Span      { return Flat }
func (Flag) Span() Span        { return Flat }
func (Writer) Span() Span      { return Flat }
func (Clock) Span() Span       { return Flat }

func (Script) sealed()      {}
func (LegacyUser) sealed()  {}
func (LegacyReply) sealed() {}
func (Orphan) sealed()      {}
func (Message) sealed()     {}
func (Compact) sealed()     {}
func (Drop) sealed()        {}
func (Rewind) sealed()      {}
func (Flag) sealed()        {}
func (Writer) sealed()      {}
func (Clock) sealed()       {}

// Edges are what a message's dict says of its place, as the message
// adapter and the readers take it: its parent_id (set: the key is there;
// parent "" for a null or no id) and its call edge: a tool's is tool_use's
// called_by, else its parent_id, else its called_by key (which stays in
// its metadata: an older writer's tool edge, as a tool op's legacy form
// writes it); a reply's is its called_by key; a user's is none. Keys that
// do not parse say nothing (the writers refuse them).
func (o Message) Edges() (parent string, set bool, call string) {
	var keys map[string]any
	_ = json.Unmarshal([]byte(o.Keys), &keys)
	str := func(v any) string { s, _ := v.(string); return s }
	switch {
	case o.Parent == "null":
		set = true
	case o.Parent != "":
		parent, set = o.Parent, true
	default:
		var v any
		v, set = keys["parent_id"]
		parent = str(v)
	}
	caller := o.Caller
	if caller == "" {
		caller = str(keys["called_by"])
	}
	switch o.Role {
	case "tool":
		extra, _ := keys["extra"].(map[string]any)
		if s, ok := keys["extra"].(string); ok {
			_ = json.Unmarshal([]byte(s), &extra)
		}
		use, _ := extra["tool_use"].(map[string]any)
		switch call = str(use["called_by"]); {
		case call != "":
		case parent != "":
			call = parent
		default:
			call = caller // an older writer's tool edge, kept in metadata
		}
	case "", "user":
	default:
		call = caller
	}
	return parent, set, call
}

// IsAttach reports whether a message is an attach pointer: a message whose
// function key is "attach", as a merge writes its pointers and a test hands
// one (the key stays in its metadata, which the load splices by, but on a
// tool's, whose function is its name).
func (o Message) IsAttach() bool {
	var keys map[string]any
	_ = json.Unmarshal([]byte(o.Keys), &keys)
	return o.Role != "tool" && keys["function"] == "attach"
}

// Headless reports whether a message's row continues where the head is: a
// tool row with no call edge (an orphan's without caller), any other row
// with no parent_id key and no call edge (a user's without parent).
func (o Message) Headless() bool {
	_, set, call := o.Edges()
	return call == "" && (o.Role == "tool" || !set)
}
