package audit

import (
	"fmt"
	"io"
	"time"
)

// Progress reports how far a run is, on a writer of its own (stderr): while
// the tree is walked, the directories walked and the sessions found; while
// sessions are audited, how many of how many, the nodes, sessions and nodes
// per second, the time elapsed and an estimate of the time left. On a
// terminal (Redraw) one line is drawn over again, at most every Every
// (default 100 ms); elsewhere (a CI log, a file) a plain line is written
// every Every (default 5 s), so that a long run is never silent and a short
// one writes nothing.
type Progress struct {
	W      io.Writer
	Redraw bool
	Every  time.Duration
	Now    func() time.Time // the clock (default time.Now)

	start, last time.Time
	drawn       bool // a redrawn line is on the terminal
}

func (p *Progress) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Progress) every() time.Duration {
	switch {
	case p.Every > 0:
		return p.Every
	case p.Redraw:
		return 100 * time.Millisecond
	}
	return 5 * time.Second
}

// begin starts the clock.
func (p *Progress) begin() {
	if p == nil {
		return
	}
	p.start = p.now()
	p.last = p.start
}

// due reports whether a line is due now.
func (p *Progress) due() bool {
	now := p.now()
	if now.Sub(p.last) < p.every() {
		return false
	}
	p.last = now
	return true
}

func (p *Progress) line(s string) {
	if p.Redraw {
		fmt.Fprintf(p.W, "\r\033[K%s", s)
		p.drawn = true
		return
	}
	fmt.Fprintln(p.W, s)
}

// mark is the progress clock's time now (the wall clock when p is nil).
func (p *Progress) mark() time.Time {
	if p == nil {
		return time.Now()
	}
	return p.now()
}

// walking reports the walk of the tree.
func (p *Progress) walking(dirs, sessions int) {
	if p == nil || !p.due() {
		return
	}
	p.line(fmt.Sprintf("audit: walking the tree: %d directories, %d session directories found, %s", dirs, sessions, seconds(p.now().Sub(p.start))))
}

// audited reports done of total sessions, nodes nodes, audited since the
// walk ended (at).
func (p *Progress) audited(done, total, nodes int, at time.Time) {
	if p == nil || !p.due() {
		return
	}
	p.line(progressLine(done, total, nodes, p.now().Sub(at), p.now().Sub(p.start)))
}

// progressLine is one report of an audit under way: elapsed is the time
// spent auditing (the rates and the estimate), total the whole run's.
func progressLine(done, total, nodes int, elapsed, whole time.Duration) string {
	s := fmt.Sprintf("audit: %d/%d sessions, %d nodes, %s", done, total, nodes, seconds(whole))
	if t := elapsed.Seconds(); t > 0 && done > 0 {
		s += fmt.Sprintf(" (%.1f sessions/s, %.0f nodes/s), about %s left", float64(done)/t, float64(nodes)/t,
			seconds(time.Duration(float64(elapsed)/float64(done)*float64(total-done))))
	}
	return s
}

// end clears a redrawn line.
func (p *Progress) end() {
	if p != nil && p.drawn {
		fmt.Fprint(p.W, "\r\033[K")
		p.drawn = false
	}
}

func seconds(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}
