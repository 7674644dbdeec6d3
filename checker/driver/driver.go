// Package driver runs op scripts through the implementation's writers: the
// bridge between the shared vocabulary (ops) and the system under test
// (impl/writer). Tests, the generator and the command-line tool all build
// sessions through it.
package driver

import (
	"fmt"
	"slices"
	"strings"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/writer"
	"sessiondag/ops"
)

// Run is one session being built from ops. It is the implementation's
// ops.Interpreter: each method is the writer call the op names, made by the
// writer performing the ops now.
type Run struct {
	W *writer.Writer // the writer performing the ops now

	name   string        // its name
	parked []namedWriter // every other writer named so far, in name order
}

// namedWriter is a writer of the session and the name the script gives it.
type namedWriter struct {
	name string
	w    *writer.Writer
}

var _ ops.Interpreter = (*Run)(nil)

// Start begins a session. If the script starts with a session op, its id is
// used. dir != "" writes to disk, durably.
func Start(first ops.Op, dir string, fl flags.Set) (*Run, error) {
	return StartWith(first, dir, fl, store.WriteOptions{})
}

// StartWith is Start with the store's write options.
func StartWith(first ops.Op, dir string, fl flags.Set, wo store.WriteOptions) (*Run, error) {
	id := ops.DefaultSession
	if s, ok := first.(ops.Session); ok && s.ID != "" {
		id = s.ID
	}
	w, err := writer.NewWith(id, dir, fl, wo)
	if err != nil {
		return nil, err
	}
	return &Run{W: w, name: ops.FirstWriter}, nil
}

// Build runs a whole script and returns the session.
func Build(script []ops.Op, dir string, fl flags.Set) (*Run, error) {
	return BuildWith(script, dir, fl, store.WriteOptions{})
}

// BuildWith is Build with the store's write options.
func BuildWith(script []ops.Op, dir string, fl flags.Set, wo store.WriteOptions) (*Run, error) {
	var first ops.Op
	if len(script) > 0 {
		first = script[0]
	}
	r, err := StartWith(first, dir, fl, wo)
	if err != nil {
		return nil, err
	}
	for i, op := range script {
		if err := r.Apply(op); err != nil {
			return r, fmt.Errorf("op %d (%s): %w", i+1, ops.Format(op), err)
		}
	}
	return r, nil
}

// Apply runs one op.
func (r *Run) Apply(op ops.Op) error { return op.Apply(r) }

func (r *Run) Session(ops.Session) error     { return nil } // read by Start
func (r *Run) UserWeb(o ops.UserWeb) error   { return r.W.WebUser(o.ID, o.Text, o.Form) }
func (r *Run) ForkRoot(o ops.ForkRoot) error { return r.W.ForkRoot(o.ID, o.Text, o.Rooted) }
func (r *Run) Merge(o ops.Merge) error       { return r.W.Merge(o.Cmd, o.ID, o.Text) }
func (r *Run) Compact(o ops.Compact) error {
	var copies []string
	if o.Copies != "" {
		copies = strings.Split(o.Copies, ",")
	}
	return r.W.Compact(o.ID, o.Keep, copies)
}

func (r *Run) UserDispatch(o ops.UserDispatch) error {
	return r.W.Dispatch(o.ID, o.Text, o.Parent, o.Source, o.Rooted)
}
func (r *Run) Reply(ops.Reply) error         { return r.W.Reply() }
func (r *Run) Think(o ops.Think) error       { return r.W.Think(o.Text) }
func (r *Run) Say(o ops.Say) error           { return r.W.Say(o.Text) }
func (r *Run) Done(ops.Done) error           { return r.W.Done() }
func (r *Run) Cancel(ops.Cancel) error       { return r.W.Cancel() }
func (r *Run) Crash(ops.Crash) error         { return r.W.Crash() }
func (r *Run) Retry(o ops.Retry) error       { return r.W.Retry(o.Of, o.ID, o.Web) }
func (r *Run) Edit(o ops.Edit) error         { return r.W.Edit(o.Of, o.ID, o.Text, o.Web) }
func (r *Run) Checkout(o ops.Checkout) error { return r.W.Checkout(o.ID) }
func (r *Run) Reload(ops.Reload) error       { return r.W.Reload() }
func (r *Run) Rewind(o ops.Rewind) error     { return r.W.Rewind(o.ID) }

// Drop: the writer performing it drops the pointer, unless a parked
// writer's spawn turn still finishes it.
func (r *Run) Drop(o ops.Drop) error {
	for _, p := range r.parked {
		if p.w.Finishes(o.ID) {
			return fmt.Errorf("%w: drop %s: writer %s's spawn turn in progress finishes it", writer.ErrState, o.ID, p.name)
		}
	}
	return r.W.Drop(o.ID)
}

func (r *Run) Tool(o ops.Tool) error {
	return r.W.Tool(o.CallID, o.Name, o.Args, o.Result, o.Error, o.Legacy, o.Object)
}

