package ops

// The ops of a reply: its placeholder, what it streams, the tools it calls,
// and how its turn ends.

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
// The row's input is the arguments as the JSON text the model sent, as R
// stores it; Object stores them as an object, as older writers did.
type Tool struct {
	CallID string `op:"call"`
	Name   string `op:"name"`
	Args   string `op:"args"` // a JSON object
	Result string `op:"result"`
	Error  bool   `op:"error"`
	Legacy bool   `op:"legacy"`
	Object bool   `op:"object"`
}

// Task is the model's `task` tool spawning a sub-agent from the open reply.
// Rooted writes the sub-agent's user called by ROOT (see UserDispatch).
// Turn (not async, not rooted) writes it as R's task tool does: the
// sub-agent's turn is pending while the reply waits on the call, its reply
// and what it calls are the ops that follow, and its done writes the attach
// pointer and the tool row with the sub-agent's answer; Clean is the tool's
// clean context (the sub-agent's user records no parent). Async (not
// rooted) is R's task runner: the tool answers at once with the task id
// (Task, default t_<ID>), the runner writes the sub-agent's turn and then
// its follow-up turn (Followup, required there and only there); no attach
// pointer (Attach is the older writers' async and rooted forms').
type Task struct {
	CallID   string `op:"call"`
	ID       string `op:"id" ref:"new"`
	Attach   string `op:"attach" ref:"new"`
	Text     string `op:"text"`
	Label    string `op:"label"`
	Async    bool   `op:"async"`
	Rooted   bool   `op:"rooted"`
	Turn     bool   `op:"turn"`
	Clean    bool   `op:"clean"`
	Followup string `op:"followup" ref:"new"`
	TaskID   string `op:"task" ref:"new"`
}

// Done finalizes the open reply successfully.
type Done struct{}

// Cancel stops the open reply; the text streamed so far is kept.
type Cancel struct{}

// ErrorFolded fails the turn into its reply placeholder.
type ErrorFolded struct {
	Type string `op:"type"`
	Msg  string `op:"msg"`
}

// ErrorStandalone fails a turn whose placeholder was never inserted: a
// system row under the pending user.
type ErrorStandalone struct {
	ID   string `op:"id" ref:"new"`
	Type string `op:"type"`
	Msg  string `op:"msg"`
}

// Crash kills the process mid-turn: the placeholder stays running and the
// last in-memory head is what meta.json keeps.
type Crash struct{}

func (Reply) Kind() string           { return "reply" }
func (Think) Kind() string           { return "think" }
func (Say) Kind() string             { return "say" }
func (Tool) Kind() string            { return "tool" }
func (Task) Kind() string            { return "task" }
func (Done) Kind() string            { return "done" }
func (Cancel) Kind() string          { return "cancel" }
func (ErrorFolded) Kind() string     { return "error-folded" }
func (ErrorStandalone) Kind() string { return "error-standalone" }
func (Crash) Kind() string           { return "crash" }

func (o Reply) Apply(in Interpreter) error           { return in.Reply(o) }
func (o Think) Apply(in Interpreter) error           { return in.Think(o) }
func (o Say) Apply(in Interpreter) error             { return in.Say(o) }
func (o Tool) Apply(in Interpreter) error            { return in.Tool(o) }
func (o Task) Apply(in Interpreter) error            { return in.Task(o) }
func (o Done) Apply(in Interpreter) error            { return in.Done(o) }
func (o Cancel) Apply(in Interpreter) error          { return in.Cancel(o) }
func (o ErrorFolded) Apply(in Interpreter) error     { return in.ErrorFolded(o) }
func (o ErrorStandalone) Apply(in Interpreter) error { return in.ErrorStandalone(o) }
func (o Crash) Apply(in Interpreter) error           { return in.Crash(o) }

func (Reply) Span() Span           { return OpensReply }
func (Think) Span() Span           { return Flat }
func (Say) Span() Span             { return Flat }
func (Tool) Span() Span            { return Flat }
func (Done) Span() Span            { return ClosesTurn }
func (Cancel) Span() Span          { return ClosesTurn }
func (ErrorFolded) Span() Span     { return ClosesTurn }
func (ErrorStandalone) Span() Span { return ClosesTurn }
func (Crash) Span() Span           { return ClosesAll }

func (Reply) sealed()           {}
func (Think) sealed()           {}
func (Say) sealed()             {}
func (Tool) sealed()            {}
func (Task) sealed()            {}
func (Done) sealed()            {}
func (Cancel) sealed()          {}
func (ErrorFolded) sealed()     {}
func (ErrorStandalone) sealed() {}
func (Crash) sealed()           {}

// Span: a task turn opens the sub-agent's turn, pending until its done.
func (o Task) Span() Span {
	if o.Turn {
		return OpensTurn
	}
	return Flat
}
