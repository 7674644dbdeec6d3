package harness

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"sessiondag/protocol"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
	"sessiondag/ops"
)

// Session is one op script applied to the implementation under test and
// both reference models side by side, op by op: the loop every property,
// `sessiondag replay`, the hunt and the audit run. What a reader sees after
// an op (a load under a flag set, a model's view) is computed at most once
// per op, whichever checks ask for it.
type Session struct {
	Data   Data
	Impl   protocol.Impl    // nil when only the models run
	Legacy *model.LegacyRun // the target's own writer (Target.Legacy())
	Target *model.TargetRun
	Script []ops.Op

	about        protocol.About
	strict       bool             // every row so far written with every flag on
	legacyWrites bool             // every row so far written with every flag off
	flags        int              // the flags in force (the writer's performing the ops): a step of the rollout path
	broken       *protocol.Broken // the implementation stopped answering as the protocol says
	joined       string           // the op kind that must come next: the implementation writes it in one step with the last op
	step         stepCache
}

// Options configure a Session.
type Options struct {
	Data      Data
	SessionID string // "" = ops.DefaultSession
	Dir       string // the implementation writes to this directory when set; its name is the session id
	ModelOnly bool   // no implementation: what the models say is all that is needed
	NoSync    bool   // the implementation's writes skip fsync (throwaway directories)
	// Impl starts the implementation under test; nil = the implementation
	// in this repository, in-process.
	Impl protocol.Starter
}

// NewSession starts a session.
func NewSession(o Options) (*Session, error) {
	id := o.SessionID
	if id == "" {
		id = ops.DefaultSession
	}
	if o.Dir != "" && filepath.Base(o.Dir) != id {
		// The original names a session by its folder: a cold load of any
		// other folder shows another session id than the live one.
		return nil, fmt.Errorf("harness: session %s written to a folder named %s", id, filepath.Base(o.Dir))
	}
	s := &Session{Data: o.Data, Target: model.NewTarget(id), strict: true, legacyWrites: true,
		flags: stepOf(o.Data.Writer)}
	// model.Target runs the legacy writer itself, for its validity and
	// writer state: a second one would apply the same code to the same ops
	// and only repeat it (Apply tells its verdict from the target's own).
	s.Legacy = s.Target.Legacy()
	if !o.ModelOnly {
		starter := o.Impl
		if starter == nil {
			starter = InProcessStarter
		}
		s.about = starter.About()
		if err := TakesData(s.about, o.Data); err != nil {
			return nil, err
		}
		impl, err := starter.Start(protocol.Start{SessionID: id, Dir: o.Dir, Writer: o.Data.Writer, NoSync: o.NoSync})
		if err != nil {
			var b *protocol.Broken
			if errors.As(err, &b) {
				s.broken = b
				return s, nil // Apply reports it as the first op's finding
			}
			return nil, err
		}
		s.Impl = impl
	}
	return s, nil
}

// OnStore is a session of the in-process implementation over a store
// already written (the conformance corpus, say), for the checks that need
// no op script: they run on it through Check.Run.
func OnStore(r *driver.Run) *Session {
	return &Session{Impl: NewInProcess(r), about: InProcessAbout}
}

// Close ends the session: a process serving it takes the next one.
func (s *Session) Close() {
	if s.Impl != nil {
		s.Impl.Close()
	}
}

// About is what the implementation under test declared of itself.
func (s *Session) About() protocol.About { return s.about }

// Run is the in-process implementation's session, for the checks that
// read its internals; nil when the implementation is another process.
func (s *Session) Run() *driver.Run {
	if p, ok := s.Impl.(*InProcess); ok {
		return p.Run
	}
	return nil
}

// SessionIDOf is the session id a script names in its first op, else "".
func SessionIDOf(script []ops.Op) string {
	if len(script) > 0 {
		if s, ok := script[0].(ops.Session); ok {
			return s.ID
		}
	}
	return ""
}

