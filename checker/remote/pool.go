package remote

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"sessiondag/checker/harness"
	"sessiondag/impl/node"
)

// DefaultTimeout is the deadline of one request (docs/protocol.md): a
// restart gets twice as long, the handshake of a new process three times.
const DefaultTimeout = 10 * time.Second

// Options configure a Pool.
type Options struct {
	Timeout time.Duration // per request; 0 = DefaultTimeout
	Tmp     string        // where session directories are made; "" = the system's
	Dir     string        // the working directory of the processes; "" = the harness's
}

// A Pool runs one implementation command: it keeps the processes that
// served a session for the next one, and starts another when every one it
// has is serving.
type Pool struct {
	command string
	timeout time.Duration
	tmp     string
	dir     string
	about   harness.About

	mu     sync.Mutex
	idle   []*process
	all    []*process
	closed bool
}

var _ harness.Starter = (*Pool)(nil)

// Open starts the command once and shakes hands with it: what it declares
// is the pool's About. The process is kept for the first session.
func Open(command string, o Options) (*Pool, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	p := &Pool{command: command, timeout: o.Timeout, tmp: o.Tmp, dir: o.Dir}
	proc, about, err := p.spawn()
	if err != nil {
		return nil, err
	}
	p.about = about
	p.idle = []*process{proc}
	return p, nil
}

// About is what the implementation declared in its handshake.
func (p *Pool) About() harness.About { return p.about }

// Command is the command the pool runs.
func (p *Pool) Command() string { return p.command }

// spawn starts a process and reads its handshake.
func (p *Pool) spawn() (*process, harness.About, error) {
	proc, err := start(p.command, p.dir)
	if err != nil {
		return nil, harness.About{}, err
	}
	p.mu.Lock()
	p.all = append(p.all, proc)
	p.mu.Unlock()
	o, b := proc.call("hello", helloRequest{Type: "hello", Protocol: Version}, "hello", 3*p.timeout)
	if b != nil {
		return nil, harness.About{}, fmt.Errorf("implementation %q: the handshake failed: %w%s", p.command, b, stderrNote(b))
	}
	if o.Get("type").S == "error" {
		proc.kill()
		return nil, harness.About{}, fmt.Errorf("implementation %q refused the handshake: %s", p.command, o.Get("error").S)
	}
	a, err := parseHello(node.ObjV(o), p.command)
	if err != nil {
		b := proc.breakWith("hello", err.Error())
		return nil, harness.About{}, fmt.Errorf("implementation %q: its hello is not one the harness can use: %w%s", p.command, err, stderrNote(b))
	}
	return proc, a, nil
}

// Start starts a session on a process of the pool (an idle one, else a
// new one). A process that fails to take the session is a *harness.Broken.
func (p *Pool) Start(st harness.Start) (harness.Impl, error) {
	proc, err := p.get()
	if err != nil {
		return nil, err
	}
	s := &Session{pool: p, p: proc, dir: st.Dir}
	if s.dir == "" {
		parent, err := os.MkdirTemp(p.tmp, "sessiondag-impl-")
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
	o, b := proc.call(request, sessionRequest{Type: "session", ID: st.SessionID, Dir: s.dir, Writer: st.Writer.String()}, "session", p.timeout)
	if b == nil && o.Get("type").S == "error" {
		b = proc.breakWith(request, "refused: "+o.Get("error").S)
	}
	if b != nil {
		s.Close()
		return nil, b
	}
	if d := o.Get("dir"); d.K == node.String && d.S != "" {
		s.dir = d.S
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
	if !sameAbout(a, p.about) {
		proc.kill()
		return nil, fmt.Errorf("implementation %q: a second process declared otherwise than the first:\n  %s\n  %s", p.command, describe(p.about), describe(a))
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

func stderrNote(b *harness.Broken) string {
	if b == nil || len(b.Stderr) == 0 {
		return ""
	}
	out := "\nlast lines of stderr:"
	for _, l := range b.Stderr {
		out += "\n    " + l
	}
	return out
}
