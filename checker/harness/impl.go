package harness

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/ops"
)

// Impl is the implementation under test as the loop drives it: the one in
// this repository, in-process (InProcess), or any process that speaks
// docs/protocol.md (checker/remote). The views it gives are what a browser
// loading the session now gets, with the implementation's ids renamed to
// the script's.
type Impl interface {
	// Apply writes one op. An error is the implementation refusing it, or
	// a *Broken: the implementation did not answer as the protocol says.
	Apply(op ops.Op) error
	// Load is the load under fl at the persisted head: head, fallback and
	// the lists the load shows (Linear is left out across the protocol,
	// BeforeCards too unless the implementation returns it).
	Load(fl flags.Set) (*webui.Loaded, error)
	// Views is every view of docs/views.md under fl that the
	// implementation returns (About.Views); the others are left empty.
	Views(fl flags.Set) (webui.View, error)
	// Restart drops the worker that wrote the session: the next views come
	// from what it left on disk (About.Restart).
	Restart() error
	// Close ends the session and releases what it holds.
	Close()
}

// viewsOfLoad is an Impl that gives the views under fl from a load it
// gave under fl since the last op, without loading again (InProcess).
type viewsOfLoad interface {
	ViewsOf(fl flags.Set, l *webui.Loaded) (webui.View, error)
}

// A Starter starts the implementation under test for one session.
type Starter interface {
	About() About
	Start(Start) (Impl, error)
}

// Start is what a session of the implementation starts with.
type Start struct {
	SessionID string
	Dir       string    // where the session's files go ("" = in memory, or a directory of the starter's)
	Writer    flags.Set // the writers' flags at the start
	NoSync    bool      // writes need not reach the disk before they return
}

// Claim is what an implementation says it is; it decides the properties it
// is held to (docs/protocol.md, "Handshake").
type Claim string

// The claims.
const (
	ClaimLegacy  Claim = "legacy"  // the original before the rollout: model.Legacy's views
	ClaimTarget  Claim = "target"  // the conversation as each op meant it: model.Target
	ClaimRollout Claim = "rollout" // loads under configs of the rollout path, each held to its own claim
)

// ConfigTarget is the one config of an implementation that claims the
// target and has no flags: whatever flag set a check loads under, it is
// this.
const ConfigTarget = "target"

// The views an implementation may return beyond the load (session_id,
// head_id, fallback_used, chain), by the names of the handshake.
const (
	ViewStoredHead  = "stored_head"
	ViewMessages    = "messages"
	ViewAll         = "all"
	ViewBranch      = "branch"
	ViewRender      = "render"
	ViewBeforeCards = "before_cards" // the chain before the runtime-card pass
)

// OptionalViews lists them in the order docs/protocol.md does.
var OptionalViews = []string{ViewStoredHead, ViewMessages, ViewAll, ViewBranch, ViewRender, ViewBeforeCards}

// About is what an implementation declares of itself in its handshake.
type About struct {
	Name    string
	Command string // the command that starts it ("" in-process)
	Claim   Claim
	Ops     []string // the op kinds it writes; nil = every kind
	Configs []string // the configs it loads under ("off", "A,B", …, or ConfigTarget)
	Views   []string // the views it returns beyond the load
	Restart bool     // it supports Restart
	// Unmodelled are message keys whose values the op language does not
	// determine for it (its own clock readings, token counts, a process
	// id): left out of every message of both sides before a comparison.
	Unmodelled []string
	// Together are pairs of op kinds it writes in one step (the user's
	// message and the start of its reply, say): an op of a pair's first
	// kind is always followed by one of its second, and there is no view
	// between the two to judge.
	Together [][2]string
	// Without are the variants of its op kinds it cannot write, by the
	// generator's names (gen.Without): the generator draws none of them.
	Without []string
	// InProcess is set for the implementation in this repository run in
	// the harness's own process: the checks that read its internals run.
	InProcess bool
}

// InProcessAbout is what the in-process implementation is: every op, every
// config of the rollout path, every view, its store open to the checks.
var InProcessAbout = func() About {
	a := About{Name: "sessiondag impl/ (in-process)", Claim: ClaimRollout, Views: OptionalViews,
		Restart: true, InProcess: true}
	for _, fl := range flags.Rollout {
		a.Configs = append(a.Configs, fl.String())
	}
	return a
}()

// Writes reports whether the implementation writes ops of a kind.
func (a About) Writes(kind string) bool {
	return a.Ops == nil || kind == "session" || slices.Contains(a.Ops, kind)
}

// Joined is the op kind it writes in one step with an op of kind k, which
// must come next (About.Together), or "".
func (a About) Joined(kind string) string {
	for _, p := range a.Together {
		if p[0] == kind {
			return p[1]
		}
	}
	return ""
}

// Returns reports whether it returns a view (the load's keys always).
func (a About) Returns(view string) bool { return a.InProcess || slices.Contains(a.Views, view) }

// Config is the config a load under fl asks the implementation for, or an
// error when it does not load under it.
func (a About) Config(fl flags.Set) (string, error) {
	if a.Claim == ClaimTarget && slices.Contains(a.Configs, ConfigTarget) {
		return ConfigTarget, nil
	}
	c := fl.String()
	if !slices.Contains(a.Configs, c) {
		return "", fmt.Errorf("%s does not load under flags %s (configs: %s)", a.Name, c, strings.Join(a.Configs, " "))
	}
	return c, nil
}

