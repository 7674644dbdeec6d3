package process

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"sessiondag/internal/termtext"
	"sessiondag/protocol"
)

// DefaultTimeout is the deadline of one request (docs/protocol.md): a
// restart gets twice as long, the handshake of a new process three times.
const DefaultTimeout = 10 * time.Second

// Options configure a Pool.
type Options struct {
	Timeout time.Duration // per request; 0 = DefaultTimeout
	// MaxReply bounds one reply line, in bytes; 0 = DefaultMaxReply. A
	// longer line is a protocol finding, and the process is stopped.
	MaxReply int
	Tmp      string // where session directories are made; "" = the system's
	Dir      string // the working directory of the processes; "" = the harness's
	// KnownWithout checks the names of a hello's without list: the
	// generator's (gen.Without), which the protocol does not define.
	KnownWithout func(names []string) error
}

// A Pool runs one implementation command: it keeps the processes that
// served a session for the next one, and starts another when every one it
// has is serving.
type Pool struct {
	command  string
	timeout  time.Duration
	maxReply int
	tmp      string
	dir      string
	known    func([]string) error
	about    protocol.About

	mu     sync.Mutex
	idle   []*process
	all    []*process
	closed bool
}

var _ protocol.Starter = (*Pool)(nil)

// Open starts the command once and shakes hands with it: what it declares
// is the pool's About. The process is kept for the first session.
func Open(command string, o Options) (*Pool, error) {
	switch {
	case o.Timeout < 0:
		return nil, fmt.Errorf("implementation %q: a deadline of %s: want a positive one (0: the default, %s)", command, o.Timeout, DefaultTimeout)
	case o.Timeout == 0:
		o.Timeout = DefaultTimeout
	}
	switch {
	case o.MaxReply < 0:
		return nil, fmt.Errorf("implementation %q: a bound of %d bytes on a reply: want a positive one (0: the default, %s)", command, o.MaxReply, sizeText(DefaultMaxReply))
	case o.MaxReply == 0:
		o.MaxReply = DefaultMaxReply
	}
	if o.KnownWithout == nil {
		return nil, fmt.Errorf("implementation %q: no check of the names a hello's without list may give (Options.KnownWithout)", command)
	}
	p := &Pool{command: command, timeout: o.Timeout, maxReply: o.MaxReply, tmp: o.Tmp, dir: o.Dir, known: o.KnownWithout}
	proc, about, err := p.spawn()
	if err != nil {
		return nil, err
	}
	p.about = about
	p.idle = []*process{proc}
	return p, nil
}

// About is what the implementation declared in its handshake.
func (p *Pool) About() protocol.About { return p.about }

// Command is the command the pool runs.
func (p *Pool) Command() string { return p.command }

// spawn starts a process and reads its handshake.
func (p *Pool) spawn() (*process, protocol.About, error) {
	proc, err := start(p.command, p.dir, p.maxReply)
	if err != nil {
		return nil, protocol.About{}, err
	}
	p.mu.Lock()
	closed := p.closed
	p.all = append(p.all, proc)
	p.mu.Unlock()
	if closed {
		proc.kill()
		return nil, protocol.About{}, fmt.Errorf("implementation %q: the pool is closed", p.command)
	}
	r, line, b := proc.call("hello", protocol.Request{Type: protocol.TypeHello, Protocol: protocol.Version}, protocol.TypeHello, 3*p.timeout)
	if b != nil {
		return nil, protocol.About{}, fmt.Errorf("implementation %q: the handshake failed: %w%s", p.command, b, stderrNote(b))
	}
	if r.Type == protocol.TypeError {
		proc.kill()
		return nil, protocol.About{}, fmt.Errorf("implementation %q refused the handshake: %s", p.command, termtext.Line(r.Error))
	}
	var h protocol.Hello
	err = protocol.DecodeReply(line, &h)
	a := protocol.About{}
	if err == nil {
		a, err = protocol.ParseHello(h, p.command, p.known)
	}
	if err != nil {
		b := proc.breakWith("hello", err.Error())
		return nil, protocol.About{}, fmt.Errorf("implementation %q: its hello is not one the harness can use: %w%s", p.command, err, stderrNote(b))
	}
	return proc, a, nil
}

// Start starts a session on a process of the pool (an idle one, else a
// new one). A process that fails to take the session is a *protocol.Broken.
func (p *Pool) Start(st protocol.Start) (protocol.Impl, error) {
	proc, err := p.get()
	if err != nil {
		return nil, err
	}
	s := &Session{pool: p, p: proc, dir: st.Dir}
	if s.dir == "" {
		parent, err := makeDir(p.tmp)
		if err != nil {
			p.put(proc)
			return nil, fmt.Errorf("a directory for the session: %w", err)
		}
		s.owned, s.dir = parent, filepath.Join(parent, st.SessionID)
		if err := os.Mkdir(s.dir, 0o755); err != nil {
			s.Close()
			return nil, fmt.Errorf("a directory for the session: %w", err)
		}
	}
	request := fmt.Sprintf("session %s", st.SessionID)
	r, _, b := proc.call(request, protocol.Request{Type: protocol.TypeSession, ID: st.SessionID, Dir: s.dir, Writer: st.Writer.String()}, protocol.TypeSession, p.timeout)
	if b == nil && r.Type == protocol.TypeError {
		b = proc.breakWith(request, "refused: "+termtext.Line(r.Error))
	}
	if b != nil {
		s.Close()
		return nil, b
	}
	if r.Dir != "" {
		s.dir = r.Dir
	}
	return s, nil
}

// get takes an idle process or starts one.
func (p *Pool) get() (*process, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, fmt.Errorf("implementation %q: the pool is closed", p.command)
	}
	if n := len(p.idle); n > 0 {
		proc := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return proc, nil
	}
	p.mu.Unlock()
	proc, a, err := p.spawn()
	if err != nil {
		return nil, err
	}
	if !a.Same(p.about) {
		proc.kill()
		return nil, fmt.Errorf("implementation %q: a second process declared otherwise than the first:\n  %s\n  %s", p.command, p.about.Describe(), a.Describe())
	}
	return proc, nil
}

// put takes a process back once its session is over; a broken one is
// dropped (it was killed).
func (p *Pool) put(proc *process) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if proc.broken != nil || p.closed {
		if p.closed && proc.broken == nil {
			go proc.bye(p.timeout)
		}
		return
	}
	p.idle = append(p.idle, proc)
}

// Close says bye to every process and stops those that do not exit.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	all := p.all
	idle := map[*process]bool{}
	for _, proc := range p.idle {
		idle[proc] = true
	}
	p.idle = nil
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, proc := range all {
		wg.Go(func() {
			if idle[proc] {
				proc.bye(p.timeout)
			} else if proc.broken == nil {
				proc.kill()
			}
		})
	}
	wg.Wait()
}

func stderrNote(b *protocol.Broken) string {
	if b == nil || len(b.Stderr) == 0 {
		return ""
	}
	out := "\nlast lines of stderr:"
	for _, l := range b.Stderr {
		out += "\n    " + l
	}
	return out
}
