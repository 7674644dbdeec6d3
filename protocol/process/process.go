package process

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
	"unicode/utf8"

	"sessiondag/internal/termtext"
	"sessiondag/protocol"
)

// DefaultMaxReply bounds one reply line unless Options.MaxReply says
// otherwise: a reply costs the harness many times its size in memory
// (read into values, about 8×; compared with the models' view when it
// differs, up to about 90×), so a process that writes a longer line is
// stopped with a protocol finding rather than read, and a failing view
// costs at most about 1.5 GB.
const DefaultMaxReply = 16 << 20

// exitGrace is how long the harness waits, once a process has closed its
// output, for its exit status (and for the rest of its stderr) before it
// reports what it has.
const exitGrace = 2 * time.Second

// process is one running implementation: its pipes, a reader of its
// replies, the tail of its stderr and whether it is still usable.
type process struct {
	command string
	maxLine int // the longest reply line read
	cmd     *exec.Cmd
	stdin   *os.File
	replies chan reply
	exited  chan struct{} // closed once the process has exited
	waitErr error         // its exit status, once exited is closed
	stderr  *tail
	errDone chan struct{} // closed once stderr reached its end
	done    chan struct{} // closed when the harness stops reading replies
	once    sync.Once
	broken  *protocol.Broken
}

// reply is one line of output, or the error that ended the output.
type reply struct {
	line []byte
	err  error
}

// start runs `sh -c command` in its own session, in dir ("" = the
// harness's working directory); its reply lines are read up to maxLine
// bytes.
func start(command, dir string, maxLine int) (*process, error) {
	if err := starting(); err != nil {
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	defer started()
	return startRecorded(command, dir, maxLine)
}

// startRecorded is start once the start is allowed: the process is
// recorded (register) before it returns, or killed.
func startRecorded(command, dir string, maxLine int) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	ownSession(cmd)
	err = cmd.Start()
	// The child holds its own ends now.
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	p := &process{command: command, maxLine: maxLine, cmd: cmd, stdin: inW, replies: make(chan reply),
		exited: make(chan struct{}), stderr: newTail(stderrLines), errDone: make(chan struct{}), done: make(chan struct{})}
	if err := register(p); err != nil {
		killTree(cmd)
		cmd.Wait()
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %q: %w", command, err)
	}
	go p.readReplies(outR)
	go func() {
		defer close(p.errDone)
		defer errR.Close()
		p.stderr.read(errR)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// readReplies hands each line of output to the request waiting for it,
// until the output ends or the harness stops reading.
func (p *process) readReplies(out *os.File) {
	defer out.Close()
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := readLine(r, p.maxLine)
		select {
		case p.replies <- reply{line: line, err: err}:
		case <-p.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// readLine reads up to a newline, at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			if len(line) > max {
				return nil, fmt.Errorf("a reply line longer than %s, the bound of a reply (--impl-max-reply); not read", sizeText(max))
			}
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, fmt.Errorf("its output ended inside a line: %s", clip(line))
		default:
			return nil, err
		}
	}
}

// call sends one request and waits, at most timeout, for the reply: a JSON
// object whose type is want (or "error", which the caller reads). Anything
// else breaks the process: it is killed and every later call returns the
// same Broken.
func (p *process) call(request string, req protocol.Request, want string, timeout time.Duration) (*protocol.Reply, []byte, *protocol.Broken) {
	if p.broken != nil {
		return nil, nil, p.broken
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, nil, p.breakWith(request, "the request does not encode: "+err.Error())
	}
	deadline := time.Now().Add(timeout)
	if err := p.stdin.SetWriteDeadline(deadline); err == nil {
		if _, err := p.stdin.Write(append(b, '\n')); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return nil, nil, p.breakWith(request, fmt.Sprintf("did not read its input within %s; killed", timeout))
			}
			return nil, nil, p.ended(request, "closed its input")
		}
	} else if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		return nil, nil, p.ended(request, "closed its input")
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case r := <-p.replies:
		if r.err != nil {
			what := "closed its output"
			if !errors.Is(r.err, io.EOF) {
				what = r.err.Error()
			}
			return nil, nil, p.ended(request, what)
		}
		rep, b := p.parse(request, r.line, want)
		return rep, r.line, b
	case <-timer.C:
		return nil, nil, p.breakWith(request, fmt.Sprintf("no reply within %s; killed", timeout))
	}
}