// ErrNotApplicable marks what a check or a script cannot judge on an
// implementation: it is reported as not run, never as a pass.
var ErrNotApplicable = errors.New("not applicable")

func notApplicable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotApplicable, fmt.Sprintf(format, args...))
}

// TakesData reports whether the implementation writes data of a kind: a
// legacy implementation writes with every flag off and no flag ops, a
// target one as intended (data written with the flags on), a rollout one
// with the writers' flags at a config it declares, flag ops only if it
// writes them.
func (a About) TakesData(d Data) error {
	switch {
	case a.InProcess:
		return nil
	case a.Claim == ClaimLegacy && (d.Writer != flags.Off || d.Flips != Steady):
		return notApplicable("%s claims the legacy: it writes with every flag off, not %s", a.Name, d.Name)
	case a.Claim == ClaimTarget && d.Writer != flags.All:
		return notApplicable("%s claims the target: it writes as intended, which is data written with the flags on, not %s", a.Name, d.Name)
	case a.Claim == ClaimRollout && !slices.Contains(a.Configs, d.Writer.String()):
		return notApplicable("%s does not write with flags %s (configs: %s)", a.Name, d.Writer, strings.Join(a.Configs, " "))
	case d.Flips != Steady && !a.Writes("flag") && !a.Writes("writer"):
		return notApplicable("%s writes neither flag nor writer ops, which %s has", a.Name, d.Name)
	}
	return nil
}

// Broken is an implementation failing to answer as the protocol says: it
// exited, closed its output, did not answer within the deadline, or wrote
// what is not a reply. It is a finding whatever the checks say.
type Broken struct {
	Request string   // what it was answering: "op 3 (reply)", "view A,B", …
	What    string   // what went wrong
	Stderr  []string // the last lines it wrote to stderr
}

func (b *Broken) Error() string { return fmt.Sprintf("%s: %s", b.Request, b.What) }

// InProcess is the implementation in this repository, driven through
// checker/driver in the harness's own process.
type InProcess struct {
	Run   *driver.Run
	store *store.Store // the session at its persisted head after the last op
}

// NewInProcess wraps a session being written through the driver.
func NewInProcess(r *driver.Run) *InProcess { return &InProcess{Run: r} }

// Apply runs the op through the writers.
func (p *InProcess) Apply(op ops.Op) error {
	p.store = nil
	return p.Run.Apply(op)
}

// Store is the session as a browser loads it (at the persisted head).
func (p *InProcess) Store() *store.Store {
	if p.store == nil {
		p.store = p.Run.W.S.AtPersistedHead()
	}
	return p.store
}

// Load is webui.Load at the persisted head.
func (p *InProcess) Load(fl flags.Set) (*webui.Loaded, error) { return load(p.Store(), fl), nil }

// Views is webui.Views at the persisted head.
func (p *InProcess) Views(fl flags.Set) (webui.View, error) { return views(p.Store(), fl), nil }

// ViewsOf is webui.ViewsOf at the persisted head.
func (p *InProcess) ViewsOf(fl flags.Set, l *webui.Loaded) (webui.View, error) {
	return webui.ViewsOf(p.Store(), fl, l), nil
}

// Restart is not how the in-process implementation's persistence is
// checked: checkPersistence loads its directory cold beside the live
// session instead, and compares the nodes byte for byte too.
func (p *InProcess) Restart() error {
	return errors.New("in-process: persistence is a cold load beside the live session")
}

// Close does nothing: the session is memory, or files its caller owns.
func (p *InProcess) Close() {}

// inProcessStarter starts InProcess sessions.
type inProcessStarter struct{}

func (inProcessStarter) About() About { return InProcessAbout }

func (inProcessStarter) Start(st Start) (Impl, error) {
	r, err := driver.StartWith(ops.Session{ID: st.SessionID}, st.Dir, st.Writer, store.WriteOptions{NoSync: st.NoSync})
	if err != nil {
		return nil, err
	}
	return NewInProcess(r), nil
}

// InProcessStarter starts the implementation in this repository.
var InProcessStarter Starter = inProcessStarter{}

// ApplicableTo keeps the checks an implementation can be judged on
// (Check.Applies), each on the kinds of data it declares that the
// implementation writes (About.TakesData), and says why each of the others
// is left out: what hunt and exhaust run against another implementation.
func ApplicableTo(checks []Check, a About) ([]Check, []string) {
	var out []Check
	var notRun []string
	for _, c := range checks {
		if err := c.Applies(a); err != nil {
			notRun = append(notRun, Why(err))
			continue
		}
		var data []Data
		for _, d := range c.Data {
			if err := a.TakesData(d); err != nil {
				notRun = append(notRun, c.Name+": "+Why(err))
				continue
			}
			data = append(data, d)
		}
		if len(data) > 0 {
			c.Data = data
			out = append(out, c)
		}
	}
	return out, notRun
}

// Why is what a not-applicable error says, without its prefix.
func Why(err error) string { return strings.TrimPrefix(err.Error(), ErrNotApplicable.Error()+": ") }
