// Package serve is the implementation in this repository (impl/, written
// through checker/driver) behind the implementation protocol of
// docs/protocol.md: `sessiondag serve` reads requests on its input and
// answers each on its output, so that the harness judges it across a
// process boundary exactly as it judges any other implementation — the
// test that the boundary loses nothing.
//
// It serves the rollout (every config of the rollout path, the writers'
// flags given by each session) or one flag set (its writers and loads use
// only that one: off claims the legacy, all the target). With Mint it gives
// nodes ids of its own and reports them, as an implementation that mints
// its ids does, so the renaming the harness does is exercised end to end.
package serve

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"sessiondag/checker/driver"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/impl/writer"
	"sessiondag/ops"
	"sessiondag/protocol"
)

// Options choose what is served.
type Options struct {
	// Flags, when set, is the one flag set the writers write with and
	// the loads load under; nil serves the rollout.
	Flags *flags.Set
	// Mint gives every node an id of its own (the script's with a prefix)
	// and reports the mapping.
	Mint bool
	// Together are pairs of op kinds written in one step, as an
	// implementation that writes the user's message and the start of its
	// reply together does: the server declares them (docs/protocol.md),
	// writes an op of a pair's second kind, which takes no fields, with the
	// op of its first, and answers the second op itself with nothing more to
	// write.
	Together [][2]string
	// MaxRequest bounds a request line, in bytes; 0 = DefaultMaxRequest.
	MaxRequest int
}

// DefaultMaxRequest bounds a request line unless Options.MaxRequest says
// otherwise: the longest line of a script file (ops.ParseFile) and room
// for the request around it. A longer line ends the server with an error
// rather than being read into memory without end.
const DefaultMaxRequest = 64 << 20