func (r *Run) Task(o ops.Task) error {
	switch {
	case o.Turn && !o.Async && !o.Rooted:
		return r.W.TaskTurn(o.CallID, o.ID, o.Attach, o.Text, o.Label, o.Clean)
	case o.Turn || o.Clean:
		return fmt.Errorf("task: turn is neither async nor rooted, and clean is a task turn's")
	case o.Async && !o.Rooted:
		if o.Attach != "" {
			return fmt.Errorf("task async: R's task runner writes no attach pointer (attach= is the older writers')")
		}
		return r.W.TaskRunner(o.CallID, o.ID, o.Text, o.Label, o.Followup, o.TaskID)
	case o.Followup != "" || o.TaskID != "":
		return fmt.Errorf("task followup= and task= are R's task runner's: async, not rooted")
	}
	return r.W.Task(o.CallID, o.ID, o.Attach, o.Text, o.Label, o.Async, o.Rooted)
}

func (r *Run) ErrorFolded(o ops.ErrorFolded) error { return r.W.ErrorFolded(o.Type, o.Msg) }

func (r *Run) ErrorStandalone(o ops.ErrorStandalone) error {
	return r.W.ErrorStandalone(o.ID, o.Type, o.Msg)
}

func (r *Run) Fn(o ops.Fn) error { return r.W.Fn(o.ID, o.Name, o.Args, o.Expose, o.ViaExec) }

func (r *Run) Manual(o ops.Manual) error { return r.W.Manual(o.ID, o.Name, o.Args, o.Expose) }

func (r *Run) Run(o ops.Run) error { return r.W.Run(o.ID, o.Name, o.Args, o.Expose) }

func (r *Run) Exec(o ops.Exec) error { return r.W.Exec(o.ID, o.Prompt, o.Reply) }

func (r *Run) Ask(o ops.Ask) error { return r.W.Ask(o.ID, o.Question, o.Answer, o.Declined) }

func (r *Run) End(o ops.End) error {
	secs, err := o.Seconds()
	if err != nil {
		return err
	}
	return r.W.EndAfter(o.Output, o.Error, secs)
}

func (r *Run) Spawn(o ops.Spawn) error {
	return r.W.Spawn(o.Mode, o.Cmd, o.ID, o.Attach, o.Text, o.Label, o.Rooted, o.Turn, o.Followup, o.Task)
}

func (r *Run) Script(o ops.Script) error { return r.W.Script(o.What, o.ID, o.Name, o.Prompt) }

func (r *Run) LegacyUser(o ops.LegacyUser) error { return r.W.LegacyUser(o.ID, o.Text, o.Parent) }

func (r *Run) LegacyReply(o ops.LegacyReply) error {
	return r.W.LegacyReply(o.ID, o.Text, o.Parent, o.Blocks)
}

func (r *Run) Orphan(o ops.Orphan) error { return r.W.Orphan(o.ID, o.Name, o.Caller) }

func (r *Run) Message(o ops.Message) error {
	return r.W.Message(o.ID, o.Role, o.Text, o.Parent, o.Caller, o.Keys, o.Unsaved)
}

func (r *Run) Flag(o ops.Flag) error {
	fl, err := flags.Parse(o.Set)
	if err != nil {
		return err
	}
	if err := fl.Validate(); err != nil {
		return err
	}
	r.W.Flags = fl
	return nil
}

// Writer makes the named writer perform the next ops, on the flags the op
// gives it: one named for the first time is a new peer of the session's
// writers (writer.Peer); one that takes over from another reads the session
// as stored (writer.TakeOver).
func (r *Run) Writer(o ops.Writer) error {
	if o.Name == "" {
		return fmt.Errorf("writer needs a name")
	}
	fl, err := flags.Parse(o.Set)
	if err != nil {
		return err
	}
	if o.Name == r.name {
		r.W.Flags = fl
		return nil
	}
	var next *writer.Writer
	for i, p := range r.parked {
		if p.name == o.Name {
			next = p.w
			r.parked = slices.Delete(r.parked, i, i+1)
			break
		}
	}
	if next == nil {
		if next, err = r.W.Peer(fl); err != nil {
			return err
		}
	}
	// Parked in name order: which writers wait, not when each was parked.
	at, _ := slices.BinarySearchFunc(r.parked, r.name, func(p namedWriter, name string) int { return strings.Compare(p.name, name) })
	r.parked = slices.Insert(r.parked, at, namedWriter{r.name, r.W})
	r.W, r.name = next, o.Name
	r.W.Flags = fl
	r.W.TakeOver()
	return nil
}

// Reopen gives every writer of the session the store s in place of the one
// they share: a worker that restarted reads the session from its files,
// and so does each writer taking over after it.
func (r *Run) Reopen(s *store.Store) {
	r.W.S = s
	for _, p := range r.parked {
		p.w.S = s
	}
}

func (r *Run) Clock(o ops.Clock) error {
	at, err := o.Time()
	if err != nil {
		return err
	}
	return r.W.SetClock(at)
}