// Apply runs op on every side. The sides must agree on whether it applies:
// when they do not, that is a Finding; when none accepts it, the script is
// not valid and Apply returns an error. An op of a kind the implementation
// does not write is not sent: Apply returns an error that is
// ErrNotApplicable.
func (s *Session) Apply(op ops.Op) (*Finding, error) {
	if s.broken != nil {
		return s.brokenFinding(), nil
	}
	if s.Impl != nil && !s.about.Writes(op.Kind()) {
		return nil, notApplicable("op %d (%s): %s does not write %s ops", len(s.Script)+1, ops.Format(op), s.about.Name, op.Kind())
	}
	if v := gen.Held(op, s.about.Without); s.Impl != nil && v != "" {
		return nil, notApplicable("op %d (%s): %s does not write it (%s, declared in without)", len(s.Script)+1, ops.Format(op), s.about.Name, v)
	}
	if s.joined != "" && op.Kind() != s.joined {
		return nil, notApplicable("op %d (%s): %s writes %s and %s ops in one step, with no op between them",
			len(s.Script)+1, ops.Format(op), s.about.Name, s.Script[len(s.Script)-1].Kind(), s.joined)
	}
	s.Script = append(s.Script, op)
	s.step = stepCache{}
	var ei error
	before, applied := s.Legacy.NodeCount(), s.Legacy.Applied()
	if s.Impl != nil {
		ei = s.Impl.Apply(op)
		if b := asBroken(ei); b != nil {
			s.broken = b
			return s.brokenFinding(), nil
		}
	}
	// Target.Apply runs the legacy writer first: it accepted the op when
	// its count of ops grew, whatever the target's own part then said.
	et := s.Target.Apply(op)
	el := et
	if s.Legacy.Applied() > applied {
		el = nil
	}
	if s.Impl == nil {
		ei, el = et, et // no side but the models': the target's verdict is the run's
	}
	if (ei == nil) != (el == nil) || (el == nil) != (et == nil) {
		return s.finding("validity", fmt.Sprintf("the writers disagree on whether op %d (%s) applies", len(s.Script), ops.Format(op)),
			fmt.Sprintf("impl: %s\nmodel.Legacy: %s\nmodel.Target: %s", errText(ei), errText(el), errText(et))), nil
	}
	if ei != nil {
		return nil, fmt.Errorf("op %d (%s): %w", len(s.Script), ops.Format(op), ei)
	}
	// A row is written with the flags in force when it is appended; flag and
	// writer ops change them, wherever they occur.
	_, s.flags = NextFlips(Steady, s.flags, op)
	if s.Legacy.NodeCount() > before {
		s.strict = s.strict && s.flags == len(flags.Rollout)-1
		s.legacyWrites = s.legacyWrites && s.flags == 0
	}
	s.joined = s.about.Joined(op.Kind())
	return nil, nil
}

// Between is an error that is ErrNotApplicable when the last op is the
// first of two the implementation writes in one step (About.Together): the
// views after it are not judged, so a script that ends there has no
// verdict on its last op.
func (s *Session) Between() error {
	if s.joined == "" {
		return nil
	}
	return notApplicable("the script ends after op %d (%s), which %s writes in one step with a %s op",
		len(s.Script), ops.Format(s.Script[len(s.Script)-1]), s.about.Name, s.joined)
}

// Step applies op and runs the checks after it: the first finding, if any.
// A check that does not apply to the implementation (Check.Applies) is an
// error: callers choose the checks that do.
func (s *Session) Step(op ops.Op, checks ...Check) (*Finding, error) {
	if f, err := s.Apply(op); f != nil || err != nil {
		return f, err
	}
	return s.Check(checks...)
}

// Check runs the checks on the session as the last op left it: the first
// finding, if any. Between two ops the implementation writes in one step
// (About.Together) there is nothing to judge: the checks run after the
// second.
func (s *Session) Check(checks ...Check) (*Finding, error) {
	if s.joined != "" {
		return nil, nil
	}
	for _, c := range checks {
		if c.Run == nil {
			return nil, fmt.Errorf("check %s does not run after each op (it reads a damaged directory: campaign.Case plays it)", c.Name)
		}
		if err := c.Applies(s.about); err != nil {
			return nil, err
		}
		f := c.Run(s)
		if s.broken != nil {
			return s.brokenFinding(), nil
		}
		if f != nil {
			f.Check, f.Data, f.Step = c.Name, s.Data, len(s.Script)
			return f, nil
		}
	}
	return nil, nil
}

// Play runs a whole script through a new session of the in-process
// implementation with the checks after every op and returns the first
// finding.
func Play(data Data, script []ops.Op, checks ...Check) (*Finding, error) {
	return PlayOn(nil, data, script, checks...)
}

// PlayOn is Play against the implementation impl starts (nil: in-process).
func PlayOn(impl protocol.Starter, data Data, script []ops.Op, checks ...Check) (*Finding, error) {
	return PlayScheduled(impl, data, script, nil, checks...)
}

// Strict reports whether every row so far was written with every flag on
// (by whichever writer): such data has no legacy ambiguity and must load
// exactly as intended.
func (s *Session) Strict() bool { return s.strict }

// LegacyWrites reports whether every row so far was written with every
// flag off: model.Legacy describes exactly such data.
func (s *Session) LegacyWrites() bool { return s.legacyWrites }

// InForce is the flags in force after the ops so far (those of the writer
// performing them), as a step of the rollout path: what the next row is
// written with, so what Strict and LegacyWrites become.
func (s *Session) InForce() int { return s.flags }

// Store is the in-process implementation's session as a browser loads it
// (at the persisted head); nil when the implementation is another process.
func (s *Session) Store() *store.Store {
	if p, ok := s.Impl.(*InProcess); ok {
		return p.Store()
	}
	return nil
}

