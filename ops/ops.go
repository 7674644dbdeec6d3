// Package ops is the vocabulary shared by the writers' driver and the
// reference models: one Go type per operation of a session, and the op-script
// text format (one op per line, `#` comments) that prints and parses them.
//
// An op says what a user or the system did, with every id and text spelled
// out, so a script replays without the generator that made it and keeps its
// meaning when the generator changes. What each op writes is specified in
// ops/README.md; impl/writer and model/ implement that text independently.
package ops

// Op is one operation. The concrete types below are the whole vocabulary.
type Op interface {
	// Kind is the op's first word in a script.
	Kind() string
}

// Session names the session; it may only be the first op.
type Session struct {
	ID string `op:"id"`
}

// UserWeb is a turn typed in the browser: its parent is the client's
// in-memory head.
type UserWeb struct {
	ID   string `op:"id"`
	Text string `op:"text"`
}

// UserDispatch is a turn through the dispatcher (CLI, channels). Parent is
// "" (INHERIT), "none" (explicit None: a root-level fork) or a node id.
type UserDispatch struct {
	ID     string `op:"id"`
	Text   string `op:"text"`
	Parent string `op:"parent"`
}

// Reply inserts the reply placeholder of the pending turn.
type Reply struct{}

// Think adds a thinking block to the open reply.
type Think struct {
	Text string `op:"text"`
}

// Say adds a text block to the open reply.
type Say struct {
	Text string `op:"text"`
}

// Tool records one tool call of the open reply and its result row. Legacy
// writes the call edge only into metadata.called_by (node called_by "").
type Tool struct {
	CallID string `op:"call"`
	Name   string `op:"name"`
	Args   string `op:"args"` // a JSON object
	Result string `op:"result"`
	Error  bool   `op:"error"`
	Legacy bool   `op:"legacy"`
}

// Done finalizes the open reply successfully.
type Done struct{}

// ErrorFolded fails the turn into its reply placeholder.
type ErrorFolded struct {
	Type string `op:"type"`
	Msg  string `op:"msg"`
}

// ErrorStandalone fails a turn whose placeholder was never inserted: a
// system row under the pending user.
type ErrorStandalone struct {
	ID   string `op:"id"`
	Type string `op:"type"`
	Msg  string `op:"msg"`
}

// Cancel stops the open reply; the text streamed so far is kept.
type Cancel struct{}

// Crash kills the process mid-turn: the placeholder stays running and the
// last in-memory head is what meta.json keeps.
type Crash struct{}

// Fn enters an @agentic_function called by the model (from the open reply),
// or nested in the innermost open function (from its body, or from its last
// exec call's tool loop when ViaExec).
type Fn struct {
	ID      string `op:"id"`
	Name    string `op:"name"`
	Args    string `op:"args"`   // a JSON object
	Expose  string `op:"expose"` // io (default), llm, full
	ViaExec bool   `op:"via-exec"`
}

// Manual runs a function from the UI's Run button: called by ROOT.
type Manual struct {
	ID     string `op:"id"`
	Name   string `op:"name"`
	Args   string `op:"args"`
	Expose string `op:"expose"`
}

// Exec is one internal model call of the innermost open function.
type Exec struct {
	ID     string `op:"id"`
	Prompt string `op:"prompt"`
	Reply  string `op:"reply"`
}

// Ask is an ask_user question inside the innermost open function.
type Ask struct {
	ID       string `op:"id"`
	Question string `op:"question"`
	Answer   string `op:"answer"` // "" leaves it unanswered
}

// End leaves the innermost open function, with a JSON output or an error.
type End struct {
	Output string `op:"output"`
	Error  string `op:"error"`
}

// Retry reruns the turn of a message (climbing to its user).
type Retry struct {
	Of string `op:"of"`
	ID string `op:"id"` // the new user row, when one is written
}

// Edit is a retry with new text.
type Edit struct {
	Of   string `op:"of"`
	ID   string `op:"id"`
	Text string `op:"text"`
}

// Checkout makes any node the head (the WebSocket checkout).
type Checkout struct {
	ID string `op:"id"`
}

// Reload syncs the client's in-memory head with the stored head.
type Reload struct{}