// readRequest reads one line, at most limit bytes; a longer one is an
// error, read no further.
func readRequest(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return nil, fmt.Errorf("a request line longer than %d bytes (%d MiB): refused, and the server ends", limit, limit>>20)
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// server is one run of the protocol: the declaration and the session
// being served.
type server struct {
	o       Options
	claim   string
	configs []string
	kinds   []string
	run     *driver.Run
	dir     string
	ids     *minter
	written string // the kind of the next op, written with the last one (Options.Together)
}

// Serve answers requests from in on out until bye or the end of in.
func Serve(in io.Reader, out io.Writer, o Options) error {
	s := newServer(o)
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	limit := o.MaxRequest
	if limit <= 0 {
		limit = DefaultMaxRequest
	}
	for {
		line, err := readRequest(r, limit)
		if len(line) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		reply, bye := s.answer(line)
		if _, err := w.Write(append(reply, '\n')); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if bye {
			return nil
		}
	}
}

func newServer(o Options) *server {
	s := &server{o: o}
	switch {
	case o.Flags == nil:
		s.claim = "rollout"
		for _, fl := range flags.Rollout {
			s.configs = append(s.configs, fl.String())
		}
	case *o.Flags == flags.Off:
		s.claim, s.configs = "legacy", []string{"off"}
	case *o.Flags == flags.All:
		s.claim, s.configs = "target", []string{"target"}
	default:
		s.claim, s.configs = "rollout", []string{o.Flags.String()}
	}
	for _, k := range ops.Kinds() {
		// A server of one flag set keeps its writers' flags: no flag op,
		// no writer taking over on other flags.
		if k != "session" && (k != "flag" && k != "writer" || o.Flags == nil) {
			s.kinds = append(s.kinds, k)
		}
	}
	return s
}

// answer is the reply to one request line, and whether it was bye.
func (s *server) answer(line []byte) ([]byte, bool) {
	var req protocol.Request
	if err := json.Unmarshal(line, &req); err != nil {
		return s.errorf(0, "the request is not a JSON object: %v", err), false
	}
	var reply any
	var err error
	switch req.Type {
	case protocol.TypeHello:
		reply, err = s.hello(req)
	case protocol.TypeSession:
		reply, err = s.session(req)
	case protocol.TypeOp:
		reply, err = s.op(req)
		if err != nil {
			return s.errorf(req.Seq, "%v", err), false
		}
	case protocol.TypeView:
		var b []byte
		if b, err = s.view(req); err == nil {
			return b, false
		}
	case protocol.TypeRestart:
		reply, err = s.restart()
	case protocol.TypeBye:
		b, _ := json.Marshal(protocol.Reply{Type: protocol.TypeBye})
		return b, true
	default:
		err = fmt.Errorf("no request of type %q", req.Type)
	}
	if err != nil {
		return s.errorf(0, "%s: %v", req.Type, err), false
	}
	b, err := json.Marshal(reply)
	if err != nil {
		return s.errorf(0, "%s: %v", req.Type, err), false
	}
	return b, false
}

func (s *server) errorf(seq int, format string, args ...any) []byte {
	b, _ := json.Marshal(protocol.Reply{Type: protocol.TypeError, Seq: seq, Error: fmt.Sprintf(format, args...)})
	return b
}

func (s *server) hello(req protocol.Request) (any, error) {
	if req.Protocol != protocol.Version {
		return nil, fmt.Errorf("protocol %d: this server speaks protocol %d", req.Protocol, protocol.Version)
	}
	name := "sessiondag impl/ (" + s.claim
	if s.o.Flags != nil {
		name += ", flags " + s.o.Flags.String()
	}
	if s.o.Mint {
		name += ", own ids"
	}
	var together [][]string
	for _, p := range s.o.Together {
		together = append(together, []string{p[0], p[1]})
	}
	return protocol.Hello{Type: protocol.TypeHello, Protocol: protocol.Version, Name: name + ")", Claims: s.claim,
		Ops: s.kinds, Configs: s.configs, Views: append([]string{"load"}, protocol.OptionalViews...), Restart: true,
		Together: together}, nil
}

// session starts a new session, ending the one before.
func (s *server) session(req protocol.Request) (any, error) {
	writer := flags.Off
	if s.o.Flags != nil {
		writer = *s.o.Flags
	} else if req.Writer != "" {
		fl, err := flags.Parse(req.Writer)
		if err != nil {
			return nil, fmt.Errorf("writer: %w", err)
		}
		writer = fl
	}
	if req.ID == "" {
		return nil, errors.New("no session id")
	}
	run, err := driver.StartWith(ops.Session{ID: req.ID}, req.Dir, writer, store.WriteOptions{NoSync: true})
	if err != nil {
		return nil, err
	}
	s.run, s.dir = run, req.Dir
	s.ids, s.written = nil, ""
	if s.o.Mint {
		s.ids = newMinter()
	}
	return protocol.Reply{Type: protocol.TypeSession}, nil
}

// op applies one op of the op language.
func (s *server) op(req protocol.Request) (any, error) {
	if s.run == nil {
		return nil, errors.New("no session")
	}
	script, err := ops.ParseString(req.Op)
	if err != nil {
		return nil, err
	}
	if len(script) != 1 {
		return nil, fmt.Errorf("%d ops in one request", len(script))
	}
	op := script[0]
	if !slices.Contains(s.kinds, op.Kind()) {
		return nil, fmt.Errorf("%s ops are not written here", op.Kind())
	}
	if s.written != "" {
		if op.Kind() != s.written {
			return nil, fmt.Errorf("%s ops are written with the op before: a %s op comes between", s.written, op.Kind())
		}
		s.written = ""
		return protocol.Reply{Type: protocol.TypeOp, Seq: req.Seq}, nil
	}
	if s.ids != nil {
		op = s.ids.own(op)
	}
	before := s.run.W.S.Len()
	if err := s.run.Apply(op); err != nil {
		return nil, err
	}
	if second := s.joined(op.Kind()); second != nil {
		if err := s.run.Apply(second); err != nil {
			return nil, fmt.Errorf("the %s op written with it: %w", second.Kind(), err)
		}
		s.written = second.Kind()
	}
	reply := protocol.Reply{Type: protocol.TypeOp, Seq: req.Seq}
	if s.ids != nil {
		ids := map[string]string{}
		add := func(script, own string) { ids[script] = own }
		for _, n := range s.run.W.S.Nodes()[min(before, s.run.W.S.Len()):] { // a drop writes none
			if back := s.ids.back(n.ID); back != n.ID {
				add(back, n.ID)
			}
		}
		// A task's id is the one the script names (minted as the nodes are),
		// else the attach row's (writer.Spawn) or the sub-agent user's
		// (writer.TaskRunner): minted with it.
		switch sp := script[0].(type) {
		case ops.Spawn:
			switch own := op.(ops.Spawn); {
			case sp.Task != "" && own.Task != sp.Task:
				add(sp.Task, own.Task)
			case sp.Task == "" && own.Attach != sp.Attach:
				add(writer.TaskID(sp.Attach), writer.TaskID(own.Attach))
			}
		case ops.Task: // the task runner's id: the script's, else t_<sub-agent user> (writer.TaskRunner)
			switch own := op.(ops.Task); {
			case !sp.Async || sp.Rooted:
			case sp.TaskID != "" && own.TaskID != sp.TaskID:
				add(sp.TaskID, own.TaskID)
			case sp.TaskID == "" && own.ID != sp.ID:
				add(writer.TaskID(sp.ID), writer.TaskID(own.ID))
			}
		}
		if len(ids) > 0 {
			if reply.IDs, err = json.Marshal(ids); err != nil {
				return nil, err
			}
		}
	}
	return reply, nil
}

// joined is the op written in one step with an op of kind k (Options.Together),
// or nil.
func (s *server) joined(kind string) ops.Op {
	for _, p := range s.o.Together {
		if p[0] == kind {
			script, err := ops.ParseString(p[1])
			if err != nil || len(script) != 1 {
				return nil // refused when the server starts (Check)
			}
			return script[0]
		}
	}
	return nil
}

// Check reports whether the options can be served: each pair of Together
// is of two op kinds the server writes, its second one that takes no
// fields.
func (o Options) Check() error {
	kinds := newServer(Options{Flags: o.Flags}).kinds
	for _, p := range o.Together {
		for _, k := range p {
			if !slices.Contains(kinds, k) {
				return fmt.Errorf("together %s+%s: %q is not an op kind written here", p[0], p[1], k)
			}
		}
		if script, err := ops.ParseString(p[1]); err != nil || len(script) != 1 {
			return fmt.Errorf("together %s+%s: a %s op takes fields: it cannot be written without its own line", p[0], p[1], p[1])
		}
	}
	return nil
}

// config is the flag set a view's config names.
func (s *server) config(c string) (flags.Set, error) {
	if !slices.Contains(s.configs, c) {
		return 0, fmt.Errorf("config %q is not one of %v", c, s.configs)
	}
	if c == "target" {
		return flags.All, nil
	}
	return flags.Parse(c)
}

// view is every view at the persisted head, and the chain before the
// card pass.
func (s *server) view(req protocol.Request) ([]byte, error) {
	if s.run == nil {
		return nil, errors.New("no session")
	}
	fl, err := s.config(req.Config)
	if err != nil {
		return nil, err
	}
	st := s.run.W.S.AtPersistedHead()
	return viewReply(webui.Views(st, fl), webui.Load(st, fl).BeforeCards)
}

// restart drops every cache: the store is read again from its directory.
// The writer's own state (the browser's head, a turn in progress) stays,
// as a server's sessions outlive one worker, and so does the head in
// memory.
func (s *server) restart() (any, error) {
	if s.run == nil {
		return nil, errors.New("no session")
	}
	if s.dir == "" {
		return nil, errors.New("the session is in memory only")
	}
	live := s.run.W.S
	cold, err := store.Open(s.dir)
	if err != nil {
		return nil, err
	}
	if len(cold.Problems) > 0 {
		return nil, fmt.Errorf("the directory reads back with problems: %v", cold.Problems)
	}
	cold.Writes = live.Writes
	cold.MoveHead(live.Head())
	s.run.Reopen(cold)
	return protocol.Reply{Type: protocol.TypeRestart}, nil
}

// viewReply writes the reply with each message through its own encoder,
// keys in the original's order (json.Marshal would re-validate every row).
func viewReply(v webui.View, beforeCards []*adapter.Message) ([]byte, error) {
	b := []byte(`{"session_id":`)
	b = appendJSON(b, v.SessionID)
	b = append(b, `,"stored_head":`...)
	b = appendJSON(b, v.StoredHead)
	b = append(b, `,"head_id":`...)
	h, err := v.HeadID.MarshalJSON()
	if err != nil {
		return nil, err
	}
	b = append(b, h...)
	b = append(b, `,"fallback_used":`...)
	b = appendJSON(b, v.FallbackUsed)
	for _, l := range []struct {
		key  string
		msgs []*adapter.Message
	}{{"messages", v.Messages}, {"all", v.All}, {"chain", v.Chain}, {"branch", v.Branch}, {"before_cards", beforeCards}} {
		if l.key == "before_cards" {
			b = append(b, `,"render":`...)
			b = appendJSON(b, nonNil(v.Render))
		}
		b = append(b, `,"`+l.key+`":[`...)
		for i, m := range l.msgs {
			if i > 0 {
				b = append(b, ',')
			}
			mb, err := m.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b = append(b, mb...)
		}
		b = append(b, ']')
	}
	return protocol.AppendViewReply(nil, append(b, '}')), nil
}

func appendJSON(b []byte, v any) []byte {
	x, _ := json.Marshal(v)
	return append(b, x...)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
