package harness

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"sessiondag/protocol"

	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/ops"
)

// viewsOfLoad is an Impl that gives the views under fl from a load it
// gave under fl since the last op, without loading again (InProcess).
type viewsOfLoad interface {
	ViewsOf(fl flags.Set, l *webui.Loaded) (webui.View, error)
}

// InProcessAbout is what the in-process implementation is: every op, every
// config of the rollout path, every view, its store open to the checks.
var InProcessAbout = func() protocol.About {
	a := protocol.About{Name: "sessiondag impl/ (in-process)", Claim: protocol.ClaimRollout, Views: protocol.OptionalViews,
		Restart: true, InProcess: true}
	for _, fl := range flags.Rollout {
		a.Configs = append(a.Configs, fl.String())
	}
	return a
}()

// ErrNotApplicable marks what a check or a script cannot judge on an
// implementation: it is reported as not run, never as a pass.
var ErrNotApplicable = errors.New("not applicable")

func notApplicable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotApplicable, fmt.Sprintf(format, args...))
}

// TakesData reports whether the implementation a writes data of a kind: a
// legacy implementation writes with every flag off and no flag ops, a
// target one as intended (data written with the flags on), a rollout one
// with the writers' flags at a config it declares, flag ops only if it
// writes them.
func TakesData(a protocol.About, d Data) error {
	_, err := DataLacks(a, d)
	return err
}

// DataLacks is what an implementation lacks to write data of a kind, in
// the words of "not run: needs …" ("" when it writes it: err is then nil),
// and the error TakesData gives.
func DataLacks(a protocol.About, d Data) (string, error) {
	need := "data " + d.Name
	switch {
	case a.InProcess:
		return "", nil
	case a.Claim == protocol.ClaimLegacy && (d.Writer != flags.Off || d.Flips != Steady):
		return need, notApplicable("%s claims the legacy: it writes with every flag off, not %s", a.Name, d.Name)
	case a.Claim == protocol.ClaimTarget && d.Writer != flags.All:
		return need, notApplicable("%s claims the target: it writes as intended, which is data written with the flags on, not %s", a.Name, d.Name)
	case a.Claim == protocol.ClaimRollout && !slices.Contains(a.Configs, d.Writer.String()):
		return need, notApplicable("%s does not write with flags %s (configs: %s)", a.Name, d.Writer, strings.Join(a.Configs, " "))
	case d.Flips != Steady && !a.Writes("flag") && !a.Writes("writer"):
		return "flag or writer ops", notApplicable("%s writes neither flag nor writer ops, which %s has", a.Name, d.Name)
	}
	return "", nil
}

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

func (inProcessStarter) About() protocol.About { return InProcessAbout }

func (inProcessStarter) Start(st protocol.Start) (protocol.Impl, error) {
	r, err := driver.StartWith(ops.Session{ID: st.SessionID}, st.Dir, st.Writer, store.WriteOptions{NoSync: st.NoSync})
	if err != nil {
		return nil, err
	}
	return NewInProcess(r), nil
}

// InProcessStarter starts the implementation in this repository.
var InProcessStarter protocol.Starter = inProcessStarter{}

// ApplicableTo keeps the checks an implementation can be judged on
// (Check.Applies), each on the kinds of data it declares that the
// implementation writes (About.TakesData), and says why each of the others
// is left out: what hunt and exhaust run against another implementation.
func ApplicableTo(checks []Check, a protocol.About) ([]Check, []string) {
	var out []Check
	var notRun []string
	for _, c := range checks {
		if err := c.Applies(a); err != nil {
			notRun = append(notRun, Why(err))
			continue
		}
		var data []Data
		for _, d := range c.Data {
			if err := TakesData(a, d); err != nil {
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
