package ops

// The ops of @agentic_function runs: entering one (from the model or the
// Run button), what happens inside it, and leaving it.

// Fn enters an @agentic_function called by the model (from the open reply),
// or nested in the innermost open function (from its body, or from its last
// exec call's tool loop when ViaExec).
type Fn struct {
	ID      string `op:"id" ref:"new"`
	Name    string `op:"name"`
	Args    string `op:"args"`   // a JSON object
	Expose  string `op:"expose"` // io (default), llm, full
	ViaExec bool   `op:"via-exec"`
}

// Manual runs a function from the UI's Run button: called by ROOT.
type Manual struct {
	ID     string `op:"id" ref:"new"`
	Name   string `op:"name"`
	Args   string `op:"args"`
	Expose string `op:"expose"`
}

// Run is a function run of a script in a session context: caller-less, with
// its internals under it like any run's, until its end.
type Run struct {
	ID     string `op:"id" ref:"new"`
	Name   string `op:"name"`
	Args   string `op:"args"`
	Expose string `op:"expose"`
}

// Exec is one internal model call of the innermost open function.
type Exec struct {
	ID     string `op:"id" ref:"new"`
	Prompt string `op:"prompt"`
	Reply  string `op:"reply"`
}

// Ask is an ask_user question inside the innermost open function.
type Ask struct {
	ID       string `op:"id" ref:"new"`
	Question string `op:"question"`
	Answer   string `op:"answer"` // "" leaves it unanswered: the empty answer
	// Declined: the user rejected the question (or nothing could ask it):
	// ask_user returns None and the row's output is null. With an answer
	// it is not an op.
	Declined bool `op:"declined"`
}

// End leaves the innermost open function, with a JSON output or an error,
// after Duration seconds (a decimal number as the writer records it; ""
// is 0.5).
type End struct {
	Output   string `op:"output"`
	Error    string `op:"error"`
	Duration string `op:"duration"`
}

func (Fn) Kind() string     { return "fn" }
func (Manual) Kind() string { return "manual" }
func (Run) Kind() string    { return "run" }
func (Exec) Kind() string   { return "exec" }
func (Ask) Kind() string    { return "ask" }
func (End) Kind() string    { return "end" }

func (o Fn) Apply(in Interpreter) error     { return in.Fn(o) }
func (o Manual) Apply(in Interpreter) error { return in.Manual(o) }
func (o Run) Apply(in Interpreter) error    { return in.Run(o) }
func (o Exec) Apply(in Interpreter) error   { return in.Exec(o) }
func (o Ask) Apply(in Interpreter) error    { return in.Ask(o) }
func (o End) Apply(in Interpreter) error    { return in.End(o) }

func (Fn) Span() Span     { return OpensFrame }
func (Manual) Span() Span { return OpensFrame }
func (Run) Span() Span    { return OpensFrame }
func (Exec) Span() Span   { return Flat }
func (Ask) Span() Span    { return Flat }
func (End) Span() Span    { return ClosesFrame }

func (Fn) sealed()     {}
func (Manual) sealed() {}
func (Run) sealed()    {}
func (Exec) sealed()   {}
func (Ask) sealed()    {}
func (End) sealed()    {}
