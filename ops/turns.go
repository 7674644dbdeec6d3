package ops

// The ops that start, rerun or move a conversation turn.

// Session names the session; it may only be the first op.
type Session struct {
	ID string `op:"id"`
}

// UserWeb is a turn typed in the browser: its parent is the client's
// in-memory head. Form is "" (typed text), "image" (with an image
// attachment) or "function" (a function-form run typed in the chat).
type UserWeb struct {
	ID   string `op:"id" ref:"new"`
	Text string `op:"text"`
	Form string `op:"form"`
}

// UserDispatch is a turn through the dispatcher (CLI, channels). Parent is
// "" (INHERIT), "none" (explicit None: a root-level fork) or a node id.
// Source is "" (cli) or an internal turn's: task_followup (a finished
// async task) or merge_turn. Rooted writes the user called by ROOT, as the
// dispatcher's direct write did before R (R writes it caller-less through
// the message adapter).
type UserDispatch struct {
	ID     string `op:"id" ref:"new"`
	Text   string `op:"text"`
	Parent string `op:"parent" ref:"node"`
	Source string `op:"source"`
	Rooted bool   `op:"rooted"`
}

// ForkRoot starts a new root-level conversation through the dispatcher.
type ForkRoot struct {
	ID     string `op:"id" ref:"new"`
	Text   string `op:"text"`
	Rooted bool   `op:"rooted"`
}

// Merge is the /merge command typed in the browser: its command row, then
// the dispatcher's merge turn under it (pending until its reply).
type Merge struct {
	Cmd  string `op:"cmd" ref:"new"`
	ID   string `op:"id" ref:"new"`
	Text string `op:"text"`
}

// Retry reruns the turn of a message (climbing to its user). Web writes
// the new row as the older writers did: source web first, no display
// copied (R writes no source).
type Retry struct {
	Of  string `op:"of" ref:"node"`
	ID  string `op:"id" ref:"new"` // the new user row, when one is written
	Web bool   `op:"web"`
}

// Edit is a retry with new text.
type Edit struct {
	Of   string `op:"of" ref:"node"`
	ID   string `op:"id" ref:"new"`
	Text string `op:"text"`
	Web  bool   `op:"web"`
}

// Checkout makes any node the head (the WebSocket checkout).
type Checkout struct {
	ID string `op:"id" ref:"node"`
}

// Reload syncs the client's in-memory head with the stored head.
type Reload struct{}

// Spawn is the /spawn command: a command row, a sub-agent turn and an attach
// pointer. Mode is inherit, clean or async (/task --async: the attach
// pointer first, running, finished once the sub-agent's turn ends). Rooted
// writes the sub-agent's user called by ROOT (see UserDispatch). Turn (inherit
// and clean) leaves the sub-agent's turn pending, as R's /task writes it: its
// reply, tool calls and functions are the ops that follow, and its `done`
// writes the attach pointer with the sub-agent's answer. Async is R's task
// runner: the attach pointer first, running, then the sub-agent's turn;
// once it is done the runner finishes the card and writes the follow-up
// turn Followup (a dispatcher turn, source task_followup, R's own
// instruction as its text), answered at once as the sub-agent was, or, with
// Turn, pending for the ops that follow. Task is the task id the runner drew
// (default t_<attach>).
type Spawn struct {
	Mode     string `op:"mode"`
	Cmd      string `op:"cmd" ref:"new"`
	ID       string `op:"id" ref:"new"`
	Attach   string `op:"attach" ref:"new"`
	Text     string `op:"text"`
	Label    string `op:"label"`
	Rooted   bool   `op:"rooted"`
	Turn     bool   `op:"turn"`
	Followup string `op:"followup" ref:"new"`
	Task     string `op:"task" ref:"new"`
}

func (Session) Kind() string      { return "session" }
func (UserWeb) Kind() string      { return "user" }
func (UserDispatch) Kind() string { return "dispatch" }
func (ForkRoot) Kind() string     { return "fork-root" }
func (Retry) Kind() string        { return "retry" }
func (Edit) Kind() string         { return "edit" }
func (Checkout) Kind() string     { return "checkout" }
func (Reload) Kind() string       { return "reload" }
func (Spawn) Kind() string        { return "spawn" }
func (Merge) Kind() string        { return "merge" }

func (o Session) Apply(in Interpreter) error      { return in.Session(o) }
func (o UserWeb) Apply(in Interpreter) error      { return in.UserWeb(o) }
func (o UserDispatch) Apply(in Interpreter) error { return in.UserDispatch(o) }
func (o ForkRoot) Apply(in Interpreter) error     { return in.ForkRoot(o) }
func (o Retry) Apply(in Interpreter) error        { return in.Retry(o) }
func (o Edit) Apply(in Interpreter) error         { return in.Edit(o) }
func (o Checkout) Apply(in Interpreter) error     { return in.Checkout(o) }
func (o Reload) Apply(in Interpreter) error       { return in.Reload(o) }
func (o Spawn) Apply(in Interpreter) error        { return in.Spawn(o) }
func (o Merge) Apply(in Interpreter) error        { return in.Merge(o) }

func (Session) Span() Span      { return Flat }
func (UserWeb) Span() Span      { return OpensTurn }
func (UserDispatch) Span() Span { return OpensTurn }
func (ForkRoot) Span() Span     { return OpensTurn }
func (Retry) Span() Span        { return OpensTurn }
func (Edit) Span() Span         { return OpensTurn }
func (Checkout) Span() Span     { return Flat }
func (Reload) Span() Span       { return Flat }
func (Merge) Span() Span        { return OpensTurn }

func (o Spawn) Span() Span {
	if o.Turn {
		return OpensTurn // the sub-agent's turn, pending until its done
	}
	return Flat
}

func (Session) sealed()      {}
func (UserWeb) sealed()      {}
func (UserDispatch) sealed() {}
func (ForkRoot) sealed()     {}
func (Retry) sealed()        {}
func (Edit) sealed()         {}
func (Checkout) sealed()     {}
func (Reload) sealed()       {}
func (Spawn) sealed()        {}
func (Merge) sealed()        {}