// ForkRoot starts a new root-level conversation through the dispatcher.
type ForkRoot struct {
	ID   string `op:"id"`
	Text string `op:"text"`
}

// Spawn is the /spawn command: a command row, a sub-agent turn and an attach
// pointer. Mode is inherit or clean.
type Spawn struct {
	Mode   string `op:"mode"`
	Cmd    string `op:"cmd"`
	ID     string `op:"id"`
	Attach string `op:"attach"`
	Text   string `op:"text"`
	Label  string `op:"label"`
}

// Task is the model's `task` tool spawning a sub-agent from the open reply.
type Task struct {
	CallID string `op:"call"`
	ID     string `op:"id"`
	Attach string `op:"attach"`
	Text   string `op:"text"`
	Label  string `op:"label"`
	Async  bool   `op:"async"`
}

// Script writes a caller-less row from a script session: a top-level
// function (fn) or model call (exec).
type Script struct {
	What string `op:"what"` // fn or exec
	ID   string `op:"id"`
	Name string `op:"name"`
}

// LegacyUser is a user row written through append_message (no ROOT caller).
// Parent is an id, "null" (an explicit null) or "" (key absent).
type LegacyUser struct {
	ID     string `op:"id"`
	Text   string `op:"text"`
	Parent string `op:"parent"`
}

// LegacyReply is an assistant row written through append_message.
type LegacyReply struct {
	ID     string `op:"id"`
	Text   string `op:"text"`
	Parent string `op:"parent"`
}

// Orphan is a tool row whose call edge is missing (Caller "") or points
// at a node that does not exist.
type Orphan struct {
	ID     string `op:"id"`
	Name   string `op:"name"`
	Caller string `op:"caller"`
}

// Rewind hides a node from reads (metadata.rewound).
type Rewind struct {
	ID string `op:"id"`
}

// Flag switches the writers' flag set from this op on.
type Flag struct {
	Set string `op:"set"`
}

func (Session) Kind() string         { return "session" }
func (UserWeb) Kind() string         { return "user" }
func (UserDispatch) Kind() string    { return "dispatch" }
func (Reply) Kind() string           { return "reply" }
func (Think) Kind() string           { return "think" }
func (Say) Kind() string             { return "say" }
func (Tool) Kind() string            { return "tool" }
func (Done) Kind() string            { return "done" }
func (ErrorFolded) Kind() string     { return "error-folded" }
func (ErrorStandalone) Kind() string { return "error-standalone" }
func (Cancel) Kind() string          { return "cancel" }
func (Crash) Kind() string           { return "crash" }
func (Fn) Kind() string              { return "fn" }
func (Manual) Kind() string          { return "manual" }
func (Exec) Kind() string            { return "exec" }
func (Ask) Kind() string             { return "ask" }
func (End) Kind() string             { return "end" }
func (Retry) Kind() string           { return "retry" }
func (Edit) Kind() string            { return "edit" }
func (Checkout) Kind() string        { return "checkout" }
func (Reload) Kind() string          { return "reload" }
func (ForkRoot) Kind() string        { return "fork-root" }
func (Spawn) Kind() string           { return "spawn" }
func (Task) Kind() string            { return "task" }
func (Script) Kind() string          { return "script" }
func (LegacyUser) Kind() string      { return "legacy-user" }
func (LegacyReply) Kind() string     { return "legacy-reply" }
func (Orphan) Kind() string          { return "orphan" }
func (Rewind) Kind() string          { return "rewind" }
func (Flag) Kind() string            { return "flag" }

// All lists one zero value of every op type, in the order the script
// documentation presents them.
var All = []Op{
	Session{}, UserWeb{}, UserDispatch{}, Reply{}, Think{}, Say{}, Tool{}, Done{},
	ErrorFolded{}, ErrorStandalone{}, Cancel{}, Crash{}, Fn{}, Manual{}, Exec{}, Ask{},
	End{}, Retry{}, Edit{}, Checkout{}, Reload{}, ForkRoot{}, Spawn{}, Task{},
	Script{}, LegacyUser{}, LegacyReply{}, Orphan{}, Rewind{}, Flag{},
}
