// Package driver runs op scripts through the implementation's writers: the
// bridge between the shared vocabulary (ops) and the system under test
// (impl/writer). Tests, the generator and the command-line tool all build
// sessions through it.
package driver

import (
	"fmt"

	"sessiondag/impl/flags"
	"sessiondag/impl/writer"
	"sessiondag/ops"
)

// DefaultSession is the session id of a script without a session op.
const DefaultSession = "local_0000000000"

// Run is one session being built from ops.
type Run struct {
	W *writer.Writer
}

// Start begins a session. If the script starts with a session op, its id is
// used. dir != "" writes to disk.
func Start(first ops.Op, dir string, fl flags.Set) (*Run, error) {
	id := DefaultSession
	if s, ok := first.(ops.Session); ok && s.ID != "" {
		id = s.ID
	}
	w, err := writer.New(id, dir, fl)
	if err != nil {
		return nil, err
	}
	return &Run{W: w}, nil
}

// Build runs a whole script and returns the session.
func Build(script []ops.Op, dir string, fl flags.Set) (*Run, error) {
	var first ops.Op
	if len(script) > 0 {
		first = script[0]
	}
	r, err := Start(first, dir, fl)
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
func (r *Run) Apply(op ops.Op) error {
	w := r.W
	switch o := op.(type) {
	case ops.Session:
		return nil
	case ops.UserWeb:
		return w.WebUser(o.ID, o.Text)
	case ops.UserDispatch:
		return w.Dispatch(o.ID, o.Text, o.Parent)
	case ops.ForkRoot:
		return w.ForkRoot(o.ID, o.Text)
	case ops.Reply:
		return w.Reply()
	case ops.Think:
		return w.Think(o.Text)
	case ops.Say:
		return w.Say(o.Text)
	case ops.Tool:
		return w.Tool(o.CallID, o.Name, o.Args, o.Result, o.Error, o.Legacy)
	case ops.Done:
		return w.Done()
	case ops.Cancel:
		return w.Cancel()
	case ops.ErrorFolded:
		return w.ErrorFolded(o.Type, o.Msg)
	case ops.ErrorStandalone:
		return w.ErrorStandalone(o.ID, o.Type, o.Msg)
	case ops.Crash:
		return w.Crash()
	case ops.Fn:
		return w.Fn(o.ID, o.Name, o.Args, o.Expose, o.ViaExec)
	case ops.Manual:
		return w.Manual(o.ID, o.Name, o.Args, o.Expose)
	case ops.Exec:
		return w.Exec(o.ID, o.Prompt, o.Reply)
	case ops.Ask:
		return w.Ask(o.ID, o.Question, o.Answer)
	case ops.End:
		return w.End(o.Output, o.Error)
	case ops.Retry:
		return w.Retry(o.Of, o.ID)
	case ops.Edit:
		return w.Edit(o.Of, o.ID, o.Text)
	case ops.Checkout:
		return w.Checkout(o.ID)
	case ops.Reload:
		return w.Reload()
	case ops.Spawn:
		return w.Spawn(o.Mode, o.Cmd, o.ID, o.Attach, o.Text, o.Label)
	case ops.Task:
		return w.Task(o.CallID, o.ID, o.Attach, o.Text, o.Label, o.Async)
	case ops.Script:
		return w.Script(o.What, o.ID, o.Name)
	case ops.LegacyUser:
		return w.LegacyUser(o.ID, o.Text, o.Parent)
	case ops.LegacyReply:
		return w.LegacyReply(o.ID, o.Text, o.Parent)
	case ops.Orphan:
		return w.Orphan(o.ID, o.Name, o.Caller)
	case ops.Rewind:
		return w.Rewind(o.ID)
	case ops.Flag:
		fl, err := flags.Parse(o.Set)
		if err != nil {
			return err
		}
		w.Flags = fl
		return nil
	}
	return fmt.Errorf("unknown op type %T", op)
}