// parse reads a reply line: one JSON object of the wanted type or an
// error.
func (p *process) parse(request string, line []byte, want string) (*protocol.Reply, *protocol.Broken) {
	var r protocol.Reply
	if err := protocol.DecodeReply(line, &r); err != nil {
		return nil, p.breakWith(request, fmt.Sprintf("the reply is not one JSON object on one line (%v): %s", err, clip(line)))
	}
	switch {
	case r.Type == "":
		return nil, p.breakWith(request, fmt.Sprintf("the reply has no type: %s", clip(line)))
	case r.Type == protocol.TypeError:
		if r.Error == "" {
			return nil, p.breakWith(request, fmt.Sprintf("an error reply without an error string: %s", clip(line)))
		}
	case r.Type != want:
		return nil, p.breakWith(request, fmt.Sprintf("a reply of type %q to a %s request: %s", termtext.Line(r.Type), want, clip(line)))
	}
	return &r, nil
}

// ended is the Broken of a process whose output or input ended: its exit
// status when it exited within the grace period.
func (p *process) ended(request, what string) *protocol.Broken {
	select {
	case <-p.exited:
		what += fmt.Sprintf(" and exited (%s)", exitText(p.waitErr))
	case <-time.After(exitGrace):
		what += " (still running; killed)"
	}
	return p.breakWith(request, what)
}

// breakWith kills the process and records why, with its last stderr lines.
func (p *process) breakWith(request, what string) *protocol.Broken {
	p.kill()
	select {
	case <-p.errDone:
	case <-time.After(exitGrace):
	}
	p.broken = &protocol.Broken{Request: request, What: what, Stderr: p.stderr.lines()}
	return p.broken
}

// kill ends the process, its process group and what is left in its
// session, and releases the pipes.
func (p *process) kill() {
	killTree(p.cmd)
	p.stop()
	select {
	case <-p.exited:
	case <-time.After(exitGrace):
	}
	forget(p)
}

// bye ends a process that is still usable: bye, then its input closes and
// it has a short time to exit before it is killed. What it started and
// left running (a background child in its group or session) is killed
// either way.
func (p *process) bye(timeout time.Duration) {
	if p.broken == nil {
		p.call("bye", protocol.Request{Type: protocol.TypeBye}, protocol.TypeBye, timeout)
	}
	p.stop()
	select {
	case <-p.exited:
	case <-time.After(exitGrace):
	}
	p.kill()
}

// stop closes the process's input and stops reading its output.
func (p *process) stop() {
	p.once.Do(func() {
		p.stdin.Close()
		close(p.done)
	})
}

func exitText(err error) string {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return "status 0"
	case errors.As(err, &ee):
		return ee.ProcessState.String()
	}
	return err.Error()
}

// sizeText says a number of bytes in the unit a person reads.
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// clipOp is an op's text cut to a readable length for the name of a
// request: every finding about the op and the requests after it repeats
// it (the saved file holds the whole op).
func clipOp(text string) string {
	const n = 200
	if len(text) <= n {
		return text
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("… (%d bytes)", len(text))
}

// clip is a reply cut to a readable length, safe for a terminal.
func clip(b []byte) string {
	const n = 300
	s := string(b)
	if len(s) > n {
		s = s[:n] + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return termtext.Line(s)
}

// stderrLines is how many lines of stderr a finding shows.
const stderrLines = 20

// tail keeps the last lines a process wrote to stderr.
type tail struct {
	mu   sync.Mutex
	n    int
	kept []string
}

func newTail(n int) *tail { return &tail{n: n} }

func (t *tail) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if len(line) > 500 {
			line = line[:500] + "…"
		}
		t.mu.Lock()
		t.kept = append(t.kept, termtext.Line(line))
		if len(t.kept) > t.n {
			t.kept = t.kept[len(t.kept)-t.n:]
		}
		t.mu.Unlock()
	}
}

func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.kept...)
}
