package process

import (
	"fmt"
	"time"

	"sessiondag/impl/flags"
	"sessiondag/impl/node"
	"sessiondag/impl/webui"
	"sessiondag/internal/termtext"
	"sessiondag/ops"
	"sessiondag/protocol"
)

// refusalSettle is how long a refusal waits for the stderr written before
// it: refusals end a run, so the wait is paid once.
const refusalSettle = 50 * time.Millisecond

// Session is one session of the implementation, served by one process
// while it lasts: a protocol.Impl.
type Session struct {
	pool   *Pool
	p      *process
	dir    string            // the directory the harness made for it
	owned  string            // what Close removes ("" when the caller gave the directory)
	seq    int               // ops of the script so far, the session op included
	last   string            // the last op, for the requests after it
	rename renamer           // the implementation's ids that are not the script's → the script's
	mapped map[string]string // script id → the implementation's (itself included), to refuse two ids for one node
	owner  map[string]string // the implementation's id → the script's (itself included), to refuse one id for two
	shown  map[string]*shown // by config, since the last op
}

var _ protocol.Impl = (*Session)(nil)

// Dir is where the session's files are.
func (s *Session) Dir() string { return s.dir }

// Apply sends one op. The script's session op started the session and is
// not sent again.
func (s *Session) Apply(op ops.Op) error {
	s.seq++
	s.shown = nil
	if _, ok := op.(ops.Session); ok {
		return nil
	}
	text := ops.Format(op)
	s.last = fmt.Sprintf("op %d (%s)", s.seq, clipOp(text))
	r, _, b := s.p.call(s.last, protocol.Request{Type: protocol.TypeOp, Seq: s.seq, Op: text}, protocol.TypeOp, s.pool.timeout)
	if b != nil {
		return b
	}
	if r.Seq != s.seq {
		return s.p.breakWith(s.last, fmt.Sprintf("the reply has seq %d, want %d", r.Seq, s.seq))
	}
	if r.Type == protocol.TypeError {
		// What it wrote to stderr before refusing (a traceback, say) is
		// read on its own: give it a moment to arrive.
		time.Sleep(refusalSettle)
		return fmt.Errorf("%s refused it: %s%s", termtext.Line(s.pool.about.Name), termtext.Line(r.Error), stderrNote(&protocol.Broken{Stderr: s.p.stderr.lines()}))
	}
	ids := node.Value{K: node.Missing}
	if len(r.IDs) > 0 {
		var err error
		if ids, err = node.Parse(r.IDs); err != nil {
			return s.p.breakWith(s.last, fmt.Sprintf("ids: %s", termtext.Line(err.Error())))
		}
	}
	if err := s.addIDs(ids); err != nil {
		return s.p.breakWith(s.last, err.Error())
	}
	return nil
}

// addIDs takes the op's ids: script's id → the implementation's.
func (s *Session) addIDs(ids node.Value) error {
	switch {
	case ids.K == node.Missing:
		return nil
	case ids.K != node.Object || ids.O == nil:
		return fmt.Errorf("ids %s: want an object of the script's ids to the implementation's", clipValue(ids))
	}
	for _, m := range ids.O.M {
		if m.Val.K != node.String || m.Val.S == "" {
			return fmt.Errorf("ids: %q maps to %s, want an id", m.Key, clipValue(m.Val))
		}
		// An id reported as itself is a mapping too: recorded, so that
		// the same id mapped to another later is refused, and another
		// script id given the same one.
		if prev, ok := s.owner[m.Val.S]; ok && prev != m.Key {
			return fmt.Errorf("ids: %q and %q both map to %q", prev, m.Key, m.Val.S)
		}
		if prev, ok := s.mapped[m.Key]; ok && prev != m.Val.S {
			return fmt.Errorf("ids: %q mapped to %q before, now to %q", m.Key, prev, m.Val.S)
		}
		if s.mapped == nil {
			s.owner, s.mapped = map[string]string{}, map[string]string{}
		}
		s.owner[m.Val.S], s.mapped[m.Key] = m.Key, m.Val.S
		if m.Val.S != m.Key {
			if s.rename == nil {
				s.rename = renamer{}
			}
			s.rename[m.Val.S] = m.Key
		}
	}
	return nil
}

// view asks for the view under fl once per op.
func (s *Session) view(fl flags.Set) (*shown, error) {
	config, err := s.pool.about.Config(fl)
	if err != nil {
		return nil, err
	}
	if v, ok := s.shown[config]; ok {
		return v, nil
	}
	request := fmt.Sprintf("view %s", config)
	if s.last != "" {
		request += " after " + s.last
	}
	r, _, b := s.p.call(request, protocol.Request{Type: protocol.TypeView, Config: config}, protocol.TypeView, s.pool.timeout)
	if b != nil {
		return nil, b
	}
	if r.Type == protocol.TypeError {
		return nil, s.p.breakWith(request, "refused: "+termtext.Line(r.Error))
	}
	raw := node.Value{K: node.Missing}
	if len(r.View) > 0 {
		if raw, err = node.Parse(r.View); err != nil {
			return nil, s.p.breakWith(request, fmt.Sprintf("view: %s", termtext.Line(err.Error())))
		}
	}
	v, err := readView(raw, s.pool.about, s.rename)
	if err != nil {
		return nil, s.p.breakWith(request, err.Error())
	}
	if s.shown == nil {
		s.shown = map[string]*shown{}
	}
	s.shown[config] = v
	return v, nil
}

// Load is the load of the view under fl.
func (s *Session) Load(fl flags.Set) (*webui.Loaded, error) {
	v, err := s.view(fl)
	if err != nil {
		return nil, err
	}
	return v.loaded, nil
}

// Views is the view under fl.
func (s *Session) Views(fl flags.Set) (webui.View, error) {
	v, err := s.view(fl)
	if err != nil {
		return webui.View{}, err
	}
	return v.views, nil
}

// Restart asks for a new worker over the session's files.
func (s *Session) Restart() error {
	if !s.pool.about.Restart {
		return fmt.Errorf("%s does not support restart", s.pool.about.Name)
	}
	s.shown = nil
	request := "restart"
	if s.last != "" {
		request += " after " + s.last
	}
	r, _, b := s.p.call(request, protocol.Request{Type: protocol.TypeRestart}, protocol.TypeRestart, 2*s.pool.timeout)
	if b != nil {
		return b
	}
	if r.Type == protocol.TypeError {
		return s.p.breakWith(request, "refused: "+termtext.Line(r.Error))
	}
	return nil
}

// Close gives the process back to the pool and removes the directory the
// harness made.
func (s *Session) Close() {
	if s.p == nil {
		return
	}
	s.pool.put(s.p)
	s.p = nil
	if s.owned != "" {
		removeDir(s.owned)
	}
}