// Load is the implementation's load under fl after the last op.
func (s *Session) Load(fl flags.Set) *webui.Loaded {
	if l, ok := s.step.loads[fl]; ok {
		return l
	}
	l, err := s.Impl.Load(fl)
	if err != nil {
		s.fail(fmt.Sprintf("load under flags %s", fl), err)
		l = &webui.Loaded{}
	}
	if s.step.loads == nil {
		s.step.loads = map[flags.Set]*webui.Loaded{}
	}
	s.step.loads[fl] = l
	return l
}

// Views is every view of the implementation under fl after the last op.
func (s *Session) Views(fl flags.Set) webui.View {
	if v, ok := s.step.views[fl]; ok {
		return v
	}
	var v webui.View
	var err error
	if vo, ok := s.Impl.(viewsOfLoad); ok {
		// Through the step's load: a check asking for the load after the
		// views, or before them, pays for one.
		v, err = vo.ViewsOf(fl, s.Load(fl))
	} else {
		v, err = s.Impl.Views(fl)
	}
	if err != nil {
		s.fail(fmt.Sprintf("views under flags %s", fl), err)
	}
	if s.step.views == nil {
		s.step.views = map[flags.Set]webui.View{}
	}
	s.step.views[fl] = v
	return v
}

// Restart restarts the implementation: the views after it come from what
// the worker left on disk. It reports whether the implementation answered.
func (s *Session) Restart() bool {
	s.step.loads, s.step.views = nil, nil
	if err := s.Impl.Restart(); err != nil {
		s.fail("restart", err)
		return false
	}
	return true
}

// Shown is a model's view with the sections the implementation does not
// return left empty, as they are in its own views.
func (s *Session) Shown(v model.View) model.View {
	a := s.about
	if a.InProcess {
		return v
	}
	if !a.Returns(protocol.ViewStoredHead) {
		v.StoredHead = ""
	}
	if !a.Returns(protocol.ViewMessages) {
		v.Messages = nil
	}
	if !a.Returns(protocol.ViewAll) {
		v.All = nil
	}
	if !a.Returns(protocol.ViewBranch) {
		v.Branch = nil
	}
	if !a.Returns(protocol.ViewRender) {
		v.Render = nil
	}
	if len(a.Unmodelled) > 0 {
		v.Messages, v.All = without(v.Messages, a.Unmodelled), without(v.All, a.Unmodelled)
		v.Chain, v.Branch = without(v.Chain, a.Unmodelled), without(v.Branch, a.Unmodelled)
	}
	return v
}

// without copies messages with the keys left out (the model's messages are
// shared between its views, so they are never changed in place).
func without(msgs []*model.Object, keys []string) []*model.Object {
	if msgs == nil {
		return nil
	}
	out := make([]*model.Object, len(msgs))
	for i, m := range msgs {
		c := &model.Object{}
		for _, f := range m.Fields {
			if !slices.Contains(keys, f.Key) {
				c.Fields = append(c.Fields, f)
			}
		}
		out[i] = c
	}
	return out
}

// fail records that the implementation did not answer a request: a Broken
// as it is, any other error as what went wrong with the request.
func (s *Session) fail(request string, err error) {
	if s.broken != nil {
		return
	}
	var b *protocol.Broken
	if !errors.As(err, &b) {
		b = &protocol.Broken{Request: request, What: err.Error()}
	}
	s.broken = b
}

// Intended is model.Target's view after the last op.
func (s *Session) Intended() model.TargetView {
	if s.step.intended == nil {
		v := s.Target.View()
		s.step.intended = &v
	}
	return *s.step.intended
}

// LegacyView is model.Legacy's view after the last op.
func (s *Session) LegacyView() model.View {
	if s.step.legacy == nil {
		v := s.Legacy.View()
		s.step.legacy = &v
	}
	return *s.step.legacy
}

// stepCache holds what readers saw after the last op.
type stepCache struct {
	loads    map[flags.Set]*webui.Loaded
	views    map[flags.Set]webui.View
	intended *model.TargetView
	legacy   *model.View
}

func (s *Session) finding(check, what, diff string) *Finding {
	return &Finding{Check: check, Data: s.Data, Step: len(s.Script), What: what, Diff: diff}
}

// Broken is the finding of an implementation that stopped answering as
// the protocol says (a view asked for outside Step, say), or nil.
func (s *Session) Broken() *Finding {
	if s.broken == nil {
		return nil
	}
	return s.brokenFinding()
}

func (s *Session) brokenFinding() *Finding {
	b := s.broken
	diff := "stderr: (nothing)"
	if len(b.Stderr) > 0 {
		diff = "last lines of stderr:\n" + "    " + strings.Join(b.Stderr, "\n    ")
	}
	return s.finding(Protocol.Name, fmt.Sprintf("%s: %s", b.Request, b.What), diff)
}

// asBroken is err as a *Broken, or nil.
func asBroken(err error) *protocol.Broken {
	if err == nil {
		return nil // no allocation on the path every op takes
	}
	var b *protocol.Broken
	if errors.As(err, &b) {
		return b
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return "applied"
	}
	return err.Error()
}
