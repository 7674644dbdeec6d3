// Package ops is the vocabulary shared by the implementation's driver, the
// reference models and the generator: one Go type per operation of a
// session, and the op-script text format (one op per line, `#` comments,
// `#!` directives) that prints and parses them.
//
// An op says what a user or the system did, with every id and text spelled
// out, so a script replays without the generator that made it and keeps its
// meaning when the generator changes. What each op writes and means is
// specified in ops/README.md; impl/writer and model/ implement that text
// independently.
//
// Each op kind is one unit: its struct carries its text form (the `op` tag
// names a field's key in a script line) and the ids it creates or names (the
// `ref` tag, which the reducer follows), its Span says how it nests, and its
// Apply hands it to the Interpreter method of the same name. Every
// interpreter implements every method, so a new kind compiles only once each
// of them says what it means.
//
// Canonical renames the ids a script mints to n1, n2, … (canon.go): the one
// form in which scripts equal up to their ids are one text, which the
// exhaustive walk builds and failure reductions are saved in.
package ops

// Op is one operation. The types of this package are the whole vocabulary;
// the unexported method keeps it closed.
type Op interface {
	// Kind is the op's first word in a script.
	Kind() string
	// Apply hands the op to the interpreter's method for its kind.
	Apply(Interpreter) error
	// Span says how the op nests in a turn or a function run.
	Span() Span
	sealed()
}

// Interpreter gives ops their meaning: the implementation's driver, the two
// reference models and the generator's shadow each implement it, one method
// per kind. Adding a kind means adding its method here; then nothing compiles
// until every interpreter handles it (TestNewKindNeedsEveryInterpreter).
type Interpreter interface {
	Session(Session) error
	UserWeb(UserWeb) error
	UserDispatch(UserDispatch) error
	ForkRoot(ForkRoot) error
	Reply(Reply) error
	Think(Think) error
	Say(Say) error
	Tool(Tool) error
	Task(Task) error
	Done(Done) error
	Cancel(Cancel) error
	ErrorFolded(ErrorFolded) error
	ErrorStandalone(ErrorStandalone) error
	Crash(Crash) error
	Fn(Fn) error
	Manual(Manual) error
	Run(Run) error
	Exec(Exec) error
	Ask(Ask) error
	End(End) error
	Retry(Retry) error
	Edit(Edit) error
	Checkout(Checkout) error
	Reload(Reload) error
	Spawn(Spawn) error
	Merge(Merge) error
	Script(Script) error
	LegacyUser(LegacyUser) error
	LegacyReply(LegacyReply) error
	Orphan(Orphan) error
	Message(Message) error
	Compact(Compact) error
	Drop(Drop) error
	Rewind(Rewind) error
	Flag(Flag) error
	Writer(Writer) error
	Clock(Clock) error
}

// Span is how an op nests, for the reducer: deleting an op that opens
// something deletes what it opened, up to and including what closes it.
type Span int

const (
	Flat        Span = iota // stands alone
	OpensTurn               // a user turn: pending until its reply ends it
	OpensReply              // the reply placeholder of the pending turn
	OpensFrame              // a function run, until its end
	ClosesTurn              // ends the pending turn and its reply
	ClosesFrame             // ends the innermost function run
	ClosesAll               // a crash: ends whatever is open
)

// DefaultSession is the session id of a script without a session op.
const DefaultSession = "local_0000000000"

// RolloutPath spells the configs of the rollout, in order, as a flag op
// names them: off → A → A,B → A–C → A–D.
var RolloutPath = []string{"off", "A", "A,B", "A,B,C", "all"}

// All lists one zero value of every op kind, in the order ops/README.md
// presents them.
var All = []Op{
	Session{}, UserWeb{}, UserDispatch{}, Reply{}, Think{}, Say{}, Tool{}, Done{},
	ErrorFolded{}, ErrorStandalone{}, Cancel{}, Crash{}, Fn{}, Manual{}, Exec{}, Ask{},
	End{}, Retry{}, Edit{}, Checkout{}, Reload{}, ForkRoot{}, Spawn{}, Task{},
	Script{}, LegacyUser{}, LegacyReply{}, Orphan{}, Message{}, Rewind{}, Flag{}, Writer{}, Clock{},
	Merge{}, Run{}, Compact{}, Drop{},
}

// Kinds lists the kind of every op, in All's order.
func Kinds() []string {
	out := make([]string, len(All))
	for i, op := range All {
		out[i] = op.Kind()
	}
	return out
}
