package harness

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"sessiondag/checker/driver"
	"sessiondag/checker/ops"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// Session is one op script applied to the implementation's writers and both
// reference models side by side, op by op: the loop every property,
// `sessiondag replay`, the hunt and the audit run. What a reader sees after
// an op (a load under a flag set, a model's view) is computed at most once
// per op, whichever checks ask for it.
type Session struct {
	Data   Data
	Impl   *driver.Run      // nil when only the models run
	Legacy *model.LegacyRun // with ModelOnly, the target's own writer (Target.Legacy())
	Target *model.TargetRun
	Script []ops.Op

	strict       bool // every row so far written with every flag on
	legacyWrites bool // every row so far written with every flag off
	flags        int  // the flags in force (the writer's performing the ops): a step of the rollout path
	step         stepCache
}

// Options configure a Session.
type Options struct {
	Data      Data
	SessionID string // "" = ops.DefaultSession
	Dir       string // the implementation writes to this directory when set; its name is the session id
	ModelOnly bool   // no implementation: what the models say is all that is needed
	NoSync    bool   // the implementation's writes skip fsync (throwaway directories)
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
	// writer state: without an implementation beside it, a second one
	// would only repeat it.
	s.Legacy = s.Target.Legacy()
	if !o.ModelOnly {
		s.Legacy = model.NewLegacy(id)
		r, err := driver.StartWith(ops.Session{ID: id}, o.Dir, o.Data.Writer, store.WriteOptions{NoSync: o.NoSync})
		if err != nil {
			return nil, err
		}
		s.Impl = r
	}
	return s, nil
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
// not valid and Apply returns an error.
func (s *Session) Apply(op ops.Op) (*Finding, error) {
	s.Script = append(s.Script, op)
	s.step = stepCache{}
	var ei, el error
	before := s.Target.Legacy().NodeCount()
	if s.Impl != nil {
		ei, el = s.Impl.Apply(op), s.Legacy.Apply(op)
	}
	et := s.Target.Apply(op)
	if s.Impl == nil {
		ei, el = et, et // Legacy is the target's own writer, which Target.Apply ran
	}
	if (ei == nil) != (el == nil) || (el == nil) != (et == nil) {
		return s.finding("validity", "the writers disagree on whether the op applies",
			fmt.Sprintf("impl: %s\nmodel.Legacy: %s\nmodel.Target: %s", errText(ei), errText(el), errText(et))), nil
	}
	if ei != nil {
		return nil, fmt.Errorf("op %d (%s): %w", len(s.Script), ops.Format(op), ei)
	}
	// A row is written with the flags in force when it is appended; flag and
	// writer ops change them, wherever they occur.
	_, s.flags = NextFlips(Steady, s.flags, op)
	if s.Target.Legacy().NodeCount() > before {
		s.strict = s.strict && s.flags == len(flags.Rollout)-1
		s.legacyWrites = s.legacyWrites && s.flags == 0
	}
	return nil, nil
}

// Step applies op and runs the checks after it: the first finding, if any.
func (s *Session) Step(op ops.Op, checks ...Check) (*Finding, error) {
	if f, err := s.Apply(op); f != nil || err != nil {
		return f, err
	}
	return s.Check(checks...)
}

// Check runs the checks on the session as the last op left it: the first
// finding, if any.
func (s *Session) Check(checks ...Check) (*Finding, error) {
	for _, c := range checks {
		if c.Run == nil {
			return nil, fmt.Errorf("check %s does not run after each op (it reads a damaged directory: campaign.Case plays it)", c.Name)
		}
		if f := c.Run(s); f != nil {
			f.Check, f.Data, f.Step = c.Name, s.Data, len(s.Script)
			return f, nil
		}
	}
	return nil, nil
}

// Play runs a whole script through a new session with the checks after
// every op and returns the first finding.
func Play(data Data, script []ops.Op, checks ...Check) (*Finding, error) {
	o := Options{Data: data, SessionID: SessionIDOf(script)}
	for _, c := range checks {
		if c.OnDisk && o.Dir == "" {
			parent, err := os.MkdirTemp("", "sessiondag-play-")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(parent)
			o.Dir, o.NoSync = filepath.Join(parent, cmp.Or(o.SessionID, ops.DefaultSession)), true
		}
	}
	s, err := NewSession(o)
	if err != nil {
		return nil, err
	}
	for _, op := range script {
		if f, err := s.Step(op, checks...); f != nil || err != nil {
			return f, err
		}
	}
	return nil, nil
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

// Store is the implementation's session as a browser loads it (at the
// persisted head).
func (s *Session) Store() *store.Store {
	if s.step.store == nil {
		s.step.store = s.Impl.W.S.AtPersistedHead()
	}
	return s.step.store
}

// Load is the implementation's load under fl after the last op.
func (s *Session) Load(fl flags.Set) *webui.Loaded {
	if l, ok := s.step.loads[fl]; ok {
		return l
	}
	l := load(s.Store(), fl)
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
	v := views(s.Store(), fl)
	if s.step.views == nil {
		s.step.views = map[flags.Set]webui.View{}
	}
	s.step.views[fl] = v
	return v
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
	store    *store.Store
	loads    map[flags.Set]*webui.Loaded
	views    map[flags.Set]webui.View
	intended *model.TargetView
	legacy   *model.View
}

func (s *Session) finding(check, what, diff string) *Finding {
	return &Finding{Check: check, Data: s.Data, Step: len(s.Script), What: what, Diff: diff}
}

func errText(err error) string {
	if err == nil {
		return "applied"
	}
	return err.Error()
}
